@testable import AutoCLI
import AutoLanguage
import Foundation
import Testing

/// `OnCalendar=` expressions read by systemd.time(7)'s rules, the triggers they become, and the ones refused.
@Suite struct OnCalendarParsingTests {
    typealias Item = SystemdCalendarSpec.Item
    static let paris = TimeZone(identifier: "Europe/Paris") ?? .current
    static let now = Date(timeIntervalSince1970: 1_735_689_600)  // 2025-01-01

    @Test func theManualsFormsParseToTheirParts() throws {
        let spec = try SystemdCalendarSpec(parsing: "Sat,Thu,Mon..Wed,Sat..Sun 12-*-1/3,5 2,1:23 Europe/Paris")
        #expect(spec.weekdays == [1, 2, 3, 4, 6, 7])
        #expect(spec.years == [Item(start: 2012)])
        #expect(spec.months == nil)
        #expect(spec.days == [Item(start: 1, step: 3), Item(start: 5)])
        #expect(spec.hours == [Item(start: 2), Item(start: 1)])
        #expect(spec.minutes == [Item(start: 23)])
        #expect(spec.seconds == [Item(start: 0)])
        #expect(spec.zone == .named("Europe/Paris"))
        let short = try SystemdCalendarSpec(parsing: "Wed, 17:48")
        #expect(short.weekdays == [3])
        #expect(short.days == nil)
        #expect(try SystemdCalendarSpec(parsing: "10:00:05.5").seconds == [Item(start: 5_500_000)])
        #expect(try SystemdCalendarSpec(parsing: "monday..friday 9:0") == SystemdCalendarSpec(parsing: "Mon-Fri 09:00:00"))
        #expect(try SystemdCalendarSpec(parsing: "weekly UTC") == SystemdCalendarSpec(parsing: "Mon *-*-* 00:00:00 UTC"))
        #expect(try SystemdCalendarSpec(parsing: "*-02~03").endOfMonth)
        #expect(try SystemdCalendarSpec(parsing: "Mon..Sun 10:00").weekdays == nil)
    }

    @Test(arguments: [
        ("*:*/5", "'*/N' is not systemd's repetition"),
        ("*:59/2", "never repeats"),
        ("25:00", "hour 25 is out of range"),
        ("*-13-01", "month 13 is out of range"),
        ("Fri..Mon 10:00", "ends before it starts"),
        ("Mon,10:00", "is not a weekday"),
        ("Mon.. 10:00", "has no end"),
        ("10:00 Mars/Olympus", "is not part of"),
        ("5..1:00", "runs backwards"),
        ("@1700000000", "one instant"),
        ("", "empty"),
        ("*:0/0", "repetition of 0"),
    ])
    func aWrongExpressionSaysWhatIsWrong(_ expression: String, _ message: String) {
        #expect {
            try SystemdCalendarSpec(parsing: expression)
        } throws: { error in
            (error as? SystemdCalendarSpec.ParseError)?.message.contains(message) ?? false
        }
    }

    @Test(arguments: [
        ("daily", "every day at 00:00"),
        ("Mon..Fri 09:00", "every weekday at 09:00"),
        ("Sat,Sun 10:00", "every saturday, sunday at 10:00"),
        ("weekly", "every monday at 00:00"),
        ("Sat,Sun 10:00 Europe/Paris", #"cron "0 10 * * sun,sat" in "Europe/Paris""#),
        ("*-*-01 00:00:00 America/New_York", #"cron "0 0 1 * *" in "America/New_York""#),
        ("quarterly", #"cron "0 0 1 */3 *""#),
        ("semiannually", #"cron "0 0 1 1,7 *""#),
        ("hourly", #"cron "0 0-23 * * *""#),
        ("*:0/7", #"cron "0-59/7 0-23 * * *""#),
        ("minutely", #"cron "0-59 0-23 * * *""#),
        ("*-*-1/3 06:00", #"cron "0 6 */3 * *""#),
        ("*-*-2/3 06:00", #"cron "0 6 2-29/3 * *""#),
        ("Mon..Wed,Fri 9..17:00,30", #"cron "0,30 9-17 * * mon-wed,fri""#),
        ("daily UTC", #"cron "0 0 * * *" in "UTC""#),
        ("*-06..08-* 12:00", #"cron "0 12 * 6-8 *""#),
    ])
    func anExpressionBecomesTheTriggerThatSaysTheSame(_ expression: String, _ trigger: String) throws {
        let converted = try OnCalendarTrigger(SystemdCalendarSpec(parsing: expression), machineZone: Self.paris, now: Self.now)
        #expect(converted.trigger.description == trigger)
    }

    @Test(arguments: [
        ("*-*-* 10:00:30", "seconds other than :00"),
        ("*:*:*", "every second"),
        ("2026-*-* 10:00", "limited to some years"),
        ("*-*~1 10:00", "month's end"),
        ("Mon *-*-1..7 10:00", "both the weekday and the day"),
        ("*-02-30 10:00", "never fires"),
    ])
    func anExpressionNoTriggerFiresTheSameWayIsRefused(_ expression: String, _ message: String) throws {
        let spec = try SystemdCalendarSpec(parsing: expression)
        #expect {
            try OnCalendarTrigger(spec, machineZone: Self.paris, now: Self.now)
        } throws: { error in
            (error as? OnCalendarTrigger.Refusal)?.message.contains(message) ?? false
        }
    }

    @Test func aTimeInADaylightSavingGapIsNotedWithTheDateAndWhatHappens() throws {
        let gap = try OnCalendarTrigger(SystemdCalendarSpec(parsing: "*-*-* 02:30"), machineZone: Self.paris, now: Self.now)
        #expect(gap.notes.contains { $0.contains("springs forward on 2025-03-30 in Europe/Paris it skips 02:30") && $0.contains("runs at 03:00") },
                "\(gap.notes)")
        // 03:00 fires too, so the run when the clock resumes is one systemd makes as well: nothing to say.
        let hourly = try OnCalendarTrigger(SystemdCalendarSpec(parsing: "hourly"), machineZone: Self.paris, now: Self.now)
        #expect(!hourly.notes.contains { $0.contains("springs forward") }, "\(hourly.notes)")
        let utc = try OnCalendarTrigger(SystemdCalendarSpec(parsing: "*-*-* 02:30 UTC"), machineZone: Self.paris, now: Self.now)
        #expect(utc.notes.isEmpty)
    }
}
