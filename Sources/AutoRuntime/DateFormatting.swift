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

    /// A Unicode date pattern (`EEEE, d MMMM` → `Monday, 3 March`; text in single quotes is written as is).
    /// A formatter is made per call: `DateFormatter` is not safe to share between runs on other threads.
    static func format(_ date: Date, pattern: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.calendar = isoCalendar
        formatter.timeZone = Calendars.local.timeZone
        formatter.dateFormat = pattern
        return formatter.string(from: date)
    }
}
