import AutoLanguage
import Foundation

/// `every 15 minutes`: elapsed time from the last fire handled, whatever the wall clock does between.
package struct IntervalSchedule: FireSchedule {
    package let interval: Duration
    package init(interval: Duration) {
        self.interval = interval
    }
    package func nextFire(after instant: Date) -> Date? {
        instant.addingTimeInterval(interval.timeInterval)
    }
}

extension Duration {
    /// In seconds, as `Date` counts them: for the schedules, the debounce and polling, which wait on a wall clock.
    var timeInterval: TimeInterval {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}

/// `at "2026-12-24 18:00"`: once.
package struct OnceSchedule: FireSchedule {
    package let instant: Date
    package init(instant: Date) {
        self.instant = instant
    }
    package func nextFire(after other: Date) -> Date? { instant > other ? instant : nil }
}

/// `every day at 07:30`, `every monday, friday at 09:00`: a wall-clock time in a time zone, on some days of the
/// week, with docs/LANGUAGE.md §9's rules across daylight-saving changes (`LocalTime.instant`).
package struct WallClockSchedule: FireSchedule {
    /// ISO weekdays, 1 Monday … 7 Sunday; nil for every day.
    package let days: Set<Int>?
    package let hour: Int
    package let minute: Int
    package let timeZone: TimeZone

    package init(days: Set<Int>?, hour: Int, minute: Int, timeZone: TimeZone = .current) {
        self.days = days
        self.hour = hour
        self.minute = minute
        self.timeZone = timeZone
    }

    package func nextFire(after instant: Date) -> Date? {
        // The day `instant` falls on in the zone, then the days after it: a week and a day covers every weekday
        // even when the first day's time has passed.
        var day = LocalTime.civilDay(of: instant, in: timeZone)
        for _ in 0..<9 {
            if days?.contains(LocalTime.isoWeekday(of: day)) ?? true {
                let fire = LocalTime.instant(day: day, hour: hour, minute: minute, in: timeZone)
                if fire > instant { return fire }
            }
            day += 1
        }
        return nil
    }
}

/// Wall-clock times in a time zone, by docs/LANGUAGE.md §9: a time the clock skips (it springs forward) is the
/// first instant after the gap; a time it shows twice (it falls back) is its first occurrence. Worked out from
/// the zone's offsets, not Foundation's `Calendar.nextDate`, which skips the whole day of a 30-minute change
/// (Australia/Lord_Howe).
package enum LocalTime {
    /// Days since 1970-01-01 of the civil date `instant` has in the zone.
    package static func civilDay(of instant: Date, in zone: TimeZone) -> Int {
        let local = Int((instant.timeIntervalSince1970).rounded(.down)) + zone.secondsFromGMT(for: instant)
        return Int((Double(local) / 86_400).rounded(.down))
    }

    /// 1 Monday … 7 Sunday; 1970-01-01 was a Thursday.
    package static func isoWeekday(of day: Int) -> Int {
        ((day % 7) + 7 + 3) % 7 + 1
    }

    /// The instant the zone's clock reads `hour:minute` on civil day `day`: the first, when it reads it twice.
    package static func instant(day: Int, hour: Int, minute: Int, in zone: TimeZone) -> Date {
        instants(day: day, hour: hour, minute: minute, in: zone, bothOccurrences: false)[0]
    }

    /// The instants the zone's clock reads `hour:minute` on civil day `day`: one, two when the clock shows it twice
    /// (or only the first, unless `bothOccurrences`), and the end of the gap when the clock skips it.
    package static func instants(day: Int, hour: Int, minute: Int, in zone: TimeZone, bothOccurrences: Bool) -> [Date] {
        let local = Double(day * 86_400 + hour * 3_600 + minute * 60)
        // A day holds at most one change here: the offsets a day before and a day after are the two it can have.
        let before = Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: local - 86_400)))
        let after = Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: local + 86_400)))
        let candidates = Set([local - before, local - after]).filter { candidate in
            Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: candidate))) == local - candidate
        }.sorted().map { Date(timeIntervalSince1970: $0) }
        if let first = candidates.first { return bothOccurrences ? candidates : [first] }
        // In the gap: the change itself is the first instant after it.
        let transition = zone.nextDaylightSavingTimeTransition(after: Date(timeIntervalSince1970: local - before - 86_400))
        return [transition ?? Date(timeIntervalSince1970: local - before)]
    }

    /// The year, month and day of days since 1970-01-01 (the proleptic Gregorian calendar; Howard Hinnant's
    /// `civil_from_days`).
    package static func civilDate(ofDay day: Int) -> (year: Int, month: Int, day: Int) {
        let z = day + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let date = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, date)
    }
}
