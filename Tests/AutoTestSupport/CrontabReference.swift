import Foundation

/// When cron runs a job, worked out the way cronie's daemon does (entry.c's fields and star flags, cron.c's loop
/// over minutes with its time-jump cases), written apart from the project's `CronExpression` and `CronSchedule` so
/// that the tests compare two readings of cron's rules. For zones whose clocks change away from midnight (Paris, New
/// York), as the test crontabs use.
package struct CrontabReference {
    let minutes: Set<Int>, hours: Set<Int>, daysOfMonth: Set<Int>, months: Set<Int>, daysOfWeek: Set<Int>
    /// cron's DOM_STAR, DOW_STAR, and MIN_STAR or HR_STAR: the field's text starts with `*`.
    let dayOfMonthStar: Bool, dayOfWeekStar: Bool, wildcard: Bool

    static let names = ["yearly": "0 0 1 1 *", "annually": "0 0 1 1 *", "monthly": "0 0 1 * *", "weekly": "0 0 * * 0",
                        "daily": "0 0 * * *", "midnight": "0 0 * * *", "hourly": "0 * * * *"]

    /// Five fields or an `@name`; nil for what cron refuses.
    package init?(_ schedule: String) {
        var text = schedule
        if schedule.hasPrefix("@") {
            guard let fields = Self.names[String(schedule.dropFirst())] else { return nil }
            text = fields
        }
        let fields = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard fields.count == 5,
              let minutes = Self.values(fields[0], 0, 59, names: []), let hours = Self.values(fields[1], 0, 23, names: []),
              let days = Self.values(fields[2], 1, 31, names: []),
              let months = Self.values(fields[3], 1, 12, names: ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]),
              let weekdays = Self.values(fields[4], 0, 7, names: ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]) else { return nil }
        self.minutes = minutes
        self.hours = hours
        daysOfMonth = days
        self.months = months
        daysOfWeek = Set(weekdays.map { $0 == 7 ? 0 : $0 })
        dayOfMonthStar = fields[2].hasPrefix("*")
        dayOfWeekStar = fields[4].hasPrefix("*")
        wildcard = fields[0].hasPrefix("*") || fields[1].hasPrefix("*")
    }

    /// A field's values: items `*`, `N`, `N-M`, `*/S`, `N-M/S`, by commas; names (any case) where the field has
    /// them, the first name being `low`; a range of weekdays ending on 0 runs to 7.
    static func values(_ field: String, _ low: Int, _ high: Int, names: [String]) -> Set<Int>? {
        func number(_ text: Substring) -> Int? {
            if !text.isEmpty, text.allSatisfy({ $0 >= "0" && $0 <= "9" }) { return Int(text) }
            return names.firstIndex(of: text.lowercased()).map { $0 + low }
        }
        var result: Set<Int> = []
        for item in field.split(separator: ",", omittingEmptySubsequences: false) {
            let stepParts = item.split(separator: "/", omittingEmptySubsequences: false)
            guard stepParts.count <= 2 else { return nil }
            var step = 1
            if stepParts.count == 2 {
                guard let parsed = Int(stepParts[1]), stepParts[1].allSatisfy({ $0 >= "0" && $0 <= "9" }), parsed > 0 else { return nil }
                step = parsed
            }
            var from = low, to = high
            if stepParts[0] != "*" {
                let bounds = stepParts[0].split(separator: "-", omittingEmptySubsequences: false)
                guard bounds.count <= 2, let first = number(bounds[0]) else { return nil }
                from = first
                to = first
                if bounds.count == 2 {
                    guard let last = number(bounds[1]) else { return nil }
                    to = last
                    if from > to, to == 0, stepParts.count == 1 { to = 7 }
                } else if stepParts.count == 2 {
                    return nil  // a step after a single value: cronie refuses it
                }
            }
            guard from >= low, to <= high, from <= to else { return nil }
            result.formUnion(stride(from: from, through: to, by: step))
        }
        return result
    }

    /// cron's test of a day: with either day field a star, both must match; else either.
    func dayMatches(month: Int, day: Int, weekday: Int) -> Bool {
        guard months.contains(month) else { return false }
        if dayOfMonthStar || dayOfWeekStar { return daysOfMonth.contains(day) && daysOfWeek.contains(weekday) }
        return daysOfMonth.contains(day) || daysOfWeek.contains(weekday)
    }

    /// A civil date and its weekday, stepped a day at a time.
    struct CivilDay {
        var year: Int, month: Int, day: Int, weekday: Int
        /// Days since 1970-01-01.
        var number: Int
        static func length(_ month: Int, _ year: Int) -> Int {
            if month == 2 { return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28 }
            return [4, 6, 9, 11].contains(month) ? 30 : 31
        }
        /// The date of day `number` (1970 or later), found by whole years from 1970-01-01, a Thursday, then days.
        init(_ number: Int) {
            year = 1970
            month = 1
            day = 1
            weekday = 4
            self.number = 0
            while true {
                let length = Self.length(2, year) == 29 ? 366 : 365
                guard self.number + length <= number else { break }
                self.number += length
                weekday = (weekday + length) % 7
                year += 1
            }
            while self.number < number { advance() }
        }
        mutating func advance() {
            number += 1
            weekday = (weekday + 1) % 7
            day += 1
            if day > Self.length(month, year) {
                day = 1
                month += 1
                if month > 12 {
                    month = 1
                    year += 1
                }
            }
        }
    }

    func dayMatches(_ date: CivilDay) -> Bool { dayMatches(month: date.month, day: date.day, weekday: date.weekday) }

    /// The first `count` instants after `start` at which cron, running in `zone`, starts the job.
    package func fires(after start: Date, count: Int, in zone: TimeZone) -> [Date] {
        func offset(_ second: Int) -> Int { zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(second))) }
        let startSecond = Int(start.timeIntervalSince1970.rounded(.down))
        var date = CivilDay(Int((Double(startSecond + offset(startSecond)) / 86_400).rounded(.down)))
        var fires: [Date] = []
        var idle = 0
        while fires.count < count, idle < 50 * 366 {
            idle += 1
            if !months.contains(date.month) {
                // Straight to the next month's first day.
                let month = date.month
                while date.month == month { date.advance() }
                continue
            }
            defer { date.advance() }
            guard dayMatches(date) else { continue }
            let midnight = date.number * 86_400
            var dayFires: [Int] = []
            if nearChange(date.number, offset) {
                dayFires = simulate(date, offset)
            } else {
                let fixed = offset(midnight)
                for hour in hours.sorted() {
                    for minute in minutes.sorted() { dayFires.append(midnight + hour * 3_600 + minute * 60 - fixed) }
                }
            }
            for fire in dayFires where fire > startSecond && fires.count < count {
                fires.append(Date(timeIntervalSince1970: Double(fire)))
                idle = 0
            }
        }
        return fires
    }

    /// Whether the zone's offset changes between the day before and the day after.
    func nearChange(_ day: Int, _ offset: (Int) -> Int) -> Bool {
        let midnight = day * 86_400
        let first = offset(midnight - 86_400)
        return [midnight, midnight + 86_400, midnight + 2 * 86_400].contains { offset($0) != first }
    }

    /// cron.c's loop over the real minutes of a local day with a clock change: each minute it wakes, it compares the
    /// wall clock with the minute it expected (its virtual time) — one later: the jobs of that minute; up to five
    /// later: each minute caught up; more (the clock sprang forward): the wildcard jobs of now, then the fixed-time
    /// ones of every minute skipped; earlier (it fell back): the wildcard jobs of now only, and the virtual time
    /// waits for the clock to catch up. Gives the real instants, in seconds, at which the job starts.
    func simulate(_ date: CivilDay, _ offset: (Int) -> Int) -> [Int] {
        func runs(atLocalMinute minute: Int, wild: Bool, fixed: Bool) -> Bool {
            guard wildcard ? wild : fixed else { return false }
            let inDay = minute - date.number * 1_440
            // The zones simulated change their clocks away from midnight: every minute looked at is of this day.
            guard (0..<1_440).contains(inDay), minutes.contains(inDay % 60), hours.contains(inDay / 60) else { return false }
            return dayMatches(date)
        }
        func clock(_ second: Int) -> Int { Int((Double(second + offset(second)) / 60).rounded(.down)) }
        var fires: [Int] = []
        // From the first real minute the clock shows this day.
        var real = (date.number * 86_400 - offset(date.number * 86_400 - 86_400)) / 60 * 60 - 3 * 3_600
        while clock(real) < date.number * 1_440 { real += 60 }
        var virtual = clock(real) - 1
        while clock(real) < (date.number + 1) * 1_440 {
            let now = clock(real), difference = now - virtual
            var run = false
            if difference == 1 || abs(difference) > 180 {
                run = runs(atLocalMinute: now, wild: true, fixed: true)
                virtual = now
            } else if difference > 5 {
                run = runs(atLocalMinute: now, wild: true, fixed: false)
                while virtual < now {
                    virtual += 1
                    run = runs(atLocalMinute: virtual, wild: false, fixed: true) || run
                }
            } else if difference > 0 {
                while virtual < now {
                    virtual += 1
                    run = runs(atLocalMinute: virtual, wild: true, fixed: true) || run
                }
            } else {
                run = runs(atLocalMinute: now, wild: true, fixed: false)
            }
            if run { fires.append(real) }
            real += 60
        }
        return fires
    }
}
