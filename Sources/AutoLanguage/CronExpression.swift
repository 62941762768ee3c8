import Foundation

/// A cron expression as a script writes it in `cron "…"`: part of the language, so its mistakes are compile-time
/// errors at their column (`CronSchedule`, in the scheduler, says when it fires). Five fields — minute, hour, day of month, month, day of week — with `*`, lists, ranges,
/// steps, month and weekday names (0 and 7 are both Sunday), and the names `@hourly @daily @midnight @weekly
/// @monthly @yearly @annually`. As in classic cron (Vixie cron, cronie), a day field whose text starts with `*`
/// (`*`, `*/2`) is unrestricted: when neither day field is, a day matches if either matches; otherwise both must.
package struct CronExpression: Sendable, Equatable {
    package let minutes: CronField
    package let hours: CronField
    package let daysOfMonth: CronField
    package let months: CronField
    /// 0 Sunday … 6 Saturday.
    package let daysOfWeek: CronField
    /// Cron's "star" flags: the field's text does not start with `*`. `*/2` in the day of month is odd days, and
    /// yet unrestricted: with a day of week given, both must match (cron's `DOM_STAR`, which looks at the first
    /// character only).
    package let daysOfMonthRestricted: Bool
    package let daysOfWeekRestricted: Bool
    /// The minute or the hour field starts with `*` — what cron calls a wildcard job, as opposed to a fixed-time
    /// one — and so it runs by the clock's beat across a change: a wall time the clock skips does not fire, and one
    /// it shows twice fires at both occurrences (cronie's cron.c; `CronSchedule`).
    package let wildcard: Bool

    /// Where an expression is wrong: a message, and the UTF-8 offset and length of the part in the expression.
    package struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        package let message: String
        package let offset: Int
        package let length: Int
        package init(message: String, offset: Int, length: Int) {
            self.message = message
            self.offset = offset
            self.length = length
        }
        package var description: String { message }
    }

    package static let shorthands = ["@hourly": "0 * * * *", "@daily": "0 0 * * *", "@midnight": "0 0 * * *", "@weekly": "0 0 * * 0",
                             "@monthly": "0 0 1 * *", "@yearly": "0 0 1 1 *", "@annually": "0 0 1 1 *"]
    static let monthNames = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    static let dayNames = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]

    package init(parsing written: String) throws(ParseError) {
        var text = written
        let trimmed = written.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("@") {
            guard let expanded = Self.shorthands[trimmed.lowercased()] else {
                throw ParseError(message: "'\(trimmed)' is not a cron name; write @hourly, @daily, @weekly, @monthly or @yearly",
                                 offset: Self.offset(of: trimmed, in: written), length: trimmed.utf8.count)
            }
            text = expanded
        }
        // The fields and where each starts, for errors that point at the field.
        var fields: [(text: Substring, offset: Int)] = []
        var index = text.startIndex
        while index < text.endIndex {
            if text[index] == " " || text[index] == "\t" { index = text.index(after: index); continue }
            let start = index
            while index < text.endIndex, text[index] != " ", text[index] != "\t" { index = text.index(after: index) }
            fields.append((text[start..<index], text.utf8.distance(from: text.startIndex, to: start)))
        }
        guard fields.count == 5 else {
            throw ParseError(message: "a cron expression has five fields (minute hour day-of-month month day-of-week), and this has \(fields.count)",
                             offset: 0, length: text.utf8.count)
        }
        minutes = try Self.field(fields[0], "minute", 0...59, names: [])
        hours = try Self.field(fields[1], "hour", 0...23, names: [])
        daysOfMonth = try Self.field(fields[2], "day of month", 1...31, names: [])
        months = try Self.field(fields[3], "month", 1...12, names: Self.monthNames, firstName: 1)
        // 7 is Sunday too.
        daysOfWeek = CronField(try Self.field(fields[4], "day of week", 0...7, names: Self.dayNames, firstName: 0).map { $0 % 7 })
        daysOfMonthRestricted = !fields[2].text.hasPrefix("*")
        daysOfWeekRestricted = !fields[4].text.hasPrefix("*")
        wildcard = fields[0].text.hasPrefix("*") || fields[1].text.hasPrefix("*")
    }

    /// Digits only, as cron reads a number: `Int` would take `+5` too.
    static func isNumber(_ text: Substring) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    static func offset(of part: String, in text: String) -> Int {
        text.range(of: part).map { text.utf8.distance(from: text.startIndex, to: $0.lowerBound) } ?? 0
    }

    /// One field: comma-separated items, each `*`, `N`, `A-B` or either with `/STEP`; names where the field has them.
    static func field(_ field: (text: Substring, offset: Int), _ name: String, _ range: ClosedRange<Int>, names: [String],
                      firstName: Int = 0) throws(ParseError) -> CronField {
        var values = CronField()
        var itemOffset = field.offset
        for item in field.text.split(separator: ",", omittingEmptySubsequences: false) {
            defer { itemOffset += item.utf8.count + 1 }
            func fail(_ message: String) -> ParseError { ParseError(message: message, offset: itemOffset, length: max(1, item.utf8.count)) }
            guard !item.isEmpty else { throw fail("an empty item in the \(name) field") }
            let parts = item.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
            var step = 1
            if parts.count == 2 {
                guard Self.isNumber(parts[1]), let parsed = Int(parts[1]), parsed > 0 else { throw fail("the step in '\(item)' is a whole number above zero") }
                step = parsed
            }
            func value(_ text: Substring) throws(ParseError) -> Int {
                if Self.isNumber(text), let number = Int(text) {
                    guard range.contains(number) else { throw fail("\(name) \(number) is out of range \(range.lowerBound)–\(range.upperBound)") }
                    return number
                }
                if let index = names.firstIndex(of: text.lowercased()) { return index + firstName }
                throw fail("'\(text)' is not a \(name)" + (names.isEmpty ? "" : " (names: \(names.joined(separator: " ")))"))
            }
            var low = range.lowerBound, high = range.upperBound
            if parts[0] != "*" {
                let bounds = parts[0].split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
                low = try value(bounds[0])
                // `A/STEP` runs to the field's end; `A` alone is one value.
                high = bounds.count == 2 ? try value(bounds[1]) : (parts.count == 2 ? range.upperBound : low)
                // `fri-sun` is Friday to Sunday, as cron reads it: a range of days of week that ends on Sunday's 0
                // ends on its 7.
                if range.upperBound == 7, bounds.count == 2, parts.count == 1, high == 0, low > 0 { high = 7 }
                guard low <= high else { throw fail("the range '\(parts[0])' runs backwards") }
            }
            for value in stride(from: low, through: high, by: step) { values.insert(value) }
        }
        return values
    }

    /// Whether any day can match: `0 0 31 2 *` and `0 0 30 2 *` never fire. Over the Gregorian calendar's 400
    /// years every date falls on every weekday, so a date that exists is enough.
    package var canFire: Bool {
        if daysOfMonthRestricted && daysOfWeekRestricted { return true }  // either may match: a weekday always comes
        let longest = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return !daysOfWeek.isEmpty && months.contains { month in daysOfMonth.contains { $0 <= longest[month - 1] } }
    }

    /// Whether the civil date matches the day fields and the month.
    package func matches(year: Int, month: Int, day: Int, weekday: Int) -> Bool {
        guard months.contains(month) else { return false }
        let dayOfMonth = daysOfMonth.contains(day), dayOfWeek = daysOfWeek.contains(weekday)
        if daysOfMonthRestricted && daysOfWeekRestricted { return dayOfMonth || dayOfWeek }
        return dayOfMonth && dayOfWeek
    }
}

/// The values of one cron field, each within 0…63, as bits: a daemon keeps one schedule per automation, and five
/// bit fields cost what five sets' headers alone would. Iterates in ascending order.
package struct CronField: Sendable, Equatable, Sequence, ExpressibleByArrayLiteral, CustomStringConvertible {
    private var bits: UInt64 = 0

    package init() {}
    package init<Values: Sequence<Int>>(_ values: Values) {
        for value in values { insert(value) }
    }
    package init(arrayLiteral values: Int...) { self.init(values) }

    /// A value outside 0…63 can't be held and is left out: the parser refuses it before, naming the field's range.
    package mutating func insert(_ value: Int) {
        guard (0..<64).contains(value) else { return }
        bits |= 1 << UInt64(value)
    }
    package func contains(_ value: Int) -> Bool { (0..<64).contains(value) && bits & (1 << UInt64(value)) != 0 }
    package var isEmpty: Bool { bits == 0 }
    package var description: String { "[" + map(String.init).joined(separator: ", ") + "]" }

    package struct Iterator: IteratorProtocol {
        var rest: UInt64
        package mutating func next() -> Int? {
            guard rest != 0 else { return nil }
            let value = rest.trailingZeroBitCount
            rest &= rest - 1
            return value
        }
    }
    package func makeIterator() -> Iterator { Iterator(rest: bits) }
}
