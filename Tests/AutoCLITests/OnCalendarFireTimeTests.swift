@testable import AutoCLI
import AutoAutomation
import AutoIntents
import AutoLanguage
import AutoStdlib
import Foundation
import Testing

/// The automations `auto migrate timer` writes fire when the timer did: the next fires of the compiled trigger,
/// as the daemon computes them, against `systemd-analyze calendar` where it is installed, and against fires
/// written out by hand on every machine.
@Suite struct OnCalendarFireTimeTests {
    static let analyze = "/usr/bin/systemd-analyze"
    static let hasAnalyze = FileManager.default.isExecutableFile(atPath: analyze)

    /// An expression, the zone it runs in when it names none (the machine's, as systemd and the daemon both read
    /// it), and where counting starts.
    struct Row: CustomStringConvertible {
        let expression: String
        let zone: String
        let base: String
        var count = 100
        var description: String { "\(expression) [\(zone)] after \(base)" }
    }

    static let rows: [Row] = [
        Row(expression: "daily", zone: "Europe/Paris", base: "2024-10-20T00:00:00Z"),
        Row(expression: "weekly", zone: "America/New_York", base: "2024-10-20T00:00:00Z"),
        Row(expression: "monthly", zone: "Europe/Paris", base: "2024-10-20T00:00:00Z"),
        Row(expression: "quarterly", zone: "Europe/Paris", base: "2024-10-20T00:00:00Z"),
        Row(expression: "semiannually", zone: "America/New_York", base: "2024-10-20T00:00:00Z"),
        Row(expression: "yearly", zone: "UTC", base: "2024-10-20T00:00:00Z", count: 20),
        Row(expression: "hourly", zone: "Europe/Paris", base: "2024-10-25T00:00:00Z"),
        Row(expression: "minutely", zone: "America/New_York", base: "2024-11-03T05:30:00Z"),
        Row(expression: "Mon..Fri 09:00", zone: "America/New_York", base: "2024-10-20T00:00:00Z"),
        Row(expression: "*-*-* 02:30:00", zone: "Europe/Paris", base: "2024-10-20T00:00:00Z"),
        Row(expression: "Sat,Sun 10:00 Europe/Paris", zone: "America/New_York", base: "2024-10-20T00:00:00Z"),
        Row(expression: "*-*-01 00:00:00 America/New_York", zone: "Europe/Paris", base: "2024-10-20T00:00:00Z"),
        Row(expression: "*:0/15", zone: "Europe/Paris", base: "2024-10-26T22:00:00Z"),
        Row(expression: "*:0/20", zone: "Europe/Paris", base: "2024-10-26T22:00:00Z"),
        Row(expression: "*-*-1/3 06:00", zone: "Europe/Paris", base: "2024-10-20T00:00:00Z"),
        Row(expression: "Mon,Wed,Fri 08:30 UTC", zone: "Europe/Paris", base: "2024-10-20T00:00:00Z"),
        Row(expression: "*-01,04,07,10-15 12:00", zone: "Asia/Kolkata", base: "2024-10-20T00:00:00Z", count: 30),
        Row(expression: "9..17:00", zone: "America/New_York", base: "2024-10-30T00:00:00Z"),
        Row(expression: "Tue..Thu *-*-* 1,13:05", zone: "America/New_York", base: "2024-10-20T00:00:00Z"),
        Row(expression: "*-*-10..20 23:59", zone: "Europe/Paris", base: "2024-10-20T00:00:00Z"),
        Row(expression: "*:5/10", zone: "UTC", base: "2024-10-20T00:00:00Z"),
        Row(expression: "Sun 03:00 Australia/Lord_Howe", zone: "UTC", base: "2024-09-01T00:00:00Z"),
        Row(expression: "*-02-29 12:00", zone: "Europe/Paris", base: "2024-01-01T00:00:00Z", count: 10),
        Row(expression: "mon *-12-* 17:00", zone: "America/Sao_Paulo", base: "2024-10-20T00:00:00Z"),
        Row(expression: "Wed, 17:48", zone: "Europe/Paris", base: "2024-10-20T00:00:00Z"),
        Row(expression: "*-*-* 00,12:00,30", zone: "Europe/Paris", base: "2024-10-20T00:00:00Z"),
    ]

    /// The expressions whose times fall in a daylight-saving gap: systemd skips them, the automation runs when the
    /// clock resumes, and the migration says so.
    static let gapRows: [Row] = [
        Row(expression: "*-*-* 02:30:00", zone: "Europe/Paris", base: "2025-03-20T00:00:00Z"),
        Row(expression: "*:30", zone: "Europe/Paris", base: "2025-03-29T12:00:00Z"),
        Row(expression: "Sun 02:15", zone: "America/New_York", base: "2025-02-20T00:00:00Z"),
    ]

    static let host: ScriptHost = MigratedAutomationTests.host

    static func instant(_ text: String) throws -> Date {
        try #require(ISO8601DateFormatter().date(from: text), "\(text)")
    }

    /// The trigger the migration writes for the expression, compiled as a script and asked for its next fires as the
    /// daemon asks.
    static func migratedFires(_ row: Row) throws -> (fires: [Date], notes: [String]) {
        let zone = try #require(TimeZone(identifier: row.zone))
        let base = try instant(row.base)
        let trigger = try OnCalendarTrigger(SystemdCalendarSpec(parsing: row.expression), machineZone: zone, now: base)
        let text = MigratedScript.source(header: [], automations: [MigratedAutomation(name: "t", trigger: trigger.trigger.description, program: "/bin/true")])
        let compiled = try host.compile(SourceFile(name: "t.auto", text: text)).get()
        let schedule = try #require(try Schedules.schedule(for: compiled.automations[0].trigger, zone: zone))
        return (schedule.fires(after: base, count: row.count), trigger.notes)
    }

    /// `systemd-analyze calendar --iterations=N`, in the row's zone, read back as instants.
    static func systemdFires(_ row: Row) throws -> [Date] {
        let base = try instant(row.base)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: analyze)
        process.arguments = ["calendar", "--iterations=\(row.count)", "--base-time=@\(Int(base.timeIntervalSince1970))", row.expression]
        process.environment = ["TZ": row.zone, "LANG": "C", "SYSTEMD_COLORS": "0", "SYSTEMD_PAGER": ""]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        #expect(process.terminationStatus == 0, "\(text)")
        return try parseAnalyzeOutput(text)
    }

    static func parseAnalyzeOutput(_ text: String) throws -> [Date] {
        var fires: [Date] = []
        for line in text.split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard let colon = trimmed.firstIndex(of: ":") else { continue }
            let label = trimmed[..<colon], value = trimmed[trimmed.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            // A fire in the zone's time is followed by its "(in UTC)" line; one in UTC already has none.
            let isFire = label == "Next elapse" || label.hasPrefix("Iter. #") || label == "(in UTC)"
            // "Mon 2024-10-21 07:00:00 UTC"
            let parts = value.split(separator: " ")
            guard isFire, parts.count == 4, parts[3] == "UTC" else { continue }
            fires.append(try instant("\(parts[1])T\(parts[2])Z"))
        }
        return fires
    }

    @Test(.enabled(if: hasAnalyze, "systemd-analyze is not installed"), arguments: rows)
    func theMigratedTriggerFiresWhenSystemdDoes(_ row: Row) throws {
        let systemd = try Self.systemdFires(row)
        let migrated = try Self.migratedFires(row)
        #expect(systemd.count == row.count, "\(systemd)")
        #expect(migrated.fires == systemd)
    }

    @Test(.enabled(if: hasAnalyze, "systemd-analyze is not installed"), arguments: gapRows)
    func inADaylightSavingGapTheAutomationRunsWhenTheClockResumesAndSaysSo(_ row: Row) throws {
        let zone = try #require(TimeZone(identifier: row.zone))
        let systemd = try Self.systemdFires(row)
        let migrated = try Self.migratedFires(row)
        let changes = Set(migrated.fires.filter { zone.secondsFromGMT(for: $0) != zone.secondsFromGMT(for: $0.addingTimeInterval(-1)) })
        // Every difference is a run at the instant the clock springs forward, which systemd doesn't make.
        #expect(!changes.isEmpty, "\(migrated.fires)")
        let others = migrated.fires.filter { !changes.contains($0) }
        #expect(others == Array(systemd.prefix(others.count)))
        #expect(migrated.notes.contains { $0.contains("springs forward") }, "\(migrated.notes)")
    }

    /// Fires worked out by hand from the zones' rules: these hold on a machine without systemd too.
    @Test(arguments: [
        ("daily", "Europe/Paris", "2024-10-25T12:00:00Z", ["2024-10-25T22:00:00Z", "2024-10-26T22:00:00Z", "2024-10-27T23:00:00Z"]),
        ("Mon..Fri 09:00", "America/New_York", "2024-11-01T00:00:00Z", ["2024-11-01T13:00:00Z", "2024-11-04T14:00:00Z", "2024-11-05T14:00:00Z"]),
        // Falls back on 27 October: 02:30 runs once, at its first occurrence, as systemd runs it.
        ("*-*-* 02:30:00", "Europe/Paris", "2024-10-26T00:00:00Z", ["2024-10-26T00:30:00Z", "2024-10-27T00:30:00Z", "2024-10-28T01:30:00Z"]),
        // The hour 02:00 that repeats runs once: 02:00 CEST, then 03:00 CET.
        ("hourly", "Europe/Paris", "2024-10-26T23:30:00Z", ["2024-10-27T00:00:00Z", "2024-10-27T02:00:00Z", "2024-10-27T03:00:00Z"]),
        ("Sat,Sun 10:00 Europe/Paris", "UTC", "2024-10-25T00:00:00Z", ["2024-10-26T08:00:00Z", "2024-10-27T09:00:00Z", "2024-11-02T09:00:00Z"]),
        ("*-*-01 00:00:00 America/New_York", "UTC", "2024-10-15T00:00:00Z", ["2024-11-01T04:00:00Z", "2024-12-01T05:00:00Z", "2025-01-01T05:00:00Z"]),
        ("quarterly", "UTC", "2024-02-10T00:00:00Z", ["2024-04-01T00:00:00Z", "2024-07-01T00:00:00Z", "2024-10-01T00:00:00Z"]),
        ("*-*-1/3 06:00", "UTC", "2024-02-26T00:00:00Z", ["2024-02-28T06:00:00Z", "2024-03-01T06:00:00Z", "2024-03-04T06:00:00Z"]),
    ])
    func theMigratedTriggerFiresAtTheTimesWorkedOutByHand(_ expression: String, _ zone: String, _ base: String, _ expected: [String]) throws {
        let migrated = try Self.migratedFires(Row(expression: expression, zone: zone, base: base, count: expected.count))
        #expect(migrated.fires == (try expected.map(Self.instant)))
    }

    @Test func theOutputOfSystemdAnalyzeIsReadInUTC() throws {
        let text = """
              Original form: daily
            Normalized form: *-*-* 00:00:00
                Next elapse: Mon 2024-10-21 00:00:00 CEST
                   (in UTC): Sun 2024-10-20 22:00:00 UTC
                   From now: 1 year ago
                   Iter. #2: Tue 2024-10-22 00:00:00 UTC
            """
        #expect(try Self.parseAnalyzeOutput(text) == [try Self.instant("2024-10-20T22:00:00Z"), try Self.instant("2024-10-22T00:00:00Z")])
    }
}
