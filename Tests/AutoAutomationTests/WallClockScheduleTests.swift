@testable import AutoAutomation
import Foundation
import Testing

/// `every day at`, `every <days> at`, `every <duration>` and `at`: next fires compared, across daylight-saving
/// changes in several zones, with an oracle that walks real time minute by minute and applies docs/LANGUAGE.md
/// §9 itself: on each matching civil day the fire is the first instant whose wall clock reads the time or later
/// (so a time the clock skips fires when the gap ends, and a time shown twice fires the first time).
@Suite struct WallClockScheduleTests {
    static let zones = ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Tokyo", "America/Sao_Paulo"]

    /// Around a year's changes: the windows start a week before each change of 2026 in the zone.
    static func windows(_ zone: TimeZone) -> [Date] {
        var starts: [Date] = [Date(timeIntervalSince1970: 1_767_225_600)]  // 2026-01-01T00:00Z, for zones without changes
        var cursor = Date(timeIntervalSince1970: 1_767_225_600)
        while let change = zone.nextDaylightSavingTimeTransition(after: cursor), change < Date(timeIntervalSince1970: 1_798_761_600) {
            starts.append(change.addingTimeInterval(-7 * 86_400))
            cursor = change
        }
        return starts
    }

    func oracle(_ schedule: WallClockSchedule, from start: Date, days: Int) -> [Date] {
        var fires: [Date] = []
        var firedDay = Int.min
        let wanted = schedule.hour * 3_600 + schedule.minute * 60
        var t = (start.timeIntervalSince1970 / 60).rounded(.down) * 60 + 60
        // The start's own day has had its fire when the clock is already past the time then.
        let startLocal = Int(start.timeIntervalSince1970) + schedule.timeZone.secondsFromGMT(for: start)
        let startDay = Int((Double(startLocal) / 86_400).rounded(.down))
        if startLocal - startDay * 86_400 >= wanted { firedDay = startDay }
        let end = start.timeIntervalSince1970 + Double(days) * 86_400
        while t <= end {
            let instant = Date(timeIntervalSince1970: t)
            let local = Int(t) + schedule.timeZone.secondsFromGMT(for: instant)
            let day = Int((Double(local) / 86_400).rounded(.down))
            let second = local - day * 86_400
            if day != firedDay, second >= wanted, schedule.days?.contains(LocalTime.isoWeekday(of: day)) ?? true {
                fires.append(instant)
                firedDay = day
            }
            t += 60
        }
        return fires
    }

    func fires(_ schedule: WallClockSchedule, from start: Date, days: Int) -> [Date] {
        var fires: [Date] = []
        var after = start
        let end = start.addingTimeInterval(Double(days) * 86_400)
        while let next = schedule.nextFire(after: after), next <= end {
            fires.append(next)
            after = next
        }
        return fires
    }

    @Test(arguments: zones)
    func matchesTheOracleAcrossDaylightSavingChanges(_ name: String) throws {
        let zone = try #require(TimeZone(identifier: name))
        // Times in and around the gaps and overlaps: 00:00 (Sao Paulo's changes were at midnight), 01:30, 02:00,
        // 02:15 and 02:30 (Berlin, New York, Lord Howe's half hour), 03:00, and one far from any change.
        let times = [(0, 0), (1, 30), (2, 0), (2, 15), (2, 30), (2, 45), (3, 0), (7, 30), (23, 59)]
        let daySets: [Set<Int>?] = [nil, [1, 2, 3, 4, 5], [7], [6, 7]]
        for start in Self.windows(zone) {
            for (hour, minute) in times {
                for days in daySets {
                    let schedule = WallClockSchedule(days: days, hour: hour, minute: minute, timeZone: zone)
                    let expected = oracle(schedule, from: start, days: 16)
                    let actual = fires(schedule, from: start, days: 16)
                    #expect(actual == expected, "\(name) \(hour):\(minute) days \(String(describing: days)) from \(start)")
                }
            }
        }
    }

    @Test func knownChangesFireWhereTheRulesSay() throws {
        let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
        let iso = ISO8601DateFormatter()
        iso.timeZone = berlin
        let spring = WallClockSchedule(days: nil, hour: 2, minute: 30, timeZone: berlin)
        #expect(spring.nextFire(after: try #require(iso.date(from: "2026-03-28T12:00:00+01:00"))).map(iso.string) == "2026-03-29T03:00:00+02:00",
                "a time skipped fires when the gap ends")
        #expect(spring.nextFire(after: try #require(iso.date(from: "2026-10-24T12:00:00+02:00"))).map(iso.string) == "2026-10-25T02:30:00+02:00",
                "a time shown twice fires the first time")
        #expect(spring.nextFire(after: try #require(iso.date(from: "2026-10-25T02:30:00+02:00"))).map(iso.string) == "2026-10-26T02:30:00+01:00",
                "and not again the second time")
        let lordHowe = try #require(TimeZone(identifier: "Australia/Lord_Howe"))
        iso.timeZone = lordHowe
        let halfHour = WallClockSchedule(days: nil, hour: 2, minute: 15, timeZone: lordHowe)
        #expect(halfHour.nextFire(after: try #require(iso.date(from: "2026-10-03T12:00:00+10:30"))).map(iso.string) == "2026-10-04T02:30:00+11:00",
                "Lord Howe's 30-minute gap")
    }

    @Test func intervalsAndOnce() {
        let every = IntervalSchedule(interval: .seconds(90))
        #expect(every.nextFire(after: Date(timeIntervalSince1970: 1_000)) == Date(timeIntervalSince1970: 1_090))
        let once = OnceSchedule(instant: Date(timeIntervalSince1970: 5_000))
        #expect(once.nextFire(after: Date(timeIntervalSince1970: 1_000)) == Date(timeIntervalSince1970: 5_000))
        #expect(once.nextFire(after: Date(timeIntervalSince1970: 5_000)) == nil)
    }
}
