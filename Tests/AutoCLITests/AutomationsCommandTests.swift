import AutoAutomation
import AutoTestSupport
import Foundation
import Testing

/// `auto automations`: next fires across a daylight-saving change, a bad cron expression with a caret, and a run
/// by hand seen in list, history and trace, as text and as JSON.
@Suite struct AutomationsCommandTests {
    let folder: TemporaryFolder
    init() throws {
        folder = try TemporaryFolder("auto-automations")
    }
    var store: String { folder("runs.sqlite") }

    @Test func nextFiresFollowDaylightSavingWithTheZonesOffset() async throws {
        let result = try await BinaryRunner.runAwaiting(["automations", "next", "--cron", "30 2 * * *", "--in", "Europe/Berlin",
                                           "--after", "2026-03-27T12:00:00+01:00", "-n", "3"])
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardOutput == "2026-03-28T02:30:00+01:00\n2026-03-29T03:00:00+02:00\n2026-03-30T02:30:00+02:00\n",
                "the 02:30 the clock skips fires when the gap ends")
        let json = try await BinaryRunner.runAwaiting(["automations", "next", "--cron", "@yearly", "--in", "UTC", "--after", "2026-06-01T00:00:00Z", "-n", "2", "--json"])
        #expect(json.standardOutput == "[\"2027-01-01T00:00:00Z\",\"2028-01-01T00:00:00Z\"]\n")
    }

    @Test func aBadCronExpressionIsAUsageErrorWithACaret() async throws {
        let result = try await BinaryRunner.runAwaiting(["automations", "next", "--cron", "0 9-25 * * *"])
        #expect(result.exitCode == 2)
        #expect(result.standardError == "error: 0 9-25 * * *: hour 25 is out of range 0–23\n  0 9-25 * * *\n    ^\n")
        let never = try await BinaryRunner.runAwaiting(["automations", "next", "--cron", "0 0 31 2 *"])
        #expect(never.exitCode == 2 && never.standardError.contains("can never fire"))
    }

    @Test func aRunByHandIsInListHistoryAndTrace() async throws {
        let script = folder("a.auto")
        try """
            automation "greet" every day at 07:30 { show "hello" }
            automation "broken" every hour { fail politely }
            """.replacingOccurrences(of: "fail politely", with: "show 1 / 0").write(toFile: script, atomically: true, encoding: .utf8)
        let run = try await BinaryRunner.runAwaiting(["automations", "run", script, "greet", "--store", store])
        #expect(run.exitCode == 0, "\(run.standardError)")
        #expect(run.standardError.contains("hello") && run.standardError.contains("run succeeded"))
        let failing = try await BinaryRunner.runAwaiting(["automations", "run", script, "broken", "--store", store])
        #expect(failing.exitCode == 1)
        #expect(failing.standardError.contains("error: \(script):2:"), "\(failing.standardError)")

        let list = try await BinaryRunner.runAwaiting(["automations", "list", script, "--store", store, "--json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(list.standardOutput.utf8)) as? [[String: Any]])
        #expect(rows.map { $0["name"] as? String } == ["greet", "broken"])
        #expect(rows.map { $0["last"] as? String } == ["succeeded", "failed"])
        #expect(rows.allSatisfy { ($0["lastAt"] as? String)?.isEmpty == false && $0["daemon"] as? Bool == false })
        #expect((rows[0]["next"] as? String)?.contains("T07:30:00") == true)

        let history = try await BinaryRunner.runAwaiting(["automations", "history", "greet", "--store", store])
        let lines = history.standardOutput.split(separator: "\n")
        #expect(lines.count == 2 && lines[1].hasPrefix("1    greet       ") && lines[1].contains("succeeded  by hand"), "\(history.standardOutput)")
        let trace = try await BinaryRunner.runAwaiting(["automations", "trace", "1", "--store", store])
        #expect(trace.standardOutput.contains("run 1 of 'greet' (every day at 07:30)"))
        #expect(trace.standardOutput.contains("1:41  show(value: \"hello\")"), "\(trace.standardOutput)")
        // Each step keeps its intent's identifier, which outlives a rename of its title.
        let traceJSON = try await BinaryRunner.runAwaiting(["automations", "trace", "1", "--store", store, "--json"])
        #expect(traceJSON.standardOutput.contains(#""intentId":"ShowIntent""#), "\(traceJSON.standardOutput)")
        let missing = try await BinaryRunner.runAwaiting(["automations", "trace", "99", "--store", store])
        #expect(missing.exitCode == 1 && missing.standardError.contains("no run 99"))

        #expect(try await BinaryRunner.runAwaiting(["automations", "disable", "greet", "--store", store]).exitCode == 0)
        let disabled = try await BinaryRunner.runAwaiting(["automations", "list", script, "--store", store])
        #expect(disabled.standardOutput.contains("(disabled)"))
    }

    @Test func aStoreThatIsNoDatabaseIsAnErrorThatSaysSo() async throws {
        try "not a database".write(toFile: store, atomically: true, encoding: .utf8)
        let result = try await BinaryRunner.runAwaiting(["automations", "history", "--store", store])
        #expect(result.exitCode == 1)
        #expect(result.standardError.contains("is not a SQLite database"), "\(result.standardError)")
    }

    /// A script's path as the commands and the daemon key its automations: absolute, standardized.
    func script(_ name: String, _ text: String) throws -> String {
        let path = folder.url.appendingPathComponent(name).standardizedFileURL.path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func instant(_ text: String) -> Date? { ISO8601DateFormatter().date(from: text) }

    /// Issue 31: `every N minutes` was counted from when each command ran. Both count from the store's cursor, and
    /// without one say that the first fire comes after a daemon loads the automation.
    @Test func listAndNextCountFromTheStoresCursor() async throws {
        let path = try script("poll.auto", """
            automation "poll" every 1 hour { show 1 }
            automation "digest" cron "30 7 * * *" in "Asia/Tokyo" { show 1 }
            """)
        let fresh = try await BinaryRunner.runAwaiting(["automations", "list", path, "--store", store])
        #expect(fresh.exitCode == 0, "\(fresh.standardError)")
        #expect(fresh.standardOutput.contains("poll  every 1 hour  next 1 hour after a daemon loads it  last never ran"), "\(fresh.standardOutput)")
        let freshNext = try await BinaryRunner.runAwaiting(["automations", "next", path, "poll", "--store", store])
        #expect(freshNext.standardOutput == "1 hour after a daemon loads it\n", "\(freshNext.standardError)")

        let cursor = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 600).rounded(.down))
        _ = try SQLiteRunStore(path: store).cursors(of: [AutomationKey(script: path, name: "poll")], startingAt: cursor)
        let list = try await BinaryRunner.runAwaiting(["automations", "list", path, "--store", store, "--json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(list.standardOutput.utf8)) as? [[String: Any]])
        let listedText = rows.first { $0["name"] as? String == "poll" }?["next"] as? String
        let listed = try #require(listedText.flatMap { Self.instant($0) })
        #expect(listed == cursor.addingTimeInterval(3_600), "an hour after the cursor, not after now")
        // `--store` after the script and the name, as anywhere.
        let next = try await BinaryRunner.runAwaiting(["automations", "next", path, "poll", "-n", "2", "--store", store, "--json"])
        #expect(next.exitCode == 0, "\(next.standardError)")
        let fireTexts = try #require(try JSONSerialization.jsonObject(with: Data(next.standardOutput.utf8)) as? [String])
        let fires = fireTexts.compactMap { Self.instant($0) }
        #expect(fires == [cursor.addingTimeInterval(3_600), cursor.addingTimeInterval(7_200)])
        // A cron in its zone shows the same text in both.
        let digest = rows.first { $0["name"] as? String == "digest" }?["next"] as? String
        let digestNext = try await BinaryRunner.runAwaiting(["automations", "next", path, "digest", "-n", "1", "--store", store])
        #expect(digest.map { $0 + "\n" } == digestNext.standardOutput && digest?.hasSuffix("T07:30:00+09:00") == true, "\(digestNext.standardOutput)")
    }

    @Test func historyHasHeadersAndMarksCaughtUpAndRescannedRuns() async throws {
        let runs = try SQLiteRunStore(path: store)
        let key = AutomationKey(script: "/s.auto", name: "digest"), files = AutomationKey(script: "/s.auto", name: "pdfs")
        for fire in [Fire(automation: key, trigger: "every day at 07:30", scheduled: Date(timeIntervalSince1970: 86_400), caughtUp: true),
                     Fire(automation: files, trigger: "when file created in \"in\"", scheduled: Date(timeIntervalSince1970: 90_000),
                          files: FileFire(files: ["/in/a.pdf", "/in/b.pdf"], states: [nil, nil], fromRescan: true)),
                     Fire(automation: key, trigger: "every day at 07:30", scheduled: Date(timeIntervalSince1970: 172_800))] {
            let id = try #require(try runs.claim(fire, at: fire.scheduled.addingTimeInterval(60)))
            try runs.finish(id, RunEnding(.succeeded), steps: [], droppedSteps: 0, at: fire.scheduled.addingTimeInterval(61))
        }
        let history = try await BinaryRunner.runAwaiting(["automations", "history", "--store", store])
        let lines = history.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first?.split(separator: " ") == ["RUN", "AUTOMATION", "SCHEDULED", "OUTCOME", "FIRED", "BY", "TOOK", "DETAILS"],
                "\(history.standardOutput)")
        #expect(lines.dropFirst().map { $0.split(separator: "  ", omittingEmptySubsequences: true)[4].trimmingCharacters(in: .whitespaces) }
                    == ["schedule", "rescan", "catch up"], "\(history.standardOutput)")
        #expect(lines[2].hasSuffix("1000 ms  /in/a.pdf and 1 more"))
        let json = try await BinaryRunner.runAwaiting(["automations", "history", "--store", store, "--json"])
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]])
        #expect(objects.map { $0["caughtUp"] as? Bool } == [false, false, true])
        #expect(objects[1]["fromRescan"] as? Bool == true)
        let trace = try await BinaryRunner.runAwaiting(["automations", "trace", "1", "--store", store])
        #expect(trace.standardOutput.contains(", fired by catch up: succeeded\n"), "\(trace.standardOutput)")
    }

    @Test func aBrokenScriptAmongSeveralIsReportedAndTheOthersListed() async throws {
        _ = try script("a.auto", "automation \"first\" every day at 07:30 { show 1 }\n")
        let broken = try script("b.auto", "automation \"second\" every day at 25:00 { show 1 }\n")
        _ = try script("c.auto", "automation \"third\" every 5 minutes { show 1 }\n")
        let list = try await BinaryRunner.runAwaiting(["automations", "list", folder.path, "--store", store])
        #expect(list.exitCode == 2)
        #expect(list.standardOutput.contains("first  every day at 07:30") && list.standardOutput.contains("third  every 5 minutes"),
                "\(list.standardOutput)")
        #expect(!list.standardOutput.contains("second"))
        #expect(list.standardError.contains("\(broken):1:"), "the broken script's error at its location: \(list.standardError)")
        #expect(list.standardError.contains("1 script not listed"), "\(list.standardError)")
        #expect(list.standardOutput.hasSuffix("no daemon holds \(store): nothing fires until one runs (auto daemon SCRIPT|DIR…)\n"))
        // One script's automation by name still needs the script to compile.
        #expect(try await BinaryRunner.runAwaiting(["automations", "next", broken, "second", "--store", store]).exitCode == 2)
    }

    /// The real daemon: what `list` and `next` say before a fire is when it fires; `list` says a daemon holds the
    /// store while it runs and not after; `log` is a line of the daemon's log.
    @Test func aDaemonFiresWhenListAndNextSaid() async throws {
        let path = try script("tick.auto", "automation \"tick\" every 3 seconds { log \"tick logged\" }\n")
        let daemon = try ChildProcess(BinaryRunner.binary, ["daemon", path, "--store", store, "--grace", "5s"])
        #expect(daemon.waitForError(timeout: .seconds(60)) { $0.contains("daemon started") }, "\(daemon.standardError)")
        let list = try await BinaryRunner.runAwaiting(["automations", "list", path, "--store", store, "--json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(list.standardOutput.utf8)) as? [[String: Any]])
        #expect(rows.first?["daemon"] as? Bool == true)
        let listedText = rows.first?["next"] as? String
        let listed = try #require(listedText.flatMap { Self.instant($0) })
        let next = try await BinaryRunner.runAwaiting(["automations", "next", path, "tick", "-n", "1", "--store", store])
        let saidText = next.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        let said = try #require(Self.instant(saidText), "\(next.standardError)")
        // Each said instant is a fire: the daemon's, to the millisecond (a slow machine may have seen a later one).
        await DaemonTestSupport.waitUntil("fires at \(listed) and \(said)", of: daemon, timeout: .seconds(120)) {
            let fired = Set(DaemonTestSupport.runs(in: store, of: "tick").filter { $0.outcome == .succeeded }.map(\.scheduled))
            return fired.contains(listed) && fired.contains(said)
        }
        let logged = daemon.standardError.split(separator: "\n").first { $0.contains("tick logged") }.map(String.init) ?? ""
        #expect(logged.contains("auto.daemon") && logged.contains("automation=tick") && !logged.hasPrefix("log:"), "\(daemon.standardError)")
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit(timeout: .seconds(60)) == 0)
        let after = try await BinaryRunner.runAwaiting(["automations", "list", path, "--store", store])
        #expect(after.standardOutput.contains("last succeeded") && after.standardOutput.contains("no daemon holds"), "\(after.standardOutput)")
    }
}
