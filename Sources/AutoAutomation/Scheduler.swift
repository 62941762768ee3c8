import AutoIntents
import AutoLanguage
import AutoRuntime
import Foundation
import Logging

/// When an automation fires: the next instant strictly after a given one, or nil when it never fires again.
package protocol FireSchedule: Sendable {
    func nextFire(after instant: Date) -> Date?
}

extension FireSchedule {
    /// The next `count` fires strictly after `instant`, fewer when it stops firing: what `automations next -n` lists.
    package func fires(after instant: Date, count: Int) -> [Date] {
        var fires: [Date] = []
        var after = instant
        while fires.count < count, let next = nextFire(after: after) {
            fires.append(next)
            after = next
        }
        return fires
    }
}

/// Fires automations on time, each fire once. It keeps, per automation, the last scheduled instant handled (the
/// store's cursor), waits on the clock for the earliest next fire, and hands each due fire to the automation's
/// mode: run it, queue it, or turn it away (recorded as rejected).
///
/// What it does when time doesn't go as planned:
/// - fires missed while the daemon was down are recorded as skipped ("the daemon was not running"); with
///   `catch up`, the latest of them runs;
/// - a clock set forward, or a machine that slept, leaves several fires due at once: all but the latest are
///   skipped ("the clock jumped forward"), and the latest runs — with `catch up` or not, as it is the one due now;
/// - a clock set back repeats nothing: the next fire is the one after the last handled.
package actor Scheduler {
    /// An automation and what the scheduler knows of it.
    final class Entry {
        let loaded: LoadedAutomation
        /// Nil for a file trigger: its fires are delivered (`deliver`), not scheduled.
        let schedule: (any FireSchedule)?
        /// The last scheduled instant handled (run, skipped or rejected).
        var handled: Date
        /// In a cluster, this node's right to fire it: nil while another node owns it (then it is not fired here).
        var fence: Fence?
        /// Owned by this node since `own`, and what it missed under its last owner not recorded yet (the store failed).
        var takenOver = false
        var running: [RunningFire] = []
        var queued: [Fire] = []
        init(loaded: LoadedAutomation, schedule: (any FireSchedule)?, handled: Date) {
            self.loaded = loaded
            self.schedule = schedule
            self.handled = handled
        }
        /// The fire to wait for: the first after the last handled, which is `Schedules.fires`' next once what was
        /// due has been handled.
        var next: Date? { schedule?.nextFire(after: handled) }
    }

    struct RunningFire {
        let id: Int
        let cancellation: CancellationFlag
        /// Nil until its claim is made (`startClaimed`): it counts for the mode from the moment it is begun.
        var task: Task<Void, Never>?

        /// Stops the run: the flag for the engine's steps, the task for an intent that awaits.
        func cancel() {
            cancellation.cancel()
            task?.cancel()
        }
    }

    /// Whether an operation on the automations' state and the store is under way, and who waits for it to end: the
    /// store's calls may suspend (PostgreSQL's go across the network), and an actor lets another call in at each
    /// suspension — a run's end recorded in the middle of handing out what is due. Each operation (`load`, a
    /// round of due fires, a delivery, a run's end) runs alone, as it did when the store's calls could not suspend.
    /// SQLite's calls never suspend, so with it nothing ever waits here.
    var operating = false
    var operationWaiters: [CheckedContinuation<Void, Never>] = []
    /// The automations disabled, read once in an operation by its first fire (`dispatch`) and forgotten when it ends.
    var disabledInOperation: Set<String>?

    /// Fires begun and waiting for their claim, made for all of them in one transaction; with each, the instant its
    /// automation had handled when it was begun (what a claim that fails puts it back to).
    var unclaimed: [(fire: Fire, entry: Entry, id: Int, cancellation: CancellationFlag, handledBefore: Date)] = []

    /// How many rounds in a row the store failed (it is down, restarting, or unreachable): the loop tries again after a
    /// backoff rather than at the next fire, and what it could not record it records then (see `startClaimed`).
    var storeFailures = 0
    /// When the loop tries the store again after it failed: nothing is handed out before (see `storeFailed`).
    var retryAt: Date?
    /// Ends of runs the store failed to record, recorded at the next try: a run's outcome is never dropped.
    var unrecorded: [(key: AutomationKey, run: FireRunner.EndedRun)] = []
    /// The automations `load` was last given, until they are set: a store that failed meanwhile has them set at the next try.
    var toLoad: [(LoadedAutomation, (any FireSchedule)?)]?
    /// How many times the automations were set: a node says which definitions it has again when this changed.
    var loads = 0

    let store: any RunStore
    let runner: FireRunner
    let clock: any SchedulerClock
    let logger: Logger
    let metrics: DaemonMetrics
    /// At most this many missed fires are recorded one by one for an automation when the daemon starts; the
    /// rest are counted in the log. (A per-second automation down for a week would otherwise add 600,000 rows.)
    let missedRecordLimit: Int

    var entries: [AutomationKey: Entry] = [:] {
        didSet { ordered = entries.values.sorted { $0.loaded.key.description < $1.loaded.key.description } }
    }
    /// The entries in the order of their keys, the order a round hands fires out in: sorted once per load, not at every
    /// round (10,000 automations due at one instant, each key's description made twice per comparison, took milliseconds).
    private(set) var ordered: [Entry] = []
    /// Whether the store is shared by several daemons: then a time automation is fired only once this node owns it
    /// (`own`), and what it missed is recorded by the node that takes it, not at load.
    let clustered: Bool
    var loop: Task<Void, Never>?
    /// The loop's wait on the clock, cancelled when what is next changes (`load`) or on `stop`.
    var waitTask: Task<ClockWake, any Error>?
    /// How many times the loop has begun to wait, and who waits for it to begin again.
    var cycle = 0
    var cycleWaiters: [(mark: Int, continuation: CheckedContinuation<Void, Never>)] = []
    var stopping = false
    /// `wakeLoop` was called while the loop was not waiting (in a round): it goes round again rather than wait.
    var wakeRequested = false
    var nextRunID = 0
    /// Callers of `settled()`, resumed when nothing is due and nothing runs.
    var settledWaiters: [CheckedContinuation<Void, Never>] = []
    var waitingOnClock = false
    /// When the loop last stopped waiting on the clock to hand out what is due (before it waited for other operations).
    var wokeAt: Date?

    /// Old runs are removed as this says, at most once an hour, after a run ends (no wake-up of its own).
    let retention: Retention?
    var lastPrune: Date?
    /// Tests: awaited by each run's task once the run's end is recorded, before the task ends.
    var runRecorded: (@Sendable (RunID) async -> Void)?

    /// `writes`: told what runs write, for file automations that must not trigger themselves.
    package init(store: any RunStore, clock: any SchedulerClock, logger: Logger, retention: Retention? = nil, missedRecordLimit: Int = 10_000,
                grants: Grants = .all, writes: (any RunWrites)? = nil, metrics: DaemonMetrics = DaemonMetrics(), clustered: Bool = false) {
        self.clustered = clustered
        self.retention = retention
        self.metrics = metrics
        self.store = store
        self.clock = clock
        self.logger = logger
        self.runner = FireRunner(store: store, logger: logger, now: { [clock] in clock.now() }, grants: grants, writes: writes)
        self.missedRecordLimit = missedRecordLimit
    }

    // MARK: Automations

    /// Sets the automations to schedule: new ones start from their cursor (and what they missed is recorded),
    /// ones that are no longer there stop being scheduled (a run of theirs finishes), and ones kept keep their place.
    /// Returns once the scheduler waits for the new earliest fire (what was due has been handed out).
    /// A file automation comes with no schedule: its fires are delivered.
    ///
    /// A store that fails (its server restarting) leaves the automations as they were; the loop sets these at its next
    /// try (`storeFailed`), as it records what else the store failed to take.
    package func load(_ automations: [(LoadedAutomation, (any FireSchedule)?)]) async throws(RunStoreError) {
        await beginOperation()
        do {
            defer { endOperation() }
            toLoad = automations
            try await setAutomations(automations)
            await startClaimed()
        } catch {
            storeFailed(error, while: "automations were loaded; they are loaded at the next try")
            throw error
        }
        // The earliest next fire may have changed: the loop looks again, and this returns once it waits again.
        if let waitTask {
            let mark = cycle
            waitTask.cancel()
            await withCheckedContinuation { cycleWaiters.append((mark, $0)) }
        }
    }

    /// `load`'s work, in an operation: new automations start from their cursors, and what they missed is recorded (the
    /// catch-up runs it begins are claimed by the caller).
    func setAutomations(_ automations: [(LoadedAutomation, (any FireSchedule)?)]) async throws(RunStoreError) {
        let now = clock.now()
        func isKept(_ loaded: LoadedAutomation) -> Bool { entries[loaded.key]?.loaded.automation.trigger == loaded.automation.trigger }
        // A time automation loaded for the first time starts its cursor now, in the store: `list` and `next` then
        // count `every <duration>` from the same instant as this daemon. On a whole second (the next): the instants
        // they print, and the log, are to the second, and so are the fires.
        let start = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.up))
        let cursors = try await store.cursors(of: automations.filter { $0.1 != nil && !isKept($0.0) }.map(\.0.key), startingAt: start)
        var kept: [AutomationKey: Entry] = [:]
        for (loaded, schedule) in automations {
            if isKept(loaded), let existing = entries[loaded.key] {
                let entry = Entry(loaded: loaded, schedule: schedule, handled: existing.handled)
                entry.fence = existing.fence
                entry.running = existing.running
                entry.queued = existing.queued
                kept[loaded.key] = entry
                continue
            }
            let entry = Entry(loaded: loaded, schedule: schedule, handled: cursors[loaded.key] ?? start)
            kept[loaded.key] = entry
            // In a cluster, the node that takes it records what it missed (`own`).
            if !clustered { try await recordMissed(entry, upTo: now, reason: "the daemon was not running", catchUp: loaded.automation.catchUp) }
        }
        for (key, entry) in entries where kept[key] == nil {
            logger.info("automation removed", metadata: ["automation": "\(key.name)", "script": "\(key.script)"])
            _ = entry
        }
        entries = kept
        toLoad = nil
        loads += 1
    }

    /// The automations scheduled, with their next fires.
    package func nextFires() -> [(key: AutomationKey, next: Date?)] {
        entries.values.map { ($0.loaded.key, $0.next) }.sorted { $0.key.description < $1.key.description }
    }

    // MARK: Ownership (a cluster)

    /// The time automations loaded, and those this node owns with their fences and whether a run of theirs is going:
    /// what the node's membership balances.
    package func timeAutomations() -> (all: [AutomationKey], owned: [(key: AutomationKey, fence: Fence, running: Bool)]) {
        let timed = entries.values.filter { $0.schedule != nil }
        return (timed.map(\.loaded.key).sorted { $0.description < $1.description },
                timed.compactMap { entry in entry.fence.map { (entry.loaded.key, $0, !entry.running.isEmpty) } }
                    .sorted { $0.0.description < $1.0.description })
    }

    /// The definition of each time automation loaded (`LoadedAutomation.definition`), and how many loads made them; nil
    /// when that is still `known` (a heartbeat asks, and 10,000 hashes are not made for nothing).
    package func definitions(unless known: Int?) -> (loads: Int, definitions: [AutomationKey: String])? {
        guard loads != known else { return nil }
        var definitions: [AutomationKey: String] = [:]
        for entry in entries.values where entry.schedule != nil { definitions[entry.loaded.key] = entry.loaded.definition }
        return (loads, definitions)
    }

    /// This node now owns these automations, from this moment (as `disown` takes effect at once): the loop then starts
    /// each from its cursor as the store has it (its last owner moved it), and the fires it missed since follow the
    /// automation's own rule — the latest runs with `catch up`, the others are recorded as skipped (`recordTakenOver`).
    /// Not done here: the node's heartbeat calls this, and must never wait for the scheduler's work (runs ending, a
    /// store slow to answer) or it would lose its lease while it waits.
    package func own(_ granted: [AutomationKey: Fence]) {
        guard !stopping else { return }
        for (key, fence) in granted {
            guard let entry = entries[key], entry.schedule != nil else { continue }
            entry.fence = fence
            entry.takenOver = true
        }
        wakeLoop()
    }

    /// Each automation taken over starts from its cursor as the store has it now (its last owner moved it), and what it
    /// missed since follows its own rule.
    func recordTakenOver() async throws(RunStoreError) {
        let now = clock.now()
        // Taken over implies owned: `disown` clears both.
        for entry in ordered where entry.takenOver {
            let cursor = try await store.cursor(of: entry.loaded.key)
            // Given up while the store answered (`disown` cleared it): its next owner records what it missed.
            guard entry.takenOver else { continue }
            if let cursor { entry.handled = cursor }
            try await recordMissed(entry, upTo: now, reason: "no daemon owned it: none was running, or its node stopped or lost its lease",
                                   catchUp: entry.loaded.automation.catchUp)
            entry.takenOver = false
        }
    }

    /// This node no longer owns these automations: their fires are no longer claimed here and their queued fires are
    /// dropped. `cancellingRuns` when the node lost its lease: its runs are cancelled before another node may take
    /// over; a node handing automations back to share them lets their runs end.
    package func disown(_ keys: [AutomationKey], cancellingRuns: Bool) {
        for key in keys {
            guard let entry = entries[key] else { continue }
            entry.fence = nil
            entry.takenOver = false
            entry.queued.removeAll()
            if cancellingRuns { for running in entry.running { running.cancel() } }
        }
        // A fire begun and not claimed yet carries the fence it had: the store refuses it once the node no longer owns
        // the automation, and lets it through when it is claimed before the store hears of the release.
        countQueues()
        wakeLoop()
    }

    /// The scheduled instant of the oldest fire due here and not yet handed out: the lag an operator reads in `status`.
    package func oldestDue() -> Date? {
        let now = clock.now()
        return entries.values.compactMap { entry in isFiredHere(entry) ? entry.next : nil }.filter { $0 <= now }.min()
    }

    /// Whether this daemon fires the automation's fires on time: always with a store of its own, once owned in a cluster.
    func isFiredHere(_ entry: Entry) -> Bool { !clustered || entry.fence != nil }

    // MARK: Running

    /// Closes the runs a crash left running, then fires on time until `stop`. Call it before the first `load`, so
    /// that a catch-up run `load` starts is not taken for one a crash left.
    package func start() async throws(RunStoreError) {
        await beginOperation()
        let closed: Int
        do {
            defer { endOperation() }
            await pruneIfDue()
            closed = try await store.closeUnfinished(reason: "the daemon stopped during this run", at: clock.now())
        }
        if closed > 0 { logger.warning("runs left unfinished by the last daemon recorded as failed", metadata: ["runs": "\(closed)"]) }
        guard loop == nil else { return }
        let mark = cycle
        loop = Task { await self.runLoop() }
        await withCheckedContinuation { cycleWaiters.append((mark, $0)) }
    }

    private func runLoop() async {
        while !stopping {
            // Woken before the retry after a store failure (the failure itself woke it, or a reload): it waits on.
            if isTimeToTryTheStore {
                wokeAt = clock.now()
                do {
                    await beginOperation()
                    defer { endOperation() }
                    try await fireDue()
                } catch {
                    storeFailed(error, while: "due fires were handed out")
                }
            }
            if wakeRequested {
                wakeRequested = false
                continue
            }
            var next = entries.values.compactMap { self.isFiredHere($0) ? $0.next : nil }.min()
            // After a store failure, everything waits for the retry: a fire put back is due already.
            if let retryAt { next = retryAt }
            let clock = self.clock
            let waiting = Task { next == nil ? try await clock.waitForever() : try await clock.wait(until: next ?? .distantFuture) }
            waitTask = waiting
            waitingOnClock = true
            cycle += 1
            let ready = cycleWaiters.filter { $0.mark < cycle }
            cycleWaiters.removeAll { $0.mark < cycle }
            for waiter in ready { waiter.continuation.resume() }
            resumeSettledIfIdle()
            do {
                let wake = try await waiting.value
                if wake == .clockChanged { logger.notice("the clock was set; looking again at what is due", metadata: ["now": "\(ValueFormatter.iso8601(clock.now()))"]) }
            } catch {
                // Cancelled by `load` (what is next changed) or by `stop`.
            }
            waitTask = nil
            waitingOnClock = false
        }
        for waiter in cycleWaiters { waiter.continuation.resume() }
        cycleWaiters = []
    }

    /// Every fire due by now, by automation: the latest runs (or goes to the mode), the earlier ones are skipped.
    /// First what the store failed to take before: the automations loaded, the ends of runs, the automations taken
    /// over, the fires put back.
    func fireDue() async throws(RunStoreError) {
        if let toLoad { try await setAutomations(toLoad) }
        try await recordEnded()
        try await recordTakenOver()
        for entry in entries.values { beginQueued(entry) }
        let now = clock.now()
        // A fire due before the loop woke was missed while it waited on the clock: the clock jumped, or the machine
        // slept. One due since was missed while this round waited for the store (a server restarting holds requests
        // until its pool connects again), as one is after the store failed.
        let woke = wokeAt ?? now
        func reason(_ missed: Date) -> String {
            storeFailures > 0 || missed > woke ? "the run store could not be reached at this fire's time"
                : "the clock jumped forward, or the machine slept, past this fire"
        }
        for entry in ordered {
            // One taken over while this round went on is the next round's, for `recordTakenOver`.
            guard let schedule = entry.schedule, isFiredHere(entry), !entry.takenOver else { continue }
            let due = Schedules.fires(of: schedule, after: entry.handled, through: now, limit: missedRecordLimit).due
            guard let latest = due.last else { continue }
            for missed in due.dropLast() {
                // Given up while the store answered: what is left is its next owner's.
                guard isFiredHere(entry) else { break }
                try await skip(fire(entry, at: missed), as: .skipped, reason: reason(missed), at: now)
            }
            guard isFiredHere(entry) else { continue }
            // Handled once handed out: a store that fails before leaves it due for the next try.
            try await dispatch(fire(entry, at: latest), to: entry)
            entry.handled = latest
        }
        // A claim that failed was logged and counted (`storeFailed`); one that went through ends the failures.
        if await startClaimed() {
            storeFailures = 0
            retryAt = nil
        }
    }

    /// What `catch up` and downtime mean at start: the fires between the cursor and now, skipped, but the latest
    /// runs when the automation catches up.
    func recordMissed(_ entry: Entry, upTo now: Date, reason: String, catchUp: Bool) async throws(RunStoreError) {
        guard let schedule = entry.schedule else { return }
        let (missed, dropped, _) = Schedules.fires(of: schedule, after: entry.handled, through: now, limit: missedRecordLimit)
        guard let latest = missed.last else { return }
        if dropped > 0 {
            logger.warning("missed fires not recorded one by one", metadata: ["automation": "\(entry.loaded.key.name)", "count": "\(dropped)"])
        }
        for instant in catchUp ? missed.dropLast() : missed[...] {
            // Given up meanwhile (in a cluster): its next owner records the rest.
            guard isFiredHere(entry) else { return }
            try await skip(fire(entry, at: instant), as: .skipped, reason: reason, at: now)
        }
        guard isFiredHere(entry) else { return }
        if catchUp {
            logger.info("catching up the latest missed fire", metadata: ["automation": "\(entry.loaded.key.name)"])
            try await dispatch(fire(entry, at: latest, caughtUp: true), to: entry)
        }
        entry.handled = latest
    }

    func fire(_ entry: Entry, at instant: Date, manual: Bool = false, caughtUp: Bool = false) -> Fire {
        Fire(automation: entry.loaded.key, trigger: entry.loaded.automation.trigger.description, scheduled: instant, manual: manual,
             caughtUp: caughtUp, fence: manual ? nil : entry.fence)
    }

    /// A fire recorded without a run, and counted for the metrics.
    func skip(_ fire: Fire, as outcome: RunOutcomeKind, reason: String, at time: Date) async throws(RunStoreError) {
        if try await store.skip(fire, as: outcome, reason: reason, at: time) {
            metrics.notRun(fire, as: outcome)
        } else {
            heldFenceRefused(fire)
        }
    }

    /// A fenced fire the store did not record though this node still holds the fence it carries. The database no
    /// longer has this node owning the automation under that fence — its lease ran out at the database's clock, and a
    /// renewal already under way extended it again (a renewal keeps the epoch), so the next fire would be recorded and
    /// this one never — or its row was there already (a claim whose commit the node never heard of). Either way the
    /// node no longer knows what the store has: it gives the automation up here, and its membership takes it again
    /// under a new epoch (`own`), which reads the cursor and records what was missed, as any node taking it would.
    func heldFenceRefused(_ fire: Fire) {
        guard let fence = fire.fence, let entry = entries[fire.automation], entry.fence == fence else { return }
        entry.fence = nil
        entry.takenOver = false
        entry.queued.removeAll()
        // Counted as lost: what it owns went down, and its membership looks for automations to take at its next beat.
        metrics.ownershipChanged("lost", count: 1)
        logger.warning("the store refused a fire of an automation this node owned; it gives the automation up and takes it again",
                       metadata: ["automation": "\(fire.automation.name)", "scheduled": "\(ValueFormatter.iso8601(fire.scheduled))"])
    }

    /// A due fire, by the automation's mode.
    func dispatch(_ fire: Fire, to entry: Entry) async throws(RunStoreError) {
        if disabledInOperation == nil { disabledInOperation = try await store.disabledNames() }
        guard disabledInOperation?.contains(entry.loaded.key.name) != true else {
            try await skip(fire, as: .skipped, reason: "the automation is disabled", at: clock.now())
            return
        }
        switch entry.loaded.automation.mode {
        case .single:
            if entry.running.isEmpty { begin(fire, entry) } else {
                try await skip(fire, as: .rejected, reason: "the previous run is still going (mode single)", at: clock.now())
            }
        case .queued(let bound):
            if entry.running.isEmpty { begin(fire, entry) } else if entry.queued.count < bound {
                entry.queued.append(fire)
                countQueues()
            } else {
                try await skip(fire, as: .rejected, reason: "\(bound) runs are already waiting (mode queued \(bound))", at: clock.now())
            }
        case .parallel(let bound):
            if entry.running.count < bound { begin(fire, entry) } else {
                try await skip(fire, as: .rejected, reason: "\(bound) runs are already going (mode parallel \(bound))", at: clock.now())
            }
        case .restart:
            for running in entry.running { running.cancel() }
            begin(fire, entry)
        }
    }

    /// A fire to run: it counts as running at once, and starts once `startClaimed` has claimed it.
    func begin(_ fire: Fire, _ entry: Entry) {
        nextRunID += 1
        let cancellation = CancellationFlag()
        entry.running.append(RunningFire(id: nextRunID, cancellation: cancellation, task: nil))
        unclaimed.append((fire, entry, nextRunID, cancellation, entry.handled))
        countQueues()
    }

    /// The first fire queued for an automation with no run going begins (a run ended, or a claim that failed put it
    /// back); whether one did.
    @discardableResult
    func beginQueued(_ entry: Entry) -> Bool {
        guard !stopping, entry.running.isEmpty, !entry.queued.isEmpty else { return false }
        begin(entry.queued.removeFirst(), entry)
        return true
    }

    /// The runs going and the fires queued, for the metrics: after each change. A walk over every automation, so
    /// only when something reads them.
    func countQueues() {
        guard metrics.isRecording else { return }
        metrics.queues(running: entries.values.reduce(0) { $0 + $1.running.count }, queued: entries.values.reduce(0) { $0 + $1.queued.count })
    }

    /// Claims every fire begun, in one transaction (a fsync for all the fires due at one instant, not one each),
    /// and starts their runs. A fire another claim already has is dropped.
    ///
    /// When the store fails, no fire is lost: a fire on time that a round handed out is due again (its automation goes
    /// back to the instant it had handled before — not to "just before the fire", which for `every 15 minutes` would
    /// move its beat, the fire then due 15 minutes later — and the fires queued after it are handed out again with it);
    /// a file fire, or one that waited in a queue, goes back to the front of its queue; and the loop tries again after
    /// a backoff. False then.
    @discardableResult
    func startClaimed() async -> Bool {
        guard !unclaimed.isEmpty else { return true }
        let batch = unclaimed
        unclaimed = []
        let ids: [RunID?]
        let claimStart = ContinuousClock.now
        do {
            ids = try await store.claim(batch.map(\.fire), at: clock.now())
        } catch {
            for item in batch.reversed() {
                item.entry.running.removeAll { $0.id == item.id }
                if item.fire.manual { continue }
                if item.entry.schedule != nil, item.fire.scheduled > item.handledBefore {
                    item.entry.handled = min(item.entry.handled, item.handledBefore)
                    item.entry.queued.removeAll { $0.scheduled > item.handledBefore }
                } else {
                    item.entry.queued.insert(item.fire, at: 0)
                }
            }
            countQueues()
            storeFailed(error, while: "\(batch.count) fires were claimed; they are claimed at the next try")
            return false
        }
        metrics.claimed(batch.count, in: ContinuousClock.now - claimStart)
        let claimedAt = clock.now()
        let runner = self.runner
        for (item, claimed) in zip(batch, ids) {
            guard let claimed else {
                item.entry.running.removeAll { $0.id == item.id }
                countQueues()
                heldFenceRefused(item.fire)
                continue
            }
            metrics.fired(item.fire, lag: claimedAt.timeIntervalSince(item.fire.scheduled))
            let loaded = item.entry.loaded, fire = item.fire, cancellation = item.cancellation, id = item.id
            let task = Task {
                let run = await runner.execute(loaded, fire, run: claimed, cancellation: cancellation)
                // The task is the scheduler's (made in one of its methods): back on it, without a hop.
                await self.ended(id, of: loaded.key, run)
                await self.runRecorded?(claimed)
            }
            if let index = item.entry.running.firstIndex(where: { $0.id == id }) {
                item.entry.running[index].task = task
                // Cancelled before it was claimed (a restart, a stop): the flag is set, and the task sees it too.
                if cancellation.isCancelled { task.cancel() }
            }
        }
        return true
    }

    /// No store failure waits for its retry, or its retry is due.
    var isTimeToTryTheStore: Bool {
        guard let retryAt else { return true }
        return clock.now() >= retryAt
    }

    /// A store that failed: logged, and the loop tries again after a backoff — 0.1 s after the first failure, doubling
    /// with each failure in a row up to 5 s — rather than at once (a server restarting takes a moment) or at the next
    /// fire (what failed would wait for it).
    func storeFailed(_ error: RunStoreError, while what: String) {
        storeFailures += 1
        let retry = clock.now().addingTimeInterval(min(5.0, 0.1 * Double(1 << min(storeFailures - 1, 6))))
        retryAt = retry
        logger.error("the run store failed; the scheduler tries again", metadata: [
            "error": "\(error)", "while": "\(what)", "retry": "\(ValueFormatter.iso8601(retry))"])
        // The loop, waiting for the next fire, waits for the retry instead.
        wakeLoop()
    }

    /// The ends of runs the store failed to record before, oldest first.
    func recordEnded() async throws(RunStoreError) {
        while let (key, run) = unrecorded.first {
            try await runner.record(run)
            unrecorded.removeFirst()
            logger.info("a run's end recorded after the store came back", metadata: ["automation": "\(key.name)", "run": "\(run.id)"])
        }
    }

    /// A run's end, recorded in the store and for the mode in one step on the scheduler: were the store to have it
    /// first (the runner recording it on its own task), a fire coming in between would be turned away by `mode
    /// single` as if the run were still going, though its end is in the history.
    func ended(_ id: Int, of key: AutomationKey, _ run: FireRunner.EndedRun) async {
        await beginOperation()
        defer { endOperation() }
        do {
            try await recordEnded()
            try await runner.record(run)
        } catch {
            unrecorded.append((key, run))
            storeFailed(error, while: "the end of run \(run.id) was recorded")
        }
        metrics.ended(key, run.ending.outcome, after: ContinuousClock.now - run.started)
        await pruneIfDue()
        guard let entry = entries[key] else {
            countQueues()
            return resumeSettledIfIdle()
        }
        entry.running.removeAll { $0.id == id }
        countQueues()
        if beginQueued(entry) { await startClaimed() }
        resumeSettledIfIdle()
    }

    func pruneIfDue() async {
        guard let retention else { return }
        let now = clock.now()
        if let lastPrune, now.timeIntervalSince(lastPrune) < 3_600, now >= lastPrune { return }
        lastPrune = now
        do {
            let removed = try await store.prune(retention, now: now)
            if removed > 0 { logger.info("old runs removed", metadata: ["runs": "\(removed)"]) }
        } catch {
            logger.error("old runs could not be removed", metadata: ["error": "\(error)"])
        }
    }

    /// A file automation's events: a fire, handed to its mode as a fire on time is. False when the automation is not
    /// (or no longer) loaded, or the scheduler is stopping: the caller keeps the events for the next delivery.
    @discardableResult
    package func deliver(_ files: FileFire, to key: AutomationKey) async throws(RunStoreError) -> Bool {
        await beginOperation()
        defer { endOperation() }
        guard !stopping, let entry = entries[key], entry.schedule == nil, !files.files.isEmpty else { return false }
        let fire = Fire(automation: key, trigger: entry.loaded.automation.trigger.description, scheduled: clock.now(), files: files)
        try await dispatch(fire, to: entry)
        // Handed to the mode, the fire is the scheduler's: a claim that fails is made again at the next try.
        await startClaimed()
        return true
    }

    /// Runs an automation now, by hand: recorded as manual, outside its schedule and its mode.
    package func runNow(_ key: AutomationKey) async throws(RunStoreError) -> RunRecord? {
        guard let entry = entries[key] else { return nil }
        return try await runner.run(entry.loaded, fire(entry, at: clock.now(), manual: true))
    }

    /// Waits until no other operation is under way (see `operating`), then begins one; `endOperation` ends it.
    func beginOperation() async {
        guard operating else {
            operating = true
            return
        }
        // Resumed by `endOperation`, which hands the operation over: `operating` stays true.
        await withCheckedContinuation { operationWaiters.append($0) }
    }

    func endOperation() {
        disabledInOperation = nil
        if operationWaiters.isEmpty {
            operating = false
            resumeSettledIfIdle()
        } else {
            operationWaiters.removeFirst().resume()
        }
    }

    /// What is next changed: the loop stops waiting and looks again (and is not idle until it waits again).
    func wakeLoop() {
        waitingOnClock = false
        if let waitTask { waitTask.cancel() } else { wakeRequested = true }
    }

    // MARK: Stopping

    /// Fires no more, and drops the fires queued: the first step of `stop`, on its own for a node that hands its
    /// automations over before its runs end.
    package func stopTakingFires() {
        stopping = true
        waitTask?.cancel()
        for entry in entries.values { entry.queued.removeAll() }
    }

    /// The ends of runs the store could not record yet: tried once more as the daemon stops, for at most `limit` (a
    /// store that doesn't answer would hold the stop), else logged.
    func recordEndedBeforeStopping(within limit: Duration) async {
        guard !unrecorded.isEmpty else { return }
        let failure: String
        do {
            if try await Deadline.run(within: limit, { try await self.recordEnded() }) != nil { return }
            failure = "the run store did not answer within \(limit)"
        } catch {
            failure = "\(error)"
        }
        logger.error("the ends of runs could not be recorded; the next daemon records them as failed",
                     metadata: ["runs": "\(unrecorded.map { "\($0.run.id)" }.joined(separator: ", "))", "error": "\(failure)"])
    }

    /// Takes no more fires, gives the runs going `grace` to end, then cancels them (they are recorded as
    /// cancelled) and waits for them.
    package func stop(grace: Duration) async {
        stopTakingFires()
        let running = entries.values.flatMap(\.running)
        guard !running.isEmpty else { return await recordEndedBeforeStopping(within: grace) }
        logger.info("stopping: waiting for runs to end", metadata: ["runs": "\(running.count)", "grace": "\(grace)"])
        let deadline = ContinuousClock.now + grace
        while entries.values.contains(where: { !$0.running.isEmpty }), ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        let left = entries.values.flatMap(\.running)
        for run in left { run.cancel() }
        // An intent that ignores cancellation gets one more grace, then the daemon goes without it: the store
        // then still says "running", and the next daemon closes the run as failed.
        // Not a task group, which would wait for every run whatever its deadline: a run that ignores cancellation (or
        // whose end waits for a store that doesn't answer) is left behind.
        let tasks = left.compactMap(\.task)
        let stopped = (try? await Deadline.run(within: grace, { () async -> Bool in
            for task in tasks { await task.value }
            return true
        })) ?? nil
        if stopped == nil { logger.warning("runs did not stop when cancelled; leaving them", metadata: ["runs": "\(left.count)"]) }
        await recordEndedBeforeStopping(within: grace)
    }

    // MARK: Tests

    /// Tests: `hook` is awaited by each run's task once the run's end is recorded.
    func whenRunRecorded(_ hook: @escaping @Sendable (RunID) async -> Void) {
        runRecorded = hook
    }

    /// Returns once no run is going or waiting and the loop waits on the clock. For tests that move the clock
    /// (whose move returns once the loop has handed out what was due).
    package func settled() async {
        if isIdle { return }
        await withCheckedContinuation { settledWaiters.append($0) }
    }

    /// The loop waits on the clock, no operation is under way (`own` may be handing out what a node missed), and no
    /// run is going or waiting.
    var isIdle: Bool { waitingOnClock && !operating && entries.values.allSatisfy { $0.running.isEmpty && $0.queued.isEmpty } }

    func resumeSettledIfIdle() {
        guard isIdle else { return }
        let waiters = settledWaiters
        settledWaiters = []
        for waiter in waiters { waiter.resume() }
    }
}

extension SchedulerClock {
    /// No automation has a next fire: wait until cancelled (a reload, a stop).
    func waitForever() async throws -> ClockWake {
        while true { _ = try await wait(until: .distantFuture) }
    }
}
