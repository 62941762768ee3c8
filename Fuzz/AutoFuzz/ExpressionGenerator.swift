/// Typed expressions: `expression(type, depth:)` returns source text whose type is `type`, chosen among
/// the productions that yield it — every operator, comparator, built-in function, property, list stage
/// and stdlib shortcut that can. Every compound expression comes back in parentheses (or is a call or a
/// literal), so the pieces combine without precedence surprises and any of them can stand as an action's
/// argument or the base of a `.property`.
extension ProgramGenerator {
    /// How often a literal is an extreme value (Int.max, a duration of 2^63 weeks, a 400-digit decimal):
    /// rare enough that most programs run to their end.
    static let extremeChance = 0.03

    mutating func expression(_ type: FuzzType, depth: Int) -> String {
        if depth <= 0 || random.chance(0.2) { return leaf(type) }
        let d = depth - 1
        switch type {
        case .int: return intExpression(d)
        case .decimal: return decimalExpression(d)
        case .text: return textExpression(d)
        case .bool: return boolExpression(d)
        case .date: return dateExpression(d)
        case .duration: return durationExpression(d)
        case .size: return sizeExpression(d)
        case .null: return "nil"
        case .list(let element): return listExpression(element, d)
        case .record(let shape): return recordExpression(shape, d)
        }
    }

    /// A variable of the type, `it` when it has the type, or a literal.
    mutating func leaf(_ type: FuzzType) -> String {
        var names = variables(of: type).map(\.name)
        if itType == type { names.append("it") }
        if !names.isEmpty && random.chance(0.55) { return random.pick(names) }
        return literal(type)
    }

    /// What may stand as an action's argument: a record literal needs parentheses where a `{` would
    /// open a block, and is given them everywhere for simplicity.
    func argument(_ expression: String) -> String {
        expression.hasPrefix("{") ? "(\(expression))" : expression
    }

    /// `base.name`, with parentheses around a base that could otherwise bind differently (`3 hours`).
    func member(_ base: String, _ name: String) -> String {
        let atomic = !base.contains(" ") || (base.hasPrefix("(") && base.hasSuffix(")") && !base.hasPrefix("(-"))
        return (atomic && !base.hasPrefix("{") ? base : "(\(base))") + "." + name
    }

    // MARK: Literals

    mutating func literal(_ type: FuzzType) -> String {
        let extreme = random.chance(Self.extremeChance)
        switch type {
        case .int:
            if extreme { return random.pick(["9223372036854775807", "(-9223372036854775808)", "4294967296", "3037000500", "(-9223372036854775807)"]) }
            return random.weighted([(6, String(random.int(0...10))), (3, String(random.int(11...1000))), (2, "(-\(random.int(1...100)))"),
                                    (1, "1_000_000")])
        case .decimal:
            if extreme {
                // At the edges of a Decimal (38 digits, under 10^38, 38 places), so that arithmetic on them goes out of
                // range at run time; a literal past them is a compile-time error, which the broken family covers.
                return random.pick(["0.00000000000000000000000000000000000001", "99999999999999999999999999999999999999.0",
                                    "(-99999999999999999999999999999999999999.0)", "123456789012345678901234567890.12345678"])
            }
            return random.pick(["0.5", "1.5", "2.25", "0.1", "0.2", "3.0", "10.75", "1_000.25", "(-2.5)", "0.001", "7.0"])
        case .text:
            return random.pick(Self.texts)
        case .bool:
            return random.chance(0.5) ? "true" : "false"
        case .date:
            if extreme { return random.pick([#"date("9999-12-31 23:59:59")"#, #"date("0001-01-01")"#, #"date("1900-02-28 23:59:59Z")"#]) }
            return random.weighted([(6, "date(\"\(random.pick(Self.dates))\")"), (1, "now"), (1, "today")])
        case .duration:
            let unit = random.pick(["millisecond", "milliseconds", "second", "seconds", "minute", "minutes", "hour", "hours", "day", "days", "week", "weeks"])
            // Near the largest duration (9223372036854775807 seconds) whatever the unit, so that arithmetic on them
            // overflows at run time.
            if extreme { return random.pick(["9223372036854775807 milliseconds", "9223372036854775807 seconds", "106751991167 days",
                                             "15250284452 weeks", "0.0001 \(unit)"]) }
            return random.pick(["0", "1", "2", "3", "10", "30", "90", "1.5", "0.25", "500"]) + " " + unit
        case .size:
            let unit = random.pick(["byte", "bytes", "KB", "MB", "GB", "TB", "KiB", "MiB", "GiB", "TiB"])
            // Just below what a size literal may be (9.2e18 bytes), so that arithmetic on them overflows.
            if extreme { return random.pick(["9000000 TB", "9100000000000000000 bytes", "8000000 TiB", "0.4 bytes"]) }
            return random.pick(["0", "1", "2", "10", "512", "1.5", "1000", "64"]) + " " + unit
        case .null:
            return "nil"
        case .list(let element):
            return listLiteral(element, depth: 0)
        case .record(let shape):
            return recordLiteral(shape, depth: 0)
        }
    }

    /// Texts as written in source: escapes, non-ASCII letters, a `#` that is not a comment, an escaped
    /// `\(` that is not an interpolation, texts that look like numbers and dates.
    static let texts = [
        #""""#, #""a""#, #""Circe""#, #""hello world""#, #""say \"hi\"""#, #""tab\there""#, #""back\\slash""#,
        #""café""#, #""🎉 party""#, #""日本語""#, ##""# not a comment""##, #""line\nbreak""#, #""  padded  ""#,
        #""ABC""#, #""abc""#, #""2024-05-01""#, #""42""#, #""2.5""#, #""%s %d""#, #""\\(not interpolated)""#, #""e""#,
    ]

    static let dates = [
        "2024-05-01", "2024-02-29 23:59:59", "1970-01-01T00:00Z", "2024-05-01 07:30+05:45", "2023-12-31 23:59",
        "2024-03-31 02:30", "2024-10-27 02:30", "2000-01-01 12:00:00-0500", "2038-01-19 03:14:08Z",
    ]

    mutating func listLiteral(_ element: FuzzType, depth: Int, nonEmpty: Bool = false) -> String {
        // Now and then a long list of scalars, for the formatters and the list operations.
        if FuzzType.scalars.contains(element) && random.chance(0.004) {
            return "[" + (0..<random.int(50...400)).map { _ in literal(element) }.joined(separator: ", ") + "]"
        }
        // `[]` is rare: the checker types it as a list of anything, which it won't compare with a typed list.
        let count = random.weighted([(nonEmpty ? 0 : 1, 0), (5, 1), (5, 2), (4, 3), (1, 5)])
        return "[" + (0..<count).map { _ in expression(element, depth: depth) }.joined(separator: ", ") + "]"
    }

    mutating func recordLiteral(_ shape: FuzzType.RecordShape, depth: Int) -> String {
        let fields = zip(shape.names, shape.types).map { name, type in "\(name): \(expression(type, depth: depth))" }
        let text = "{" + fields.joined(separator: ", ") + "}"
        return inHeader ? "(\(text))" : text
    }

    /// A list of the type that is known not to be empty, so `first`, `last`, `min`, `max` of it have a value.
    mutating func nonEmptyList(_ element: FuzzType, _ depth: Int) -> String {
        let known = visible.filter { $0.type == .list(element) && $0.nonEmpty }.map(\.name)
        if !known.isEmpty && random.chance(0.5) { return random.pick(known) }
        return listLiteral(element, depth: depth, nonEmpty: true)
    }

    /// A number that is rarely zero: a divisor.
    mutating func divisor(_ depth: Int) -> String {
        if random.chance(0.1) { return expression(random.pick([.int, .decimal]), depth: depth) }
        return random.pick(["2", "3", "4", "0.5", "7", "1.5", "10", "(-3)"])
    }

    mutating func number(_ depth: Int) -> String {
        expression(random.chance(0.6) ? .int : .decimal, depth: depth)
    }

    // MARK: Productions common to every type

    /// A field of a record variable, `first`/`last` of a non-empty list, or a shortcut's result.
    mutating func generic(_ type: FuzzType, _ d: Int) -> String {
        var choices: [(Int, Int)] = [(3, 0)]
        let records = visible.filter { if case .record(let shape) = $0.type { return shape.types.contains(type) }; return false }
        if !records.isEmpty { choices.append((3, 1)) }
        let returning = shortcuts.filter { $0.result == type }
        if !returning.isEmpty { choices.append((3, 2)) }
        choices.append((2, 3))
        switch random.weighted(choices) {
        case 1:
            let variable = random.pick(records)
            guard case .record(let shape) = variable.type else { return leaf(type) }
            let fields = shape.names.indices.filter { shape.types[$0] == type }
            return member(variable.name, shape.names[random.pick(fields)])
        case 2:
            let shortcut = random.pick(returning)
            let (text, result) = call(shortcut, depth: d)
            return result == type ? text : leaf(type)
        case 3:
            // An index in range or not (then nil, which the expression around it may refuse at run time), or a
            // field read by a text.
            if records.isEmpty || random.chance(0.7) {
                return "(\(nonEmptyList(type, d)))[\(random.pick(["0", "1", "-1", "(-2)", "5", "(count(args) - 1)"]))]"
            }
            let variable = random.pick(records)
            guard case .record(let shape) = variable.type else { return leaf(type) }
            let fields = shape.names.indices.filter { shape.types[$0] == type }
            return "\(variable.name)[\"\(shape.names[random.pick(fields)])\"]"
        default:
            return "\(random.pick(["first", "last"]))(\(nonEmptyList(type, d)))"
        }
    }

    // MARK: Per type

    mutating func intExpression(_ d: Int) -> String {
        switch random.weighted([(10, 0), (2, 1), (3, 2), (2, 3), (3, 4), (2, 5), (3, 6), (3, 7), (1, 8), (1, 9), (3, 10), (1, 11)]) {
        case 0: return "(\(expression(.int, depth: d)) \(random.pick(["+", "-", "*", "%"])) \(expression(.int, depth: d)))"
        case 1: return "(-\(expression(.int, depth: d)))"
        case 2:
            let counted = random.pick([FuzzType.list(randomType(depth: 0)), .text, .record(recordShape(depth: 0))])
            return "count(\(expression(counted, depth: d)))"
        case 3: return "sum(\(expression(.list(.int), depth: d)))"
        case 4: return "round(\(expression(.decimal, depth: d)))"
        case 5: return "abs(\(expression(.int, depth: d)))"
        case 6:
            let function = random.pick(["min", "max"])
            if random.chance(0.5) { return "\(function)(\(nonEmptyList(.int, d)))" }
            return "\(function)(" + (0..<random.int(2...4)).map { _ in expression(.int, depth: d) }.joined(separator: ", ") + ")"
        case 7: return member(expression(.date, depth: d), random.pick(["year", "month", "day", "hour", "minute", "second"]))
        case 8: return "number(\"\(random.int(-1000...1000))\")"
        case 9: return stdlibCall(.int, depth: d)
        // A failure handled: a text that may not be a number, or a division that may be by zero.
        case 11:
            let attempt = random.chance(0.5) ? "number(\(random.pick(["\"12\"", "\"x\"", "\"0x10\"", "\"\""])))" : "round(\(expression(.int, depth: d)) / \(expression(.int, depth: d)))"
            return "(\(attempt) otherwise \(expression(.int, depth: d)))"
        default: return generic(.int, d)
        }
    }

    mutating func decimalExpression(_ d: Int) -> String {
        switch random.weighted([(8, 0), (6, 1), (2, 2), (2, 3), (2, 4), (3, 5), (2, 6), (2, 7), (1, 8), (1, 9), (2, 10), (1, 11)]) {
        case 0: return "(\(number(d)) / \(divisor(d)))"
        case 1:
            let (a, b) = (expression(.decimal, depth: d), number(d))
            let op = random.pick(["+", "-", "*"])
            return random.chance(0.5) ? "(\(a) \(op) \(b))" : "(\(b) \(op) \(a))"
        case 2: return "(-\(expression(.decimal, depth: d)))"
        case 3: return "abs(\(expression(.decimal, depth: d)))"
        case 4:
            let places = random.weighted([(9, String(random.int(0...15))), (1, random.pick(["16", "(-1)"]))])
            return "round(\(number(d)), \(places))"
        case 5: return member(expression(.duration, depth: d), random.pick(["seconds", "minutes", "hours", "days", "weeks"]))
        case 6: return "sum(\(expression(.list(.decimal), depth: d)))"
        case 7: return stdlibCall(.decimal, depth: d)
        case 8: return "number(\"\(random.pick(["2.5", "-0.125", " 1_000.5 ", "3.0"]))\")"
        case 9: return "(\(expression(.decimal, depth: d)) % \(divisor(d)))"
        case 11: return "average(\(nonEmptyList(random.pick([.int, .decimal]), d)))"
        default: return generic(.decimal, d)
        }
    }

    mutating func textExpression(_ d: Int) -> String {
        switch random.weighted([(6, 0), (4, 1), (3, 2), (3, 3), (3, 4), (2, 5), (1, 6), (1, 7), (2, 8), (3, 9)]) {
        case 0: return interpolation(d)
        case 1: return "(\(expression(.text, depth: d)) + \(expression(.text, depth: d)))"
        case 2: return "text(\(expression(randomType(depth: 1), depth: d)))"
        case 3:
            let list = expression(.list(randomType(depth: 0)), depth: d)
            return random.chance(0.5) ? "join(\(list))" : "join(\(list), \(expression(.text, depth: 0)))"
        case 4: return stdlibCall(.text, depth: d)
        case 5: return member(expression(.date, depth: d), random.pick(["weekday", "monthName"]))
        case 6: return "\(random.pick(["first", "last"]))(\(random.pick([#""abc""#, #""café""#, #""🎉""#])))"
        case 7: return "(\(expression(.text, depth: d)) | shout)"
        case 9: return textFunction(d)
        default: return generic(.text, d)
        }
    }

    /// A function on texts; those that give a list are joined or counted back into a text.
    mutating func textFunction(_ d: Int) -> String {
        let text = expression(.text, depth: d)
        switch random.int(0..<14) {
        case 0: return "\(random.pick(["trim", "upper", "lower", "capitalize"]))(\(text))"
        case 1: return "join(\(random.pick(["words", "lines", "characters"]))(\(text)), \(expression(.text, depth: 0)))"
        case 2: return "join(split(\(text), \(random.pick(["\",\"", "\" \"", "\"é\"", "\"\""]))))"
        case 3: return "replace(\(text), \(random.pick(["\"a\"", "\" \"", "\"\""])), \(expression(.text, depth: 0)))"
        case 4: return "\(random.pick(["padLeft", "padRight"]))(\(text), \(random.pick(["0", "5", "30", "(-1)"])))"
        case 5: return "padLeft(\(text), 8, \(random.pick(["\"0\"", "\"·\"", "\"ab\""])))"
        case 6: return "\(random.pick(["first", "last"]))(\(text), \(random.pick(["0", "2", "100"])))"
        case 7: return "text(count(characters(\(text))))"
        case 9: return "json(\(expression(randomType(depth: 1), depth: d)))"
        case 10: return "text(parseJson(json(\(expression(randomType(depth: 1), depth: d)))))"
        case 11:
            let pattern = random.pick(["\"EEEE, d MMMM\"", "\"yyyy-MM-dd HH:mm\"", "\"'at' h a\"", "\"\"", "\"''\"", "\"QQQQ w\""])
            return "format(\(expression(.date, depth: d)), \(pattern))"
        case 12:
            // Regular expressions, some of catastrophic shape (on the short texts generated here they end quickly) and
            // some not regular expressions at all.
            switch random.int(0..<3) {
            case 0: return "(match(\(text), \(regexPattern())) otherwise \"none\")"
            case 1: return "join(allMatches(\(text), \(regexPattern())), \"|\")"
            default: return "replaceMatches(\(text), \(regexPattern()), \(random.pick([#""<$0>""#, #""$1""#, #""$$""#, #""$9""#, #""""#])))"
            }
        case 8: return "join((words(\(text)) | each \(random.pick(["upper(it)", "it + \"!\"", "text(count(it))", "it[0]"]))), \"-\")"
        default: return "join(\(random.pick(["first", "last"]))(words(\(text)), 2), \"-\")"
        }
    }

    /// A pattern for the regular expression functions: ordinary ones and ones of catastrophic shape. (A constant
    /// pattern that is not one is a compile-time error; mutated fixtures bring those.)
    mutating func regexPattern() -> String {
        random.pick([#""\\w+""#, #""^(a+)+$""#, #""(a|aa)+$""#, #""(x+x+)+y""#, #""(é)|(\\d)""#, #""(?i)CAFÉ""#, #""\\X""#,
                     #""""#, #""(?<n>.)\\k<n>""#, #""[[:alpha:]]+""#])
    }

    /// `"… \(x) …"` with values of any type, sometimes a pipeline or a nested interpolation inside.
    mutating func interpolation(_ d: Int) -> String {
        var text = "\""
        for _ in 0..<random.int(1...3) {
            text += random.pick(["", "n = ", " and ", "é ", "tab\\t", "#", "\\\"q\\\" ", "→ "])
            let inside = random.weighted([(8, 0), (1, 1), (1, 2)])
            switch inside {
            case 1: text += "\\(\(expression(.text, depth: 0)) | shout)"
            case 2: text += "\\(\"in \\(\(expression(.int, depth: 0)))\")"
            default: text += "\\(\(expression(randomType(depth: 1), depth: d)))"
            }
        }
        return text + random.pick(["", " end", "!"]) + "\""
    }

    mutating func boolExpression(_ d: Int) -> String {
        switch random.weighted([(6, 0), (4, 1), (3, 2), (2, 3), (1, 4), (1, 5), (2, 6), (4, 7), (2, 8), (1, 9), (1, 10)]) {
        case 0:
            let type = random.pick([FuzzType.int, .decimal, .text, .date, .duration, .size, .bool])
            let op = random.pick(["<", "<=", ">", ">=", "==", "!="])
            let right = type.isNumeric ? number(d) : expression(type, depth: d)
            return "(\(expression(type, depth: d)) \(op) \(right))"
        case 1:
            let type = randomType(depth: 1)
            return "(\(expression(type, depth: d)) \(random.pick(["==", "!="])) \(expression(type, depth: d)))"
        case 2:
            return "(\(expression(.text, depth: d)) \(random.pick(["contains", "starts with", "ends with"])) \(expression(.text, depth: d)))"
        case 3:
            let element = randomType(depth: 0)
            if random.chance(0.5) { return "(\(expression(.list(element), depth: d)) contains \(expression(element, depth: d)))" }
            return "(\(expression(element, depth: d)) in \(expression(.list(element), depth: d)))"
        case 4:
            if random.chance(0.5) { return "(matches(\(expression(.text, depth: d)), \(regexPattern())) otherwise false)" }
            return "(\(expression(.text, depth: d)) in \(expression(.text, depth: d)))"
        case 5:
            let shape = recordShape(depth: 0)
            let key = random.chance(0.7) ? random.pick(shape.names) : "zz"
            return "(\(expression(.record(shape), depth: d)) contains \"\(key)\")"
        case 6:
            let type = random.pick([FuzzType.int, .decimal, .text, .date, .duration, .size])
            return "(\(expression(type, depth: d)) between \(expression(type, depth: d)) and \(expression(type, depth: d)))"
        case 7: return "(\(expression(.bool, depth: d)) \(random.pick(["and", "or"])) \(expression(.bool, depth: d)))"
        case 8: return "(not \(expression(.bool, depth: d)))"
        case 9:
            let value = expression(randomType(depth: 1), depth: d)
            return random.pick(["(\(value) == nil)", "(nil != \(value))", "(nil < \(value))", "(\(value) >= nil)"])
        default: return generic(.bool, d)
        }
    }

    mutating func dateExpression(_ d: Int) -> String {
        switch random.weighted([(4, 0), (2, 1), (4, 2), (2, 3), (1, 4), (1, 5), (2, 6), (2, 7), (1, 8)]) {
        case 0: return "(\(expression(.date, depth: d)) + \(expression(.duration, depth: d)))"
        case 1: return "(\(expression(.duration, depth: d)) + \(expression(.date, depth: d)))"
        case 2: return "(\(expression(.date, depth: d)) - \(expression(.duration, depth: d)))"
        case 3: return "\(random.pick(["min", "max"]))(\(expression(.date, depth: d)), \(expression(.date, depth: d)))"
        case 4: return "max(\(nonEmptyList(.date, d)))"
        // Through its text and back: a date shown is a date `date()` reads, unless it is out of range.
        case 5: return "date(text(\(expression(.date, depth: d))))"
        // By the calendar: a period of months or years, sometimes computed, sometimes near the range's ends.
        case 7:
            let period = "\(random.pick(["1", "2", "11", "13", "120", "9999"])) \(random.pick(["month", "months", "year", "years"]))"
            let op = random.pick(["+", "-"])
            return random.chance(0.3) ? "(\(expression(.date, depth: d)) \(op) \(period) * \(random.pick(["2", "-1", "0"])))" : "(\(expression(.date, depth: d)) \(op) \(period))"
        case 8: return member(expression(.date, depth: d), random.pick(["startOfDay", "startOfWeek", "startOfMonth", "startOfYear"]))
        default: return generic(.date, d)
        }
    }

    mutating func durationExpression(_ d: Int) -> String {
        switch random.weighted([(4, 0), (3, 1), (3, 2), (1, 3), (2, 4), (3, 5), (1, 6), (1, 7), (2, 8), (1, 9), (2, 10)]) {
        case 0: return "(\(expression(.duration, depth: d)) + \(expression(.duration, depth: d)))"
        case 1: return "(\(expression(.duration, depth: d)) - \(expression(.duration, depth: d)))"
        case 2: return "(\(expression(.duration, depth: d)) * \(number(d)))"
        case 3: return "(\(number(d)) * \(expression(.duration, depth: d)))"
        case 4: return "(\(expression(.duration, depth: d)) / \(divisor(d)))"
        case 5: return "(\(expression(.date, depth: d)) - \(expression(.date, depth: d)))"
        case 6: return "abs(\(expression(.duration, depth: d)))"
        case 7: return "(-\(expression(.duration, depth: d)))"
        case 8: return "sum(\(expression(.list(.duration), depth: d)))"
        case 9: return "max(\(nonEmptyList(.duration, d)))"
        default: return generic(.duration, d)
        }
    }

    mutating func sizeExpression(_ d: Int) -> String {
        switch random.weighted([(4, 0), (3, 1), (3, 2), (2, 3), (2, 4), (1, 5), (2, 6)]) {
        case 0: return "(\(expression(.size, depth: d)) + \(expression(.size, depth: d)))"
        case 1: return "(\(expression(.size, depth: d)) - \(expression(.size, depth: d)))"
        case 2: return "(\(expression(.size, depth: d)) * \(number(d)))"
        case 3: return "(\(expression(.size, depth: d)) / \(divisor(d)))"
        case 4: return "sum(\(expression(.list(.size), depth: d)))"
        case 5: return "min(\(expression(.size, depth: d)), \(expression(.size, depth: d)))"
        default: return generic(.size, d)
        }
    }

    mutating func listExpression(_ element: FuzzType, _ d: Int) -> String {
        var choices: [(Int, Int)] = [(6, 0), (3, 1), (2, 2), (2, 3), (1, 9), (1, 10)]
        if case .record = element { choices += [(3, 4), (3, 5)] }
        if element == .int { choices += [(1, 6), (1, 7), (1, 11)] }
        if element == .text { choices.append((1, 8)) }
        switch random.weighted(choices) {
        case 1: return "(\(expression(.list(element), depth: d)) + \(expression(.list(element), depth: d)))"
        case 2: return "(\(expression(.list(element), depth: d)) | limit \(limitCount()))"
        case 3:
            // A field of each record of a list: `people.name`.
            var shape = recordShape(depth: 0)
            let field = shape.names[0]
            shape.types[0] = element
            return member(expression(.list(.record(shape)), depth: d), field)
        case 4:
            guard case .record(let shape) = element else { return listLiteral(element, depth: d) }
            return "(\(expression(.list(element), depth: d)) | filter where \(whereClause(shape)))"
        case 5:
            guard case .record(let shape) = element else { return listLiteral(element, depth: d) }
            return "(\(expression(.list(element), depth: d)) | sort by \(sortKeys(shape)))"
        case 6: return stdlibCall(.list(.int), depth: d)
        case 7: return member(expression(.list(.date), depth: d), random.pick(["year", "month", "day"]))
        case 8: return "(\(expression(.list(.text), depth: d)) | shout)"
        case 9:
            // A list piped into a shortcut that takes one value: one call per element.
            let mapping = shortcuts.filter { !$0.isRecursive && $0.result == element && $0.parameters[0].type.element == nil }
            guard let shortcut = mapping.randomElement(using: &random) else { return listLiteral(element, depth: d) }
            let input = expression(.list(shortcut.parameters[0].type), depth: d)
            let labels = shortcut.parameters.dropFirst().filter(\.isRequired)
                .map { " \($0.name): \(argument(expression($0.type, depth: 0)))" }.joined()
            return "(\(input) | \(shortcut.name)\(labels))"
        case 10: return "(\(expression(.list(element), depth: d)) | distinct)"
        case 11:
            // The size of each group of records with equal values of a field, or how many there are of each.
            let shape = recordShape(depth: 0)
            let records = expression(.list(.record(shape)), depth: d)
            let field = random.pick(shape.names)
            return random.chance(0.5) ? "(\(records) | count by \(field)).count" : "(\(records) | group by \(field) | each count(it.items))"
        default: return listLiteral(element, depth: d)
        }
    }

    mutating func recordExpression(_ shape: FuzzType.RecordShape, _ d: Int) -> String {
        switch random.int(0..<5) {
        case 0: return "first(\(nonEmptyList(.record(shape), d)))"
        case 1: return generic(.record(shape), d)
        default: return recordLiteral(shape, depth: d)
        }
    }

    // MARK: The standard library

    /// A call of a stdlib shortcut (stdlib/*.auto) that gives `type`; in parentheses, as an operand.
    mutating func stdlibCall(_ type: FuzzType, depth d: Int) -> String {
        let small = { (random: inout FuzzRandom) in String(random.int(-3...12)) }
        switch type {
        case .int:
            if random.chance(0.5) { return "(days from \(argument(expression(.date, depth: d))) to: \(argument(expression(.date, depth: d))))" }
            return "(days until \(argument(expression(.date, depth: d))))"
        case .decimal:
            switch random.int(0..<3) {
            case 0: return "(clamp \(number(d)) low: \(number(d)) high: \(number(d)))"
            case 1: return "(average \(expression(.list(random.pick([.int, .decimal])), depth: d)))"
            default: return "(percent \(number(d)) of: \(number(d)))"
            }
        case .text:
            switch random.int(0..<4) {
            case 0: return "(shout \(argument(expression(.text, depth: d))))"
            case 1: return "(plural \(argument(expression(.int, depth: d))) word: \(argument(expression(.text, depth: 0))))"
            case 2: return "(plural \(small(&random)) word: \"mouse\" form: \"mice\")"
            default:
                let count = mayRunAway && random.chance(0.1) ? "100000000" : small(&random)
                return "(repeat text \(argument(expression(.text, depth: d))) count: \(count))"
            }
        default:
            let (from, to) = mayRunAway && random.chance(0.1) ? ("0", "9223372036854775807") : (small(&random), small(&random))
            let step = random.chance(0.3) ? " step: \(small(&random))" : ""
            return "(numbers from \(from) to: \(to)\(step))"
        }
    }
}
