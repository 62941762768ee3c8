import AutoRuntime
import Foundation

/// What the daemon keeps: per automation the last scheduled time it handled (its cursor) and whether it is
/// enabled, and every fire with how it ended and its step trace. A protocol, with each database's specifics in
/// `SQLiteRunStore` and `PostgresRunStore`: the store is what makes each fire run once, so a shared store
/// (PostgreSQL) lets several daemons share the work, each fire claimed by exactly one of them.
///
/// Its methods are `async` for a store across the network, and `nonisolated(nonsending)`: they run on the caller's
/// executor, so SQLite's, which never suspend, cost the scheduler no hop off its actor.
package protocol RunStore: Sendable {
    /// Claims a scheduled fire: records its run as started and moves the automation's cursor to the fire's time,
    /// in one transaction. Nil when the fire was already claimed (it ran, is running, or was skipped): a fire
    /// never runs twice, even across a crash. A manual fire is always new.
    nonisolated(nonsending) func claim(_ fire: Fire, at start: Date) async throws(RunStoreError) -> RunID?
    /// Several fires claimed in one transaction (one sync to disk): the fires due at the same instant.
    nonisolated(nonsending) func claim(_ fires: [Fire], at start: Date) async throws(RunStoreError) -> [RunID?]
    /// Records a fire that does not run — missed while the daemon was down, rejected by the automation's mode —
    /// and moves the cursor past it. False when the fire was already recorded.
    @discardableResult
    nonisolated(nonsending) func skip(_ fire: Fire, as outcome: RunOutcomeKind, reason: String, at time: Date) async throws(RunStoreError) -> Bool
    /// Records how a claimed run ended, with its steps.
    nonisolated(nonsending) func finish(_ run: RunID, _ ending: RunEnding, steps: [RunTrace.Step], droppedSteps: Int, at end: Date) async throws(RunStoreError)
    /// Runs that were started and never finished: the daemon stopped (a crash, SIGKILL) while they ran. Each is
    /// recorded as failed with `reason`; they are not run again. Returns how many there were. On a shared store, only
    /// the runs of nodes that are gone (left, or their lease ran out): another node's runs are going, and so may a
    /// manual or file run be, which no node records (they stay `running` after a crash there).
    nonisolated(nonsending) func closeUnfinished(reason: String, at time: Date) async throws(RunStoreError) -> Int
    /// The last scheduled time handled for an automation, or the instant a daemon first loaded it; nil before then.
    nonisolated(nonsending) func cursor(of automation: AutomationKey) async throws(RunStoreError) -> Date?
    /// The cursors of automations, each set to `instant` first when it has none: where a daemon loading an automation
    /// for the first time counts its fires from. One transaction for all of them (one sync to disk).
    nonisolated(nonsending) func cursors(of automations: [AutomationKey], startingAt instant: Date) async throws(RunStoreError) -> [AutomationKey: Date]
    /// The names of the automations disabled by `auto automations disable` (the others are enabled): one query for a
    /// round of fires, however many (a round trip each would be 10,000 on PostgreSQL for as many fires at one instant).
    nonisolated(nonsending) func disabledNames() async throws(RunStoreError) -> Set<String>
    nonisolated(nonsending) func setEnabled(_ enabled: Bool, for name: String) async throws(RunStoreError)
    /// The latest runs, newest first, of one automation (by name) or of all.
    nonisolated(nonsending) func runs(of name: String?, limit: Int) async throws(RunStoreError) -> [RunRecord]
    nonisolated(nonsending) func run(_ id: RunID) async throws(RunStoreError) -> RunRecord?
    /// The latest run of one automation (of its script, not only its name), whatever its outcome.
    nonisolated(nonsending) func lastRun(of automation: AutomationKey) async throws(RunStoreError) -> RunRecord?
    nonisolated(nonsending) func steps(of run: RunID) async throws(RunStoreError) -> [RunTrace.Step]
    /// Removes old runs as `retention` says; returns how many went.
    @discardableResult
    nonisolated(nonsending) func prune(_ retention: Retention, now: Date) async throws(RunStoreError) -> Int
    /// What a file automation's folder looked like when its last event was handled (each file's size and modification
    /// time), kept up to date by the claims and skips of its fires; nil before the daemon first watched it.
    nonisolated(nonsending) func tree(of automation: AutomationKey) async throws(RunStoreError) -> [String: FileState]?
    /// Sets what the folder looks like now: when a daemon starts watching it (after delivering what changed while it
    /// was down, or not).
    nonisolated(nonsending) func replaceTree(of automation: AutomationKey, with tree: [String: FileState]) async throws(RunStoreError)
}

package typealias RunID = Int64

/// An automation as the store knows it: by the script it is in and its name.
package struct AutomationKey: Sendable, Hashable, CustomStringConvertible {
    package let script: String
    package let name: String
    package init(script: String, name: String) {
        self.script = script
        self.name = name
    }
    package var description: String { "\(script)#\(name)" }
}

/// A file's size and modification time, as a file automation's copy of its folder keeps them.
package struct FileState: Sendable, Hashable, Codable {
    package let size: Int64
    /// Nanoseconds since 1970.
    package let modified: Int64
    package init(size: Int64, modified: Int64) {
        self.size = size
        self.modified = modified
    }
}

/// What a file trigger's fire carries: the files of its events, in order (each once), whether a rescan found them
/// rather than the kernel's events, and what each file is now (nil: gone), for the store's copy of the folder.
package struct FileFire: Sendable, Hashable {
    package let files: [String]
    package let states: [FileState?]
    package let fromRescan: Bool
    package init(files: [String], states: [FileState?], fromRescan: Bool = false) {
        self.files = files
        self.states = states
        self.fromRescan = fromRescan
    }
}

/// One firing of an automation: which, by what trigger, for which scheduled instant.
package struct Fire: Sendable, Hashable {
    package let automation: AutomationKey
    /// The trigger as the script writes it: `every day at 07:30`.
    package let trigger: String
    /// The instant it was scheduled for, to the millisecond; a manual fire's is when it was asked for.
    package let scheduled: Date
    /// `auto automations run`: by hand, outside the schedule and the cursor.
    package let manual: Bool
    /// A file trigger's events; nil for a fire on time. Such a fire is new each time, as a manual one is: its
    /// instant is when it was delivered, and two may share a millisecond.
    package let files: FileFire?
    /// A fire missed while the daemon was down, run late at its start by `catch up`.
    package let caughtUp: Bool
    /// In a cluster, the owner's right to the automation: a shared store claims (or skips) the fire only while the node
    /// still owns it with this epoch and its lease holds. Nil for a store one daemon holds, and for manual and file fires.
    package let fence: Fence?

    package init(automation: AutomationKey, trigger: String, scheduled: Date, manual: Bool = false, files: FileFire? = nil,
                 caughtUp: Bool = false, fence: Fence? = nil) {
        self.fence = fence
        self.automation = automation
        self.trigger = trigger
        self.scheduled = scheduled
        self.manual = manual
        self.files = files
        self.caughtUp = caughtUp
    }
}

package enum RunOutcomeKind: String, Sendable, Codable, CaseIterable {
    case running, succeeded, failed, cancelled
    /// Not run: missed while the daemon was down, or an `at` time already past.
    case skipped
    /// Not run: its mode turned it away (a `single` automation still running).
    case rejected
}

/// How a claimed run ended.
package struct RunEnding: Sendable, Equatable {
    package let outcome: RunOutcomeKind
    /// The error or the reason for a cancellation, with its script location when it has one.
    package let message: String?
    package let location: String?

    package init(_ outcome: RunOutcomeKind, message: String? = nil, location: String? = nil) {
        self.outcome = outcome
        self.message = message
        self.location = location
    }
}

/// A run as the history shows it.
package struct RunRecord: Sendable, Equatable {
    package let id: RunID
    package let automation: AutomationKey
    package let trigger: String
    package let scheduled: Date
    package let manual: Bool
    package let started: Date?
    package let ended: Date?
    package let outcome: RunOutcomeKind
    package let message: String?
    package let location: String?
    package let droppedSteps: Int
    /// A file trigger's files, in order; empty for a fire on time.
    package let files: [String]
    /// The files were found by a rescan (a lost-events overflow, or a start after downtime), not told by the kernel.
    package let fromRescan: Bool
    /// Missed while the daemon was down and run late, when it started, by `catch up`.
    package let caughtUp: Bool
}

/// How long runs are kept: the latest `runsPerAutomation` of each automation, and none older than `age` — or,
/// for failures and cancellations, which are what people come back to look at, than `failureAge`.
package struct Retention: Sendable, Equatable {
    package let runsPerAutomation: Int
    package let age: Duration
    package let failureAge: Duration

    package init(runsPerAutomation: Int = 1_000, age: Duration = .seconds(30 * 86_400), failureAge: Duration = .seconds(90 * 86_400)) {
        self.runsPerAutomation = runsPerAutomation
        self.age = age
        self.failureAge = failureAge
    }
}

/// Why the store can't be used, said so people can act on it.
package struct RunStoreError: Error, Sendable, CustomStringConvertible {
    package let path: String
    package let reason: String
    /// The store can't be reached now and may be soon: a PostgreSQL server down, starting, stopping or restarting. A
    /// daemon starting waits for it; a wrong password, a database that doesn't exist or a damaged file is not this.
    package let isUnavailable: Bool
    package init(path: String, reason: String, isUnavailable: Bool = false) {
        self.path = path
        self.reason = reason
        self.isUnavailable = isUnavailable
    }
    package var description: String { "run store \(path): \(reason)" }
}
