import AutoIntents
import Foundation

/// The built-in functions: `count(x)`, `first(x)`, `sum(x)`, `join(list, sep)`, `date(text)`, ….
package enum BuiltinFunctions {
    /// `json(x)`, and what an intent writes through `IntentContext.json`.
    static func json(_ value: Value, limits: ValueLimits) throws(EvaluationError) -> String {
        let text = ValueFormatter.json(value)
        // Formatting a big list stops early when the run should stop; nothing cut short is kept.
        try Interruption.check()
        try limits.checkText(bytes: text.utf8.count)
        return text
    }

    package static func call(_ function: BuiltinFunction, _ arguments: [Value], limits: ValueLimits) throws(EvaluationError) -> Value {
        switch function {
        case .split, .words, .lines, .characters, .trim, .upper, .lower, .capitalize, .replace, .padLeft, .padRight:
            return try TextFunctions.call(function, arguments, limits: limits)
        case .json:
            return .text(try json(arguments[0], limits: limits))
        case .parseJson:
            guard let text = try TextFunctions.text(arguments[0], "parseJson") else { return .null }
            return try JSONReader.read(text, limits: limits)
        case .matches, .match, .allMatches, .captures, .replaceMatches:
            return try RegexFunctions.call(function, arguments, limits: limits)
        case .valueAt:
            return try valueAt(arguments[0], path: arguments[1])
        case .parseDate, .difference:
            return try DateFunctions.call(function, arguments)
        case .now: return .date(Date())
        case .today: return .date(Calendars.local.startOfDay(for: Date()))
        // A calendar day away, not 24 hours: the day a clock change makes 23 or 25 hours long still starts at midnight.
        case .yesterday, .tomorrow:
            let today = Calendars.local.startOfDay(for: Date())
            return .date(Calendars.local.date(byAdding: .day, value: function == .yesterday ? -1 : 1, to: today) ?? today)
        case .count:
            switch arguments[0] {
            case .list(let items): return .int(items.count)
            case .text(let text): return .int(text.count)
            case .record(let record): return .int(record.keys.count)
            case .null: return .int(0)
            default: return .int(1)
            }
        case .first where arguments.count == 2, .last where arguments.count == 2:
            // `first(xs, 3)`: the first three, or fewer.
            if case .text = arguments[0] { return try TextFunctions.call(function, arguments, limits: limits) }
            let n = try TextFunctions.count(arguments[1], "\(function.rawValue)'s count")
            let items = try list(arguments[0], function.rawValue)
            return .list(Array(function == .first ? items.prefix(n) : items.suffix(n)))
        case .first, .last:
            switch arguments[0] {
            case .list(let items): return (function == .first ? items.first : items.last) ?? .null
            case .text(let text): return (function == .first ? text.first : text.last).map { .text(String($0)) } ?? .null
            default: return arguments[0]
            }
        case .sum: return try sum(list(arguments[0], "sum"))
        case .format:
            guard case .text(let pattern) = arguments[1] else { throw EvaluationError("format's pattern must be a text, not \(arguments[1].type)") }
            let text: String
            switch arguments[0] {
            case .null: return .null
            case .date(let date):
                let zone = arguments.count > 2 ? try DateFunctions.zone(arguments[2], "format") : Calendars.local.timeZone
                text = try DateFormatting.format(date, pattern: pattern, in: zone)
            case .int(let whole): text = try formatNumber(Decimal(whole), pattern, locale: arguments.count > 2 ? arguments[2] : nil)
            case .decimal(let exact): text = try formatNumber(exact, pattern, locale: arguments.count > 2 ? arguments[2] : nil)
            default: throw EvaluationError("format writes a date or a number, not \(arguments[0].type)")
            }
            try limits.checkText(bytes: text.utf8.count)
            return .text(text)
        case .average: return try average(list(arguments[0], "average"))
        case .min, .max:
            let items = arguments.count == 1 ? try list(arguments[0], function.rawValue) : arguments
            var best: Value?
            for item in items where !item.isNull {
                guard let current = best else { best = item; continue }
                guard let order = Operations.order(item, current) else {
                    throw EvaluationError("\(function.rawValue) can't compare \(item.type) with \(current.type)")
                }
                if (function == .min && order == .orderedAscending) || (function == .max && order == .orderedDescending) { best = item }
            }
            return best ?? .null
        case .join:
            let separator: String
            if arguments.count > 1 {
                guard case .text(let text) = arguments[1] else { throw EvaluationError("join's separator must be a text, not \(arguments[1].type)") }
                separator = text
            } else {
                separator = ", "
            }
            let items = try list(arguments[0], "join")
            var parts: [String] = []
            parts.reserveCapacity(items.count)
            var bytes = max(0, items.count - 1) &* separator.utf8.count
            for index in items.indices {
                if index % Interruption.stride == 0 { try Interruption.check() }
                parts.append(ValueFormatter.display(items[index]))
                bytes &+= parts[index].utf8.count
            }
            try limits.checkText(bytes: bytes)
            return .text(parts.joined(separator: separator))
        case .text:
            let text = ValueFormatter.display(arguments[0])
            // Formatting a big list stops early when the run should stop; nothing cut short is kept.
            try Interruption.check()
            return .text(text)
        case .number:
            switch arguments[0] {
            case .int, .decimal: return arguments[0]
            case .bool(let flag): return .int(flag ? 1 : 0)
            case .size(let bytes): return .int(Int(bytes))
            case .duration(let duration): return .decimal(DurationArithmetic.seconds(duration))
            case .text(let text):
                let trimmed = text.trimmingCharacters(in: .whitespaces)
                if let int = Int(trimmed.replacingOccurrences(of: "_", with: "")) { return .int(int) }
                if let decimal = try DecimalArithmetic.parse(trimmed) { return .decimal(decimal) }
                throw EvaluationError("'\(text)' is not a number")
            default:
                throw EvaluationError("\(arguments[0].type) can't be turned into a number")
            }
        case .date:
            switch arguments[0] {
            case .date: return arguments[0]
            case .text(let text):
                guard let date = DateParsing.parse(text) else {
                    throw EvaluationError("'\(text)' is not a date; write it as 2024-05-01 or 2024-05-01 07:30 (\(DateRange.description))")
                }
                return .date(date)
            default:
                throw EvaluationError("\(arguments[0].type) can't be turned into a date")
            }
        case .round:
            guard let number = Operations.number(arguments[0]) else { throw EvaluationError("round needs a number, not \(arguments[0].type)") }
            if arguments.count > 1 {
                guard case .int(let places) = arguments[1], (0...DecimalDomain.maxFractionDigits).contains(places) else {
                    throw EvaluationError("round's places must be an Int from 0 to \(DecimalDomain.maxFractionDigits)")
                }
                return .decimal(try DecimalArithmetic.round(number, places: places))
            }
            if case .int = arguments[0] { return arguments[0] }
            return .int(try DecimalArithmetic.roundedInt(number))
        case .floor, .ceiling:
            guard let number = Operations.number(arguments[0]) else { throw EvaluationError("\(function.rawValue) needs a number, not \(arguments[0].type)") }
            if case .int = arguments[0] { return arguments[0] }
            return .int(try DecimalArithmetic.wholeInt(number, up: function == .ceiling))
        case .abs:
            switch arguments[0] {
            case .int(let i):
                if i == .min { throw EvaluationError("integer overflow: abs(\(i)) does not fit in 64 bits") }
                return .int(Swift.abs(i))
            case .decimal(let d): return .decimal(d.isSignMinus ? try DecimalArithmetic.negate(d) : d)
            case .duration(let d): return .duration(d < .zero ? try DurationArithmetic.negate(d) : d)
            default: throw EvaluationError("abs needs a number, not \(arguments[0].type)")
            }
        }
    }

    static func list(_ value: Value, _ function: String) throws(EvaluationError) -> [Value] {
        switch value {
        case .list(let items): return items
        case .null: return []
        default: throw EvaluationError("\(function) needs a list, not \(value.type)")
        }
    }

    /// Numbers (Int, or Decimal as soon as one is), durations or sizes, of one kind: `sum([2, 1 KB])` is an
    /// error whatever the order, as `2 + 1 KB` is. Nil items are skipped; an empty list sums to 0.
    static func sum(_ items: [Value], _ function: String = "sum") throws(EvaluationError) -> Value {
        var total: Value?
        for item in items where !item.isNull {
            guard let sum = total else {
                switch item {
                case .int, .decimal, .duration, .size: total = item
                default: throw EvaluationError("\(function) adds numbers, durations or sizes, not \(item.type)")
                }
                continue
            }
            guard sameKind(sum, item) else {
                throw EvaluationError("\(function) can't add \(item.type) to \(sum.type): a list to \(function) holds numbers, durations or sizes, not a mix")
            }
            total = try Operations.arithmetic(.add, sum, item)
        }
        return total ?? .int(0)
    }

    /// The sum divided by how many were added: nils are skipped, as SQL's AVG skips NULL (an unrated book is not a
    /// rating of 0); nil when nothing is left. Numbers give a Decimal, durations a duration, sizes a size.
    static func average(_ items: [Value]) throws(EvaluationError) -> Value {
        let present = items.filter { !$0.isNull }
        if present.isEmpty { return .null }
        // Int / Int is a Decimal.
        return try Operations.arithmetic(.divide, try sum(present, "average"), .int(present.count))
    }

    /// Whether `sum` adds `b` to `a`: Int and Decimal mix, other kinds only with themselves.
    static func sameKind(_ a: Value, _ b: Value) -> Bool {
        switch (a, b) {
        case (.int, .int), (.int, .decimal), (.decimal, .int), (.decimal, .decimal), (.duration, .duration), (.size, .size): return true
        default: return false
        }
    }

    /// `format(number, pattern)`, and with a locale's identifier third, its point and thousands separator.
    static func formatNumber(_ number: Decimal, _ pattern: String, locale: Value?) throws(EvaluationError) -> String {
        guard let locale else { return try NumberFormatting.format(number, pattern: pattern) }
        guard case .text(let name) = locale else { throw EvaluationError("format's locale is a text such as \"de_DE\", not \(locale.type)") }
        return try NumberFormatting.format(number, pattern: pattern, separators: try .locale(name))
    }

    /// `valueAt(x, "items.0.name")` or `valueAt(x, ["items", 0, "name"])`: each key reads a record's field, each
    /// whole number a list's element (`-1` the last); nil as soon as one is missing. A path written as a text is split
    /// at its dots; a key that has a dot in it is given in the list form.
    static func valueAt(_ value: Value, path: Value) throws(EvaluationError) -> Value {
        let steps: [Value]
        switch path {
        case .text(let text): steps = text.split(separator: ".", omittingEmptySubsequences: false).map { .text(String($0)) }
        case .list(let items): steps = items
        case .int: steps = [path]
        case .null: return value
        default: throw EvaluationError("valueAt's path is a text such as \"items.0.name\" or a list of keys and indexes, not \(path.type)")
        }
        var current = value
        for step in steps {
            switch (current, step) {
            case (.record(let record), .text(let key)): current = record[key] ?? .null
            case (.record(let record), .int(let index)): current = record[String(index)] ?? .null
            case (.list(let items), .int(let index)): current = element(items, index)
            case (.list(let items), .text(let text)):
                guard let index = Int(text) else { return .null }
                current = element(items, index)
            case (_, .text), (_, .int): return .null
            default: throw EvaluationError("valueAt's path holds keys (texts) and indexes (whole numbers), not \(step.type)")
            }
            if current.isNull { return .null }
        }
        return current
    }

    static func element(_ items: [Value], _ index: Int) -> Value {
        let position = index < 0 ? items.count + index : index
        return items.indices.contains(position) ? items[position] : .null
    }

    /// How many arguments each function takes: (minimum, maximum).
    package static func arity(_ function: BuiltinFunction) -> ClosedRange<Int> {
        switch function {
        case .now, .today, .yesterday, .tomorrow: return 0...0
        case .join, .round, .first, .last: return 1...2
        case .split, .matches, .match, .allMatches, .captures, .valueAt: return 2...2
        case .format, .parseDate: return 2...3
        case .replace, .replaceMatches, .difference: return 3...3
        case .padLeft, .padRight: return 2...3
        case .min, .max: return 1...64
        default: return 1...1
        }
    }
}

/// Dates as scripts write them: `2024-05-01`, `2024-05-01 07:30`, `2024-05-01 07:30:15`, ISO-8601 with a zone.
package enum DateParsing {
    package static func parse(_ text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let pattern = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?(Z|[+-]\d{2}:?\d{2})?$/
        guard let match = trimmed.wholeMatch(of: pattern) else { return nil }
        var parts = DateComponents()
        parts.year = Int(match.1)
        parts.month = Int(match.2)
        parts.day = Int(match.3)
        parts.hour = match.4.flatMap { Int($0) } ?? 0
        parts.minute = match.5.flatMap { Int($0) } ?? 0
        parts.second = match.6.flatMap { Int($0) } ?? 0
        // Year 0 would read as year 1: the calendar counts no year zero (see `DateRange`).
        guard let year = parts.year, year >= 1,
              let month = parts.month, (1...12).contains(month), let day = parts.day, (1...31).contains(day),
              let hour = parts.hour, hour < 24, let minute = parts.minute, minute < 60, let second = parts.second, second < 60
        else { return nil }
        var calendar = Calendars.local
        if let zone = match.7 {
            if zone == "Z" {
                calendar.timeZone = .gmt
            } else {
                let digits = zone.dropFirst().filter(\.isNumber)
                let seconds = (Int(digits.prefix(2)) ?? 0) * 3600 + (Int(digits.suffix(2)) ?? 0) * 60
                guard let offset = TimeZone(secondsFromGMT: zone.first == "-" ? -seconds : seconds) else { return nil }
                calendar.timeZone = offset
            }
        }
        guard let date = calendar.date(from: parts) else { return nil }
        // Reject days the month does not have (2024-02-31) instead of rolling over into the next month.
        guard calendar.component(.day, from: date) == day else { return nil }
        // A zone offset can move 0001-01-01 00:00 or 9999-12-31 23:59 out of the range of the local calendar.
        guard DateRange.contains(date) else { return nil }
        return date
    }
}
