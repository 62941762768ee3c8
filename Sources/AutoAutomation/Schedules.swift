import AutoLanguage
import Foundation

/// The schedule of an automation's trigger.
package enum Schedules {
    /// The schedule a trigger fires on; `zone` is the machine's unless the trigger names one. Nil for a file trigger,
    /// which fires on file events, not on time.
    package static func schedule(for trigger: Automation.Trigger, zone: TimeZone = .current) throws(CronExpression.ParseError) -> (any FireSchedule)? {
        switch trigger {
        case .interval(let duration): return IntervalSchedule(interval: duration)
        case .weekly(let days, let hour, let minute): return WallClockSchedule(days: days.map(Set.init), hour: hour, minute: minute, timeZone: zone)
        case .once(let date): return OnceSchedule(instant: date)
        case .cron(let expression, let zoneName):
            let parsed = try CronExpression(parsing: expression)
            return CronSchedule(parsed, timeZone: zoneName.flatMap(TimeZone.init(identifier:)) ?? zone)
        case .file:
            return nil
        }
    }
}
