@testable import AutoAutomation
import AutoLanguage
import AutoTestSupport
import Foundation
import Testing

/// When cron runs a crontab's jobs, written here by hand from its rules (cronie's entry.c and cron.c), against the
/// project's `CronSchedule` and against the test's own reading of cron (`CrontabReference`): both must give the
/// table's times. Daylight-saving days in Paris (2026-03-29 02:00→03:00, 2026-10-25 03:00→02:00) and New York
/// (2026-03-08 02:00→03:00, 2026-11-01 02:00→01:00), a leap day, `*/N` in a day field, 7 and names for Sunday.
@Suite struct CrontabFireTests {
    struct Row: CustomStringConvertible {
        let schedule: String
        let zone: String
        let after: String
        let fires: [String]
        var description: String { "'\(schedule)' in \(zone) after \(after)" }
    }

    static let table: [Row] = [
        // A fixed time in the gap runs when the clock has jumped, once.
        Row(schedule: "30 2 * * *", zone: "Europe/Paris", after: "2026-03-28T12:00:00+01:00",
            fires: ["2026-03-29T03:00:00+02:00", "2026-03-30T02:30:00+02:00"]),
        // A wildcard job (the hour is `*`) keeps the beat: 02:30 doesn't exist and isn't run.
        Row(schedule: "30 * * * *", zone: "Europe/Paris", after: "2026-03-29T01:00:00+01:00",
            fires: ["2026-03-29T01:30:00+01:00", "2026-03-29T03:30:00+02:00", "2026-03-29T04:30:00+02:00"]),
        // `*/20` in the minute makes it a wildcard job too: the whole 02:xx hour is skipped that night.
        Row(schedule: "*/20 2 * * *", zone: "Europe/Paris", after: "2026-03-28T12:00:00+01:00",
            fires: ["2026-03-30T02:00:00+02:00", "2026-03-30T02:20:00+02:00"]),
        // The clock falls back: a fixed time runs at its first occurrence only…
        Row(schedule: "30 2 * * *", zone: "Europe/Paris", after: "2026-10-24T12:00:00+02:00",
            fires: ["2026-10-25T02:30:00+02:00", "2026-10-26T02:30:00+01:00"]),
        // …a wildcard one at both.
        Row(schedule: "30 * * * *", zone: "Europe/Paris", after: "2026-10-25T01:45:00+02:00",
            fires: ["2026-10-25T02:30:00+02:00", "2026-10-25T02:30:00+01:00", "2026-10-25T03:30:00+01:00"]),
        Row(schedule: "0 */2 * * *", zone: "Europe/Paris", after: "2026-10-25T01:30:00+02:00",
            fires: ["2026-10-25T02:00:00+02:00", "2026-10-25T02:00:00+01:00", "2026-10-25T04:00:00+01:00"]),
        Row(schedule: "15 1 * * *", zone: "America/New_York", after: "2026-10-31T12:00:00-04:00",
            fires: ["2026-11-01T01:15:00-04:00", "2026-11-02T01:15:00-05:00"]),
        // 7 is Sunday; 2026-03-08 is a Sunday and its 02:45 is in New York's gap.
        Row(schedule: "45 2 * * 7", zone: "America/New_York", after: "2026-03-01T12:00:00-05:00",
            fires: ["2026-03-08T03:00:00-04:00", "2026-03-15T02:45:00-04:00"]),
        Row(schedule: "45 2 * * sun", zone: "America/New_York", after: "2026-03-01T12:00:00-05:00",
            fires: ["2026-03-08T03:00:00-04:00", "2026-03-15T02:45:00-04:00"]),
        Row(schedule: "0 12 29 2 *", zone: "UTC", after: "2026-01-01T00:00:00Z",
            fires: ["2028-02-29T12:00:00Z", "2032-02-29T12:00:00Z"]),
        // A day field that starts with `*` is unrestricted, `*/2` too: odd days that are Mondays (2026-06-01 is one)…
        Row(schedule: "0 0 */2 * mon", zone: "UTC", after: "2026-06-01T00:00:00Z",
            fires: ["2026-06-15T00:00:00Z", "2026-06-29T00:00:00Z", "2026-07-13T00:00:00Z"]),
        // …and with both fields restricted, odd days or Mondays.
        Row(schedule: "0 0 1-31/2 * mon", zone: "UTC", after: "2026-06-01T00:00:00Z",
            fires: ["2026-06-03T00:00:00Z", "2026-06-05T00:00:00Z", "2026-06-07T00:00:00Z", "2026-06-08T00:00:00Z"]),
        Row(schedule: "0 9 * * fri-sun", zone: "UTC", after: "2026-06-01T00:00:00Z",
            fires: ["2026-06-05T09:00:00Z", "2026-06-06T09:00:00Z", "2026-06-07T09:00:00Z", "2026-06-12T09:00:00Z"]),
        Row(schedule: "0 8 * JAN-Mar Mon-Fri", zone: "UTC", after: "2026-03-30T12:00:00Z",
            fires: ["2026-03-31T08:00:00Z", "2027-01-01T08:00:00Z", "2027-01-04T08:00:00Z"]),
        // The 31st: only the months that have one.
        Row(schedule: "0 0 31 * *", zone: "UTC", after: "2026-03-31T12:00:00Z",
            fires: ["2026-05-31T00:00:00Z", "2026-07-31T00:00:00Z", "2026-08-31T00:00:00Z", "2026-10-31T00:00:00Z"]),
        // Steps count from the range's start: `*/25` is 0, 25, 50; `10-50/15` is 10, 25, 40.
        Row(schedule: "*/25 * * * *", zone: "UTC", after: "2026-06-01T00:00:00Z",
            fires: ["2026-06-01T00:25:00Z", "2026-06-01T00:50:00Z", "2026-06-01T01:00:00Z", "2026-06-01T01:25:00Z"]),
        Row(schedule: "10-50/15 3 * * *", zone: "UTC", after: "2026-06-01T00:00:00Z",
            fires: ["2026-06-01T03:10:00Z", "2026-06-01T03:25:00Z", "2026-06-01T03:40:00Z", "2026-06-02T03:10:00Z"]),
        Row(schedule: "@weekly", zone: "UTC", after: "2026-06-01T00:00:00Z", fires: ["2026-06-07T00:00:00Z", "2026-06-14T00:00:00Z"]),
        Row(schedule: "@monthly", zone: "Europe/Paris", after: "2026-06-01T00:00:00+02:00",
            fires: ["2026-07-01T00:00:00+02:00", "2026-08-01T00:00:00+02:00"]),
        Row(schedule: "@yearly", zone: "Europe/Paris", after: "2026-06-01T00:00:00+02:00",
            fires: ["2027-01-01T00:00:00+01:00", "2028-01-01T00:00:00+01:00"]),
    ]

    static func instant(_ text: String) throws -> Date {
        try #require(ISO8601DateFormatter().date(from: text), "\(text) is no ISO 8601 instant")
    }

    @Test(arguments: table)
    func theProjectsCronAndTheReferenceGiveTheTablesTimes(_ row: Row) throws {
        let zone = try #require(TimeZone(identifier: row.zone))
        let after = try Self.instant(row.after), expected = try row.fires.map(Self.instant)
        let schedule = CronSchedule(try CronExpression(parsing: row.schedule), timeZone: zone)
        #expect(schedule.fires(after: after, count: expected.count) == expected, "CronSchedule, \(row)")
        let reference = try #require(CrontabReference(row.schedule), "the reference reads \(row.schedule)")
        #expect(reference.fires(after: after, count: expected.count, in: zone) == expected, "the reference, \(row)")
    }

    /// The two readings agree far beyond the table: each row's expression, a thousand fires in each zone the table uses.
    @Test(arguments: ["Europe/Paris", "America/New_York"])
    func theProjectsCronAndTheReferenceAgreeForAThousandFires(_ name: String) throws {
        let zone = try #require(TimeZone(identifier: name))
        let start = try Self.instant("2026-03-01T00:00:00Z")
        for schedule in Set(Self.table.map(\.schedule)) {
            let reference = try #require(CrontabReference(schedule)).fires(after: start, count: 1_000, in: zone)
            let project = CronSchedule(try CronExpression(parsing: schedule), timeZone: zone).fires(after: start, count: 1_000)
            #expect(reference.count == 1_000)
            guard project != reference else { continue }
            let index = (0..<min(project.count, reference.count)).first { project[$0] != reference[$0] } ?? min(project.count, reference.count)
            let byProject = index < project.count ? "\(project[index])" : "none", byReference = index < reference.count ? "\(reference[index])" : "none"
            Issue.record("'\(schedule)' in \(name): fire \(index) is \(byProject) by CronSchedule, \(byReference) by the reference")
        }
    }

    @Test func theReferenceRefusesWhatCronRefuses() {
        for refused in ["5/15 * * * *", "0 0 * * 8", "@Daily", "0 24 * * *", "0 0 0 * *", "* * * *", "+5 * * * *", "0 0 1,,2 * *"] {
            #expect(CrontabReference(refused) == nil, "\(refused)")
        }
    }
}
