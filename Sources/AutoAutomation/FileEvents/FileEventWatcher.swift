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
/// - Delivery: `events` is called on the watcher's serial queue with the events of each read, in order, each
///   change once; a rescan's events come in parts of at most `batchLimit`. `status` is called on the same queue, in
///   order with the events, when the watch's standing changes (`FileWatchStatus`). A handler that takes its time
///   holds the reading back: records wait in the kernel's queue, and if it overflows the tree is read again, so
///   memory stays bounded by one read (64 KiB) and the snapshot, however fast files come.
/// - The snapshot: the watcher keeps what the tree holds, updated as events come (`snapshot`), so that after an
///   overflow it reports exactly what was missed, and the daemon can store it and pass it back as `since`.
/// - Names that are not UTF-8 are left out, as `TreeSnapshot.scan` leaves them out.
/// Unchecked Sendable: its properties are set once, in `init`; the tree is behind a lock, and a dispatch source may
/// be suspended, resumed and cancelled from any thread.
public final class FileEventWatcher: @unchecked Sendable {
    public typealias EventHandler = @Sendable ([FileEvent]) -> Void
    public typealias StatusHandler = @Sendable (FileWatchStatus) -> Void

    /// The most events handed over in one call.
    public static let batchLimit = 1024

    public let spec: WatchSpec
    private let reader: InotifyReader
    private let source: any DispatchSourceRead
    private let control = Mutex<(paused: Bool, stopped: Bool)>((false, false))

    /// Starts watching at once: the folders are watched and read before `init` returns, so a change after it is
    /// reported. `since`: what an earlier watch of the same spec knew (its `snapshot`, stored); the differences are
    /// the first events, marked `fromRescan`. A missing folder is no error: it is reported (`.folderMissing`) and
    /// waited for.
    /// - Parameters:
    ///   - queue: the handlers run one at a time on a queue of the watcher's own that targets this one (nil: the
    ///     default global queue).
    ///   - events: the events of each read, in order. It may read `snapshot`, which already holds them.
    ///   - status: how the watch stands, when that changes.
    /// - Throws: the limits of inotify (naming the setting and its value), a folder that is there but can't be
    ///   watched, or a path that is not an absolute folder.
    public convenience init(_ spec: WatchSpec, since: TreeSnapshot? = nil, queue: DispatchQueue? = nil,
                            events: @escaping EventHandler, status: @escaping StatusHandler = { _ in }) throws(FileWatchError) {
        try self.init(spec, since: since, queue: queue, calls: .system, events: events, status: status)
    }

    init(_ spec: WatchSpec, since: TreeSnapshot?, queue: DispatchQueue?, calls: InotifyCalls,
         events: @escaping EventHandler, status: @escaping StatusHandler) throws(FileWatchError) {
        guard spec.folder.hasPrefix("/") else { throw .notAbsolute(spec.folder) }
        let (descriptor, code) = calls.initialize()
        guard descriptor >= 0 else { throw .failed(code, spec.folder) }
        var tree = WatchedTree(spec: spec, descriptor: descriptor, calls: calls)
        let first: [WatchReport]
        do {
            first = try tree.start(since: since)
        } catch {
            close(descriptor)
            throw error
        }
        // A queue of its own, targeting the one given: the handlers run one at a time even on a concurrent queue.
        let serial = DispatchQueue(label: "auto.file-events", target: queue)
        let reader = InotifyReader(descriptor: descriptor, tree: tree, events: events, status: status)
        let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: serial)
        source.setEventHandler { reader.readAvailable() }
        source.setCancelHandler { close(descriptor) }
        self.spec = spec
        self.reader = reader
        self.source = source
        // Before the source starts, so that what start found comes before any later event.
        if !first.isEmpty { serial.async { reader.deliver(first) } }
        source.resume()
    }

    deinit {
        stop()
    }

    /// What the tree holds as far as the watcher knows, for the daemon to store.
    public var snapshot: TreeSnapshot {
        reader.tree.withLock { $0.snapshot() }
    }

    /// Stops watching: no handler starts once the queue has run the stop (one running finishes). The watches go
    /// with the inotify descriptor, which is closed.
    public func stop() {
        let wasPaused = control.withLock { control -> Bool? in
            guard !control.stopped else { return nil }
            control.stopped = true
            return control.paused
        }
        guard let wasPaused else { return }
        reader.stopped.store(true, ordering: .relaxed)
        source.cancel()
        // A suspended source neither runs its cancel handler nor may be released.
        if wasPaused { source.resume() }
    }

    /// Tests: stop reading, so that records pile up in the kernel's queue until it overflows.
    func pauseReading() {
        control.withLock { control in
            guard !control.paused, !control.stopped else { return }
            control.paused = true
            source.suspend()
        }
    }

    func resumeReading() {
        control.withLock { control in
            guard control.paused, !control.stopped else { return }
            control.paused = false
            source.resume()
        }
    }
}

/// Reads an inotify descriptor when it is ready and hands what follows to the handlers, on the watcher's queue.
private final class InotifyReader: Sendable {
    let descriptor: Int32
    let tree: Mutex<WatchedTree>
    let events: FileEventWatcher.EventHandler
    let status: FileEventWatcher.StatusHandler
    let stopped = Atomic<Bool>(false)
    /// One read's worth of records: room for at least 2,000, far more than the longest name needs.
    private nonisolated(unsafe) let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 8)

    init(descriptor: Int32, tree: WatchedTree, events: @escaping FileEventWatcher.EventHandler,
         status: @escaping FileEventWatcher.StatusHandler) {
        self.descriptor = descriptor
        self.tree = Mutex(tree)
        self.events = events
        self.status = status
    }

    deinit {
        buffer.deallocate()
    }

    /// Reads and hands over a few buffers' worth, then lets the queue run something else; the source calls again
    /// while records wait.
    func readAvailable() {
        for _ in 0..<16 {
            guard !stopped.load(ordering: .relaxed) else { return }
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return }
            let records = InotifyRecord.parse(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            let reports = tree.withLock { $0.handle(records) }
            deliver(reports)
        }
    }

    func deliver(_ reports: [WatchReport]) {
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
