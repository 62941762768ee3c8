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
        let first = try #require(try await Self.take([Self.digest], upTo: 1, for: one, in: store)[Self.digest])
        #expect(try await Self.take([Self.digest], upTo: 1, for: two, in: store).isEmpty, "a live node's automation is not taken")
        #expect(try await store.claim(Self.fire(60, fence: first), at: Date()) != nil)
        try await store.release([Self.digest], from: one)
        let second = try #require(try await Self.take([Self.digest], upTo: 1, for: two, in: store)[Self.digest])
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
        let fence = try #require(try await Self.take([Self.digest], upTo: 1, for: one, in: store)[Self.digest])
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
        let fence = try #require(try await Self.take([Self.digest], upTo: 1, for: one, in: store)[Self.digest])
        let two = try await store.join(Self.node("two"), lease: .seconds(60))
        // Its last renewal, with a lease that runs out at once: as a node that stopped renewing (however slow this
        // machine is, nothing before depended on time).
        #expect(try await store.renew(one, lease: .milliseconds(1), oldestDue: nil))
        try await Self.eventually("node one's lease runs out") { try await store.shape().live == 1 }
        #expect(try await store.claim(Self.fire(60, fence: fence), at: Date()) == nil, "nobody took it over yet, and still it can't claim")
        #expect(try await !store.renew(one, lease: .seconds(60), oldestDue: nil), "a lease that ran out is not renewed")
        #expect(try await Self.take([Self.digest], upTo: 1, for: one, in: store).isEmpty, "nor can the node take anything")
        let taken = try #require(try await Self.take([Self.digest], upTo: 1, for: two, in: store)[Self.digest])
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
        let liveFence = try #require(try await Self.take([Self.digest], upTo: 1, for: live, in: store)[Self.digest])
        let goneFence = try #require(try await Self.take([other], upTo: 1, for: gone, in: store)[other])
        let going = try #require(try await store.claim(Self.fire(60, fence: liveFence), at: Date()))
        let left = try #require(try await store.claim(Self.fire(60, other, fence: goneFence), at: Date()))
        #expect(try await store.closeUnfinished(reason: "the daemon stopped during this run", at: Date()) == 0, "both nodes are live")
        #expect(try await store.renew(gone, lease: .milliseconds(1), oldestDue: nil))
        try await Self.eventually("gone's lease runs out") { try await store.shape().live == 1 }
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
        let fences = try await Self.take([plain, catching], upTo: 2, for: dead, in: store)
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
        await scheduler.own([key: try #require(try await Self.take([key], upTo: 1, for: node, in: store)[key])])
        await scheduler.settled()

        #expect(try await store.renew(node, lease: .milliseconds(1), oldestDue: nil))
        try await Self.eventually("the lease runs out at the database") { try await store.shape().live == 0 }
        await clock.advance(to: 90)
        await scheduler.settled()
        #expect(await scheduler.timeAutomations().owned.isEmpty, "refused its fire at 60, the scheduler gave the automation up")
        try await PostgresServer.running().withConnection(to: database) { connection in
            try await connection.query("UPDATE node SET lease_until = now() + interval '60 seconds'", logger: PostgresServer.logger)
        }
        await clock.advance(to: 150)
        await scheduler.settled()
        #expect(try await store.runs(of: "a", limit: 10).isEmpty, "not owned here, nothing is fired")

        await scheduler.own([key: try #require(try await Self.take([key], upTo: 1, for: node, in: store)[key])])
        await scheduler.settled()
        let history = try await store.runs(of: "a", limit: 10).reversed().map { "\(Int($0.scheduled.timeIntervalSince1970)) \($0.outcome.rawValue)" }
        #expect(history == ["60 skipped", "120 skipped"])
        await scheduler.stop(grace: .seconds(5))
        await store.close()
    }

    /// A rolling restart with an edited script: node two loads an edit of `a1` while node one still has the old one.
    /// From then on only two fires `a1` — one loses it at once, and never takes it back, nor hands it the other
    /// automations it can't fire — and status says which node has another definition. Once one loads the edit too,
    /// the four are shared again. Each instant of each automation has one run throughout.
    @Test func anEditedAutomationIsFiredOnlyByTheNodesThatLoadedTheEdit() async throws {
        let url = try await PostgresServer.database()
        let clock = TestClock(30)
        let old = (1...4).map { "automation \"a\($0)\" every minute { show \($0) }" }.joined(separator: "\n")
        let edited = old.replacingOccurrences(of: "show 1 }", with: "show 10 }")
        var nodes: [(scheduler: Scheduler, membership: NodeMembership, task: Task<Void, Never>, store: PostgresRunStore)] = []
        func start(_ name: String, _ text: String) async throws {
            let store = try await Self.open(url)
            let scheduler = Scheduler(store: store, clock: clock, logger: Self.quiet, clustered: true)
            try await scheduler.start()
            try await scheduler.load(try Self.automations(text))
            let membership = NodeMembership(store: store, scheduler: scheduler, info: Self.node(name), timing: .init(lease: .seconds(60)),
                                            logger: Self.quiet)
            nodes.append((scheduler, membership, Task { await membership.run() }, store))
        }
        func owned(_ index: Int) async -> Set<String> { Set(await nodes[index].scheduler.timeAutomations().owned.map(\.key.name)) }
        func settle() async { for node in nodes { await node.scheduler.settled() } }
        try await start("one", old)
        try await Self.eventually("one owns all four") { await owned(0).count == 4 }
        try await start("two", edited)
        try await Self.eventually("two owns a1 and one more, one the other two") {
            let (one, two) = (await owned(0), await owned(1))
            return two.contains("a1") && two.count == 2 && one.count == 2 && one.isDisjoint(with: two)
        }
        let (one, two) = (try #require(await nodes[0].membership.node), try #require(await nodes[1].membership.node))
        let status = try await nodes[0].store.status()
        #expect(status.automations.map(\.otherDefinition) == [[one], [], [], []], "a1 first: one has another definition of it")
        #expect(Set(status.automations.map(\.definition)).count == 4)

        await clock.advance(to: 60)
        await settle()
        let firstRuns = try await nodes[0].store.runs(of: "a1", limit: 10)
        #expect(firstRuns.map(\.outcome) == [.succeeded])
        let steps = try await nodes[0].store.steps(of: try #require(firstRuns.first?.id))
        #expect(steps.flatMap { $0.arguments.map(\.value) } == ["10"], "the edited body ran")
        #expect(await !owned(0).contains("a1"), "one never takes it back")

        // One is restarted with the edit: the four are shared again.
        try await nodes[0].scheduler.load(try Self.automations(edited))
        try await Self.eventually("both own two again, with no other definition") {
            let (mine, theirs) = (await owned(0), await owned(1))
            let others = try await nodes[0].store.status().automations.flatMap(\.otherDefinition)
            return mine.count == 2 && theirs.count == 2 && others.isEmpty
        }
        await clock.advance(to: 120)
        await settle()
        for name in ["a1", "a2", "a3", "a4"] {
            let runs = try await nodes[0].store.runs(of: name, limit: 10)
            #expect(runs.map { Int($0.scheduled.timeIntervalSince1970) }.sorted() == [60, 120], "\(name): \(runs.map(\.outcome))")
        }
        _ = two
        for node in nodes {
            node.task.cancel()
            await node.membership.leave()
            await node.scheduler.stop(grace: .seconds(5))
            await node.store.close()
        }
    }

    /// Nodes on several machines each watch their own copy of a folder: the store keeps each node's copy under its
    /// name, and a claim of a file run updates its node's copy only. A file run carries its node, so that once the
    /// node is gone another closes it, as it closes the runs on time of a node that died.
    @Test func eachNodeKeepsItsCopyOfAWatchedFolderAndAGoneNodesFileRunsAreClosed() async throws {
        let url = try await PostgresServer.database()
        let alpha = try await PostgresRunStore.open(url: url, logger: Self.quiet, nodeName: "alpha")
        let beta = try await PostgresRunStore.open(url: url, logger: Self.quiet, nodeName: "beta")
        let key = AutomationKey(script: "inbox.auto", name: "pdfs")
        let (a, b, c) = (FileState(size: 1, modified: 1), FileState(size: 2, modified: 2), FileState(size: 3, modified: 3))
        try await alpha.replaceTree(of: key, with: ["/in/a.pdf": a])
        try await beta.replaceTree(of: key, with: ["/in/b.pdf": b])
        let node = try await alpha.join(Self.node("alpha"), lease: .seconds(60))
        let fire = Fire(automation: key, trigger: "when file created in \"/in\"", scheduled: Date(),
                        files: FileFire(files: ["/in/c.pdf"], states: [c]))
        let run = try #require(try await alpha.claim(fire, at: Date()))
        #expect(try await alpha.tree(of: key) == ["/in/a.pdf": a, "/in/c.pdf": c])
        #expect(try await beta.tree(of: key) == ["/in/b.pdf": b], "beta's copy is its own")

        #expect(try await beta.closeUnfinished(reason: "gone", at: Date()) == 0, "alpha is live")
        #expect(try await alpha.renew(node, lease: .milliseconds(1), oldestDue: nil))
        try await Self.eventually("alpha's lease runs out") { try await beta.shape().live == 0 }
        #expect(try await beta.closeUnfinished(reason: "gone", at: Date()) == 1)
        #expect(try await beta.run(run)?.outcome == .failed)
        await alpha.close()
        await beta.close()
    }

    /// Says the node has one definition ("d") of each automation, as nodes on the same script do, and takes them.
    static func take(_ keys: [AutomationKey], upTo count: Int, for node: NodeID, in store: PostgresRunStore) async throws
        -> [AutomationKey: Fence] {
        let definitions = Dictionary(uniqueKeysWithValues: keys.map { ($0, "d") })
        try await store.define(definitions, imposing: Set(keys), for: node)
        return try await store.acquire(definitions, upTo: count, for: node)
    }

    static func automations(_ text: String) throws -> [(LoadedAutomation, (any FireSchedule)?)] {
        let compiled = try ScriptCompiler.compile(SourceFile(name: "s.auto", text: text), registry: try SampleLibrary.registry()).get()
        return LoadedAutomation.all(in: compiled, script: "/s.auto").map { ($0, EverySeconds(seconds: 60) as any FireSchedule) }
    }
}
