import AutoLanguage
import Foundation

/// The schedule of an automation's trigger, and the one rule for when it fires: `fires(of:after:through:)`, which the
/// scheduler, `auto automations list` and `auto automations next` all ask.
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

    /// The fires of a schedule counted from an automation's cursor — the last fire the store recorded for it, or the
    /// instant a daemon first loaded it — up to `now`: those due by then (the latest `limit` of them; `dropped`
    /// counts the earlier ones) and the first one after it. The scheduler runs or skips the due ones; `list` and
    /// `next` show the next one. Counting from the cursor, not from `now`, is what keeps `every 15 minutes` on the
    /// daemon's beat whenever it is asked.
    package static func fires(of schedule: any FireSchedule, after cursor: Date, through now: Date, limit: Int = 0)
        -> (due: [Date], dropped: Int, next: Date?) {
        var due: [Date] = []
        var dropped = 0
        var after = cursor
        while let fire = schedule.nextFire(after: after) {
            guard fire <= now else { return (due, dropped, fire) }
            due.append(fire)
            after = fire
            if due.count > limit {
                due.removeFirst()
                dropped += 1
            }
        }
        return (due, dropped, nil)
    }

    /// When an automation fires next, as a daemon holding `store` fires it: from its cursor when the store has one;
    /// without one, a wall-clock or cron time is the same whenever a daemon started, but `every <duration>` counts
    /// from the instant a daemon first loads the automation, which is not known yet.
    /// `schedule` is the trigger's (`schedule(for:)`).
    package static func next(of trigger: Automation.Trigger, schedule: (any FireSchedule)?, cursor: Date?, now: Date) -> NextFire {
        guard let schedule else { return .onFileEvents }
        if cursor == nil, case .interval(let interval) = trigger { return .afterLoad(interval) }
        return fires(of: schedule, after: cursor ?? now, through: now).next.map(NextFire.at) ?? .never
    }
}

/// When an automation fires next (`Schedules.next`).
package enum NextFire: Sendable, Equatable {
    case at(Date)
    /// A time that has passed (`at "…"`), or a cron that matches no day any more.
    case never
    /// A file trigger: on events, not on time.
    case onFileEvents
    /// `every <duration>` that no daemon has loaded yet: its first fire is that long after one does.
    case afterLoad(Duration)
}
