import Foundation
import Logging

/// A daemon's part in a cluster on a shared store: it joins as a node, keeps its lease alive, and balances the time
/// automations with the other nodes — taking its fair share of those no live node owns, handing back what is over
/// it when a node joins — and tells its scheduler what it owns.
///
/// The rule that keeps a fire from running twice is the store's (a claim carries the owner's fence). What this adds is
/// the node's own side of a lease: when it can't renew in time (the database is down, the process was paused), it
/// stops firing and cancels its runs before the lease runs out at the database, so before another node may take over.
package actor NodeMembership {
    /// How long a lease lasts from each renewal, and how often the node renews it (and looks at the balance): a node
    /// killed is taken over about `lease` after its last renewal.
    package struct Timing: Sendable {
        package var lease: Duration
        package var heartbeat: Duration
        /// How long before its lease runs out, as the node counts it, the node gives up what it owns: room for the
        /// database's clock and the node's to run at slightly different rates.
        package var margin: Duration
        /// A heartbeat a quarter of the lease, and a margin a fifth, each at most a second: a lease of 10 s renews every
        /// second, and a node that can't renew gives up 9 s after the last renewal it sent.
        package init(lease: Duration = .seconds(10)) {
            self.lease = lease
            heartbeat = min(.seconds(1), lease / 4)
            margin = min(.seconds(1), lease / 5)
        }
    }

    let store: any ClusterStore
    let scheduler: Scheduler
    let info: NodeInfo
    let timing: Timing
    let logger: Logger
    let metrics: DaemonMetrics

    /// The node's id while it is a member; nil before it joins and after its lease was lost (it joins again).
    package private(set) var node: NodeID?
    /// When its lease runs out, counted from when the last renewal was sent (the database extended it later than
    /// that, so this is never after the database's deadline), less `margin`.
    var deadline: ContinuousClock.Instant?
    var leaving = false
    /// When it last looked for automations to take while under its share: the cluster's shape, how many automations it
    /// had and owned, how many more heartbeats it looks at each, and the heartbeats since. Looking reads every automation
    /// the node could take (10,000 of them took PostgreSQL 40–120 ms), so a node that found nothing, in a cluster that
    /// didn't change, looks again only every `lookEvery` heartbeats: a node joining, leaving, losing its lease or loading
    /// definitions changes the shape, a node handing automations back does so within a few heartbeats of that change,
    /// and an automation its scheduler gave up (the store refused a fire of it) is taken again at the next beat.
    var lookedAt: (shape: ClusterShape, automations: Int, owned: Int)?
    var looksLeft = 0
    var beatsSinceLook = 0
    static let lookEvery = 10

    /// What the node last told the store of its definitions (`define`): after which of its scheduler's loads, as which
    /// node, and each definition it loaded. A definition is imposed on the store once per load that changed it, not at
    /// each joining: a node that lost its lease and joins again doesn't take back an automation another node loaded an
    /// edit of since.
    var definedAfter: (loads: Int, node: NodeID)?
    var definitions: [AutomationKey: String] = [:]
    var imposed: [AutomationKey: String] = [:]
    /// The node's share, worked out again only when the cluster's shape changed (it reads every definition of every node).
    var share: (at: ClusterShape, share: NodeShare)?

    package init(store: any ClusterStore, scheduler: Scheduler, info: NodeInfo, timing: Timing = Timing(), logger: Logger,
                 metrics: DaemonMetrics = DaemonMetrics()) {
        self.store = store
        self.scheduler = scheduler
        self.info = info
        self.timing = timing
        self.logger = logger
        self.metrics = metrics
    }

    /// Joins, then renews and balances every heartbeat (sooner when another node announces a change) until cancelled.
    /// A store that fails is tried again at the next heartbeat; what the node owns is given up once its lease would
    /// have run out — by a watchdog of its own, as a renewal may hang rather than fail (a database unreachable, a row
    /// locked): the actor is free while it waits, so the watchdog gives up at the deadline whatever the heartbeat does.
    package func run() async {
        let watchdog = Task { [weak self] in
            while !Task.isCancelled {
                guard let self else { return }
                let wake = await self.deadline ?? ContinuousClock.now + self.timing.heartbeat
                try? await Task.sleep(until: wake, clock: .continuous)
                await self.giveUpIfExpired()
            }
        }
        defer { watchdog.cancel() }
        while !Task.isCancelled, !leaving {
            do {
                try await beat()
            } catch {
                logger.error("the run store failed; the node tries again", metadata: ["error": "\(error)"])
            }
            await giveUpIfExpired()
            var wait = timing.heartbeat
            if let deadline { wait = min(wait, max(.milliseconds(10), deadline - ContinuousClock.now)) }
            await store.waitForChange(timeout: wait)
        }
    }

    /// One heartbeat: join if needed, renew, and balance.
    func beat() async throws(RunStoreError) {
        let sent = ContinuousClock.now
        if let node {
            let oldestDue = await scheduler.oldestDue()
            let renewed = try await bounded { [store, timing] () throws(RunStoreError) in
                try await store.renew(node, lease: timing.lease, oldestDue: oldestDue)
            }
            guard renewed else {
                logger.error("the node's lease ran out before it was renewed; it gives up its automations and joins again",
                             metadata: ["node": "\(info.name)"])
                await loseEverything()
                self.node = nil
                return
            }
        } else {
            node = try await bounded { [store, info, timing] () throws(RunStoreError) in try await store.join(info, lease: timing.lease) }
            logger.info("joined the cluster", metadata: ["node": "\(info.name)", "id": "\(node ?? 0)"])
        }
        deadline = sent + timing.lease - timing.margin
        try await define()
        try await balance()
    }

    /// Tells the store which definitions the node has, after each load of its scheduler (and as a new node after it
    /// joined again); those its last load changed become the store's.
    func define() async throws(RunStoreError) {
        guard let node else { return }
        guard let (loads, definitions) = await scheduler.definitions(unless: definedAfter?.node == node ? definedAfter?.loads : nil) else { return }
        let imposing = Set(definitions.filter { imposed[$0.key] != $0.value }.keys)
        try await bounded { [store] () throws(RunStoreError) in try await store.define(definitions, imposing: imposing, for: node) }
        if !imposing.isEmpty, definedAfter != nil {
            logger.info("loaded new definitions: nodes with others stop firing them", metadata: ["node": "\(info.name)", "count": "\(imposing.count)"])
        }
        for key in imposing { imposed[key] = definitions[key] }
        self.definitions = definitions
        definedAfter = (loads, node)
    }

    /// Takes or hands back automations so this node owns its fair share (`NodeShare`): with every node on the same
    /// scripts, the time automations loaded divided by the live nodes, rounded up.
    func balance() async throws(RunStoreError) {
        guard let node, !leaving else { return }
        let (all, owned) = await scheduler.timeAutomations()
        let shape = try await bounded { [store] () throws(RunStoreError) in try await store.shape() }
        if share?.at != shape {
            let fresh = try await bounded { [store] () throws(RunStoreError) in try await store.share(for: node) }
            share = (shape, fresh)
            // Taken from it because another node loaded another definition of it (`define`): its next fire would fail
            // its fence anyway. Its run, if one goes, ends here while the new owner fires the next.
            let lost = owned.map(\.key).filter { !fresh.owned.contains($0) }
            if !lost.isEmpty {
                await scheduler.disown(lost, cancellingRuns: false)
                metrics.ownershipChanged("lost", count: lost.count)
                logger.info("another node loaded another definition of automations this node owned; it fires them now",
                            metadata: ["node": "\(info.name)", "automations": "\(lost.map(\.name).sorted().joined(separator: ", "))"])
            }
        }
        guard let share = share?.share else { return }
        metrics.owned(owned.count, liveNodes: max(1, shape.live))
        if owned.count > share.count {
            // Those with no run going first: a run handed over keeps going here while the new owner fires the next. Never
            // one that no other node can fire.
            let candidates = owned.filter { !share.exclusive.contains($0.key) }
            let extra = Array((candidates.filter { !$0.running } + candidates.filter(\.running)).prefix(owned.count - share.count).map(\.key))
            guard !extra.isEmpty else { return }
            await scheduler.disown(extra, cancellingRuns: false)
            try await bounded { [store] () throws(RunStoreError) in try await store.release(extra, from: node) }
            metrics.ownershipChanged("released", count: extra.count)
            logger.info("handed automations back to share them", metadata: ["node": "\(info.name)", "count": "\(extra.count)"])
        } else if owned.count < share.count {
            beatsSinceLook += 1
            if lookedAt.map({ $0 != (shape, all.count, owned.count) }) ?? true { looksLeft = Self.lookEvery }
            guard looksLeft > 0 || beatsSinceLook >= Self.lookEvery else { return }
            looksLeft = max(0, looksLeft - 1)
            beatsSinceLook = 0
            lookedAt = (shape, all.count, owned.count)
            let mine = Set(owned.map(\.key))
            let free = definitions.filter { !mine.contains($0.key) }, count = share.count - owned.count
            let granted = try await bounded { [store] () throws(RunStoreError) in try await store.acquire(free, upTo: count, for: node) }
            guard !granted.isEmpty else { return }
            // More may be handed back soon: it keeps looking.
            looksLeft = Self.lookEvery
            // The scheduler is told at once: the store has them as this node's from now on, whatever fails next.
            metrics.ownershipChanged("acquired", count: granted.count)
            logger.info("took automations", metadata: ["node": "\(info.name)", "count": "\(granted.count)",
                                                      "automations": "\(granted.keys.map(\.name).sorted().joined(separator: ", "))"])
            await scheduler.own(granted)
            // What a node that died left running is closed now, not when the next daemon starts (nor is a run of this
            // node's, a catch-up run `own` started: only the runs of nodes that are gone).
            let closed = try await bounded { [store] () throws(RunStoreError) in
                try await store.closeUnfinished(reason: "the daemon stopped during this run", at: Date())
            }
            if closed > 0 { logger.warning("runs left unfinished by a node that is gone recorded as failed", metadata: ["runs": "\(closed)"]) }
        }
    }

    /// A call to the store, given at most the lease: a request can hang rather than fail — PostgresNIO's pool holds
    /// one while it can't connect, for up to a minute, and one made as the server went down was seen to hang that long
    /// even when cancelled — and a node waiting on it would neither renew, nor join again, nor stop, for that long. The
    /// call abandoned goes on by itself; one that lands late does no harm: a renewal extends a lease the node no longer
    /// counts on (it gave up at its own deadline, and a fire refused since makes it take the automation again), and
    /// what a late taking gave it the node takes again as its own when it looks (`acquire`).
    func bounded<T: Sendable>(_ call: @escaping @Sendable () async throws(RunStoreError) -> T) async throws(RunStoreError) -> T {
        let answer: T?
        do {
            answer = try await Deadline.run(within: timing.lease) { () async throws -> T in try await call() }
        } catch let error as RunStoreError {
            throw error
        } catch {
            throw RunStoreError(path: store.path, reason: "\(error)")
        }
        guard let answer else {
            throw RunStoreError(path: store.path, reason: "it did not answer within the node's lease (\(timing.lease))", isUnavailable: true)
        }
        return answer
    }

    /// Past the deadline without a renewal: stop firing and cancel the runs, before another node may take over.
    func giveUpIfExpired() async {
        guard let deadline, ContinuousClock.now >= deadline else { return }
        // Before the wait below: the watchdog and the heartbeat may both come here.
        self.deadline = nil
        logger.error("the node could not renew its lease in time; it gives up its automations", metadata: ["node": "\(info.name)"])
        await loseEverything()
    }

    func loseEverything() async {
        let owned = await scheduler.timeAutomations().owned.map(\.key)
        await scheduler.disown(owned, cancellingRuns: true)
        metrics.ownershipChanged("lost", count: owned.count)
    }

    /// A stop (SIGTERM): the scheduler takes no more fires, and the node leaves at once, so the others take its
    /// automations over within a heartbeat — or at once, told by the store — while its runs get their grace.
    package func leave() async {
        leaving = true
        await scheduler.stopTakingFires()
        await scheduler.disown(await scheduler.timeAutomations().owned.map(\.key), cancellingRuns: false)
        guard let node else { return }
        // For at most its lease (`bounded`): a store that doesn't answer (the server gone) would hold the daemon's stop,
        // and the lease runs out in that time anyway, which frees what the node owned.
        do {
            try await bounded { [store] () throws(RunStoreError) in try await store.leave(node) }
            logger.info("left the cluster", metadata: ["node": "\(info.name)"])
        } catch {
            logger.error("the node could not say it leaves; its lease runs out instead", metadata: ["error": "\(error)"])
        }
        self.node = nil
    }
}
