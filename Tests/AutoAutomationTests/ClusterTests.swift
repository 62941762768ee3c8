@testable import AutoAutomation
import AutoIntents
import AutoLanguage
import AutoRuntime
import AutoTestSupport
import Foundation
import Logging
import Testing

/// Several daemons on one PostgreSQL store (a real server, `PostgresServer`): nodes with leases at the database's
/// clock, one owner per automation, fences that keep an earlier owner from claiming, and automations shared, handed
/// back and taken over — with what a node that takes over missed recorded by each automation's rule.
@Suite struct ClusterTests {
    static let quiet = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
    static let digest = AutomationKey(script: "/s.auto", name: "a")

    static func open(_ url: String) async throws -> PostgresRunStore { try await PostgresRunStore.open(url: url, logger: quiet) }
    static func node(_ name: String) -> NodeInfo { NodeInfo(name: name, host: "test", pid: 1, version: "test") }
    static func fire(_ seconds: Double, _ key: AutomationKey = digest, fence: Fence? = nil) -> Fire {
        Fire(automation: key, trigger: "every 1 minute", scheduled: Date(timeIntervalSince1970: seconds), fence: fence)
    }

    /// Waits for `condition`, looking again every few milliseconds, for at most `deadline` (generous: a loaded machine
    /// is slow, and a lease runs out at the database's clock).
    static func eventually(_ what: String, within deadline: Duration = .seconds(60), _ condition: () async throws -> Bool) async throws {
        let end = ContinuousClock.now + deadline
        while try await !condition() {
            guard ContinuousClock.now < end else {
                Issue.record("not within \(deadline): \(what)")
                return
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    @Test func aFenceFromAnEarlierOwnerCanNeitherClaimNorSkip() async throws {
        let store = try await Self.open(try await PostgresServer.database())
        _ = try await store.cursors(of: [Self.digest], startingAt: Date(timeIntervalSince1970: 0))
        let one = try await store.join(Self.node("one"), lease: .seconds(60))
        let two = try await store.join(Self.node("two"), lease: .seconds(60))
        #expect(one != two)
        let first = try #require(try await store.acquire([Self.digest], upTo: 1, for: one)[Self.digest])
        #expect(try await store.acquire([Self.digest], upTo: 1, for: two).isEmpty, "a live node's automation is not taken")
        #expect(try await store.claim(Self.fire(60, fence: first), at: Date()) != nil)
        try await store.release([Self.digest], from: one)
        let second = try #require(try await store.acquire([Self.digest], upTo: 1, for: two)[Self.digest])
        #expect(second.epoch > first.epoch && second.node == two)
        #expect(try await store.claim(Self.fire(120, fence: first), at: Date()) == nil, "the earlier owner's fence no longer holds")
        #expect(try await !store.skip(Self.fire(120, fence: first), as: .skipped, reason: "late", at: Date()))
        #expect(try await store.cursor(of: Self.digest) == Date(timeIntervalSince1970: 60), "a refused claim moves no cursor")
        #expect(try await store.claim(Self.fire(120, fence: second), at: Date()) != nil)
        #expect(try await store.claim(Self.fire(180), at: Date()) != nil, "a fire without a fence (one daemon's) is not fenced")
        await store.close()
    }

    /// A claim that committed though its node heard it fail (the server restarted between the commit and the answer)
    /// is claimed again by that node, with its run's id, while the run is still to start: not refused, which would leave
    /// its row "running" for as long as the node lives. Nobody else gets it, nor the node once the run has ended.
    @Test func aClaimWhoseAnswerWasLostIsClaimedAgainByItsNode() async throws {
        let store = try await Self.open(try await PostgresServer.database())
        _ = try await store.cursors(of: [Self.digest], startingAt: Date(timeIntervalSince1970: 0))
        let one = try await store.join(Self.node("one"), lease: .seconds(60))
        let fence = try #require(try await store.acquire([Self.digest], upTo: 1, for: one)[Self.digest])
        let run = try #require(try await store.claim(Self.fire(60, fence: fence), at: Date()))
        #expect(try await store.claim(Self.fire(60, fence: fence), at: Date()) == run, "its own claim, made again")
        #expect(try await store.claim(Self.fire(60), at: Date()) == nil, "a fire without a fence is refused")
        try await store.finish(run, RunEnding(.succeeded), steps: [], droppedSteps: 0, at: Date())
        #expect(try await store.claim(Self.fire(60, fence: fence), at: Date()) == nil, "once ended, it is refused")
        #expect(try await store.runs(of: Self.digest.name, limit: 10).map(\.outcome) == [.succeeded])
        await store.close()
    }

    @Test func aNodeWhoseLeaseRanOutCanNotClaimAndIsTakenOver() async throws {
        let store = try await Self.open(try await PostgresServer.database())
        _ = try await store.cursors(of: [Self.digest], startingAt: Date(timeIntervalSince1970: 0))
        let one = try await store.join(Self.node("one"), lease: .seconds(60))
        let fence = try #require(try await store.acquire([Self.digest], upTo: 1, for: one)[Self.digest])
        let two = try await store.join(Self.node("two"), lease: .seconds(60))
        // Its last renewal, with a lease that runs out at once: as a node that stopped renewing (however slow this
        // machine is, nothing before depended on time).
        #expect(try await store.renew(one, lease: .milliseconds(1), oldestDue: nil))
        try await Self.eventually("node one's lease runs out") { try await store.liveNodes() == 1 }
        #expect(try await store.claim(Self.fire(60, fence: fence), at: Date()) == nil, "nobody took it over yet, and still it can't claim")
        #expect(try await !store.renew(one, lease: .seconds(60), oldestDue: nil), "a lease that ran out is not renewed")
        #expect(try await store.acquire([Self.digest], upTo: 1, for: one).isEmpty, "nor can the node take anything")
        let taken = try #require(try await store.acquire([Self.digest], upTo: 1, for: two)[Self.digest])
        #expect(try await store.claim(Self.fire(60, fence: taken), at: Date()) != nil)
        let status = try await store.status()
        #expect(status.nodes.map(\.info.name) == ["one", "two"])
        #expect(status.nodes.map(status.isLive) == [false, true])
        #expect(status.automations.map(\.owner) == [two])
        await store.close()
    }

    /// A node starting closes what a node that is gone left running, never a live node's run.
    @Test func onlyTheRunsOfNodesThatAreGoneAreClosed() async throws {
        let store = try await Self.open(try await PostgresServer.database())
        let other = AutomationKey(script: "/s.auto", name: "b")
        _ = try await store.cursors(of: [Self.digest, other], startingAt: Date(timeIntervalSince1970: 0))
        let live = try await store.join(Self.node("live"), lease: .seconds(60))
        let gone = try await store.join(Self.node("gone"), lease: .seconds(60))
        let liveFence = try #require(try await store.acquire([Self.digest], upTo: 1, for: live)[Self.digest])
        let goneFence = try #require(try await store.acquire([other], upTo: 1, for: gone)[other])
        let going = try #require(try await store.claim(Self.fire(60, fence: liveFence), at: Date()))
        let left = try #require(try await store.claim(Self.fire(60, other, fence: goneFence), at: Date()))
        #expect(try await store.closeUnfinished(reason: "the daemon stopped during this run", at: Date()) == 0, "both nodes are live")
        #expect(try await store.renew(gone, lease: .milliseconds(1), oldestDue: nil))
        try await Self.eventually("gone's lease runs out") { try await store.liveNodes() == 1 }
        #expect(try await store.closeUnfinished(reason: "the daemon stopped during this run", at: Date()) == 1)
        #expect(try await store.run(left)?.outcome == .failed)
        #expect(try await store.run(going)?.outcome == .running)
        await store.close()
    }

    /// Two daemons' schedulers and memberships on one store: they split the automations, and when one leaves the other
    /// takes them all, announced at once rather than found at the next heartbeat.
    @Test func nodesShareTheAutomationsAndOneTakesOverWhenTheOtherLeaves() async throws {
        let url = try await PostgresServer.database()
        let text = (1...6).map { "automation \"a\($0)\" every minute { show \($0) }" }.joined(separator: "\n")
        var nodes: [(scheduler: Scheduler, membership: NodeMembership, task: Task<Void, Never>, store: PostgresRunStore)] = []
        for name in ["one", "two"] {
            let store = try await Self.open(url)
            let scheduler = Scheduler(store: store, clock: TestClock(30), logger: Self.quiet, clustered: true)
            try await scheduler.start()
            try await scheduler.load(try Self.automations(text))
            // A long lease: the heartbeat (a quarter of it, at most a second) is not what hands over here.
            let membership = NodeMembership(store: store, scheduler: scheduler, info: Self.node(name), timing: .init(lease: .seconds(60)),
                                            logger: Self.quiet)
            nodes.append((scheduler, membership, Task { await membership.run() }, store))
        }
        func owned(_ index: Int) async -> Set<AutomationKey> { Set(await nodes[index].scheduler.timeAutomations().owned.map(\.key)) }
        try await Self.eventually("each owns three") {
            let (first, second) = (await owned(0).count, await owned(1).count)
            return first == 3 && second == 3
        }
        let (first, second) = (await owned(0), await owned(1))
        #expect(first.isDisjoint(with: second))
        let status = try await nodes[0].store.status()
        #expect(Set(status.automations.compactMap(\.owner)).count == 2)
        await nodes[0].membership.leave()
        nodes[0].task.cancel()
        try await Self.eventually("two owns all six") { await owned(1).count == 6 }
        #expect(await owned(0).isEmpty)
        for node in nodes {
            node.task.cancel()
            await node.scheduler.stop(grace: .seconds(5))
            await node.store.close()
        }
    }

    /// A node takes over an automation whose owner died after its fire at 60: at 250, the fires at 120, 180 and 240
    /// follow the automation's rule — skipped with the reason, and with `catch up` the latest runs.
    @Test func whatANodeTakingOverMissedFollowsEachAutomationsRule() async throws {
        let store = try await Self.open(try await PostgresServer.database())
        let plain = AutomationKey(script: "/s.auto", name: "plain"), catching = AutomationKey(script: "/s.auto", name: "catching")
        _ = try await store.cursors(of: [plain, catching], startingAt: Date(timeIntervalSince1970: 0))
        let dead = try await store.join(Self.node("dead"), lease: .seconds(60))
        let fences = try await store.acquire([plain, catching], upTo: 2, for: dead)
        for key in [plain, catching] {
            let run = try #require(try await store.claim(Self.fire(60, key, fence: fences[key]), at: Date()))
            try await store.finish(run, RunEnding(.succeeded), steps: [], droppedSteps: 0, at: Date())
        }
        // Its last renewal, with a lease that runs out at once: it died.
        #expect(try await store.renew(dead, lease: .milliseconds(1), oldestDue: nil))
        let scheduler = Scheduler(store: store, clock: TestClock(250), logger: Self.quiet, clustered: true)
        try await scheduler.start()
        try await scheduler.load(try Self.automations("""
            automation "plain" every minute { show 1 }
            automation "catching" every minute catch up { show 1 }
            """))
        let membership = NodeMembership(store: store, scheduler: scheduler, info: Self.node("heir"), timing: .init(lease: .seconds(60)),
                                        logger: Self.quiet)
        let task = Task { await membership.run() }
        try await Self.eventually("the heir owns both") { await scheduler.timeAutomations().owned.count == 2 }
        await scheduler.settled()
        func history(_ name: String) async throws -> [String] {
            try await store.runs(of: name, limit: 100).reversed().map { "\(Int($0.scheduled.timeIntervalSince1970)) \($0.outcome.rawValue)" }
        }
        #expect(try await history("plain") == ["60 succeeded", "120 skipped", "180 skipped", "240 skipped"])
        #expect(try await history("catching") == ["60 succeeded", "120 skipped", "180 skipped", "240 succeeded"])
        #expect(try await store.runs(of: "plain", limit: 1).first?.message?.contains("no daemon owned it") == true)
        task.cancel()
        await membership.leave()
        await scheduler.stop(grace: .seconds(5))
        await store.close()
    }

    /// A renewal that hangs (its node's row locked by another transaction, as a database cut off mid-statement would
    /// keep it waiting) doesn't keep the node owning past its deadline: it gives its automation up while the renewal
    /// still waits, and owns it again once the store answers.
    @Test func aNodeWhoseRenewalHangsGivesUpAtItsDeadline() async throws {
        let url = try await PostgresServer.database()
        let store = try await Self.open(url)
        let scheduler = Scheduler(store: store, clock: TestClock(30), logger: Self.quiet, clustered: true)
        try await scheduler.start()
        try await scheduler.load(try Self.automations("automation \"a\" every minute { show 1 }"))
        let membership = NodeMembership(store: store, scheduler: scheduler, info: Self.node("one"), timing: .init(lease: .seconds(2)),
                                        logger: Self.quiet)
        let task = Task { await membership.run() }
        try await Self.eventually("the node owns the automation") { await scheduler.timeAutomations().owned.count == 1 }
        let database = String(url.split(separator: "/").last ?? "")
        try await PostgresServer.running().withConnection(to: database) { connection in
            try await connection.query("BEGIN", logger: PostgresServer.logger)
            try await connection.query("SELECT id FROM node FOR UPDATE", logger: PostgresServer.logger)
            try await Self.eventually("the node gives up while its renewal waits") { await scheduler.timeAutomations().owned.isEmpty }
            try await connection.query("COMMIT", logger: PostgresServer.logger)
        }
        try await Self.eventually("the node owns it again") { await scheduler.timeAutomations().owned.count == 1 }
        task.cancel()
        await membership.leave()
        await scheduler.stop(grace: .seconds(5))
        await store.close()
    }

    /// A node's lease can run out at the database's clock and then be extended by a renewal already under way, which
    /// keeps the epoch: a fire the store refused in between must not be lost once the next one, under the same fence,
    /// is recorded again. The scheduler gives the automation up at the refusal, and the node, taking it again, records
    /// what it missed — before, the fire at 60 had no row and the one at 120 ran.
    @Test func aFireRefusedUnderAFenceStillHeldIsRecordedOnceTheNodeTakesItAgain() async throws {
        let url = try await PostgresServer.database()
        let database = String(url.split(separator: "/").last ?? "")
        let store = try await Self.open(url)
        let clock = TestClock(30)
        let scheduler = Scheduler(store: store, clock: clock, logger: Self.quiet, clustered: true)
        try await scheduler.start()
        try await scheduler.load(try Self.automations("automation \"a\" every minute { show 1 }"))
        let key = AutomationKey(script: "/s.auto", name: "a")
        let node = try await store.join(Self.node("one"), lease: .seconds(60))
        await scheduler.own([key: try #require(try await store.acquire([key], upTo: 1, for: node)[key])])
        await scheduler.settled()

        #expect(try await store.renew(node, lease: .milliseconds(1), oldestDue: nil))
        try await Self.eventually("the lease runs out at the database") { try await store.liveNodes() == 0 }
        await clock.advance(to: 90)
        await scheduler.settled()
        #expect(await scheduler.timeAutomations().owned.isEmpty, "refused its fire at 60, the scheduler gave the automation up")
        try await PostgresServer.running().withConnection(to: database) { connection in
            try await connection.query("UPDATE node SET lease_until = now() + interval '60 seconds'", logger: PostgresServer.logger)
        }
        await clock.advance(to: 150)
        await scheduler.settled()
        #expect(try await store.runs(of: "a", limit: 10).isEmpty, "not owned here, nothing is fired")

        await scheduler.own([key: try #require(try await store.acquire([key], upTo: 1, for: node)[key])])
        await scheduler.settled()
        let history = try await store.runs(of: "a", limit: 10).reversed().map { "\(Int($0.scheduled.timeIntervalSince1970)) \($0.outcome.rawValue)" }
        #expect(history == ["60 skipped", "120 skipped"])
        await scheduler.stop(grace: .seconds(5))
        await store.close()
    }

    static func automations(_ text: String) throws -> [(LoadedAutomation, (any FireSchedule)?)] {
        let compiled = try ScriptCompiler.compile(SourceFile(name: "s.auto", text: text), registry: try SampleLibrary.registry()).get()
        return LoadedAutomation.all(in: compiled, script: "/s.auto").map { ($0, EverySeconds(seconds: 60) as any FireSchedule) }
    }
}
