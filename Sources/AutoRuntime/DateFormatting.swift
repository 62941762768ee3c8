import Foundation

/// Dates written for people: names of months and weekdays, `format(d, pattern)`, and the start of a calendar
/// unit. English names and the local time zone, whatever the machine's locale, so a script's output is the
/// same wherever it runs.
public enum DateFormatting {
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
    static func format(_ date: Date, pattern: String, in zone: TimeZone = Calendars.local.timeZone) -> String {
        formatter(pattern: pattern, zone: zone).string(from: date)
    }

    /// The date a text holds, read with a Unicode date pattern in a zone; nil when the text doesn't match it whole.
    static func parse(_ text: String, pattern: String, in zone: TimeZone) -> Date? {
        let formatter = formatter(pattern: pattern, zone: zone)
        formatter.isLenient = false
        return formatter.date(from: text)
    }

    /// Made per call: `DateFormatter` is not safe to share between runs on other threads.
    static func formatter(pattern: String, zone: TimeZone) -> DateFormatter {
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
