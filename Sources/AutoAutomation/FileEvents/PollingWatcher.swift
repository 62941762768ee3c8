import Dispatch
import Foundation
import Synchronization

/// The file events of one watch by reading the tree again every so often, for file systems whose changes inotify
/// doesn't see (network mounts, FUSE): `poll every 30 seconds`. Each tick of the clock (injected, as the
/// scheduler's is, so that tests move time themselves) scans the tree and reports how it differs from the last
/// scan, marked `fromRescan`. A change undone between two ticks is not seen; a file is reported at most once a tick.
///
/// Handlers are called on the watcher's serial queue, where the scans run too (not on the task that waits for the
/// clock: a large tree would hold a thread of the shared pool). A missing folder is reported (`.folderMissing`),
/// its files deleted, and `.folderWatched` when a tick finds it back.
package final class PollingWatcher: Sendable {
    package let spec: WatchSpec
    package let interval: Duration
    private let poller: Poller
    private let task: Task<Void, Never>

    /// Reads the tree before returning (the first tick reports what changed after `init`), unless `since` is given:
    /// then the first scan happens at once on the queue and reports the differences from it. An interval under a
    /// millisecond is taken as a millisecond.
    package init(_ spec: WatchSpec, every interval: Duration, clock: any SchedulerClock = SystemClock(), since: TreeSnapshot? = nil,
                queue: DispatchQueue? = nil, events: @escaping FileEventWatcher.EventHandler,
                status: @escaping FileEventWatcher.StatusHandler = { _ in }) {
        self.spec = spec
        self.interval = max(interval, .milliseconds(1))
        let poller = Poller(spec: spec, queue: DispatchQueue(label: "auto.file-polling", target: queue), since: since,
                            events: events, status: status)
        self.poller = poller
        let seconds = self.interval.timeInterval
        task = Task {
            while !Task.isCancelled {
                do {
                    _ = try await clock.wait(until: clock.now().addingTimeInterval(seconds))
                } catch {
                    return
                }
                await poller.poll()
            }
        }
    }

    deinit {
        task.cancel()
    }

    /// The last scan.
    package var snapshot: TreeSnapshot {
        poller.state.withLock { $0.snapshot }
    }

    /// No tick after this; a scan under way finishes and reports.
    package func stop() {
        task.cancel()
    }
}

/// The scans of a `PollingWatcher` and what the last one found.
private final class Poller: Sendable {
    let spec: WatchSpec
    let queue: DispatchQueue
    let events: FileEventWatcher.EventHandler
    let status: FileEventWatcher.StatusHandler
    let state: Mutex<(snapshot: TreeSnapshot, present: Bool)>

    init(spec: WatchSpec, queue: DispatchQueue, since: TreeSnapshot?, events: @escaping FileEventWatcher.EventHandler,
         status: @escaping FileEventWatcher.StatusHandler) {
        self.spec = spec
        self.queue = queue
        self.events = events
        self.status = status
        if let since {
            state = Mutex((since, true))
        } else {
            let (snapshot, present) = TreeSnapshot.scanned(spec)
            state = Mutex((snapshot, present))
            if !present { queue.async { status(.folderMissing(spec.folder)) } }
        }
        // On the queue, not on the task that waits for the clock: it comes first, and needs no thread of the pool.
        if since != nil { queue.async { self.scan() } }
    }

    /// One tick: scan, report, on the queue; returns when the handlers have returned.
    func poll() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async {
                self.scan()
                continuation.resume()
            }
        }
    }

    private func scan() {
        let (newer, present) = TreeSnapshot.scanned(spec)
        let (changes, was) = state.withLock { state in
            let changes = state.snapshot.changes(to: newer)
            let was = state.present
            state = (newer, present)
            return (changes, was)
        }
        let wanted = changes.filter { spec.kinds.contains($0.kind) }[...]
        if present, !was { status(.folderWatched(spec.folder)) }
        deliver(wanted)
        if !present, was { status(.folderMissing(spec.folder)) }
    }

    private func deliver(_ wanted: ArraySlice<FileEvent>) {
        var rest = wanted
        while !rest.isEmpty {
            events(Array(rest.prefix(FileEventWatcher.batchLimit)))
            rest = rest.dropFirst(FileEventWatcher.batchLimit)
        }
    }
}
