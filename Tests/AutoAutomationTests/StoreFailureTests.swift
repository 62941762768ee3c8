@testable import AutoAutomation
import AutoIntents
import AutoLanguage
import AutoRuntime
import AutoTestSupport
import Foundation
import GRDB
import Logging
import PostgresNIO
import Testing

/// The scheduler when its store fails — a table gone for a while, a PostgreSQL server restarted: the fire whose claim
/// failed, and the end of a run it could not record, are taken at the next try, once each. Nothing is lost and
/// nothing runs twice.
@Suite struct StoreFailureTests {
    let gate = Gate()

    func automations(_ text: String) throws -> [(LoadedAutomation, (any FireSchedule)?)] {
        var registry = try SampleLibrary.registry()
        try registry.register(dependency: gate)
        try registry.register(WaitAtGate.self)
        let compiled = try ScriptCompiler.compile(SourceFile(name: "s.auto", text: text), registry: registry).get()
        return LoadedAutomation.all(in: compiled, script: "/s.auto").map { ($0, EverySeconds(seconds: 60) as any FireSchedule) }
    }

    /// A scheduler on `store`, started at second 30 of a clock the test moves, with `automations` loaded.
    static func started(_ store: any RunStore, _ automations: [(LoadedAutomation, (any FireSchedule)?)]) async throws -> (Scheduler, TestClock) {
        let clock = TestClock(30)
        let scheduler = Scheduler(store: store, clock: clock, logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
        try await scheduler.start()
        try await scheduler.load(automations)
        return (scheduler, clock)
    }

    /// (scheduled second, outcome) of every run, oldest first.
    static func history(_ store: any RunStore) async throws -> [String] {
        try await store.runs(of: nil, limit: 100).reversed().map { "\(Int($0.scheduled.timeIntervalSince1970)) \($0.outcome.rawValue)" }
    }

    /// Takes the store's table of runs away (renamed behind its back), or gives it back: every claim and every run's
    /// end fails in between, as with a disk or a server that fails.
    static func runTable(of place: StorePlace, away: Bool) async throws {
        let statement = away ? "ALTER TABLE run RENAME TO run_away" : "ALTER TABLE run_away RENAME TO run"
        switch place.kind {
        case .sqlite:
            try await DatabaseQueue(path: place.location).write { try $0.execute(sql: statement) }
        case .postgres:
            let database = String(place.location.split(separator: "/").last ?? "")
            try await PostgresServer.running().withConnection(to: database) { connection in
                try await connection.perform(PostgresQuery(unsafeSQL: statement), logger: PostgresServer.logger)
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aFireWhoseClaimFailedIsClaimedAtTheNextTry(_ kind: StoreKind) async throws {
        try await StorePlace.with(kind) { place in
            let store = try await place.open()
            let (scheduler, clock) = try await Self.started(store, automations("automation \"a\" every minute { show 1 }"))
            try await Self.runTable(of: place, away: true)
            await clock.advance(to: 60)
            await scheduler.settled()
            #expect(await scheduler.storeFailures == 1)
            try await Self.runTable(of: place, away: false)
            #expect(try await Self.history(store).isEmpty, "the claim failed")
            // The next try, 0.1 s later by the scheduler's clock: the fire of 60 is claimed and runs.
            await clock.advance(to: 60.2)
            await scheduler.settled()
            #expect(try await Self.history(store) == ["60 succeeded"])
            #expect(try await store.cursor(of: AutomationKey(script: "/s.auto", name: "a")) == Date(timeIntervalSince1970: 60))
            #expect(await scheduler.storeFailures == 0)
            await clock.advance(to: 120)
            await scheduler.settled()
            #expect(try await Self.history(store) == ["60 succeeded", "120 succeeded"])
            await scheduler.stop(grace: .seconds(5))
        }
    }

    /// `every 60 seconds` counts from its last fire: the fire whose claim failed is the one claimed at the next try, at
    /// its own instant, and the beat goes on from it (not a millisecond earlier, which would lose the fire).
    @Test func anIntervalsBeatIsKeptAcrossAFailedClaim() async throws {
        try await StorePlace.with(.sqlite) { place in
            let store = try await place.open()
            let loaded = try automations("automation \"a\" every 60 seconds { show 1 }").map { ($0.0, IntervalSchedule(interval: .seconds(60)) as (any FireSchedule)?) }
            let (scheduler, clock) = try await Self.started(store, loaded)
            try await Self.runTable(of: place, away: true)
            await clock.advance(to: 90)
            await scheduler.settled()
            try await Self.runTable(of: place, away: false)
            await clock.advance(to: 90.5)
            await scheduler.settled()
            #expect(try await Self.history(store) == ["90 succeeded"])
            await clock.advance(to: 150)
            await scheduler.settled()
            #expect(try await Self.history(store) == ["90 succeeded", "150 succeeded"])
            await scheduler.stop(grace: .seconds(5))
        }
    }

    /// The store fails for longer than a fire's period: what fell due meanwhile is recorded as skipped, with that reason,
    /// and the latest runs.
    @Test(arguments: StoreKind.allCases)
    func firesDueWhileTheStoreFailsAreSkippedWithTheReason(_ kind: StoreKind) async throws {
        try await StorePlace.with(kind) { place in
            let store = try await place.open()
            let (scheduler, clock) = try await Self.started(store, automations("automation \"a\" every minute { show 1 }"))
            try await Self.runTable(of: place, away: true)
            // Tries at 60, then 0.1, 0.2, 0.4, … s later: each fails.
            var now = 60.0
            for _ in 0..<12 {
                await clock.advance(to: now)
                await scheduler.settled()
                now += 30
            }
            #expect(await scheduler.storeFailures >= 10)
            try await Self.runTable(of: place, away: false)
            await clock.advance(to: 420)
            await scheduler.settled()
            let history = try await Self.history(store)
            #expect(history == ["60 skipped", "120 skipped", "180 skipped", "240 skipped", "300 skipped", "360 skipped", "420 succeeded"])
            #expect(try await store.runs(of: "a", limit: 2).last?.message == "the run store could not be reached at this fire's time")
            await scheduler.stop(grace: .seconds(5))
        }
    }

    @Test(arguments: StoreKind.allCases)
    func theEndOfARunTheStoreCouldNotRecordIsRecordedAtTheNextTry(_ kind: StoreKind) async throws {
        try await StorePlace.with(kind) { place in
            let store = try await place.open()
            let (scheduler, clock) = try await Self.started(store, automations("automation \"a\" every minute { wait at gate }"))
            await clock.advance(to: 60)
            try await ClusterTests.eventually("the run waits at the gate") { gate.arrivals == 1 }
            try await Self.runTable(of: place, away: true)
            gate.open()
            // The run ends; its end can't be recorded, and the scheduler is idle again.
            await scheduler.settled()
            #expect(await scheduler.unrecorded.count == 1)
            try await Self.runTable(of: place, away: false)
            #expect(try await Self.history(store) == ["60 running"])
            await clock.advance(to: 60.5)
            await scheduler.settled()
            #expect(try await Self.history(store) == ["60 succeeded"])
            #expect(await scheduler.unrecorded.isEmpty)
            await scheduler.stop(grace: .seconds(5))
        }
    }

    /// A real restart of the PostgreSQL server, as a crash (`pg_ctl -m immediate`): the pool's connections die, and the
    /// next fires are claimed on new ones, each once.
    @Test func aPostgresRestartLosesNoFire() async throws {
        let server = try await PostgresServer.privateServer()
        let store = try await PostgresRunStore.open(url: try await server.newDatabase(), logger: PostgresServer.logger)
        let (scheduler, clock) = try await Self.started(store, automations("automation \"a\" every minute { show 1 }"))
        await clock.advance(to: 60)
        await scheduler.settled()
        #expect(try await Self.history(store) == ["60 succeeded"])
        try await server.restart()
        // Whether the first claim after the restart fails (a connection the pool had not yet seen die) or not, the fire
        // is claimed by the time the clock has moved on a little.
        var now = 120.0
        try await ClusterTests.eventually("the fire of 120 is claimed after the restart") {
            await clock.advance(to: now)
            await scheduler.settled()
            now += 0.5
            return (try? await Self.history(store))?.contains("120 succeeded") == true
        }
        await clock.advance(to: 180)
        await scheduler.settled()
        #expect(try await Self.history(store) == ["60 succeeded", "120 succeeded", "180 succeeded"])
        await scheduler.stop(grace: .seconds(5))
        await store.close()
        await server.stop()
    }
}
