import Foundation

/// An `OnCalendar=` expression as systemd.time(7) reads it: `Mon..Fri *-*-* 09:00:00 Europe/Paris`, `daily`,
/// `*-*-1/3 2,14:30`. Parsed here, by the manual's rules (checked against `systemd-analyze calendar` in the tests),
/// so `auto migrate timer` can say exactly what a timer did and refuse what no trigger of the language does.
struct SystemdCalendarSpec: Equatable {
    /// One item of a field's comma list: `5`, `1..5`, `0/15` (from 0 every 15 to the field's end), `1..20/3`.
    struct Item: Equatable {
        var start: Int
        var stop: Int?
        var step: Int?
    }

    enum Zone: Equatable {
        /// The machine's zone: what the timer used, and what an automation without `in` uses.
        case local
        /// An IANA name, `UTC` included.
        case named(String)
    }

    /// ISO weekdays, 1 Monday … 7 Sunday; nil for any day. Systemd requires the weekday *and* the date to match.
    var weekdays: Set<Int>?
    /// Nil for `*`. Years are four digits (systemd reads `25` as 2025, `89` as 1989).
    var years: [Item]?
    var months: [Item]?
    /// With `endOfMonth` (`~`), counted from the month's last day: `~1` is the last day, `~7` the seventh last.
    var days: [Item]?
    var endOfMonth = false
    var hours: [Item]?
    var minutes: [Item]?
    /// In microseconds: systemd's seconds take decimals (`05.5`). Nil for `*`, every second.
    var seconds: [Item]?
    var zone: Zone = .local

    /// What is wrong with an expression, in systemd's terms.
    struct ParseError: Error, Equatable, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    static let microsecondsPerSecond = 1_000_000

    /// The shorthands systemd.time(7) lists, as the normalized forms it gives them.
    static let shorthands: [String: String] = [
        "minutely": "*-*-* *:*:00", "hourly": "*-*-* *:00:00", "daily": "*-*-* 00:00:00", "monthly": "*-*-01 00:00:00",
        "weekly": "Mon *-*-* 00:00:00", "yearly": "*-01-01 00:00:00", "annually": "*-01-01 00:00:00", "anually": "*-01-01 00:00:00",
        "quarterly": "*-01,04,07,10-01 00:00:00", "semiannually": "*-01,07-01 00:00:00", "semi-annually": "*-01,07-01 00:00:00",
        "biannually": "*-01,07-01 00:00:00", "bi-annually": "*-01,07-01 00:00:00",
    ]

    /// Longer names first, so `Monday` is not read as `Mon` followed by `day`.
    static let weekdayNames: [(name: String, day: Int)] = [
        ("monday", 1), ("tuesday", 2), ("wednesday", 3), ("thursday", 4), ("friday", 5), ("saturday", 6), ("sunday", 7),
        ("mon", 1), ("tue", 2), ("wed", 3), ("thu", 4), ("fri", 5), ("sat", 6), ("sun", 7),
    ]

    init(parsing written: String) throws(ParseError) {
        var text = written.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { throw ParseError(message: "the calendar expression is empty") }
        if let space = text.lastIndex(of: " ") {
            let last = String(text[text.index(after: space)...])
            if let zone = Self.zone(named: last) {
                self.zone = zone
                text = String(text[..<space]).trimmingCharacters(in: .whitespaces)
            }
        } else if let zone = Self.zone(named: text), zone == .named("UTC") {
            throw ParseError(message: "'\(written)' is only a time zone; give the times before it")
        }
        var scanner = Scanner(text: Self.shorthands[text.lowercased()] ?? text)
        try scanner.weekdays(into: &self)
        try scanner.date(into: &self)
        try scanner.time(into: &self)
        guard scanner.atEnd else {
            throw ParseError(message: "'\(scanner.rest)' is not part of a calendar expression (systemd.time(7))")
        }
        try validate()
    }

    /// `UTC` or an IANA name; nil when the word is not a zone (it is then part of the times, or a mistake).
    static func zone(named word: String) -> Zone? {
        if word.uppercased() == "UTC" { return .named("UTC") }
        // A time, a date or a number is no zone, whatever Foundation would make of it.
        guard word.contains(where: \.isLetter), !word.contains(":"), !word.contains("*"), word.first?.isLetter == true,
              weekdayNames.allSatisfy({ !word.lowercased().hasPrefix($0.name) }),
              TimeZone(identifier: word) != nil else { return nil }
        return .named(word)
    }

    /// The ranges systemd allows, and its rule that a repetition must fit in its range at least once.
    func validate() throws(ParseError) {
        try Self.check(years, "year", 1970...2199)
        try Self.check(months, "month", 1...12)
        try Self.check(days, endOfMonth ? "day before the month's end" : "day", endOfMonth ? 1...28 : 1...31)
        try Self.check(hours, "hour", 0...23)
        try Self.check(minutes, "minute", 0...59)
        try Self.check(seconds, "second", 0...(60 * Self.microsecondsPerSecond - 1), unit: Self.microsecondsPerSecond)
    }

    static func check(_ items: [Item]?, _ name: String, _ range: ClosedRange<Int>, unit: Int = 1) throws(ParseError) {
        func shown(_ value: Int) -> String {
            unit == 1 ? "\(value)" : (value % unit == 0 ? "\(value / unit)" : "\(Double(value) / Double(unit))")
        }
        for item in items ?? [] {
            let bound = "\(name)s run \(shown(range.lowerBound)) to \(shown(range.upperBound))"
            guard range.contains(item.start) else { throw ParseError(message: "\(name) \(shown(item.start)) is out of range: \(bound)") }
            if let stop = item.stop {
                guard range.contains(stop) else { throw ParseError(message: "\(name) \(shown(stop)) is out of range: \(bound)") }
                guard item.start <= stop else { throw ParseError(message: "the range \(shown(item.start))..\(shown(stop)) of the \(name) runs backwards") }
            }
            if let step = item.step {
                guard step <= range.upperBound - range.lowerBound, item.start + step <= (item.stop ?? range.upperBound) else {
                    throw ParseError(message: "the repetition /\(shown(step)) of the \(name) never repeats before the \(item.stop == nil ? "field's end" : "range's end")")
                }
            }
        }
    }

    /// The values an item list stands for within `range` (each item's start, then its repetitions up to its stop or
    /// the range's end); nil for `*`.
    static func values(of items: [Item]?, in range: ClosedRange<Int>) -> [Int]? {
        guard let items else { return nil }
        var values = Set<Int>()
        for item in items {
            let stop = item.stop ?? (item.step == nil ? item.start : range.upperBound)
            for value in stride(from: item.start, through: stop, by: item.step ?? 1) where range.contains(value) { values.insert(value) }
        }
        return values.sorted()
    }

    /// Reads the parts of an expression in systemd's order: weekdays, date, time.
    struct Scanner {
        let characters: [Character]
        var index = 0

        init(text: String) { characters = Array(text) }

        var atEnd: Bool { index >= characters.count }
        var rest: String { String(characters[min(index, characters.count)...]) }
        var current: Character? { atEnd ? nil : characters[index] }
        func peek(_ offset: Int) -> Character? { index + offset < characters.count ? characters[index + offset] : nil }

        mutating func skipSpaces() { while current == " " { index += 1 } }

        /// `Mon`, `Mon,Wed`, `Mon..Fri`, `Sat,Sun,`: full or short English names, any case; none is every day.
        mutating func weekdays(into spec: inout SystemdCalendarSpec) throws(ParseError) {
            var days = Set<Int>()
            var rangeStart: Int?
            while true {
                guard let day = weekdayName() else {
                    // A name after a comma or `..` must be a weekday; none at all means every day.
                    if !days.isEmpty { throw ParseError(message: "'\(rest)' is not a weekday (Mon … Sun)") }
                    break
                }
                if let start = rangeStart {
                    guard start <= day else {
                        throw ParseError(message: "the weekday range ends before it starts; write it from Monday to Sunday, or as a list")
                    }
                    days.formUnion(start...day)
                    rangeStart = nil
                } else {
                    days.insert(day)
                }
                if current == ".", peek(1) == "." {
                    index += 2
                    rangeStart = day
                } else if current == "-" {
                    // systemd's older spelling of a weekday range.
                    index += 1
                    rangeStart = day
                } else if current == "," {
                    index += 1
                }
                if atEnd || current == " " {
                    guard rangeStart == nil else { throw ParseError(message: "the weekday range has no end") }
                    break
                }
            }
            skipSpaces()
            if !days.isEmpty, days.count < 7 { spec.weekdays = days }
        }

        mutating func weekdayName() -> Int? {
            let remaining = String(characters[index...]).lowercased()
            for (name, day) in SystemdCalendarSpec.weekdayNames where remaining.hasPrefix(name) {
                let after = remaining.dropFirst(name.count).first
                guard after == nil || [" ", ",", ".", "-"].contains(after) else { return nil }
                index += name.count
                return day
            }
            return nil
        }

        /// `YYYY-MM-DD`, `MM-DD` or `*-*-1/3`, `*-02~1`; none when the next part is a time (it has a `:`).
        mutating func date(into spec: inout SystemdCalendarSpec) throws(ParseError) {
            guard !atEnd else { return }
            if current == "@" { throw ParseError(message: "'\(rest)' is one instant as seconds since 1970, not a repeating time") }
            let start = index
            let first = try chain("date", microseconds: false)
            if atEnd || current == ":" {
                index = start
                return
            }
            if current == "~" { spec.endOfMonth = true } else if current != "-" {
                throw ParseError(message: "'\(rest)' is not part of a date (YYYY-MM-DD, MM-DD)")
            }
            index += 1
            let second = try chain("date", microseconds: false)
            if atEnd || current == " " {
                skipSpaces()
                (spec.months, spec.days) = (first, second)
                return
            }
            if spec.endOfMonth { throw ParseError(message: "'~' goes between the month and the day: *-02~1") }
            if current == "~" { spec.endOfMonth = true } else if current != "-" {
                throw ParseError(message: "'\(rest)' is not part of a date (YYYY-MM-DD, MM-DD)")
            }
            index += 1
            let third = try chain("date", microseconds: false)
            guard atEnd || current == " " else { throw ParseError(message: "'\(rest)' is not part of a date (YYYY-MM-DD)") }
            skipSpaces()
            // Two-digit years, as systemd reads them: 00–69 this century, 70–99 the last.
            func year(_ value: Int) -> Int { value < 70 ? value + 2000 : (value < 100 ? value + 1900 : value) }
            if let first {
                spec.years = first.map { Item(start: year($0.start), stop: $0.stop.map(year), step: $0.step) }
            }
            (spec.months, spec.days) = (second, third)
        }

        /// `HH:MM[:SS]`; none is 00:00:00, and no seconds is :00.
        mutating func time(into spec: inout SystemdCalendarSpec) throws(ParseError) {
            let zero = [Item(start: 0)]
            guard !atEnd else {
                (spec.hours, spec.minutes, spec.seconds) = (zero, zero, zero)
                return
            }
            let hours = try chain("hour", microseconds: false)
            guard current == ":" else { throw ParseError(message: "'\(rest)' is not a time (HH:MM or HH:MM:SS)") }
            index += 1
            let minutes = try chain("minute", microseconds: false)
            var seconds: [Item]? = zero
            if current == ":" {
                index += 1
                seconds = try chain("second", microseconds: true)
            }
            (spec.hours, spec.minutes, spec.seconds) = (hours, minutes, seconds)
        }

        /// `*` (nil) or a comma list of items.
        mutating func chain(_ part: String, microseconds: Bool) throws(ParseError) -> [Item]? {
            if current == "*" {
                index += 1
                if current == "/" { throw ParseError(message: "'*/N' is not systemd's repetition; write the start: 0/N") }
                return nil
            }
            var items: [Item] = []
            while true {
                var item = Item(start: try number(part, microseconds: microseconds))
                if current == ".", peek(1) == "." {
                    index += 2
                    item.stop = try number(part, microseconds: microseconds)
                }
                if current == "/" {
                    index += 1
                    let step = try number(part, microseconds: microseconds)
                    guard step > 0 else { throw ParseError(message: "a repetition of 0 in the \(part) never moves on") }
                    item.step = step
                }
                guard atEnd || [" ", ",", "-", "~", ":"].contains(current) else {
                    throw ParseError(message: "'\(rest)' is not part of the \(part)")
                }
                items.append(item)
                guard current == "," else { return items }
                index += 1
            }
        }

        /// Digits; with `microseconds`, a decimal part too (`05.5`), as a whole number of microseconds.
        mutating func number(_ part: String, microseconds: Bool) throws(ParseError) -> Int {
            let start = index
            while let c = current, c.isASCII, c.isNumber { index += 1 }
            guard index > start, let whole = Int(String(characters[start..<index])), whole <= 1_000_000 else {
                throw ParseError(message: atEnd ? "the \(part) ends where a number should be" : "'\(rest)' is not a number in the \(part)")
            }
            guard microseconds else { return whole }
            var fraction = 0
            if current == ".", peek(1) != "." {
                index += 1
                var digits = 0
                while let c = current, c.isASCII, c.isNumber {
                    if digits < 6 { fraction = fraction * 10 + (c.wholeNumberValue ?? 0) }
                    digits += 1
                    index += 1
                }
                for _ in digits..<max(digits, 6) { fraction *= 10 }
            }
            return whole * SystemdCalendarSpec.microsecondsPerSecond + fraction
        }
    }
}
