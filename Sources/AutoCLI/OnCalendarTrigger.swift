import AutoAutomation
import AutoLanguage
import Foundation

/// The trigger an `OnCalendar=` expression becomes: `every day at 09:00` where that is what it says, else a cron
/// expression, with notes for what fires differently; or a refusal for what no trigger fires the same way.
struct OnCalendarTrigger {
    let trigger: Automation.Trigger
    /// Where the automation will not fire exactly as the timer did (a daylight-saving gap), and why the text looks
    /// as it does: written as comments, and as warnings.
    let notes: [String]

    /// Why a calendar expression has no trigger that fires the same way.
    struct Refusal: Error, Equatable, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    /// Years scanned for a daylight-saving gap the expression fires in: eight hold every weekday and leap-year pattern.
    static let horizonYears = 8

    /// `zone` is the machine's, which an expression without a zone uses (the timer's and the automation's alike);
    /// `now` is where the search for daylight-saving gaps starts.
    init(_ spec: SystemdCalendarSpec, machineZone: TimeZone, now: Date) throws(Refusal) {
        guard let seconds = spec.seconds else {
            throw Refusal(message: "it fires every second; an automation fires at most once a minute")
        }
        guard seconds == [SystemdCalendarSpec.Item(start: 0)] else {
            throw Refusal(message: "it fires at seconds other than :00; an automation's times are whole minutes (HH:MM), "
                          + "so it would fire at another instant")
        }
        guard spec.years == nil else {
            throw Refusal(message: "it is limited to some years; an automation's time repeats every year "
                          + "(for one instant, write `at \"YYYY-MM-DD HH:MM\"`)")
        }
        guard !spec.endOfMonth else {
            throw Refusal(message: "it counts days back from the month's end (~), which cron can't: its days count from the first")
        }
        guard spec.weekdays == nil || spec.days == nil else {
            throw Refusal(message: "systemd fires only on days that match both the weekday and the day of the month; "
                          + "cron fires on days that match either, so no trigger fires on the same days")
        }
        let minutes = SystemdCalendarSpec.values(of: spec.minutes, in: 0...59) ?? Array(0...59)
        let hours = SystemdCalendarSpec.values(of: spec.hours, in: 0...23) ?? Array(0...23)
        let days = SystemdCalendarSpec.values(of: spec.days, in: 1...31)
        let months = SystemdCalendarSpec.values(of: spec.months, in: 1...12)
        var notes: [String] = []
        let zone: TimeZone
        switch spec.zone {
        case .local:
            zone = machineZone
        case .named(let name):
            guard let named = TimeZone(identifier: name) else { throw Refusal(message: "'\(name)' is not a time zone this machine knows") }
            zone = named
        }
        if minutes.count == 1, hours.count == 1, days == nil, months == nil, spec.zone == .local {
            trigger = .weekly(days: spec.weekdays?.sorted(), hour: hours[0], minute: minutes[0])
        } else {
            let cronDays = spec.weekdays.map { Self.weekdayField($0) } ?? "*"
            // A minute or hour field starting with `*` makes a wildcard job, which fires a time the clock shows twice
            // (it falls back) at both occurrences; systemd fires it once, at the first, as a fixed-time job does.
            let minuteField = Self.fixedTime(Self.field(minutes, in: 0...59), in: 0...59)
            let hourField = Self.fixedTime(Self.field(hours, in: 0...23), in: 0...23)
            if minuteField != Self.field(minutes, in: 0...59) || hourField != Self.field(hours, in: 0...23) {
                notes.append("the minutes and hours are written without *, so that a time the clock shows twice when it falls back runs once, as under systemd")
            }
            let expression = [minuteField, hourField, days.map { Self.field($0, in: 1...31) } ?? "*",
                              months.map { Self.field($0, in: 1...12) } ?? "*", cronDays].joined(separator: " ")
            guard let parsed = try? CronExpression(parsing: expression), parsed.canFire else {
                throw Refusal(message: "it never fires: no month has the days it names")
            }
            if case .named(let name) = spec.zone {
                trigger = .cron(expression: expression, zone: name)
            } else {
                trigger = .cron(expression: expression, zone: nil)
            }
        }
        let fires = FireTimes(minutes: Set(minutes), hours: Set(hours), days: days.map(Set.init), months: months.map(Set.init), weekdays: spec.weekdays)
        if let gap = fires.firstGapDifference(in: zone, after: now, years: Self.horizonYears) {
            notes.append("when the clock springs forward on \(gap.date) in \(zone.identifier) it skips \(gap.skipped); systemd then does "
                         + "not run at all, and the automation runs at \(gap.resumed), when the clock resumes (docs/LANGUAGE.md §9)")
        }
        self.notes = notes
    }

    /// `mon-fri`, `sun,sat`: cron's weekday numbers (0 Sunday) for ISO days, as names, runs of three or more as ranges.
    static func weekdayField(_ days: Set<Int>) -> String {
        let names = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]
        return runs(days.map { $0 % 7 }.sorted()).map { run in
            run.count >= 3 ? "\(names[run[0]])-\(names[run[run.count - 1]])" : run.map { names[$0] }.joined(separator: ",")
        }.joined(separator: ",")
    }

    /// A cron field for sorted `values` of `range`: `*`, a step (`*/15`, `5-50/15`), or a list whose runs of three or
    /// more are ranges.
    static func field(_ values: [Int], in range: ClosedRange<Int>) -> String {
        if values.count == range.count { return "*" }
        if values.count >= 3 {
            let step = values[1] - values[0]
            if step > 1, zip(values, values.dropFirst()).allSatisfy({ $1 - $0 == step }) {
                let last = values[values.count - 1]
                if values[0] == range.lowerBound, last + step > range.upperBound { return "*/\(step)" }
                return "\(values[0])-\(last)/\(step)"
            }
        }
        return runs(values).map { run in
            run.count >= 3 ? "\(run[0])-\(run[run.count - 1])" : run.map(String.init).joined(separator: ",")
        }.joined(separator: ",")
    }

    /// A cron field that doesn't start with `*`, so that cron reads it as a fixed-time job's: `*` is `0-59`, `*/15`
    /// is `0-59/15`.
    static func fixedTime(_ field: String, in range: ClosedRange<Int>) -> String {
        guard field.hasPrefix("*") else { return field }
        return "\(range.lowerBound)-\(range.upperBound)" + field.dropFirst()
    }

    /// Sorted values cut where they stop being consecutive.
    static func runs(_ values: [Int]) -> [[Int]] {
        var runs: [[Int]] = []
        for value in values {
            if let last = runs.last?.last, last + 1 == value { runs[runs.count - 1].append(value) } else { runs.append([value]) }
        }
        return runs
    }
}

/// The wall times an expression names, to find where a daylight-saving gap makes the automation fire when systemd
/// does not: systemd skips a time the clock jumps over, the language runs it when the clock resumes.
struct FireTimes {
    let minutes: Set<Int>, hours: Set<Int>
    /// Nil for every day or month.
    let days: Set<Int>?, months: Set<Int>?
    /// ISO weekdays; nil for every day.
    let weekdays: Set<Int>?

    func matches(day: Int, hour: Int, minute: Int) -> Bool {
        let date = LocalTime.civilDate(ofDay: day)
        return minutes.contains(minute) && hours.contains(hour) && (days?.contains(date.day) ?? true)
            && (months?.contains(date.month) ?? true) && (weekdays?.contains(LocalTime.isoWeekday(of: day)) ?? true)
    }

    /// The first gap after `instant` in which a time fires, when the time the clock resumes at does not fire too
    /// (then both fire once, at that instant, and nothing differs).
    func firstGapDifference(in zone: TimeZone, after instant: Date, years: Int) -> (date: String, skipped: String, resumed: String)? {
        var cursor = instant
        let end = instant.addingTimeInterval(Double(years) * 366 * 86_400)
        while let change = zone.nextDaylightSavingTimeTransition(after: cursor), change < end {
            cursor = change
            let before = zone.secondsFromGMT(for: change.addingTimeInterval(-1)), after = zone.secondsFromGMT(for: change)
            guard after > before else { continue }
            let start = Int(change.timeIntervalSince1970) + before, resume = Int(change.timeIntervalSince1970) + after
            func wallTime(_ local: Int) -> (day: Int, hour: Int, minute: Int) {
                let day = Int((Double(local) / 86_400).rounded(.down)), second = local - day * 86_400
                return (day, second / 3_600, second % 3_600 / 60)
            }
            let resumed = wallTime(resume)
            guard !matches(day: resumed.day, hour: resumed.hour, minute: resumed.minute) else { continue }
            for local in stride(from: start, to: resume, by: 60) {
                let time = wallTime(local)
                guard matches(day: time.day, hour: time.hour, minute: time.minute) else { continue }
                let date = LocalTime.civilDate(ofDay: time.day)
                return (String(format: "%04d-%02d-%02d", date.year, date.month, date.day), String(format: "%02d:%02d", time.hour, time.minute),
                        String(format: "%02d:%02d", resumed.hour, resumed.minute))
            }
        }
        return nil
    }
}
