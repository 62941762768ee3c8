@testable import AutoAutomation
import AutoRuntime
import Foundation
import GRDB
import Synchronization
import Testing

/// The run store on a real SQLite file: each fire claimed once, even by two stores at once; cursors that only move
/// forward; runs with their steps; retention; and stores that can't be used, each with a reason.
@Suite struct RunStoreTests {
    let folder: URL
    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("auto-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }
    var path: String { folder.appendingPathComponent("state/runs.sqlite").path }

    static let digest = AutomationKey(script: "/scripts/daily.auto", name: "digest")
    static func fire(_ seconds: Double, manual: Bool = false, _ key: AutomationKey = digest) -> Fire {
        Fire(automation: key, trigger: "every day at 07:30", scheduled: Date(timeIntervalSince1970: seconds), manual: manual)
    }

    @Test func aFireIsClaimedOnceAndMovesTheCursor() throws {
        let store = try SQLiteRunStore(path: path)
        #expect(try store.cursor(of: Self.digest) == nil)
        let first = try #require(try store.claim(Self.fire(1_000), at: Date()))
        #expect(try store.claim(Self.fire(1_000), at: Date()) == nil, "the same fire again is refused")
        #expect(try store.cursor(of: Self.digest) == Date(timeIntervalSince1970: 1_000))
        let manual = try #require(try store.claim(Self.fire(500, manual: true), at: Date()))
        #expect(try store.claim(Self.fire(500, manual: true), at: Date()) != nil, "a manual fire is always new")
        #expect(manual != first)
        #expect(try store.cursor(of: Self.digest) == Date(timeIntervalSince1970: 1_000), "a manual fire leaves the cursor")
        #expect(try store.skip(Self.fire(900), as: .skipped, reason: "daemon was not running", at: Date()))
        #expect(try store.cursor(of: Self.digest) == Date(timeIntervalSince1970: 1_000), "the cursor only moves forward")
        #expect(try !store.skip(Self.fire(1_000), as: .rejected, reason: "still running", at: Date()), "a claimed fire can't be skipped")
        let reopened = try SQLiteRunStore(path: path)
        #expect(try reopened.claim(Self.fire(1_000), at: Date()) == nil, "kept across a restart")
    }

    /// A daemon loading an automation for the first time starts its cursor; later loads and fires keep theirs.
    @Test func aCursorStartsOnceAndTheLastRunIsTheScripts() throws {
        let store = try SQLiteRunStore(path: path)
        let other = AutomationKey(script: "/scripts/other.auto", name: "digest")
        #expect(try store.cursors(of: [Self.digest], startingAt: Date(timeIntervalSince1970: 100)) == [Self.digest: Date(timeIntervalSince1970: 100)])
        #expect(try store.cursors(of: [Self.digest, other], startingAt: Date(timeIntervalSince1970: 200))
                    == [Self.digest: Date(timeIntervalSince1970: 100), other: Date(timeIntervalSince1970: 200)])
        _ = try store.claim(Self.fire(1_000), at: Date())
        #expect(try store.cursor(of: Self.digest) == Date(timeIntervalSince1970: 1_000))
        #expect(try store.cursors(of: [Self.digest], startingAt: Date(timeIntervalSince1970: 300))[Self.digest] == Date(timeIntervalSince1970: 1_000))
        _ = try store.claim(Self.fire(2_000, other), at: Date())
        #expect(try store.lastRun(of: Self.digest)?.scheduled == Date(timeIntervalSince1970: 1_000), "not the other script's, of the same name")
        #expect(try store.lastRun(of: AutomationKey(script: "/none.auto", name: "digest")) == nil)
    }

    @Test func twoStoresOnOneFileNeverClaimTheSameFire() async throws {
        let stores = [try SQLiteRunStore(path: path), try SQLiteRunStore(path: path)]
        let claimed = await withTaskGroup(of: Int.self) { group in
            for store in stores {
                group.addTask {
                    var count = 0
                    for second in 0..<200 where (try? store.claim(Self.fire(Double(second)), at: Date())) != nil { count += 1 }
                    return count
                }
            }
            return await group.reduce(0, +)
        }
        #expect(claimed == 200, "each of the 200 fires claimed by exactly one store")
    }

    /// A daemon starting while `auto automations list` runs: each opens a new store on its own connections. Without
    /// the opening lock about half of such pairs failed ("table automation already exists", "locked").
    @Test func aNewStoreOpenedByManyAtOnceOpensForEach() throws {
        let failures = Mutex<[String]>([])
        for round in 0..<12 {
            let fresh = folder.appendingPathComponent("fresh-\(round)/runs.sqlite").path
            DispatchQueue.concurrentPerform(iterations: 6) { _ in
                do {
                    _ = try SQLiteRunStore(path: fresh)
                } catch {
                    failures.withLock { $0.append("round \(round): \(error)") }
                }
            }
        }
        #expect(failures.withLock { $0 } == [])
    }

    @Test func aRunEndsWithItsStepsAndOutcome() throws {
        let store = try SQLiteRunStore(path: path)
        let id = try #require(try store.claim(Self.fire(2_000), at: Date(timeIntervalSince1970: 2_000.004)))
        let steps = [
            RunTrace.Step(intent: "open book", arguments: [.init(name: "book", value: "\"Emma\"")], result: "Emma", error: nil,
                          startedAfter: .microseconds(15), duration: .milliseconds(3), location: SourceLocation(file: "C:/odd:name.auto", line: 2, column: 5),
                          intentID: "OpenBook"),
            RunTrace.Step(intent: "fail politely", arguments: [], result: nil, error: "it failed", startedAfter: .milliseconds(4),
                          duration: .microseconds(20), location: SourceLocation(file: "daily.auto", line: 3, column: 1)),
        ]
        try store.finish(id, RunEnding(.failed, message: "it failed", location: "daily.auto:3:1"), steps: steps, droppedSteps: 7,
                         at: Date(timeIntervalSince1970: 2_001))
        let record = try #require(try store.run(id))
        #expect(record.outcome == .failed && record.message == "it failed" && record.location == "daily.auto:3:1")
        #expect(record.scheduled == Date(timeIntervalSince1970: 2_000) && record.ended == Date(timeIntervalSince1970: 2_001))
        #expect(record.started == Date(timeIntervalSince1970: 2_000.004) && record.droppedSteps == 7 && record.trigger == "every day at 07:30")
        #expect(try store.steps(of: id) == steps)
        #expect(try store.runs(of: "digest", limit: 10).map(\.id) == [id])
        #expect(try store.runs(of: "other", limit: 10).isEmpty)
    }

    @Test func runsLeftRunningByACrashAreClosedAsFailed() throws {
        let store = try SQLiteRunStore(path: path)
        let id = try #require(try store.claim(Self.fire(3_000), at: Date()))
        #expect(try store.closeUnfinished(reason: "the daemon stopped during this run", at: Date()) == 1)
        #expect(try store.run(id)?.outcome == .failed && store.run(id)?.message == "the daemon stopped during this run")
        #expect(try store.claim(Self.fire(3_000), at: Date()) == nil, "and not run again")
    }

    @Test func automationsAreDisabledAndEnabledByName() throws {
        let store = try SQLiteRunStore(path: path)
        #expect(try store.isEnabled("digest"))
        try store.setEnabled(false, for: "digest")
        #expect(try !store.isEnabled("digest") && store.isEnabled("other"))
        try store.setEnabled(true, for: "digest")
        #expect(try store.isEnabled("digest"))
    }

    @Test func retentionKeepsFailuresLongerAndAtMostSoManyRuns() throws {
        let store = try SQLiteRunStore(path: path)
        let day: Double = 86_400
        let now = Date(timeIntervalSince1970: 100 * day)
        for (index, outcome) in [RunOutcomeKind.succeeded, .failed, .succeeded, .cancelled].enumerated() {
            let id = try #require(try store.claim(Self.fire(Double(index)), at: Date(timeIntervalSince1970: Double(index))))
            try store.finish(id, RunEnding(outcome), steps: [], droppedSteps: 0, at: Date(timeIntervalSince1970: 50 * day + Double(index)))
        }
        let recent = try #require(try store.claim(Self.fire(99 * day), at: Date(timeIntervalSince1970: 99 * day)))
        try store.finish(recent, RunEnding(.succeeded), steps: [], droppedSteps: 0, at: Date(timeIntervalSince1970: 99 * day))
        let running = try #require(try store.claim(Self.fire(10), at: Date()))
        // 50 days old: successes are past 30 days, failures within 90.
        #expect(try store.prune(Retention(runsPerAutomation: 100), now: now) == 2)
        #expect(try Set(store.runs(of: nil, limit: 10).map(\.outcome)) == [.failed, .cancelled, .succeeded, .running])
        #expect(try store.prune(Retention(runsPerAutomation: 2), now: now) == 2, "the newest two kept, and a running run never goes")
        #expect(try store.runs(of: nil, limit: 10).map(\.id).contains(running))
        #expect(try store.runs(of: nil, limit: 10).count == 2)
    }

    @Test func aStoreThatCantBeUsedSaysWhy() throws {
        let folderPath = folder.appendingPathComponent("a-folder.sqlite").path
        try FileManager.default.createDirectory(atPath: folderPath, withIntermediateDirectories: true)
        #expect { try SQLiteRunStore(path: folderPath) } throws: { "\($0)".contains("it is a folder") }

        let notDatabase = folder.appendingPathComponent("notes.sqlite").path
        try String(repeating: "these are not the runs you are looking for\n", count: 200).write(toFile: notDatabase, atomically: true, encoding: .utf8)
        #expect { try SQLiteRunStore(path: notDatabase) } throws: { "\($0)".contains("is not a SQLite database") }

        // A store a newer auto migrated further.
        let newer = folder.appendingPathComponent("newer.sqlite").path
        _ = try SQLiteRunStore(path: newer)
        let queue = try DatabaseQueue(path: newer)
        try queue.write { db in try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v9: from the future')") }
        try queue.close()
        #expect { try SQLiteRunStore(path: newer) } throws: { "\($0)".contains("written by a newer version of auto") }

        let fileAsFolder = folder.appendingPathComponent("plain-file").path
        try "x".write(toFile: fileAsFolder, atomically: true, encoding: .utf8)
        #expect { try SQLiteRunStore(path: fileAsFolder + "/runs.sqlite") } throws: { "\($0)".contains("its folder can't be made") }
    }
}

/// The check of a store at a daemon's start, bounded in time.
@Suite struct StoreCheckTests {
    @Test func aStoreTooBigToCheckInTheTimeGivenIsLeftPartlyUnchecked() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("auto-check-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("runs.sqlite").path
        _ = try SQLiteRunStore(path: path)
        // About 30 MB of runs: some 40 ms to check, far more than the 1,000 steps between looks at the clock.
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: """
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000)
                INSERT INTO run (script, name, trigger, scheduled_ms, manual, outcome, message)
                SELECT 'a.auto', 'tick', 'every 1 second', i, 1, 'succeeded', hex(randomblob(100)) FROM n
                """)
        }
        try queue.close()
        #expect(try StoreCheck.run(path, within: .zero) == false)
        #expect(try StoreCheck.run(path, within: .seconds(600)) == true)
    }

    @Test func theRecoveredStoreIsANewFileBesideTheDamagedOne() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("auto-check-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("runs.sqlite").path
        #expect(StoreCheck.recoveredPath(for: path) == folder.path + "/runs-recovered.sqlite")
        FileManager.default.createFile(atPath: folder.path + "/runs-recovered.sqlite", contents: nil)
        #expect(StoreCheck.recoveredPath(for: path) == folder.path + "/runs-recovered-2.sqlite")
        #expect(StoreCheck.quoted("/tmp/it's here") == #"'/tmp/it'\''s here'"#)
    }
}

/// One daemon per store.
@Suite struct StoreLockTests {
    @Test func aSecondLockOnTheSameStoreIsRefusedUntilTheFirstGoes() throws {
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("auto-lock-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: store) }
        var first: StoreLock? = try StoreLock(store: store)
        #expect { try StoreLock(store: store) } throws: { "\($0)".contains("another daemon uses it (process \(getpid()))") }
        #expect(first != nil)
        first = nil
        // The lock goes with the last descriptor of its open file: a child another test is starting at this moment
        // holds a copy until it executes its program (the descriptor closes on exec), so the lock may take a moment.
        let deadline = ContinuousClock.now + .seconds(30)
        var second: StoreLock?
        while second == nil, ContinuousClock.now < deadline {
            second = try? StoreLock(store: store)
            if second == nil { usleep(10_000) }
        }
        #expect(second != nil, "the lock was not released")
    }
}
