import AutoRuntime

/// `automation "name" <trigger> <options> { … }`: what runs by itself, under the daemon (docs/LANGUAGE.md §9).
/// The parser reads what is written; the checker says whether a time, a day, a duration or a mode makes sense.
extension Parser {
    /// The words that start an option; one of them, or `{`, may begin the next line.
    static let automationOptionWords: Set<String> = ["mode", "catch", "confirm", "timeout", "debounce", "poll"]

    // automation_declaration = "automation" text trigger { automation_option } block ;
    mutating func parseAutomation() throws -> Statement {
        enter(.automationDeclaration)
        let start = advance().span
        let nameToken = advance()
        guard case .text(let pieces) = nameToken.kind, pieces.count == 1, case .literal(let name) = pieces[0],
              name.contains(where: { !$0.isWhitespace }) else {
            throw error("an automation's name is a plain text without interpolation", at: nameToken.span)
        }
        // The trigger may start the next line, as the options and the `{` may.
        if let word = nextSignificant().identifier, ["every", "at", "cron", "when"].contains(word) { skipNewlines() }
        let trigger = try parseTrigger()
        var options: [AutomationOptionSyntax] = []
        while let word = nextSignificant().identifier, Self.automationOptionWords.contains(word) {
            skipNewlines()
            options.append(try parseAutomationOption())
        }
        if nextSignificant().isSymbol(.leftBrace) { skipNewlines() }
        let body = try parseBlock(after: "the automation's trigger")
        let declaration = AutomationDeclaration(name: name, nameSpan: nameToken.span, trigger: trigger, options: options, body: body)
        return Statement(kind: .automation(declaration), span: start.to(previous.span), resultName: nil)
    }

    // trigger = "every" ( "day" "at" time_of_day | identifier { "," identifier } "at" time_of_day | quantity | unit )
    //         | "at" text | "cron" text [ "in" text ] | file_trigger ;
    mutating func parseTrigger() throws -> TriggerSyntax {
        enter(.trigger)
        if acceptWord("every") {
            switch current.kind {
            case .integer, .decimal:
                let number = parsePrimaryNumber()
                let quantity = try parseQuantity(number)
                guard case .quantity = quantity.kind else {
                    throw error("expected a unit after \(file.text(of: number.span)), found \(describe(current))",
                                hint: "write 'every 15 minutes' or 'every 2 hours'")
                }
                return .interval(quantity)
            case .identifier(let word):
                // `every hour`: one unit, unless days follow (`every day at`, `every monday, friday at`).
                if let unit = Units.duration(named: word), unit.singular == word, !peek().isWord("at"), !peek().isSymbol(.comma) {
                    if word == "day" {
                        throw error("'every day' needs a time: 'every day at 07:30'", hint: "for elapsed time, write 'every 24 hours'")
                    }
                    let token = advance()
                    let one = Expression(kind: .integer(1), span: token.span)
                    return .interval(Expression(kind: .quantity(one, unit: named(word, at: token.span)), span: token.span))
                }
                var days: [Identifier] = []
                while true {
                    days.append(try expectIdentifier("for a day"))
                    guard accept(.comma) else { break }
                }
                try expectWord("at", "after the days", hint: "write 'every monday, friday at 09:00'")
                let time = try parseTimeOfDay()
                // `every day at` is every day: no days listed.
                return .weekly(days: days.count == 1 && days[0].name == "day" ? [] : days, time: time)
            default:
                throw error("expected a duration or days after 'every', found \(describe(current))",
                            hint: "write 'every 15 minutes', 'every day at 07:30' or 'every monday at 09:00'")
            }
        }
        if acceptWord("at") {
            let token = current
            guard case .text(let pieces) = token.kind, pieces.count <= 1 else {
                throw error("expected the date and time as a text after 'at', found \(describe(current))",
                            hint: "write 'at \"2026-12-24 18:00\"'")
            }
            _ = advance()
            if case .literal(let text)? = pieces.first { return .once(text: text, span: token.span) }
            return .once(text: "", span: token.span)
        }
        if acceptWord("cron") {
            let expression = try plainText("the cron expression", hint: "write 'cron \"*/10 9-17 * * mon-fri\"'")
            var zone: (name: String, span: Span)?
            if acceptWord("in") {
                let written = try plainText("the time zone", hint: "write 'in \"Europe/Paris\"'")
                zone = (written.text, written.span)
            }
            return .cron(expression: expression.text, span: expression.span, zone: zone)
        }
        if current.isWord("when") { return .file(try parseFileTrigger()) }
        throw error("expected a trigger after the automation's name, found \(describe(current))",
                    hint: "write 'every 15 minutes', 'every day at 07:30', 'at \"2026-12-24 18:00\"' or 'cron \"0 9 * * mon-fri\"'")
    }

    // file_trigger = "when" "file" identifier "in" text { "matching" text | "recursive" } ;
    mutating func parseFileTrigger() throws -> FileTriggerSyntax {
        enter(.fileTrigger)
        _ = advance()
        try expectWord("file", "after 'when'", hint: "write 'when file created in \"~/Downloads\"'")
        let event = try expectIdentifier("after 'when file' (created, changed, deleted or any)")
        try expectWord("in", "after 'when file \(event.name)'", hint: "name the folder: 'when file \(event.name) in \"~/Downloads\"'")
        let path = try plainText("the folder", hint: "write 'in \"~/Downloads\"'")
        var glob: (text: String, span: Span)?
        var recursive = false
        // The options in either order, each once: `recursive matching "*.pdf"` as `matching "*.pdf" recursive`.
        while true {
            if current.isWord("matching") {
                if glob != nil { throw error("'matching' is given twice", hint: "give one pattern: 'matching \"*.{pdf,PDF}\"'") }
                _ = advance()
                glob = try plainText("the pattern of names", hint: "write 'matching \"*.pdf\"'")
            } else if current.isWord("recursive") {
                if recursive { throw error("'recursive' is given twice") }
                _ = advance()
                recursive = true
            } else {
                break
            }
        }
        return FileTriggerSyntax(event: event, path: path, glob: glob, recursive: recursive)
    }

    /// A text with no interpolation, and the span of what is between its quotes.
    mutating func plainText(_ what: String, hint: String) throws -> (text: String, span: Span) {
        let token = current
        guard case .text(let pieces) = token.kind, pieces.count <= 1 else {
            throw error("expected \(what) as a plain text, found \(describe(current))", hint: hint)
        }
        if case .interpolation? = pieces.first { throw error("\(what) is a plain text without interpolation", hint: hint) }
        _ = advance()
        let inner = Span(token.span.start + 1, max(token.span.start + 1, token.span.end - 1))
        if case .literal(let text)? = pieces.first { return (text, inner) }
        return ("", inner)
    }

    /// An integer or decimal at `current`, as an expression.
    mutating func parsePrimaryNumber() -> Expression {
        let token = advance()
        switch token.kind {
        case .integer(let value): return Expression(kind: .integer(value), span: token.span)
        case .decimal(let value): return Expression(kind: .decimal(value), span: token.span)
        default: return Expression(kind: .error, span: token.span)
        }
    }

    // time_of_day = integer ":" integer ;
    mutating func parseTimeOfDay() throws -> TimeOfDaySyntax {
        enter(.timeOfDay)
        let hourToken = current
        guard case .integer(let hour) = hourToken.kind else {
            throw error("expected a time such as 07:30, found \(describe(current))")
        }
        _ = advance()
        _ = try expect(.colon, "between the hour and the minutes", hint: "write the time as 07:30")
        let minuteToken = current
        guard case .integer(let minute) = minuteToken.kind, minuteToken.span.end - minuteToken.span.start == 2 else {
            throw error("expected two digits of minutes after ':', found \(describe(current))", hint: "write the time as 07:30")
        }
        _ = advance()
        return TimeOfDaySyntax(hour: hour, minute: minute, span: hourToken.span.to(minuteToken.span))
    }

    // automation_option = "mode" identifier [ integer ] | "catch" "up" | "confirm" "automatically" | "timeout" quantity
    //                   | "debounce" quantity | "poll" "every" quantity ;
    mutating func parseAutomationOption() throws -> AutomationOptionSyntax {
        enter(.automationOption)
        let word = advance()
        switch word.identifier {
        case "mode":
            let mode = try expectIdentifier("after 'mode' (single, queued, parallel or restart)")
            var bound: (value: Int, span: Span)?
            if case .integer(let value) = current.kind { bound = (value, advance().span) }
            return .mode(mode, bound: bound)
        case "catch":
            try expectWord("up", "after 'catch'")
            return .catchUp(word.span.to(previous.span))
        case "confirm":
            try expectWord("automatically", "after 'confirm'")
            return .confirmAutomatically(word.span.to(previous.span))
        case "timeout":
            return .timeout(try optionDuration("timeout", example: "timeout 5 minutes"))
        case "debounce":
            return .debounce(try optionDuration("debounce", example: "debounce 2 seconds"))
        default:
            try expectWord("every", "after 'poll'", hint: "write 'poll every 10 seconds'")
            return .poll(try optionDuration("poll every", example: "poll every 10 seconds"))
        }
    }

    /// The duration an option takes: a number and a unit.
    mutating func optionDuration(_ option: String, example: String) throws -> Expression {
        guard case .integer = current.kind else {
            throw error("expected a duration after '\(option)', found \(describe(current))", hint: "write '\(example)'")
        }
        let quantity = try parseQuantity(parsePrimaryNumber())
        guard case .quantity = quantity.kind else {
            throw error("expected a unit after the number, found \(describe(current))", hint: "write '\(example)'")
        }
        return quantity
    }
}
