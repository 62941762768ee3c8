import AutoIntents
import AutoRuntime

/// One thing Tab can put at the cursor.
package struct Completion: Sendable, Equatable {
    package enum Kind: String, Sendable {
        case intent, label, property, enumCase = "case", variable, keyword, function, command
        /// An entity's title or a property's value, from the host's query.
        case value
    }
    /// What replaces the range: `author`, `rating: `, `mark as read`.
    package let text: String
    package let kind: Kind
    /// For the list shown when there are several: a type (`Int (1…5)`), a summary.
    package let detail: String

    package init(text: String, kind: Kind, detail: String) {
        self.text = text
        self.kind = kind
        self.detail = detail
    }
}

/// The candidates for the text before a cursor, and the byte range of the text they replace.
package struct CompletionResult: Sendable, Equatable {
    package let range: Range<Int>
    package let candidates: [Completion]
    /// Inside a text where the values come from the host (`open book "Em`, `where author == "Jane`): what to ask
    /// its query for. The front end asks, under a time budget, and offers what comes back for `range`.
    package let values: ValuesWanted?

    package init(range: Range<Int>, candidates: [Completion], values: ValuesWanted? = nil) {
        self.range = range
        self.candidates = candidates
        self.values = values
    }

    /// What every candidate starts with, beyond what is typed: Tab inserts it when there are several.
    package var commonPrefix: String {
        guard var prefix = candidates.first?.text else { return "" }
        for candidate in candidates.dropFirst() {
            while !candidate.text.hasPrefix(prefix) { prefix.removeLast() }
        }
        return prefix
    }
}

/// Values a host's query knows, asked for by completion inside a text.
package struct ValuesWanted: Sendable, Equatable {
    package enum Wanted: Sendable, Equatable {
        /// Entities of the type, by their titles: a text given for an entity parameter.
        case entities(AnyEntityType)
        /// The values of a Text property: the right side of `where author == "…`.
        case property(AnyEntityType, index: Int)
        /// Paths of files and folders: a text given for a File parameter.
        case files
        /// The options the host suggests for a parameter (`DynamicOptionsProvider`), asked with the arguments written
        /// as literals in the entry. `inText`: the cursor is inside a text, so only text options fit, without their
        /// opening quote; otherwise every option, written as a literal.
        case options(ParameterInfo, arguments: [String: Value], inText: Bool)

        package static func == (lhs: Wanted, rhs: Wanted) -> Bool {
            switch (lhs, rhs) {
            case (.entities(let a), .entities(let b)): return a === b
            case (.property(let a, let i), .property(let b, let j)): return a === b && i == j
            case (.files, .files): return true
            case (.options(let a, let x, let t), .options(let b, let y, let u)):
                return a === b && t == u && x.mapValues(ValueFormatter.inline) == y.mapValues(ValueFormatter.inline)
            default: return false
            }
        }
    }
    package let wanted: Wanted
    /// What is typed inside the text so far.
    package let typed: String

    package init(wanted: Wanted, typed: String) {
        self.wanted = wanted
        self.typed = typed
    }
}

/// Completion from the language itself, for a REPL or an editor: intent and shortcut names (several words),
/// parameter labels with their types, properties after `where`, `and`, `or`, `sort by`, `group by` and after
/// `.` on a path whose type is known, enum cases where an enum is compared or expected, variables, keywords,
/// functions. It reads the tokens before the cursor, so it works on unfinished and broken entries; it never
/// runs anything. What it offers, the checker accepts there (`accepts`): an offer that can only lead to an error
/// is left out.
package struct Completer {
    package let registry: Registry
    package let scope: SessionScope
    /// `:help`, `:vars`, … offered at the start of an entry that begins with `:`.
    package let commands: [String]
    /// The scope after the statements before the cursor, kept between requests (an editor's); nil: checked each time.
    package let scopes: CompletionScopes?

    package init(registry: Registry, scope: SessionScope = SessionScope(), commands: [String] = [], scopes: CompletionScopes? = nil) {
        self.registry = registry
        self.scope = scope
        self.commands = commands
        self.scopes = scopes
    }

    static let statementKeywords = ["set", "if", "for", "repeat", "while", "try", "return", "stop", "shortcut", "find"]

    package func complete(_ text: String, cursor: Int) -> CompletionResult {
        // The statements before the one at the cursor are checked once, for the variables and `it` they leave: what is
        // offered is typed with them (a variable set on an earlier line of a script), and each offer is judged with the
        // last statement alone: a script's Tab would otherwise check all of it per offer.
        let bytes = Array(text.utf8)
        let (earlier, _) = Self.splitAtLastStatement(String(decoding: bytes.prefix(max(0, cursor)), as: UTF8.self))
        let judge = earlier.isEmpty ? self
            : Completer(registry: registry, scope: scopes?.scope(after: earlier, for: self) ?? scope(after: earlier), commands: commands)
        let offered = judge.offers(text, cursor: cursor)
        // What is replaced starts in the last statement, as a word typed there does.
        guard offered.range.lowerBound >= earlier.utf8.count else { return CompletionResult(range: offered.range, candidates: [], values: nil) }
        let before = String(decoding: bytes.prefix(offered.range.lowerBound), as: UTF8.self)
        let current = String(decoding: bytes[earlier.utf8.count..<offered.range.lowerBound], as: UTF8.self)
        let startsStatement = Self.startsStatement(after: before)
        // The `:` commands are the REPL's, not the language's; a statement's keyword alone (`find`, `try`) reads as
        // an unknown name until what follows it is typed, so the checker can't judge it.
        let kept = offered.candidates.filter { candidate in
            candidate.kind == .command || (startsStatement && candidate.kind == .keyword && Self.statementKeywords.contains(candidate.text))
                || judge.accepts(current + candidate.text)
        }
        return CompletionResult(range: offered.range, candidates: kept, values: offered.values)
    }

    /// `code` cut where its last top-level statement starts: after the last line break or `;` outside brackets and
    /// blocks that ends a statement (not one after a trailing `|` or operator, where the statement goes on).
    static func splitAtLastStatement(_ code: String) -> (earlier: String, current: String) {
        var lexer = Lexer(file: SourceFile(name: "<completion>", text: code))
        var depth = 0
        var boundaries: [Int] = []
        for token in lexer.tokenize() {
            switch token.kind {
            case .symbol(.leftParen), .symbol(.leftBracket), .symbol(.leftBrace): depth += 1
            case .symbol(.rightParen), .symbol(.rightBracket), .symbol(.rightBrace): depth = max(0, depth - 1)
            case .newline, .symbol(.semicolon): if depth == 0 { boundaries.append(token.span.end) }
            default: break
            }
        }
        let bytes = Array(code.utf8)
        for boundary in boundaries.reversed() where boundary <= bytes.count {
            let earlier = String(decoding: bytes[..<boundary], as: UTF8.self)
            if !Parser.isUnfinished(earlier) { return (earlier, String(decoding: bytes[boundary...], as: UTF8.self)) }
        }
        return ("", code)
    }

    /// The session's scope once `code` has run: its variables and `it`, as the checker sees them (with its errors).
    func scope(after code: String) -> SessionScope {
        let (tree, _) = Parser.parse(SourceFile(name: "<completion>", text: code))
        var checker = Checker(registry: registry, file: tree.file)
        _ = checker.checkScript(tree, session: scope)
        return SessionScope(variables: checker.scope.declared.map { ($0.name, $0.type) }, itType: checker.scope.itType)
    }

    /// Whether a statement starts after `code`: nothing, or a line break, `;`, `{` or `}` before, spaces aside.
    static func startsStatement(after code: String) -> Bool {
        guard let last = code.last(where: { $0 != " " && $0 != "\t" }) else { return true }
        return "\n;{}".contains(last)
    }

    /// Whether the checker accepts `line` as the start of an entry, as it must once an offer completes it:
    /// - it compiles (warnings are fine);
    /// - or the parser stops at its end wanting more, which is what makes the REPL ask for the next line, and
    ///   finds nothing else wrong (`count(`, `where`, `rating: `): the checker judges only whole statements, so the
    ///   last word goes unchecked then;
    /// - or the checker's only errors are about what ends at the end, and go once that last operand is compared
    ///   (`find books where author` is no condition yet, `… where author == nil` is; `… where it == nil` is not,
    ///   as `it` is no book).
    package func accepts(_ line: String) -> Bool {
        let end = line.utf8.count
        let (tree, parsed) = Parser.parse(SourceFile(name: "<completion>", text: line))
        if !parsed.isEmpty { return parsed.count == 1 && Parser.isUnfinished(line) }
        let errors = checkingErrors(tree)
        if errors.isEmpty { return true }
        guard errors.allSatisfy({ $0.span.end >= end }) else { return false }
        let compared = Parser.parse(SourceFile(name: "<completion>", text: line + " == nil"))
        return compared.1.isEmpty && checkingErrors(compared.0).isEmpty
    }

    /// Whether `code` compiles in the session (warnings are fine).
    func compiles(_ code: String) -> Bool {
        let (tree, parsed) = Parser.parse(SourceFile(name: "<completion>", text: code))
        return parsed.isEmpty && checkingErrors(tree).isEmpty
    }

    func checkingErrors(_ tree: SyntaxTree) -> [Diagnostic] {
        var checker = Checker(registry: registry, file: tree.file)
        _ = checker.checkScript(tree, session: scope)
        return checker.diagnostics.filter { $0.severity == .error }
    }

    /// The candidates for the context at the cursor, before the checker has had its say.
    func offers(_ text: String, cursor: Int) -> CompletionResult {
        let bytes = Array(text.utf8.prefix(max(0, min(cursor, text.utf8.count))))
        let before = String(decoding: bytes, as: UTF8.self)
        let end = before.utf8.count
        if before.trimmingCharacters(in: .whitespaces).hasPrefix(":") {
            let typed = before.trimmingCharacters(in: .whitespaces)
            guard !typed.contains(" ") else { return CompletionResult(range: end..<end, candidates: []) }
            let start = end - typed.utf8.count
            return result(start..<end, typed, commands.map { Completion(text: $0, kind: .command, detail: "") })
        }
        var lexer = Lexer(file: SourceFile(name: "<completion>", text: before))
        var tokens = lexer.tokenize().filter { $0.kind != .endOfInput }
        // Inside a text: values from the host's query where the text names an entity or a property's value.
        if let quote = Self.openQuote(in: before) {
            let typed = String(decoding: Array(before.utf8)[(quote + 1)...], as: UTF8.self)
            let code = String(decoding: Array(before.utf8)[..<quote], as: UTF8.self)
            return CompletionResult(range: (quote + 1)..<end, candidates: [], values: valueRequest(before: code, typed: typed, in: text))
        }
        if let last = tokens.last, last.span.end >= end, case .invalid = last.kind { return CompletionResult(range: end..<end, candidates: []) }
        // The word being typed, if the cursor is right after one.
        var partial = ""
        var range = end..<end
        if let last = tokens.last, last.span.end == end, let name = last.identifier {
            partial = name
            range = last.span.start..<end
            tokens.removeLast()
        }
        // The current stage: after the last statement boundary or `|` (outside brackets).
        let stage = Self.currentStage(tokens)
        let previous = stage.last

        if previous?.isSymbol(.dot) == true {
            return result(range, partial, members(after: Array(stage.dropLast()), in: before))
        }
        // The stage the pipe brings its input from, for `… | sort by …`.
        let pipeIndex = tokens.count - stage.count - 1
        let input = pipeIndex >= 0 && tokens[pipeIndex].isSymbol(.pipe) ? Self.currentStage(Array(tokens[..<pipeIndex])) : []
        if let element = elementType(ofConditionIn: stage, input: input), Self.startsOperand(previous) {
            // On entities `it` is not allowed: their properties are named.
            let itself = if case .entity = element { [Completion]() } else { [Completion(text: "it", kind: .variable, detail: "the element")] }
            return result(range, partial, properties(of: element) + itself)
        }
        if stage.count == 1, stage[0].isWord("find") {
            return result(range, partial, registry.entityTypes.map { Completion(text: $0.plural, kind: .keyword, detail: "entity type") }
                + [Completion(text: "files", kind: .keyword, detail: "the file system")])
        }
        if stage.count >= 2, stage[0].isWord("find"), !Self.startsOperand(previous) {
            return result(range, partial, clauses(after: stage, before: String(decoding: Array(before.utf8).prefix(range.lowerBound), as: UTF8.self)))
        }
        if let enumeration = enumCompared(in: Self.currentStage(tokens, withinBrackets: false)) {
            return result(range, partial, cases(of: enumeration))
        }
        let words = stage.prefix { $0.identifier != nil }
        if words.count == stage.count, !stage.contains(where: { $0.isSymbol(.colon) }) {
            // Only words so far: the name of an action (several words), a variable or a keyword.
            let typed = (words.compactMap(\.identifier) + [partial]).joined(separator: " ")
            let start = words.first?.span.start ?? range.lowerBound
            var candidates = result(start..<end, typed, registry.intents.filter(\.isListed), text: \.name) {
                Completion(text: $0.name, kind: .intent, detail: Self.summary($0))
            }.candidates
            if words.isEmpty {
                candidates += result(range, partial, variables() + Self.statementKeywords.map { Completion(text: $0, kind: .keyword, detail: "") }).candidates
            }
            // With no words yet, `start` is where the word being typed starts: one range serves both kinds.
            if !candidates.isEmpty || words.isEmpty { return CompletionResult(range: start..<end, candidates: candidates) }
        }
        if let intent = intent(startingStage: stage), Self.endsValue(previous), stage.count > Self.wordCount(of: intent) {
            // After a literal argument (`add book "Emma" `, `… tags: ["a"] `): what may follow is a label.
            return result(range, partial, labels(of: intent, in: stage, entry: text))
        }
        if let intent = intent(startingStage: stage), Self.startsOperand(previous) || previous?.identifier != nil {
            var candidates = labels(of: intent, in: stage, entry: text)
            // The input of an enum right after the intent's name: one of its cases.
            if case .enumeration(let enumeration)? = intent.input?.type, Self.wordCount(of: intent) == stage.count {
                return result(range, partial, cases(of: enumeration))
            }
            var valued: ParameterInfo?
            if Self.wordCount(of: intent) == stage.count { valued = intent.input }
            if let label = Self.label(before: stage), let index = intent.parameterIndex(named: label) {
                valued = intent.parameters[index]
                if case .enumeration(let enumeration) = intent.parameters[index].type { candidates = cases(of: enumeration) }
            }
            if let valued, valued.options != nil {
                // The host's options, asked by the front end; the names an expression may start with follow them.
                let arguments = literalArguments(of: intent, in: text, from: stage[0].span.start, excluding: valued)
                let wanted = ValuesWanted(wanted: .options(valued, arguments: arguments, inText: false), typed: partial)
                return CompletionResult(range: range, candidates: result(range, partial, candidates + expressionNames()).candidates, values: wanted)
            }
            return result(range, partial, candidates + expressionNames())
        }
        return result(range, partial, expressionNames())
    }

    /// What may follow a `find` that is complete so far (`find books `, `… where rating > 3 `): the clauses that
    /// may still come, in their order, and `and`, `or` inside a condition. Nothing when `code` doesn't compile, as
    /// after `where author `, where a comparison is missing.
    func clauses(after stage: [Token], before code: String) -> [Completion] {
        guard compiles(code) else { return [] }
        let order = ["matching", "where", "sort", "limit"]
        let last = stage.compactMap { token in token.identifier.flatMap { order.firstIndex(of: $0) } }.max()
        var words = order.indices.filter { $0 > (last ?? -1) }.map { order[$0] == "sort" ? "sort by" : order[$0] }
        if last == order.firstIndex(of: "where") { words = ["and", "or"] + words }
        return words.map { Completion(text: $0, kind: .keyword, detail: "") }
    }

    // MARK: Contexts

    /// The byte offset of the quote that opens a text the cursor is in, on the last line; nil outside texts.
    /// (Inside an interpolation `\( … )` the cursor is code again, and this says nil.)
    static func openQuote(in text: String) -> Int? {
        let bytes = Array(text.utf8)
        var open: Int?
        var index = (bytes.lastIndex(of: UInt8(ascii: "\n")) ?? -1) + 1
        var nesting = 0
        while index < bytes.count {
            let byte = bytes[index]
            if open != nil {
                if byte == UInt8(ascii: "\\"), index + 1 < bytes.count {
                    if bytes[index + 1] == UInt8(ascii: "(") { nesting += 1; open = nil }
                    index += 2
                    continue
                }
                if byte == UInt8(ascii: "\"") { open = nil }
            } else if byte == UInt8(ascii: "\"") {
                open = index
            } else if byte == UInt8(ascii: ")"), nesting > 0 {
                // The end of an interpolation: back inside the text it is in.
                nesting -= 1
            }
            index += 1
        }
        return nesting > 0 ? nil : open
    }

    /// What a text at the end of `code` stands for: an entity given to an intent, a property's value compared, or
    /// a parameter with options; `entry` is the whole entry, for the arguments written after the cursor.
    func valueRequest(before code: String, typed: String, in entry: String) -> ValuesWanted? {
        var lexer = Lexer(file: SourceFile(name: "<completion>", text: code))
        let tokens = lexer.tokenize().filter { $0.kind != .endOfInput }
        let stage = Self.currentStage(tokens, withinBrackets: false)
        guard let last = stage.last else { return nil }
        if last.isSymbol(.equal) || last.isSymbol(.notEqual) || last.isWord("with") || last.isWord("contains"),
           stage.first?.isWord("find") == true, stage.count > 1, let name = stage[1].identifier, let type = registry.entityType(named: name) {
            let propertyToken = last.isWord("with") ? stage.dropLast(2).last : stage.dropLast().last
            if let property = propertyToken?.identifier, let index = type.propertyIndex[property.lowercased()], type.properties[index].type == .text {
                return ValuesWanted(wanted: .property(type, index: index), typed: typed)
            }
            return nil
        }
        guard let intent = intent(startingStage: stage) else { return nil }
        var parameter = intent.input
        if let label = Self.label(before: stage), let index = intent.parameterIndex(named: label) { parameter = intent.parameters[index] }
        if let parameter, parameter.options != nil {
            let arguments = literalArguments(of: intent, in: entry, from: stage[0].span.start, excluding: parameter)
            return ValuesWanted(wanted: .options(parameter, arguments: arguments, inText: true), typed: typed)
        }
        switch parameter?.type {
        case .entity(let type)?: return ValuesWanted(wanted: .entities(type), typed: typed)
        case .file?: return ValuesWanted(wanted: .files, typed: typed)
        default: return nil
        }
    }

    /// The tokens of the statement and pipeline stage the cursor is in; `withinBrackets`: only those after the
    /// innermost `(` or `[` left open (an argument list, a list).
    static func currentStage(_ tokens: [Token], withinBrackets: Bool = true) -> [Token] {
        var depth = 0
        var start = tokens.count
        for index in tokens.indices.reversed() {
            let token = tokens[index]
            switch token.kind {
            case .symbol(.rightParen), .symbol(.rightBracket): depth += 1
            case .symbol(.leftParen), .symbol(.leftBracket):
                if depth == 0, withinBrackets { return Array(tokens[(index + 1)...]) }
                depth = max(0, depth - 1)
            case .symbol(.rightBrace): if depth == 0 { return Array(tokens[(index + 1)...]) }
            case .symbol(.leftBrace): if depth == 0 { return Array(tokens[(index + 1)...]) }
            case .newline, .symbol(.semicolon), .symbol(.pipe): if depth == 0 { return Array(tokens[(index + 1)...]) }
            default: break
            }
            start = index
        }
        return Array(tokens[start...])
    }

    /// Whether the token before the cursor ends a literal value: a text, a number, or a closing `]` or `)`.
    static func endsValue(_ previous: Token?) -> Bool {
        switch previous?.kind {
        case .text?, .integer?, .decimal?, .symbol(.rightBracket)?, .symbol(.rightParen)?: return true
        default: return false
        }
    }

    /// Whether the word at the cursor starts an operand: after an operator, a keyword of a clause, `(` or `,`.
    static func startsOperand(_ previous: Token?) -> Bool {
        guard let previous else { return true }
        switch previous.kind {
        case .symbol(let symbol): return symbol != .rightParen && symbol != .rightBracket && symbol != .dot
        case .identifier(let word): return ["where", "and", "or", "not", "by", "in", "contains", "between"].contains(word)
        default: return false
        }
    }

    /// In `find books where …`, `… | filter where …`, `sort by`, `group by`, `count by`: the element's type, when
    /// the cursor is in the condition or the keys.
    func elementType(ofConditionIn stage: [Token], input: [Token]) -> ValueType? {
        guard let clause = stage.indices.last(where: { stage[$0].isWord("where") || (stage[$0].isWord("by") && $0 > 0) }) else { return nil }
        // After `==` and friends the cursor is on a value, not a property.
        if stage[clause...].contains(where: { token in
            if case .symbol(let symbol) = token.kind { return [.equal, .notEqual, .less, .lessEqual, .greater, .greaterEqual].contains(symbol) }
            return false
        }), let last = stage.last, !(last.isWord("and") || last.isWord("or") || last.isWord("not") || last.isSymbol(.comma)) {
            return nil
        }
        return listElement(of: stage.first?.isWord("find") == true ? stage : input) ?? .any
    }

    /// The element type of what a stage gives: `find books …`, or a list variable alone.
    func listElement(of stage: [Token]) -> ValueType? {
        if stage.first?.isWord("find") == true, stage.count > 1, let name = stage[1].identifier, let type = registry.entityType(named: name) {
            return .entity(type)
        }
        if stage.count == 1, let name = stage[0].identifier, let variable = scope.variables.last(where: { $0.name == name }) {
            return variable.type.elementType
        }
        return nil
    }

    /// `where shelf == …`, `where shelf in [read, …`: the enum of the property compared, for its cases.
    func enumCompared(in stage: [Token]) -> AnyEnumType? {
        guard let last = stage.last else { return nil }
        var operatorIndex: Int?
        if last.isSymbol(.equal) || last.isSymbol(.notEqual) || last.isWord("in") {
            operatorIndex = stage.count - 1
        } else if last.isSymbol(.leftBracket) || last.isSymbol(.comma),
                  let open = stage.lastIndex(where: { $0.isSymbol(.leftBracket) }), !stage[open...].contains(where: { $0.isSymbol(.rightBracket) }),
                  open > 0, stage[open - 1].isWord("in") {
            operatorIndex = open - 1
        }
        guard let operatorIndex, operatorIndex > 0, let property = stage[operatorIndex - 1].identifier else { return nil }
        if stage.first?.isWord("find") == true, stage.count > 1, let name = stage[1].identifier, let type = registry.entityType(named: name),
           let index = type.propertyIndex[property.lowercased()], case .enumeration(let enumeration) = type.properties[index].type {
            return enumeration
        }
        if let variable = scope.variables.last(where: { $0.name == property }), case .enumeration(let enumeration) = variable.type {
            return enumeration
        }
        return nil
    }

    /// The intent whose name is written at `offset` of `text` (a call's first words), with the span of that name: what an
    /// editor's hover describes. Nil on anything else: a label, a value, a variable.
    package func intent(at offset: Int, in text: String) -> (intent: IntentDescriptor, name: Span)? {
        var lexer = Lexer(file: SourceFile(name: "<hover>", text: text))
        let tokens = lexer.tokenize()
        guard let index = tokens.firstIndex(where: { $0.identifier != nil && $0.span.start <= offset && offset <= $0.span.end }) else { return nil }
        let before = Self.currentStage(Array(tokens[...index]))
        // The name's words may go on past the cursor (`add book` with the cursor on `add`).
        let stage = before + tokens[(index + 1)...].prefix { $0.identifier != nil }
        guard let intent = intent(startingStage: stage) else { return nil }
        let words = Self.wordCount(of: intent)
        guard before.count <= words, let first = stage.first else { return nil }
        return (intent, Span(first.span.start, stage[words - 1].span.end))
    }

    /// The call whose arguments the cursor is among, for an editor's signature help: the intent its stage starts with,
    /// and the index of the parameter being given: the last label's before the cursor, or the input before any label.
    /// Nil on the name itself, and outside a call.
    package func call(at cursor: Int, in text: String) -> (intent: IntentDescriptor, parameter: Int?)? {
        let bytes = Array(text.utf8)
        var lexer = Lexer(file: SourceFile(name: "<signature>", text: String(decoding: bytes.prefix(max(0, cursor)), as: UTF8.self)))
        let stage = Self.currentStage(lexer.tokenize().filter { $0.kind != .endOfInput })
        guard let intent = intent(startingStage: stage) else { return nil }
        let words = Self.wordCount(of: intent)
        // The cursor must be past the name and the space after it: on the name, completion and hover are what help.
        guard stage.count >= words, cursor > stage[words - 1].span.end else { return nil }
        let labels = stage.indices.dropFirst(words).filter { $0 + 1 < stage.count && stage[$0 + 1].isSymbol(.colon) && stage[$0].identifier != nil }
        if let last = labels.last, let name = stage[last].identifier { return (intent, intent.parameterIndex(named: name)) }
        return (intent, intent.input == nil ? nil : 0)
    }

    /// The intent named by the stage's first words (the longest name that fits), for its labels.
    package func intent(startingStage stage: [Token]) -> IntentDescriptor? {
        let words = stage.prefix { $0.identifier != nil }.compactMap(\.identifier)
        for count in stride(from: words.count, through: 1, by: -1) {
            if let intent = registry.intent(named: words.prefix(count).joined(separator: " ")) { return intent }
        }
        return nil
    }

    /// The labels still to give in `stage` (which starts with the intent's name), with their types: those not given
    /// yet that apply to the values given so far, when the intent's summary follows them (`rating:` only once
    /// `shelf: read` is given) or hides some.
    func labels(of intent: IntentDescriptor, in stage: [Token], entry: String) -> [Completion] {
        let given = Set(stage.indices.compactMap { index -> String? in
            guard index + 1 < stage.count, stage[index + 1].isSymbol(.colon) else { return nil }
            return stage[index].identifier
        })
        return applicableLabels(of: intent, given: given, in: entry, from: stage[0].span.start).map {
            Completion(text: $0.name + ": ", kind: .label, detail: Self.describe($0))
        }
    }

    func applicableLabels(of intent: IntentDescriptor, given: Set<String>, in entry: String, from start: Int) -> [ParameterInfo] {
        let rest = intent.parameters.dropFirst().filter { !given.contains($0.name) }
        guard intent.summaryHidesParameters else { return Array(rest) }
        let literal = literalArguments(of: intent, in: entry, from: start, excluding: nil)
        // A label given a value that is not a literal: its value is known only when the script runs.
        let unknown = Set(given.compactMap { intent.parameterIndex(named: $0).map { intent.parameters[$0].name } }.filter { literal[$0] == nil })
        let applicable = intent.applicableParameters(intent.summaryValue(given: literal, unknown: unknown))
        return rest.filter { parameter in applicable.contains { $0 === parameter } }
    }

    /// The arguments of `intent` written as literals in the stage of `entry` that starts at byte `start`, before and
    /// after the cursor (`genre: "Fantasy"`, `shelf: read`, `3`), by parameter name, but for the one being completed:
    /// what an options provider may depend on. Anything computed is left out, since completion runs nothing.
    package func literalArguments(of intent: IntentDescriptor, in entry: String, from start: Int, excluding completed: ParameterInfo?) -> [String: Value] {
        var lexer = Lexer(file: SourceFile(name: "<completion>", text: entry))
        var stage: [Token] = []
        var depth = 0
        scan: for token in lexer.tokenize() where token.span.start >= start {
            switch token.kind {
            case .symbol(.leftParen), .symbol(.leftBracket): depth += 1
            case .symbol(.rightParen), .symbol(.rightBracket): depth -= 1
            case .newline, .endOfInput, .symbol(.semicolon), .symbol(.pipe), .symbol(.leftBrace), .symbol(.rightBrace):
                if depth <= 0 { break scan }
            default: break
            }
            stage.append(token)
        }
        var arguments: [String: Value] = [:]
        func literal(_ token: Token, for parameter: ParameterInfo) -> Value? {
            switch token.kind {
            case .text(let pieces):
                guard pieces.count <= 1 else { return nil }
                if case .literal(let text)? = pieces.first { return .text(text) }
                return pieces.isEmpty ? .text("") : nil
            case .integer(let number): return .int(number)
            case .decimal(let number): return .decimal(number)
            case .identifier("true"): return .bool(true)
            case .identifier("false"): return .bool(false)
            case .identifier("nil"): return .null
            case .identifier(let name):
                guard case .enumeration(let enumeration) = parameter.type, let index = enumeration.caseIndex(named: name) else { return nil }
                return .enumCase(EnumCaseValue(type: enumeration, index: index))
            default: return nil
            }
        }
        // A literal is the whole argument when what follows it is the end, the next label or `->`: `seats: 1 + 1` is not 1.
        func endsArgument(_ index: Int) -> Bool {
            index >= stage.count || stage[index].isSymbol(.arrow)
                || (stage[index].identifier != nil && index + 1 < stage.count && stage[index + 1].isSymbol(.colon))
        }
        let first = Self.wordCount(of: intent)
        if first < stage.count, let input = intent.input, endsArgument(first + 1),
           let value = literal(stage[first], for: input) {
            arguments[input.name] = value
        }
        for index in stage.indices.dropFirst(first) where index + 2 < stage.count && stage[index + 1].isSymbol(.colon) && endsArgument(index + 3) {
            guard let label = stage[index].identifier, let parameter = intent.parameterIndex(named: label).map({ intent.parameters[$0] }),
                  let value = literal(stage[index + 2], for: parameter) else { continue }
            arguments[parameter.name] = value
        }
        if let completed { arguments[completed.name] = nil }
        return arguments
    }

    package static func wordCount(of intent: IntentDescriptor) -> Int {
        intent.name.split(separator: " ").count
    }

    /// `rating:` just before the cursor: the label whose value is being typed.
    static func label(before stage: [Token]) -> String? {
        guard stage.count >= 2, stage[stage.count - 1].isSymbol(.colon) else { return nil }
        return stage[stage.count - 2].identifier
    }

    // MARK: Candidates

    /// The properties of what is before a `.`: a path (`a.b.c` from a variable, `it`, `now` or `today`) is typed
    /// here; any other expression (`first(books).`, `(find books limit 1).`, `xs[0].`) by the checker.
    func members(after tokens: [Token], in entry: String) -> [Completion] {
        if let type = pathType(before: tokens) { return properties(of: type) }
        guard let type = expressionType(before: tokens, in: entry) else { return [] }
        return properties(of: type)
    }

    /// The type of the expression that ends `tokens` (before a `.`), found by checking `set … = <expression>` in
    /// the session's scope: nothing runs. Nil when it has errors or no expression ends there.
    func expressionType(before tokens: [Token], in entry: String) -> ValueType? {
        guard var start = tokens.indices.last else { return nil }
        var index = start
        // Back over the operands of a chain: `f(x)`, `(…)`, `xs[…]`, names and literals, joined by `.`.
        while index >= 0 {
            let token = tokens[index]
            if token.isSymbol(.rightParen) || token.isSymbol(.rightBracket) {
                var depth = 0
                var open = index
                while open >= 0 {
                    if tokens[open].isSymbol(.rightParen) || tokens[open].isSymbol(.rightBracket) { depth += 1 }
                    if tokens[open].isSymbol(.leftParen) || tokens[open].isSymbol(.leftBracket) { depth -= 1 }
                    if depth == 0 { break }
                    open -= 1
                }
                guard open >= 0 else { return nil }
                start = open
                index = open - 1
                // A call's name, or what is indexed, goes with its brackets when nothing is between (`count(x)`,
                // `xs[0]`); `show (x)` is an action given a value.
                if index >= 0, !tokens[open].spaceBefore,
                   tokens[index].identifier != nil || tokens[index].isSymbol(.rightParen) || tokens[index].isSymbol(.rightBracket) {
                    continue
                }
            } else if token.identifier != nil || token.isLiteral {
                start = index
                index -= 1
            } else {
                return nil
            }
            guard index >= 0, tokens[index].isSymbol(.dot) else { break }
            index -= 1
        }
        let bytes = Array(entry.utf8)
        guard let last = tokens.last, tokens[start].span.start < last.span.end, last.span.end <= bytes.count else { return nil }
        let expression = String(decoding: bytes[tokens[start].span.start..<last.span.end], as: UTF8.self)
        let name = "completionTarget_"
        let (tree, parseDiagnostics) = Parser.parse(SourceFile(name: "<completion>", text: "set \(name) = \(expression)"))
        guard parseDiagnostics.isEmpty else { return nil }
        var checker = Checker(registry: registry, file: tree.file)
        _ = checker.checkScript(tree, session: scope)
        guard !checker.diagnostics.contains(where: { $0.severity == .error }) else { return nil }
        return checker.scope.declared.last { $0.name == name }?.type
    }

    /// The type of `a.b.c` at the end of `tokens`, from a variable, `it`, `now` or `today`.
    func pathType(before tokens: [Token]) -> ValueType? {
        var path: [String] = []
        var index = tokens.count - 1
        // Whether the path starts with a name: in `f(x).y` it starts with a call, which is the checker's.
        var whole = false
        while index >= 0, let name = tokens[index].identifier {
            path.insert(name, at: 0)
            guard index > 0, tokens[index - 1].isSymbol(.dot) else {
                whole = true
                break
            }
            index -= 2
        }
        guard whole, let root = path.first else { return nil }
        var type: ValueType
        if root == "it" {
            type = scope.itType
        } else if BuiltinFunction.readAsNames.map(\.rawValue).contains(root) {
            type = .date
        } else if let variable = scope.variables.last(where: { $0.name == root }) {
            type = variable.type
        } else {
            return nil
        }
        for name in path.dropFirst() {
            guard let next = Self.propertyType(name, of: type) else { return nil }
            type = next
        }
        return type
    }

    static func propertyType(_ name: String, of type: ValueType) -> ValueType? {
        switch type {
        case .list(let element): return propertyType(name, of: element).map { .list($0) }
        case .entity(let entity): return entity.propertyIndex[name.lowercased()].map { entity.properties[$0].type }
        case .recordOf(let shape): return shape.type(of: name)
        case .date: return DatePart(rawValue: name)?.type
        default: return nil
        }
    }

    func properties(of type: ValueType) -> [Completion] {
        switch type {
        case .list(let element): return properties(of: element)
        case .entity(let entity): return entity.properties.map { Completion(text: $0.name, kind: .property, detail: $0.type.description) }
        case .recordOf(let shape): return zip(shape.names, shape.types).map { Completion(text: $0, kind: .property, detail: $1.description) }
        case .date: return DatePart.allCases.map { Completion(text: $0.rawValue, kind: .property, detail: $0.type.description) }
        case .duration: return Units.durationPropertyNames.map { Completion(text: $0, kind: .property, detail: "Decimal") }
        case .period: return [Completion(text: "months", kind: .property, detail: "Int"), Completion(text: "years", kind: .property, detail: "Decimal")]
        case .file: return FileProperty.allCases.map { Completion(text: $0.rawValue, kind: .property, detail: $0.type.description) }
        default: return []
        }
    }

    func cases(of enumeration: AnyEnumType) -> [Completion] {
        enumeration.cases.map { Completion(text: $0.identifier, kind: .enumCase, detail: $0.displayName) }
    }

    func variables() -> [Completion] {
        scope.variables.filter { $0.name != "args" }.map { Completion(text: $0.name, kind: .variable, detail: $0.type.description) }
    }

    /// What may start an operand: variables, `it`, `now`, `today`, functions, and every enum's cases.
    func expressionNames() -> [Completion] {
        variables()
            + (["it"] + BuiltinFunction.readAsNames.map(\.rawValue)).map { Completion(text: $0, kind: .variable, detail: "") }
            + BuiltinFunction.allCases.filter(\.isCalled).map { Completion(text: $0.rawValue + "(", kind: .function, detail: "") }
            + registry.enumTypes.flatMap { cases(of: $0) }
    }

    /// Those of `candidates` that start with `typed` (ignoring case when none match exactly), sorted, once each.
    func result(_ range: Range<Int>, _ typed: String, _ candidates: [Completion]) -> CompletionResult {
        result(range, typed, candidates, text: \.text) { $0 }
    }

    /// The same for items whose completion costs something to make (an intent's summary): `completion` is asked only of
    /// the items whose `text` matches. Made for each of a thousand intents, the summaries were most of completing
    /// `do task 4` (2.1 ms).
    func result<Item>(_ range: Range<Int>, _ typed: String, _ items: [Item], text: (Item) -> String,
                      completion: (Item) -> Completion) -> CompletionResult {
        var matching = items.filter { text($0).hasPrefix(typed) }
        if matching.isEmpty { matching = items.filter { text($0).lowercased().hasPrefix(typed.lowercased()) } }
        var seen = Set<String>()
        let candidates = matching.map(completion).filter { seen.insert($0.text).inserted }.sorted { $0.text < $1.text }
        return CompletionResult(range: range, candidates: candidates)
    }

    package static func summary(_ intent: IntentDescriptor) -> String {
        intent.description.text.isEmpty ? intent.summary.description : intent.description.text
    }

    /// `Int (1…5)`, `Shelf = wantToRead`.
    package static func describe(_ parameter: ParameterInfo) -> String {
        var text = parameter.type.description
        if let range = parameter.range { text += " (\(ValueFormatter.inline(range.lowerBound))…\(ValueFormatter.inline(range.upperBound)))" }
        if let value = parameter.defaultValue { text += " = \(ValueFormatter.inline(value))" }
        return text
    }
}
