import AutoTestSupport
import Foundation
import Testing

/// `auto automations`: next fires across a daylight-saving change, a bad cron expression with a caret, and a run
/// by hand seen in list, history and trace, as text and as JSON.
@Suite struct AutomationsCommandTests {
    let folder: URL
    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("auto-automations-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }
    var store: String { folder.appendingPathComponent("runs.sqlite").path }

    @Test func nextFiresFollowDaylightSavingWithTheZonesOffset() throws {
        let result = try BinaryRunner.run(["automations", "next", "--cron", "30 2 * * *", "--in", "Europe/Berlin",
                                           "--after", "2026-03-27T12:00:00+01:00", "-n", "3"])
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardOutput == "2026-03-28T02:30:00+01:00\n2026-03-29T03:00:00+02:00\n2026-03-30T02:30:00+02:00\n",
                "the 02:30 the clock skips fires when the gap ends")
        let json = try BinaryRunner.run(["automations", "next", "--cron", "@yearly", "--in", "UTC", "--after", "2026-06-01T00:00:00Z", "-n", "2", "--json"])
        #expect(json.standardOutput == "[\"2027-01-01T00:00:00Z\",\"2028-01-01T00:00:00Z\"]\n")
    }

    @Test func aBadCronExpressionIsAUsageErrorWithACaret() throws {
        let result = try BinaryRunner.run(["automations", "next", "--cron", "0 9-25 * * *"])
        #expect(result.exitCode == 2)
        #expect(result.standardError == "error: 0 9-25 * * *: hour 25 is out of range 0–23\n  0 9-25 * * *\n    ^\n")
        let never = try BinaryRunner.run(["automations", "next", "--cron", "0 0 31 2 *"])
        #expect(never.exitCode == 2 && never.standardError.contains("can never fire"))
    }

    @Test func aRunByHandIsInListHistoryAndTrace() throws {
        let script = folder.appendingPathComponent("a.auto").path
        try """
            automation "greet" every day at 07:30 { show "hello" }
            automation "broken" every hour { fail politely }
            """.replacingOccurrences(of: "fail politely", with: "show 1 / 0").write(toFile: script, atomically: true, encoding: .utf8)
        let run = try BinaryRunner.run(["automations", "run", script, "greet", "--store", store])
        #expect(run.exitCode == 0, "\(run.standardError)")
        #expect(run.standardError.contains("hello") && run.standardError.contains("run succeeded"))
        let failing = try BinaryRunner.run(["automations", "run", script, "broken", "--store", store])
        #expect(failing.exitCode == 1)
        #expect(failing.standardError.contains("error: \(script):2:"), "\(failing.standardError)")

        let list = try BinaryRunner.run(["automations", "list", script, "--store", store, "--json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(list.standardOutput.utf8)) as? [[String: Any]])
        #expect(rows.map { $0["name"] as? String } == ["greet", "broken"])
        #expect(rows.map { $0["last"] as? String } == ["succeeded", "failed"])
        #expect((rows[0]["next"] as? String)?.contains("T07:30:00") == true)

        let history = try BinaryRunner.run(["automations", "history", "greet", "--store", store])
        #expect(history.standardOutput.hasPrefix("1  greet  ") && history.standardOutput.contains("succeeded (by hand)"), "\(history.standardOutput)")
        let trace = try BinaryRunner.run(["automations", "trace", "1", "--store", store])
        #expect(trace.standardOutput.contains("run 1 of 'greet' (every day at 07:30)"))
        #expect(trace.standardOutput.contains("1:41  show(value: \"hello\")"), "\(trace.standardOutput)")
        let missing = try BinaryRunner.run(["automations", "trace", "99", "--store", store])
        #expect(missing.exitCode == 1 && missing.standardError.contains("no run 99"))

        #expect(try BinaryRunner.run(["automations", "disable", "greet", "--store", store]).exitCode == 0)
        let disabled = try BinaryRunner.run(["automations", "list", script, "--store", store])
        #expect(disabled.standardOutput.contains("(disabled)"))
    }

    @Test func aStoreThatIsNoDatabaseIsAnErrorThatSaysSo() throws {
        try "not a database".write(toFile: store, atomically: true, encoding: .utf8)
        let result = try BinaryRunner.run(["automations", "history", "--store", store])
        #expect(result.exitCode == 1)
        #expect(result.standardError.contains("is not a SQLite database"), "\(result.standardError)")
    }
}
