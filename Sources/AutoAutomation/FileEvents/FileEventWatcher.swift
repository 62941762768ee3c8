import CLinux
import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The file events of one watch, from inotify, with no polling: files created, changed and deleted in a folder
/// (and in its folders, when recursive) whose names the glob takes. Folders are watched, never single files, so
/// that a save by rename is seen. In short (`WatchedTree` holds the rules): a new file is *created* once, when it
/// is first closed after writing or as it is renamed into place; a file written and closed, or replaced by a
/// rename, is *changed*; one deleted or moved away is *deleted*; a name gone before its records are read makes no
/// event. With `recursive`, a folder that appears is watched at once and read, its files *created*.
///
/// - Delivery: `events` is called with the events of each read, in order, each change once; a rescan's events come
///   in parts of at most `batchLimit`. `status` is called in order with the events when the watch's standing changes
///   (`FileWatchStatus`). The handlers of all the watchers of a process run one at a time, on the queue of the
///   inotify instance they share (`InotifyInstance`): a handler that takes its time holds the reading back, records
///   wait in the kernel's queue, and if it overflows the trees are read again, so memory stays bounded by one read
///   (64 KiB) and the snapshots, however fast files come.
/// - The snapshot: the watcher keeps what the tree holds, updated as events come (`snapshot`), so that after an
///   overflow it reports exactly what was missed, and the daemon can store it and pass it back as `since`.
/// - Names that are not UTF-8 are left out, as `TreeSnapshot.scan` leaves them out.
package final class FileEventWatcher: Sendable {
    package typealias EventHandler = @Sendable ([FileEvent]) -> Void
    package typealias StatusHandler = @Sendable (FileWatchStatus) -> Void

    /// The most events handed over in one call.
    package static let batchLimit = 1024

    package let spec: WatchSpec
    private let instance: InotifyInstance
    private let reader: TreeReader

    /// Starts watching at once: the folders are watched and read before `init` returns, so a change after it is
    /// reported. `since`: what an earlier watch of the same spec knew (its `snapshot`, stored); the differences are
    /// the first events, marked `fromRescan`. A missing folder is no error: it is reported (`.folderMissing`) and
    /// waited for. The watchers of a process share one inotify instance.
    /// - Parameters:
    ///   - events: the events of each read, in order. It may read `snapshot`, which already holds them.
    ///   - status: how the watch stands, when that changes.
    /// - Throws: the limits of inotify (naming the setting and its value), a folder that is there but can't be
    ///   watched, or a path that is not an absolute folder.
    package convenience init(_ spec: WatchSpec, since: TreeSnapshot? = nil, events: @escaping EventHandler,
                            status: @escaping StatusHandler = { _ in }) throws(FileWatchError) {
        let instance: InotifyInstance
        do {
            instance = try InotifyInstance.shared()
        } catch {
            throw .failed(error.code, spec.folder)
        }
        try self.init(spec, since: since, on: instance, events: events, status: status)
    }

    /// Tests: a watcher on an inotify instance of its own, made with `calls`, so that they can fail as a full system
    /// does, or the reading be paused without holding back other tests' watchers.
    convenience init(_ spec: WatchSpec, since: TreeSnapshot?, calls: InotifyCalls, events: @escaping EventHandler,
                     status: @escaping StatusHandler) throws(FileWatchError) {
        let instance: InotifyInstance
        do {
            instance = try InotifyInstance(calls: calls)
        } catch {
            throw .failed(error.code, spec.folder)
        }
        try self.init(spec, since: since, on: instance, events: events, status: status)
    }

    init(_ spec: WatchSpec, since: TreeSnapshot?, on instance: InotifyInstance, events: @escaping EventHandler,
         status: @escaping StatusHandler) throws(FileWatchError) {
        guard spec.folder.hasPrefix("/") else { throw .notAbsolute(spec.folder) }
        let reader = TreeReader(spec, on: instance, events: events, status: status)
        // Subscribed before the first watch is added, so that no record of it is dropped.
        instance.subscribe(reader)
        do {
            try reader.tree.withLock { tree throws(FileWatchError) in try tree.start(since: since) }
        } catch {
            instance.unsubscribe(reader)
            throw error
        }
        self.spec = spec
        self.instance = instance
        self.reader = reader
        // What `start` found (kept in the tree) comes before any later event: whichever of this and the handling of
        // the first records runs first on the instance's queue hands it over.
        instance.queue.async { reader.handle([]) }
    }

    deinit {
        stop()
    }

    /// What the tree holds as far as the watcher knows, for the daemon to store.
    package var snapshot: TreeSnapshot {
        reader.tree.withLock { $0.snapshot() }
    }

    /// Stops watching: no handler starts once it has returned (one running finishes), and the watcher's inotify
    /// watches go (those of folders another watcher watches too stay for it).
    package func stop() {
        guard !reader.stopped.exchange(true, ordering: .relaxed) else { return }
        instance.unsubscribe(reader)
    }

    /// Tests: stop reading, so that records pile up in the kernel's queue until it overflows. It pauses the whole
    /// instance: give the watcher one of its own (`calls:`).
    func pauseReading() {
        instance.pauseReading()
    }

    func resumeReading() {
        instance.resumeReading()
    }
}

/// One watcher's part in the instance: turns the records of its watches into its events, on the instance's queue.
private final class TreeReader: InotifyInstance.Subscriber {
    let id: Int
    let tree: Mutex<WatchedTree>
    let events: FileEventWatcher.EventHandler
    let status: FileEventWatcher.StatusHandler
    let stopped = Atomic<Bool>(false)

    init(_ spec: WatchSpec, on instance: InotifyInstance, events: @escaping FileEventWatcher.EventHandler,
         status: @escaping FileEventWatcher.StatusHandler) {
        id = instance.newSubscriberID()
        tree = Mutex(WatchedTree(spec: spec, watches: InotifyWatches(instance: instance, subscriber: id)))
        self.events = events
        self.status = status
    }

    func handle(_ records: [InotifyRecord]) {
        guard !stopped.load(ordering: .relaxed) else { return }
        let reports = tree.withLock { $0.handle(records) }
        deliver(reports)
    }

    private func deliver(_ reports: [WatchReport]) {
        var batch: [FileEvent] = []
        func flush() {
            guard !batch.isEmpty else { return }
            if !stopped.load(ordering: .relaxed) { events(batch) }
            batch = []
        }
        for report in reports {
            switch report {
            case .event(let event):
                batch.append(event)
                if batch.count == FileEventWatcher.batchLimit { flush() }
            case .status(let change):
                flush()
                if !stopped.load(ordering: .relaxed) { status(change) }
            }
        }
        flush()
    }
}
