@testable import AutoAutomation
import AutoIntents
import AutoRuntime
import AutoTestSupport
import Foundation
import GRDB
import Logging
import PostgresNIO
import Synchronization
import Testing

/// The stores the run store's semantics are checked against: each test of what a store does runs on both.
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgres
    var testDescription: String { rawValue }
}

/// Where a test keeps its stores: a SQLite file in a folder of its own, or a PostgreSQL database of its own on the
/// tests' server; and the stores it opened there, closed when it ends.
final class StorePlace: Sendable {
    let kind: StoreKind
    /// The SQLite file's path, or the database's URL.
    let location: String
    /// The SQLite file's folder, removed when the place goes.
    private let folder: TemporaryFolder?
    private let opened = Mutex<[PostgresRunStore]>([])

    private init(kind: StoreKind, location: String, folder: TemporaryFolder? = nil) {
        self.kind = kind
        self.location = location
        self.folder = folder
    }

    /// A place for `kind`, handed to `body`, whose stores are closed after it, whether it threw or not.
    static func with(_ kind: StoreKind, _ body: (StorePlace) async throws -> Void) async throws {
        let place: StorePlace
        switch kind {
        case .sqlite:
            let folder = try TemporaryFolder("auto-store")
            place = StorePlace(kind: kind, location: folder("state/runs.sqlite"), folder: folder)
        case .postgres:
            place = StorePlace(kind: kind, location: try await PostgresServer.database())
        }
        do {
            try await body(place)
        } catch {
            await place.close()
            throw error
        }
        await place.close()
    }

    /// A store on the place: a new one each time, as a daemon restarting or a second daemon would open it.
    func open() async throws -> any RunStore {
        switch kind {
        case .sqlite:
            return try SQLiteRunStore(path: location)
        case .postgres:
            let store = try await PostgresRunStore.open(url: location, logger: PostgresServer.logger)
            opened.withLock { $0.append(store) }
            return store
        }
    }

    private func close() async {
        for store in opened.withLock({ $0 }) { await store.close() }
    }
}

/// The run store's semantics, on a real SQLite file and on a real PostgreSQL database: each fire claimed once, even by
/// two stores at once; cursors that only move forward; runs with their steps; retention; file automations' copies
/// of their folders. And SQLite stores that can't be used, each with a reason.
@Suite struct RunStoreTests {
    static let digest = AutomationKey(script: "/scripts/daily.auto", name: "digest")
    static func fire(_ seconds: Double, manual: Bool = false, _ key: AutomationKey = digest) -> Fire {
        Fire(automation: key, trigger: "every day at 07:30", scheduled: Date(timeIntervalSince1970: seconds), manual: manual)
    }

    @Test(arguments: StoreKind.allCases)
    func aFireIsClaimedOnceAndMovesTheCursor(_ kind: StoreKind) async throws {
        try await StorePlace.with(kind) { place in
            let store = try await place.open()
            #expect(try await store.cursor(of: Self.digest) == nil)
            let first = try #require(try await store.claim(Self.fire(1_000), at: Date()))
            #expect(try await store.claim(Self.fire(1_000), at: Date()) == nil, "the same fire again is refused")
            #expect(try await store.cursor(of: Self.digest) == Date(timeIntervalSince1970: 1_000))
            let manual = try #require(try await store.claim(Self.fire(500, manual: true), at: Date()))
            #expect(try await store.claim(Self.fire(500, manual: true), at: Date()) != nil, "a manual fire is always new")
            #expect(manual != first)
            #expect(try await store.cursor(of: Self.digest) == Date(timeIntervalSince1970: 1_000), "a manual fire leaves the cursor")
            #expect(try await store.skip(Self.fire(900), as: .skipped, reason: "daemon was not running", at: Date()))
            #expect(try await store.cursor(of: Self.digest) == Date(timeIntervalSince1970: 1_000), "the cursor only moves forward")
            #expect(try await store.skip(Self.fire(1_000), as: .rejected, reason: "still running", at: Date()) == false,
                    "a claimed fire can't be skipped")
            let reopened = try await place.open()
            #expect(try await reopened.claim(Self.fire(1_000), at: Date()) == nil, "kept across a restart")
        }
    }

    /// A file fire's paths and a step's arguments are kept as JSON text: whatever a name holds comes back the same —
    /// quotes, a backslash, a newline, control characters, a slash, letters beyond ASCII, a byte that isn't UTF-8.
    @Test(arguments: StoreKind.allCases)
    func pathsAndArgumentsComeBackAsTheyWereWritten(_ kind: StoreKind) async throws {
        try await StorePlace.with(kind) { place in
            let store = try await place.open()
            let odd = ["/in/a \"quoted\" name.txt", "/in/back\\slash", "/in/new\nline", "/in/tab\tand\u{1}\u{1f}",
                       "/in/é ü 日本.txt", "/in/" + FileNameBytes.text([0x66, 0xff, 0x2e]), "/in/plain.txt"]
            let fire = Fire(automation: Self.digest, trigger: "when file created in \"/in\"", scheduled: Date(),
                            files: FileFire(files: odd, states: odd.map { _ in nil }))
            let id = try #require(try await store.claim(fire, at: Date()))
            let arguments = odd.enumerated().map { RunTrace.Argument(name: "p\($0.offset) \"x\"", value: $0.element) }
            let step = RunTrace.Step(intent: "move file", arguments: arguments, result: nil, error: nil, startedAfter: .zero,
                                     duration: .zero, location: SourceLocation(file: "a.auto", line: 1, column: 1))
            try await store.finish(id, RunEnding(.succeeded), steps: [step], droppedSteps: 0, at: Date())
            #expect(try await store.run(id)?.files == odd)
            #expect(try await store.steps(of: id).first?.arguments == arguments)
        }
    }

    /// A daemon loading an automation for the first time starts its cursor; later loads and fires keep theirs.
    @Test(arguments: StoreKind.allCases)
    func aCursorStartsOnceAndTheLastRunIsTheScripts(_ kind: StoreKind) async throws {
        try await StorePlace.with(kind) { place in
            let store = try await place.open()
            let other = AutomationKey(script: "/scripts/other.auto", name: "digest")
            #expect(try await store.cursors(of: [Self.digest], startingAt: Date(timeIntervalSince1970: 100))
                        == [Self.digest: Date(timeIntervalSince1970: 100)])
            #expect(try await store.cursors(of: [Self.digest, other, other], startingAt: Date(timeIntervalSince1970: 200))
                        == [Self.digest: Date(timeIntervalSince1970: 100), other: Date(timeIntervalSince1970: 200)])
            #expect(try await store.cursors(of: [], startingAt: Date()) == [:])
            _ = try await store.claim(Self.fire(1_000), at: Date())
            #expect(try await store.cursor(of: Self.digest) == Date(timeIntervalSince1970: 1_000))
            #expect(try await store.cursors(of: [Self.digest], startingAt: Date(timeIntervalSince1970: 300))[Self.digest]
                        == Date(timeIntervalSince1970: 1_000))
            _ = try await store.claim(Self.fire(2_000, other), at: Date())
            #expect(try await store.lastRun(of: Self.digest)?.scheduled == Date(timeIntervalSince1970: 1_000),
                    "not the other script's, of the same name")
            #expect(try await store.lastRun(of: AutomationKey(script: "/none.auto", name: "digest")) == nil)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func twoStoresNeverClaimTheSameFire(_ kind: StoreKind) async throws {
        try await StorePlace.with(kind) { place in
            let stores = [try await place.open(), try await place.open()]
            let claimed = await withTaskGroup(of: [RunID].self) { group in
                for store in stores {
                    group.addTask {
                        var ids: [RunID] = []
                        for second in 0..<200 {
                            if let id = try? await store.claim(Self.fire(Double(second)), at: Date()) { ids.append(id) }
                        }
                        return ids
                    }
                }
                return await group.reduce([], +)
            }
            #expect(claimed.count == 200, "each of the 200 fires claimed by exactly one store")
            #expect(Set(claimed).count == 200)
        }
    }

    /// The fires due at one instant, claimed in one transaction: each once, in the order given, manual and file fires
    /// always new, and the cursor at the latest fire on time.
    @Test(arguments: StoreKind.allCases)
    func aBatchOfFiresIsClaimedTogetherEachOnce(_ kind: StoreKind) async throws {
        try await StorePlace.with(kind) { place in
            let store = try await place.open()
            let inbox = AutomationKey(script: "/scripts/files.auto", name: "inbox")
            let onTime = (0..<1_000).map { Self.fire(Double(10_000 + $0)) }
            let state = FileState(size: 3, modified: 1_700_000_000_123_456_789)
            let fileFire = Fire(automation: inbox, trigger: "when a file is added to /inbox", scheduled: Date(timeIntervalSince1970: 5),
                                files: FileFire(files: ["/inbox/a"], states: [state]))
            let fires = onTime + [Self.fire(10_000), Self.fire(50, manual: true), fileFire]
            let ids = try await store.claim(fires, at: Date())
            #expect(ids.count == fires.count)
            #expect(ids[..<1_000].allSatisfy { $0 != nil }, "every fire on time, once")
            #expect(ids[1_000] == nil, "the same fire twice in a batch: the first is claimed")
            #expect(ids[1_001] != nil && ids[1_002] != nil)
            let claimed = ids.compactMap { $0 }
            #expect(claimed == claimed.sorted() && Set(claimed).count == claimed.count, "ids in the order of the fires")
            #expect(try await store.cursor(of: Self.digest) == Date(timeIntervalSince1970: 10_999))
            #expect(try await store.cursor(of: inbox) == nil, "a file fire has no cursor")
            let firstID = try #require(ids[0])
            let fileID = try #require(ids[1_002])
            #expect(try await store.run(firstID)?.automation == Self.digest)
            let file = try #require(try await store.run(fileID))
            #expect(file.files == ["/inbox/a"] && !file.manual && file.outcome == .running)

            let again = try await store.claim(fires, at: Date())
            #expect(again[..<1_001].allSatisfy { $0 == nil }, "claimed fires stay claimed")
            #expect(again[1_001] != nil && again[1_002] != nil, "manual and file fires are new each time")
            #expect(try await store.claim([], at: Date()) == [])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aRunEndsWithItsStepsAndOutcome(_ kind: StoreKind) async throws {
        try await StorePlace.with(kind) { place in
            let store = try await place.open()
            let id = try #require(try await store.claim(Self.fire(2_000), at: Date(timeIntervalSince1970: 2_000.004)))
            let steps = [
                RunTrace.Step(intent: "open book", arguments: [.init(name: "book", value: "\"Emma\""), .init(name: "note", value: "a\nb ✓")],
                              result: "Emma", error: nil, startedAfter: .microseconds(15), duration: .milliseconds(3),
                              location: SourceLocation(file: "C:/odd:name.auto", line: 2, column: 5), intentID: "OpenBook"),
                RunTrace.Step(intent: "fail politely", arguments: [], result: nil, error: "it failed", startedAfter: .milliseconds(4),
                              duration: .microseconds(20), location: SourceLocation(file: "daily.auto", line: 3, column: 1)),
            ]
            try await store.finish(id, RunEnding(.failed, message: "it failed", location: "daily.auto:3:1"), steps: steps, droppedSteps: 7,
                                   at: Date(timeIntervalSince1970: 2_001))
            let record = try #require(try await store.run(id))
            #expect(record.outcome == .failed && record.message == "it failed" && record.location == "daily.auto:3:1")
            #expect(record.scheduled == Date(timeIntervalSince1970: 2_000) && record.ended == Date(timeIntervalSince1970: 2_001))
            #expect(record.started == Date(timeIntervalSince1970: 2_000.004) && record.droppedSteps == 7 && record.trigger == "every day at 07:30")
            #expect(!record.manual && record.files.isEmpty && !record.fromRescan && !record.caughtUp)
            #expect(try await store.steps(of: id) == steps)
            #expect(try await store.runs(of: "digest", limit: 10).map(\.id) == [id])
            #expect(try await store.runs(of: "other", limit: 10).isEmpty)
            #expect(try await store.run(id + 1_000) == nil)

            // A run that ends with no steps, caught up.
            let late = Fire(automation: Self.digest, trigger: "every day at 07:30", scheduled: Date(timeIntervalSince1970: 3_000), caughtUp: true)
            let second = try #require(try await store.claim(late, at: Date(timeIntervalSince1970: 3_500)))
            try await store.finish(second, RunEnding(.succeeded), steps: [], droppedSteps: 0, at: Date(timeIntervalSince1970: 3_501))
            let caughtUp = try #require(try await store.run(second))
            #expect(caughtUp.caughtUp && caughtUp.outcome == .succeeded && caughtUp.message == nil && caughtUp.location == nil)
            #expect(try await store.steps(of: second).isEmpty)
            #expect(try await store.runs(of: nil, limit: 10).map(\.id) == [second, id], "newest first")
            #expect(try await store.runs(of: nil, limit: 1).map(\.id) == [second])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func runsLeftRunningByACrashAreClosedAsFailed(_ kind: StoreKind) async throws {
        try await StorePlace.with(kind) { place in
            let store = try await place.open()
            let id = try #require(try await store.claim(Self.fire(3_000), at: Date()))
            #expect(try await store.closeUnfinished(reason: "the daemon stopped during this run", at: Date()) == 1)
            #expect(try await store.run(id)?.outcome == .failed)
            #expect(try await store.run(id)?.message == "the daemon stopped during this run")
            #expect(try await store.claim(Self.fire(3_000), at: Date()) == nil, "and not run again")
            #expect(try await store.closeUnfinished(reason: "again", at: Date()) == 0)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func automationsAreDisabledAndEnabledByName(_ kind: StoreKind) async throws {
        try await StorePlace.with(kind) { place in
            let store = try await place.open()
            #expect(try await store.isEnabled("digest"))
            try await store.setEnabled(false, for: "digest")
            try await store.setEnabled(false, for: "digest")
            #expect(try await !store.isEnabled("digest"))
            #expect(try await store.isEnabled("other"))
            try await store.setEnabled(false, for: "other")
            #expect(try await store.disabledNames() == ["digest", "other"])
            try await store.setEnabled(true, for: "digest")
            #expect(try await store.isEnabled("digest"))
            #expect(try await store.disabledNames() == ["other"])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func retentionKeepsFailuresLongerAndAtMostSoManyRuns(_ kind: StoreKind) async throws {
        try await StorePlace.with(kind) { place in
            let store = try await place.open()
            let day: Double = 86_400
            let now = Date(timeIntervalSince1970: 100 * day)
            for (index, outcome) in [RunOutcomeKind.succeeded, .failed, .succeeded, .cancelled].enumerated() {
                let id = try #require(try await store.claim(Self.fire(Double(index)), at: Date(timeIntervalSince1970: Double(index))))
                try await store.finish(id, RunEnding(outcome), steps: [], droppedSteps: 0, at: Date(timeIntervalSince1970: 50 * day + Double(index)))
            }
            let recent = try #require(try await store.claim(Self.fire(99 * day), at: Date(timeIntervalSince1970: 99 * day)))
            try await store.finish(recent, RunEnding(.succeeded), steps: [], droppedSteps: 0, at: Date(timeIntervalSince1970: 99 * day))
            let running = try #require(try await store.claim(Self.fire(10), at: Date()))
            // 50 days old: successes are past 30 days, failures within 90.
            #expect(try await store.prune(Retention(runsPerAutomation: 100), now: now) == 2)
            #expect(try await Set(store.runs(of: nil, limit: 10).map(\.outcome)) == [.failed, .cancelled, .succeeded, .running])
            #expect(try await store.prune(Retention(runsPerAutomation: 2), now: now) == 2, "the newest two kept, and a running run never goes")
            #expect(try await store.runs(of: nil, limit: 10).map(\.id).contains(running))
            #expect(try await store.runs(of: nil, limit: 10).count == 2)
        }
    }

    /// A file automation's copy of its folder: none before the daemon first takes one, then kept up to date by the
    /// fires claimed and skipped, each file as the last fire saw it.
    @Test(arguments: StoreKind.allCases)
    func aFileAutomationsFolderFollowsItsFires(_ kind: StoreKind) async throws {
        try await StorePlace.with(kind) { place in
            let store = try await place.open()
            let inbox = AutomationKey(script: "/scripts/files.auto", name: "inbox")
            func fire(_ files: [String: FileState?], rescan: Bool = false) -> Fire {
                let paths = files.keys.sorted()
                return Fire(automation: inbox, trigger: "when a file is added to /inbox", scheduled: Date(timeIntervalSince1970: 7),
                            files: FileFire(files: paths, states: paths.map { files[$0]! }, fromRescan: rescan))
            }
            let small = FileState(size: 1, modified: 1_700_000_000_000_000_001)
            let large = FileState(size: 1 << 40, modified: -5)
            #expect(try await store.tree(of: inbox) == nil)
            try await store.replaceTree(of: inbox, with: [:])
            #expect(try await store.tree(of: inbox) == [:])
            try await store.replaceTree(of: inbox, with: ["/inbox/a": small, "/inbox/b": small, "/inbox/it's odd ✓": large])
            #expect(try await store.tree(of: inbox) == ["/inbox/a": small, "/inbox/b": small, "/inbox/it's odd ✓": large])

            let claimed = try #require(try await store.claim(fire(["/inbox/a": large, "/inbox/b": nil, "/inbox/c": small], rescan: true), at: Date()))
            #expect(try await store.tree(of: inbox) == ["/inbox/a": large, "/inbox/c": small, "/inbox/it's odd ✓": large])
            let record = try #require(try await store.run(claimed))
            #expect(record.files == ["/inbox/a", "/inbox/b", "/inbox/c"] && record.fromRescan)
            // Two fires of one batch on the same file: the later one is what the folder holds.
            _ = try await store.claim([fire(["/inbox/d": small]), fire(["/inbox/d": large]), fire(["/inbox/c": nil])], at: Date())
            #expect(try await store.tree(of: inbox) == ["/inbox/a": large, "/inbox/d": large, "/inbox/it's odd ✓": large])
            #expect(try await store.skip(fire(["/inbox/a": nil]), as: .rejected, reason: "still running", at: Date()))
            #expect(try await store.skip(fire(["/inbox/a": nil]), as: .rejected, reason: "still running", at: Date()), "a file fire is new each time")
            #expect(try await store.tree(of: inbox) == ["/inbox/d": large, "/inbox/it's odd ✓": large])
            #expect(try await store.cursor(of: inbox) == nil, "file fires move no cursor")

            try await store.replaceTree(of: inbox, with: ["/inbox/e": small])
            #expect(try await store.tree(of: inbox) == ["/inbox/e": small])
            #expect(try await store.tree(of: AutomationKey(script: "/scripts/files.auto", name: "other")) == nil)
            _ = try await store.cursors(of: [Self.digest], startingAt: Date())
            #expect(try await store.tree(of: Self.digest) == nil, "an automation with a cursor but never watched has no copy")
        }
    }

    // MARK: SQLite's own

    /// The store checkpoints its log itself, after writes that aren't claims: the log stays small, so that a commit
    /// writes over blocks the log already has, and a claim never copies pages into the database on its way to a run.
    @Test func theLogStaysSmallAndClaimsLeaveItsCheckpointToOtherWrites() async throws {
        try await StorePlace.with(.sqlite) { place in
            let store = try SQLiteRunStore(path: place.location)
            func fileFire(_ index: Int) -> Fire {
                Fire(automation: Self.digest, trigger: "when file created in \"/in\"", scheduled: Date(),
                     files: FileFire(files: ["/in/f\(index)"], states: [FileState(size: 1, modified: Int64(index))]))
            }
            // SQLite's own checkpoint comes after 1,000 pages and leaves a log of 4 MB.
            for index in 0..<150 {
                let id = try #require(try store.claim(fileFire(index), at: Date()))
                try store.finish(id, RunEnding(.succeeded), steps: [], droppedSteps: 0, at: Date())
            }
            let log = try #require(try FileManager.default.attributesOfItem(atPath: place.location + "-wal")[.size] as? Int)
            #expect(log < 1_000_000, "150 runs left a log of \(log) bytes")
            // Claims alone: none of them checkpoints, so the log keeps every page they wrote (about 4 each), where one
            // checkpoint each `checkpointEvery` writes would leave no more than a few dozen pages.
            _ = try Self.logFrames(place.location)
            let claims = 3 * SQLiteRunStore.checkpointEvery
            for index in 150..<(150 + claims) { _ = try store.claim(fileFire(index), at: Date()) }
            let frames = try Self.logFrames(place.location)
            #expect(frames >= 2 * claims, "\(claims) claims left \(frames) pages in the log")
        }
    }

    /// The frames in a store's log, from a connection of its own (a passive checkpoint, which says how many it saw).
    static func logFrames(_ path: String) throws -> Int {
        let queue = try DatabaseQueue(path: path)
        return try queue.writeWithoutTransaction { db in try db.checkpoint(.passive).walFrameCount }
    }

    /// A daemon starting while `auto automations list` runs: each opens a new store on its own connections. Without
    /// the opening lock about half of such pairs failed ("table automation already exists", "locked").
    @Test func aNewStoreOpenedByManyAtOnceOpensForEach() throws {
        let folder = try TemporaryFolder("auto-store")
        defer { withExtendedLifetime(folder) {} }
        let failures = Mutex<[String]>([])
        for round in 0..<12 {
            let fresh = folder("fresh-\(round)/runs.sqlite")
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

    @Test func aSQLiteStoreThatCantBeUsedSaysWhy() throws {
        let folder = try TemporaryFolder("auto-store")
        defer { withExtendedLifetime(folder) {} }
        let folderPath = folder("a-folder.sqlite")
        try FileManager.default.createDirectory(atPath: folderPath, withIntermediateDirectories: true)
        #expect { try SQLiteRunStore(path: folderPath) } throws: { "\($0)".contains("it is a folder") }

        let notDatabase = folder("notes.sqlite")
        try String(repeating: "these are not the runs you are looking for\n", count: 200).write(toFile: notDatabase, atomically: true, encoding: .utf8)
        #expect { try SQLiteRunStore(path: notDatabase) } throws: { "\($0)".contains("is not a SQLite database") }

        // A store a newer auto migrated further.
        let newer = folder("newer.sqlite")
        _ = try SQLiteRunStore(path: newer)
        let queue = try DatabaseQueue(path: newer)
        try queue.write { db in try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v9: from the future')") }
        try queue.close()
        #expect { try SQLiteRunStore(path: newer) } throws: { "\($0)".contains("written by a newer version of auto") }

        let fileAsFolder = folder("plain-file")
        try "x".write(toFile: fileAsFolder, atomically: true, encoding: .utf8)
        #expect { try SQLiteRunStore(path: fileAsFolder + "/runs.sqlite") } throws: { "\($0)".contains("its folder can't be made") }
    }
}

/// What only a PostgreSQL store does: daemons on other machines sharing it, migrations of a database many open at
/// once, a server that can't be reached, and URLs with passwords.
@Suite struct PostgresRunStoreTests {
    static let logger = PostgresServer.logger

    /// Two daemons, each with its own pool, claiming the same fires at once in batches given in opposite orders: each
    /// fire is claimed by exactly one of them, and neither waits on the other forever (a deadlock would fail a batch).
    @Test func twoStoresClaimingTheSameBatchesAtOnceClaimEachFireOnce() async throws {
        let url = try await PostgresServer.database()
        let first = try await PostgresRunStore.open(url: url, logger: Self.logger)
        let second = try await PostgresRunStore.open(url: url, logger: Self.logger)
        let other = AutomationKey(script: "/scripts/other.auto", name: "tick")
        let batches: [[Fire]] = (0..<20).map { batch in
            (0..<50).flatMap { index -> [Fire] in
                let second = Double(batch * 50 + index)
                return [RunStoreTests.fire(second), RunStoreTests.fire(second, other)]
            }
        }
        let claimed = try await withThrowingTaskGroup(of: [RunID].self) { group in
            for (store, reversed) in [(first, false), (second, true)] {
                group.addTask {
                    var ids: [RunID] = []
                    for batch in batches {
                        ids += try await store.claim(reversed ? batch.reversed() : batch, at: Date()).compactMap { $0 }
                    }
                    return ids
                }
            }
            return try await group.reduce([], +)
        }
        #expect(claimed.count == 2_000 && Set(claimed).count == 2_000, "each of the 2,000 fires claimed by exactly one store")
        #expect(try await first.runs(of: nil, limit: 5_000).count == 2_000)
        #expect(try await second.cursor(of: other) == Date(timeIntervalSince1970: 999))
        await first.close()
        await second.close()
    }

    /// Three daemons starting on a new database: one of them makes the tables, each step once, and all three open.
    @Test func threeStoresOpeningANewDatabaseAtOnceMigrateItOnce() async throws {
        let url = try await PostgresServer.database()
        async let a = PostgresRunStore.open(url: url, logger: Self.logger)
        async let b = PostgresRunStore.open(url: url, logger: Self.logger)
        async let c = PostgresRunStore.open(url: url, logger: Self.logger)
        let stores = try await [a, b, c]
        let versions = try await Self.versions(of: url)
        #expect(versions == Array(1...PostgresSchema.latest), "one row per step")
        #expect(try await PostgresRunStore.migrate(url: url, logger: Self.logger) == (from: PostgresSchema.latest, to: PostgresSchema.latest))
        #expect(try await stores[2].claim(RunStoreTests.fire(1), at: Date()) != nil)
        for store in stores { await store.close() }

        let fresh = try await PostgresServer.database()
        #expect(try await PostgresRunStore.migrate(url: fresh, logger: Self.logger) == (from: 0, to: PostgresSchema.latest))
    }

    @Test func aDatabaseANewerAutoMigratedIsRefused() async throws {
        let url = try await PostgresServer.database()
        try await PostgresRunStore.open(url: url, logger: Self.logger).close()
        let server = try await PostgresServer.running()
        try await server.withConnection(to: Self.database(of: url)) { connection in
            try await connection.query("INSERT INTO auto_schema_version (version, description) VALUES (\(PostgresSchema.latest + 1), 'from the future')",
                                       logger: Self.logger)
        }
        let message = "it was written by a newer version of auto; use that version, or another --store"
        await #expect { try await PostgresRunStore.open(url: url, logger: Self.logger) } throws: { ($0 as? RunStoreError)?.reason == message }
        await #expect { try await PostgresRunStore.migrate(url: url, logger: Self.logger) } throws: { ($0 as? RunStoreError)?.reason == message }
        #expect(try await Self.versions(of: url) == Array(1...PostgresSchema.latest + 1), "left as it was")
    }

    /// A port no server listens on: the store says so at once, rather than after its pool's retries.
    @Test func anUnreachableServerIsSaidSoAtOnce() async throws {
        let port = try LoopbackPort.unused()
        let url = "postgres://auto:pa55-word@127.0.0.1:\(port)/runs"
        // A refused connection is the answer, not a reason to try again: without that, the pool's retries would run into
        // this deadline (generous, as a loaded machine is slow; how soon is not timed here, as no test is).
        let error = try await Self.failure(within: .seconds(120)) { try await PostgresRunStore.open(url: url, logger: Self.logger) }
        #expect(error.reason == "can't connect to PostgreSQL at 127.0.0.1:\(port) (connection refused)")
        #expect(error.path == "postgres://auto@127.0.0.1:\(port)/runs")
    }

    /// Whatever goes wrong, the password in a URL is in no error: not the server's, not the store's own.
    @Test func aURLsPasswordIsInNoError() async throws {
        let server = try await PostgresServer.running()
        let password = "s3cret-Pa55"
        let urls = [
            "postgres://postgres:\(password)@127.0.0.1:\(server.port)/no_such_database",
            "postgresql://postgres:\(password)@127.0.0.1:\(try LoopbackPort.unused())/runs",
            "postgres://postgres:\(password)@127.0.0.1:\(server.port)/runs?sslmode=sometimes",
            "postgres://postgres:\(password)@127.0.0.1:\(server.port)/runs?application_name=auto",
            "postgres://postgres@127.0.0.1:\(server.port)/runs?password=\(password)&user=nobody",
            "postgres://postgres:\(password)@127.0.0.1:port/runs",
            "mysql://postgres:\(password)@127.0.0.1/runs",
            "postgres://postgres:\(password)@/runs",
            // A password with a slash or a question mark (base64 has slashes) not percent-encoded: URLComponents reads
            // `postgres:12` as host and port, the rest as the path or the query.
            "postgres://postgres:12/\(password)@127.0.0.1:\(server.port)/runs",
            "postgres://postgres:12?\(password)@127.0.0.1:\(server.port)/runs",
        ]
        var reasons: [String] = []
        for url in urls {
            let error = try await Self.failure(within: .seconds(120)) { try await PostgresRunStore.open(url: url, logger: Self.logger) }
            #expect(!"\(error)".contains(password), "\(error)")
            #expect(!"\(error)".contains("postgres:@"), "\(error)")
            reasons.append(error.reason)
        }
        #expect(reasons[0] == #"database "no_such_database" does not exist"#)
        #expect(reasons[1].hasPrefix("can't connect to PostgreSQL at 127.0.0.1:"))
        #expect(reasons[2].contains("sslmode sometimes is none of disable"))
        #expect(reasons[3].contains("doesn't know its parameter application_name"))
        #expect(reasons[4] == #"role "nobody" does not exist"#)
        #expect(reasons[5].contains("not a PostgreSQL URL"))
        #expect(reasons[6].contains("not a PostgreSQL URL"))
        #expect(reasons[7].contains("it names no host"))
        #expect(reasons[8].contains("must be percent-encoded") && reasons[9].contains("must be percent-encoded"))
    }

    @Test func aURLSaysWhereTheStoreIs() throws {
        let plain = try PostgresAddress(url: "postgres://auto:pw@db.example:6543/runs")
        #expect(plain.endpoint == .tcp(host: "db.example", port: 6543) && plain.username == "auto" && plain.password == "pw")
        #expect(plain.database == "runs" && plain.encryption == .disable && plain.connectTimeout == .seconds(10))
        #expect(plain.redacted == "postgres://auto@db.example:6543/runs" && "\(plain)" == "db.example:6543")

        let socket = try PostgresAddress(url: "postgresql://auto@/runs?host=/run/postgresql&sslmode=require&connect_timeout=3")
        #expect(socket.endpoint == .socket(path: "/run/postgresql/.s.PGSQL.5432") && socket.encryption == .require)
        #expect(socket.connectTimeout == .seconds(3) && socket.database == "runs")

        let encoded = try PostgresAddress(url: "postgres://me%40home:p%3Ass@[::1]/r%C3%BCns")
        #expect(encoded.username == "me@home" && encoded.password == "p:ss" && encoded.database == "rüns")
        #expect(encoded.endpoint == .tcp(host: "::1", port: 5432) && "\(encoded)" == "[::1]:5432")
        #expect(!encoded.redacted.contains("p%3Ass") && !encoded.redacted.contains("p:ss"))
        #expect(try PostgresAddress(url: "postgres://me:a%2Fb%3Fc%23d%40e@db/runs").password == "a/b?c#d@e")
        #expect(try PostgresAddress(url: "postgres://db/runs?user=me%40home").username == "me@home")
    }

    /// A statement's text can't hold the character 0 in PostgreSQL; a step's result may (a binary file read).
    @Test func aStepsResultWithTheCharacterZeroIsKept() async throws {
        let store = try await PostgresRunStore.open(url: try await PostgresServer.database(), logger: Self.logger)
        let id = try #require(try await store.claim(RunStoreTests.fire(1), at: Date()))
        let step = RunTrace.Step(intent: "read file", arguments: [.init(name: "path", value: "\"a\u{0}b\"")], result: "PK\u{0}\u{3}",
                                 error: nil, startedAfter: .zero, duration: .zero, location: SourceLocation(file: "a.auto", line: 1, column: 1))
        try await store.finish(id, RunEnding(.failed, message: "bad\u{0}byte"), steps: [step], droppedSteps: 0, at: Date())
        let kept = try #require(try await store.steps(of: id).first)
        #expect(kept.result == "PK\u{FFFD}\u{3}" && kept.arguments == step.arguments)
        #expect(try await store.run(id)?.message == "bad\u{FFFD}byte")
        await store.close()
    }

    @Test func aClosedStoreSaysSo() async throws {
        let store = try await PostgresRunStore.open(url: try await PostgresServer.database(), logger: Self.logger)
        await store.close()
        let error = try await Self.failure(within: .seconds(120)) { try await store.cursor(of: RunStoreTests.digest) }
        #expect(error.reason == "it is closed")
    }

    // MARK: Helpers

    static func database(of url: String) -> String { String(url.split(separator: "/").last ?? "") }

    static func versions(of url: String) async throws -> [Int] {
        try await PostgresServer.running().withConnection(to: database(of: url)) { connection in
            var versions: [Int] = []
            for try await version in try await connection.query("SELECT version FROM auto_schema_version ORDER BY version",
                                                                logger: logger).decode(Int.self) {
                versions.append(version)
            }
            return versions
        }
    }

    /// The store's error from `work`, which must fail, and within `limit`: a test that would hang fails instead.
    static func failure<T: Sendable>(within limit: Duration, _ work: @escaping @Sendable () async throws -> T) async throws -> RunStoreError {
        try await withThrowingTaskGroup(of: RunStoreError?.self) { group in
            group.addTask {
                do {
                    _ = try await work()
                    return nil
                } catch let error as RunStoreError {
                    return error
                }
            }
            group.addTask {
                try await Task.sleep(for: limit)
                throw PostgresServer.Failure("no answer within \(limit)")
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw PostgresServer.Failure("no result") }
            return try #require(first, "it did not fail")
        }
    }
}

/// The check of a store at a daemon's start, bounded in time.
@Suite struct StoreCheckTests {
    @Test func aStoreTooBigToCheckInTheTimeGivenIsLeftPartlyUnchecked() throws {
        let folder = try TemporaryFolder("auto-check")
        defer { withExtendedLifetime(folder) {} }
        let path = folder("runs.sqlite")
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
        let folder = try TemporaryFolder("auto-check")
        defer { withExtendedLifetime(folder) {} }
        let path = folder("runs.sqlite")
        #expect(StoreCheck.recoveredPath(for: path) == folder.path + "/runs-recovered.sqlite")
        FileManager.default.createFile(atPath: folder.path + "/runs-recovered.sqlite", contents: nil)
        #expect(StoreCheck.recoveredPath(for: path) == folder.path + "/runs-recovered-2.sqlite")
        #expect(StoreCheck.quoted("/tmp/it's here") == #"'/tmp/it'\''s here'"#)
    }
}

/// One daemon per store.
@Suite struct StoreLockTests {
    @Test func aSecondLockOnTheSameStoreIsRefusedUntilTheFirstGoes() throws {
        let folder = try TemporaryFolder("auto-lock")
        defer { withExtendedLifetime(folder) {} }
        let store = folder("runs.sqlite")
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
