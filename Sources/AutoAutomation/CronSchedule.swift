import AutoLanguage
import Foundation

/// A cron expression in a time zone, fired by docs/LANGUAGE.md §9's rules, which are cronie's (cron.c's time-jump
/// cases, also Debian's cron): a fixed-time expression fires once, when the gap ends, for the wall times the clock
/// skips, and at the first occurrence of those it shows twice; a wildcard one (`CronExpression.wildcard`: the
/// minute or hour field starts with `*`) keeps the clock's beat: no fire for a skipped wall time, one at each
/// occurrence of a repeated one.
package struct CronSchedule: FireSchedule {
    package let expression: CronExpression
    package let timeZone: TimeZone

    /// Days searched for a match before saying it never fires again: fifteen years hold every leap day and every
    /// weekday of a month's first day (`*/7` in the day of month with a day of week: both must match), 2100's
    /// missing leap day included.
    static let horizon = 15 * 366

    package init(_ expression: CronExpression, timeZone: TimeZone = .current) {
        self.expression = expression
        self.timeZone = timeZone
    }

    package func nextFire(after instant: Date) -> Date? {
        guard expression.canFire else { return nil }
        var day = LocalTime.civilDay(of: instant, in: timeZone)
        for _ in 0..<Self.horizon {
            let (year, month, date) = LocalTime.civilDate(ofDay: day)
            if expression.matches(year: year, month: month, day: date, weekday: LocalTime.isoWeekday(of: day) % 7),
               let fire = firstFire(on: day, after: instant) {
                return fire
            }
            day += 1
        }
        return nil
    }

    /// The day's first fire after `instant`. A day far from any change has one offset, and its wall times and
    /// instants go in the same order: the first wall time past `instant` is it. Near a change each wall time has
    /// the instants the old and new offsets give, kept where they fall on their side of the change.
    func firstFire(on day: Int, after instant: Date) -> Date? {
        let start = Double(day * 86_400)
        let transition = timeZone.nextDaylightSavingTimeTransition(after: Date(timeIntervalSince1970: start - 2 * 86_400))
        guard let change = transition?.timeIntervalSince1970, change < start + 2 * 86_400 else {
            let offset = Double(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: start)))
            for hour in expression.hours {
                for minute in expression.minutes {
                    let fire = Date(timeIntervalSince1970: start + Double(hour * 3_600 + minute * 60) - offset)
                    if fire > instant { return fire }
                }
            }
            return nil
        }
        let old = Double(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: change - 1)))
        let new = Double(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: change)))
        let after = instant.timeIntervalSince1970
        var first: Double?
        for hour in expression.hours {
            for minute in expression.minutes {
                let local = start + Double(hour * 3_600 + minute * 60)
                let before = local - old, later = local - new
                var fires: [Double] = []
                if before < change { fires.append(before) }
                if later >= change, fires.isEmpty || expression.wildcard { fires.append(later) }
                // In the gap: neither offset reads this wall time; a fixed time fires when the gap ends.
                if fires.isEmpty, !expression.wildcard { fires.append(change) }
                for fire in fires where fire > after && fire < (first ?? .infinity) { first = fire }
            }
        }
        return first.map(Date.init(timeIntervalSince1970:))
    }
}
