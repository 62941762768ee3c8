import Foundation

/// Dates written for people: names of months and weekdays, `format(d, pattern)`, and the start of a calendar
/// unit. English names and the local time zone, whatever the machine's locale, so a script's output is the
/// same wherever it runs.
package enum DateFormatting {
    static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    static let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                         "October", "November", "December"]

    /// Weeks start on Monday, as ISO 8601 has them (the POSIX locale would start them on Sunday).
    static let isoCalendar: Calendar = {
        var calendar = Calendars.local
        calendar.firstWeekday = 2
        calendar.minimumDaysInFirstWeek = 4
        return calendar
    }()

    static func start(of unit: Calendar.Component, for date: Date) -> Date {
        isoCalendar.dateInterval(of: unit, for: date)?.start ?? isoCalendar.startOfDay(for: date)
    }

    /// A Unicode date pattern (`EEEE, d MMMM` → `Monday, 3 March`; text in single quotes is written as is), in the
    /// machine's zone unless another is given.
    static func format(_ date: Date, pattern: String, in zone: TimeZone = Calendars.local.timeZone) throws(EvaluationError) -> String {
        let text = try formatter(pattern: pattern, zone: zone).string(from: date)
        // Foundation's answer to a pattern it can't honour is an empty text, never an error.
        if text.isEmpty, !pattern.isEmpty { throw EvaluationError("format can't write a date with the pattern '\(shown(pattern))'") }
        return text
    }

    /// The date a text holds, read with a Unicode date pattern in a zone; nil when the text doesn't match it whole.
    static func parse(_ text: String, pattern: String, in zone: TimeZone) throws(EvaluationError) -> Date? {
        let formatter = try formatter(pattern: pattern, zone: zone)
        formatter.isLenient = false
        return formatter.date(from: text)
    }

    /// The longest pattern ICU's formatter takes (in UTF-16 code units): past it, it formats nothing (measured: 1,024
    /// characters give a date, 1,025 an empty text).
    static let maxPatternLength = 1024

    static func shown(_ pattern: String) -> String {
        ValueFormatter.escapingControlCharacters(pattern.count > 40 ? String(pattern.prefix(40)) + "…" : pattern)
    }

    /// Made per call: `DateFormatter` is not safe to share between runs on other threads.
    static func formatter(pattern: String, zone: TimeZone) throws(EvaluationError) -> DateFormatter {
        guard pattern.utf16.count <= maxPatternLength else {
            throw EvaluationError("the date pattern '\(shown(pattern))' has \(pattern.utf16.count) characters, more than a pattern may (\(maxPatternLength))")
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        var calendar = isoCalendar
        calendar.timeZone = zone
        formatter.calendar = calendar
        formatter.timeZone = zone
        formatter.dateFormat = pattern
        return formatter
    }
}
