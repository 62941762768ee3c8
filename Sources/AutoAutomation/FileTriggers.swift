import AutoLanguage
import Dispatch
import Foundation
import Logging
import Synchronization

/// The daemon's file automations: one watch each (inotify, on the one instance the process's watches share, or
/// `poll every`), whose events become fires for the scheduler — one per event, or one per quiet spell under
/// `debounce` — in the order they came. When it starts watching, it compares the folder with the store's copy: with
/// `catch up` what changed while the daemon was down is delivered (as found by a rescan); without, the copy is set
/// to the folder as it is. Events of paths the automation's own runs wrote are dropped (`SelfWrites`), and how a
/// watch stands (a folder missing, an overflow, a limit of inotify) is logged and recorded in the history.
final class FileTriggers: Sendable {
    let store: any RunStore
    let clock: any SchedulerClock
    let logger: Logger
    let selfWrites: SelfWrites
    let watches = Mutex<[AutomationKey: Watch]>([:])

    /// One automation's watch, and the task that hands its events to the scheduler one after the other.
    final class Watch: Sendable {
        let loaded: LoadedAutomation
        let stopWatching: @Sendable () -> Void
        let debouncer: Debouncer<FileEvent>?
        let delivery: Task<Void, Never>
        let events: AsyncStream<[FileEvent]>.Continuation

        init(loaded: LoadedAutomation, stopWatching: @escaping @Sendable () -> Void, debouncer: Debouncer<FileEvent>?,
             delivery: Task<Void, Never>, events: AsyncStream<[FileEvent]>.Continuation) {
            self.loaded = loaded
            self.stopWatching = stopWatching
            self.debouncer = debouncer
            self.delivery = delivery
            self.events = events
        }

        func stop() {
            stopWatching()
            debouncer?.stop()
            events.finish()
        }
    }

    init(store: any RunStore, clock: any SchedulerClock, logger: Logger, selfWrites: SelfWrites) {
        self.store = store
        self.clock = clock
        self.logger = logger
        self.selfWrites = selfWrites
    }

    /// Watches the file automations among `automations`: new ones start, gone ones stop, and one whose trigger
    /// changed starts again; the others keep their watch.
    func update(_ automations: [LoadedAutomation], scheduler: Scheduler) async {
        let files = automations.filter(\.automation.trigger.isFileTrigger)
        let wanted = Dictionary(files.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        let stopped = watches.withLock { watches -> [Watch] in
            var stopped: [Watch] = []
            for (key, watch) in watches {
                guard let next = wanted[key], Self.sameWatch(watch.loaded.automation, next.automation) else {
                    stopped.append(watch)
                    watches[key] = nil
                    continue
                }
            }
            return stopped
        }
        for watch in stopped { watch.stop() }
        for loaded in files where watches.withLock({ $0[loaded.key] == nil }) {
            if let watch = await start(loaded, scheduler: scheduler) { watches.withLock { $0[loaded.key] = watch } }
        }
    }

    static func sameWatch(_ a: Automation, _ b: Automation) -> Bool {
        a.trigger == b.trigger && a.debounce == b.debounce && a.poll == b.poll && a.catchUp == b.catchUp
    }

    func stopAll() {
        let all = watches.withLock { watches -> [Watch] in
            defer { watches = [:] }
            return Array(watches.values)
        }
        for watch in all { watch.stop() }
    }

    /// The watch spec of a file trigger: the folder (relative to the script's), the pattern, the events wanted.
    static func spec(of loaded: LoadedAutomation) throws -> WatchSpec? {
        guard case .file(let trigger) = loaded.automation.trigger else { return nil }
        let folder = trigger.folder(scriptFolder: (loaded.key.script as NSString).deletingLastPathComponent)
        let kinds: Set<FileEvent.Kind>
        switch trigger.event {
        case .created: kinds = [.created]
        case .changed: kinds = [.changed]
        case .deleted: kinds = [.deleted]
        case .any: kinds = Set(FileEvent.Kind.allCases)
        }
        return WatchSpec(folder: folder, recursive: trigger.recursive, glob: try trigger.glob.map { try FileGlob($0) }, kinds: kinds)
    }

    func start(_ loaded: LoadedAutomation, scheduler: Scheduler) async -> Watch? {
        let key = loaded.key, automation = loaded.automation
        let spec: WatchSpec
        do {
            guard let made = try Self.spec(of: loaded) else { return nil }
            spec = made
        } catch {
            notWatched(key, "\(error)")
            return nil
        }
        // What the folder looked like when the daemon last handled an event of it: with `catch up`, the watch starts
        // by reporting what differs.
        let stored: TreeSnapshot?
        do {
            stored = try await store.tree(of: key).map { tree in
                TreeSnapshot(entries: tree.mapValues { TreeSnapshot.Entry(size: $0.size, modified: $0.modified, isFolder: false) })
            }
        } catch {
            notWatched(key, "\(error)")
            return nil
        }
        let (stream, continuation) = AsyncStream<[FileEvent]>.makeStream()
        let selfWrites = self.selfWrites, logger = self.logger, store = self.store, clock = self.clock
        let debouncer = automation.debounce.map { quiet in
            Debouncer<FileEvent>(quiet: quiet, clock: clock, key: \.path) { batch in continuation.yield(batch) }
        }
        let events: @Sendable ([FileEvent]) -> Void = { events in
            let kept = events.filter { !selfWrites.wrote($0.path, automation: key) }
            guard !kept.isEmpty else { return }
            if let debouncer { debouncer.add(kept) } else { for event in kept { continuation.yield([event]) } }
        }
        let trigger = automation.trigger.description
        let status: @Sendable (FileWatchStatus) -> Void = { status in
            logger.warning("file watch: \(status)", metadata: ["automation": "\(key.name)"])
            let fire = Fire(automation: key, trigger: trigger, scheduled: clock.now(), files: FileFire(files: [], states: []))
            // Recorded on a task of its own: the watcher that reports it is a thread that must not wait for the store.
            Task { _ = try? await store.skip(fire, as: .skipped, reason: "\(status)", at: clock.now()) }
        }
        let since = automation.catchUp ? stored : nil
        let stop: @Sendable () -> Void
        let snapshot: TreeSnapshot
        do {
            if let poll = automation.poll {
                let watcher = PollingWatcher(spec, every: poll, clock: clock, since: since, events: events, status: status)
                stop = { watcher.stop() }
                snapshot = watcher.snapshot
            } else {
                let watcher = try FileEventWatcher(spec, since: since, events: events, status: status)
                stop = { watcher.stop() }
                snapshot = watcher.snapshot
            }
        } catch {
            notWatched(key, "\(error)")
            continuation.finish()
            return nil
        }
        if since == nil {
            // The folder as it is now is where events count from (changes while the daemon was down are not run for).
            do {
                try await store.replaceTree(of: key, with: snapshot.entries.filter { !$0.value.isFolder }
                    .mapValues { FileState(size: $0.size, modified: $0.modified) })
            } catch {
                logger.error("the run store failed while a folder was recorded", metadata: ["automation": "\(key.name)", "error": "\(error)"])
            }
        }
        logger.info("watching", metadata: ["automation": "\(key.name)", "folder": "\(spec.folder)"])
        let delivery = Task {
            for await batch in stream {
                let fire = FileFire(files: batch.map(\.path), states: batch.map { Self.state(of: $0.path) },
                                    fromRescan: batch.contains(where: \.fromRescan))
                do {
                    try await scheduler.deliver(fire, to: key)
                } catch {
                    logger.error("the run store failed; file events were not run", metadata: ["automation": "\(key.name)", "error": "\(error)"])
                }
            }
        }
        return Watch(loaded: loaded, stopWatching: stop, debouncer: debouncer, delivery: delivery, events: continuation)
    }

    func notWatched(_ key: AutomationKey, _ reason: String) {
        logger.error("file automation not watched", metadata: ["automation": "\(key.name)", "error": "\(reason)"])
    }

    /// What a file is now, for the store's copy of the folder: nil when it is gone. Read as the watcher reads the
    /// tree (`EntryStatus`, a link itself), so that a restart compares like with like.
    static func state(of path: String) -> FileState? {
        EntryStatus.of(path).map { FileState(size: $0.size, modified: $0.modified) }
    }
}

/// The paths each automation's runs may have written (what `authorize(.write, …)` allowed), while the run goes and
/// for a short while after it (the kernel's events of its last writes are read a little later): the automation's
/// file trigger drops those events, so that an automation that writes into its own folder doesn't trigger itself.
/// A folder allowed covers what is in it (an unzip, a move into it).
final class SelfWrites: RunWrites {
    struct Written {
        var runs: Set<RunID> = []
        var until: Date?
    }
    let clock: any SchedulerClock
    let state = Mutex<[AutomationKey: [String: Written]]>([:])
    /// How long after its run ends a write still counts as the run's.
    static let afterRun: TimeInterval = 2

    init(clock: any SchedulerClock) {
        self.clock = clock
    }

    func run(_ id: RunID, of automation: AutomationKey, wrote path: String) {
        _ = state.withLock { $0[automation, default: [:]][path, default: Written()].runs.insert(id) }
    }

    func runEnded(_ id: RunID, of automation: AutomationKey) {
        let until = clock.now().addingTimeInterval(Self.afterRun)
        state.withLock { state in
            guard var paths = state[automation] else { return }
            for (path, var written) in paths where written.runs.remove(id) != nil {
                if written.runs.isEmpty { written.until = until }
                paths[path] = written
            }
            state[automation] = paths
        }
    }

    /// Whether `path` is (in) something a run of the automation wrote; what has expired is forgotten on the way.
    func wrote(_ path: String, automation: AutomationKey) -> Bool {
        let now = clock.now()
        return state.withLock { state in
            guard var paths = state[automation], !paths.isEmpty else { return false }
            paths = paths.filter { !$0.value.runs.isEmpty || ($0.value.until ?? now) > now }
            state[automation] = paths
            return paths.keys.contains { path == $0 || path.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }
        }
    }
}
