import CLinux
import Dispatch
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One inotify instance — one descriptor, one queue of records in the kernel — shared by the watchers of a process:
/// the kernel allows a user few instances (`fs.inotify.max_user_instances`, 128 by default) but many watches, so a
/// daemon of 200 file automations must not take an instance each. It reads the descriptor when it is ready and
/// hands each subscriber (a watcher's tree) the records of its own watches, in order.
///
/// - Shared watch descriptors: the kernel has one watch per folder and instance, so two subscribers watching the
///   same folder get the same descriptor. The instance keeps who uses each descriptor and what each asked for: the
///   kernel's mask is the union (added with IN_MASK_ADD, and never narrowed, as the folder may no longer be at the
///   path it was added by; a wider mask only costs records), a subscriber gets only the records it asked for, and
///   the kernel's watch is removed when its last user lets it go.
/// - One queue: the subscribers handle their records on the instance's serial queue, one read at a time, so a slow
///   one holds the reading back for all, and memory stays bounded by one read: records wait in the kernel's queue.
///   If that overflows, every subscriber is told (the record names no watch) and reads its tree again.
/// - A thread of its own reads: it waits in poll(2) and hands the records over itself (through the queue, which runs
///   them on the calling thread when it is idle). A dispatch source took two threads for each read — libdispatch's
///   event thread woke a worker — and that wake was a tenth of a file event's way to its run.
/// Unchecked Sendable: the table is behind a lock, the rest is set once in `init`, and the read buffer is used on the
/// queue only.
final class InotifyInstance: @unchecked Sendable {
    /// What the instance hands records to.
    protocol Subscriber: AnyObject, Sendable {
        /// Set by `InotifyInstance.newSubscriberID`: the key of the subscriber's watches.
        var id: Int { get }
        /// The records of the subscriber's watches, and overflows, in the order read, on the instance's queue.
        func handle(_ records: [InotifyRecord])
    }

    /// `inotify_init1` failed, with this errno; the watcher words it for the folder it was to watch.
    struct Unavailable: Error {
        let code: Int32
    }

    private struct Table {
        /// The users of each watch descriptor: the subscribers' ids, with the events each asked for.
        var users: [Int32: [Int: UInt32]] = [:]
        var subscribers: [Int: any Subscriber] = [:]
        var nextID = 0
    }

    /// The events a subscriber can ask for; the rest of a mask is flags for `inotify_add_watch`.
    private static let events = UInt32(IN_ACCESS | IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_CLOSE_NOWRITE | IN_OPEN | IN_MOVED_FROM
                                       | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF)
    /// Records every user of a watch gets, whatever it asked for: the watch is gone.
    private static let always = UInt32(IN_IGNORED | IN_UNMOUNT)

    let queue = DispatchQueue(label: "auto.inotify")
    private let descriptor: Int32
    private let calls: InotifyCalls
    private let reading: ReadingThread
    private let table = Mutex(Table())
    /// One read's worth of records: room for at least 2,000, far more than the longest name needs.
    private let buffer: UnsafeMutableRawBufferPointer

    /// The instance the watchers of this process share while any of them is alive.
    private static let current = Mutex(Current())
    private struct Current {
        weak var instance: InotifyInstance?
    }

    /// The process's instance: the one in use, or a new one (when the last watcher went, the last one was closed).
    static func shared() throws(Unavailable) -> InotifyInstance {
        try current.withLock { current throws(Unavailable) -> InotifyInstance in
            if let instance = current.instance { return instance }
            let made = try InotifyInstance(calls: .system)
            current.instance = made
            return made
        }
    }

    /// A new instance, of its own: tests use one to make the calls fail, or to pause the reading of their watchers
    /// alone.
    init(calls: InotifyCalls) throws(Unavailable) {
        let (descriptor, code) = calls.initialize()
        guard descriptor >= 0 else { throw Unavailable(code: code) }
        let wake = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        guard wake >= 0 else {
            let code = errno
            close(descriptor)
            throw Unavailable(code: code)
        }
        self.descriptor = descriptor
        buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 8)
        self.calls = calls
        reading = ReadingThread(descriptor: descriptor, wake: wake)
        // Weak: the thread outlives nothing but its loop, and the instance goes when its last watcher lets it go.
        reading.start { [weak self, queue] in
            guard let self else { return }
            queue.sync { self.readAvailable() }
        }
    }

    deinit {
        // The thread closes both descriptors as it ends (it may be in the middle of a poll on them now).
        reading.stop()
        buffer.deallocate()
    }

    // MARK: Subscribers and their watches

    /// A key for a subscriber's watches, before it subscribes (its tree is made with it).
    func newSubscriberID() -> Int {
        table.withLock { table in
            table.nextID += 1
            return table.nextID
        }
    }

    /// The subscriber gets the records of the watches added under its id from now on.
    func subscribe(_ subscriber: any Subscriber) {
        table.withLock { $0.subscribers[subscriber.id] = subscriber }
    }

    /// The subscriber gets nothing more, and lets go of all its watches.
    func unsubscribe(_ subscriber: any Subscriber) {
        let id = subscriber.id
        table.withLock { table in
            table.subscribers[id] = nil
            for watch in table.users.keys where table.users[watch]?[id] != nil { release(watch, by: id, in: &table) }
        }
    }

    /// Watches `path` for the subscriber `id` with `mask` (its events and the flags for the call), in place of what
    /// it asked of that folder before. The watch descriptor, or -1 and the errno.
    func addWatch(_ path: String, mask: UInt32, for id: Int) -> (watch: Int32, error: Int32) {
        // Under the lock: the records of a new watch are routed only once its user is known.
        table.withLock { table in
            let (watch, code) = calls.addWatch(descriptor, path, mask | UInt32(IN_MASK_ADD))
            if watch >= 0 { table.users[watch, default: [:]][id] = mask & Self.events }
            return (watch, code)
        }
    }

    /// The subscriber `id` no longer uses the watch; the kernel's goes with its last user.
    func removeWatch(_ watch: Int32, for id: Int) {
        table.withLock { release(watch, by: id, in: &$0) }
    }

    private func release(_ watch: Int32, by id: Int, in table: inout Table) {
        guard var users = table.users[watch], users.removeValue(forKey: id) != nil else { return }
        if users.isEmpty {
            table.users[watch] = nil
            inotify_rm_watch(descriptor, watch)
        } else {
            table.users[watch] = users
        }
    }

    // MARK: Reading

    /// Reads and hands over a few buffers' worth, then lets the queue run something else; the thread calls again
    /// while records wait.
    private func readAvailable() {
        for _ in 0..<16 {
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return }
            let records = InotifyRecord.parse(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            for (subscriber, theirs) in route(records) { subscriber.handle(theirs) }
        }
    }

    /// The records of one read by subscriber, each subscriber's in order.
    private func route(_ records: [InotifyRecord]) -> [(any Subscriber, [InotifyRecord])] {
        table.withLock { table in
            var routed: [Int: [InotifyRecord]] = [:]
            var order: [Int] = []
            func give(_ record: InotifyRecord, to id: Int) {
                if routed[id] == nil { order.append(id) }
                routed[id, default: []].append(record)
            }
            for record in records {
                if record.has(IN_Q_OVERFLOW) {
                    for id in table.subscribers.keys { give(record, to: id) }
                    continue
                }
                guard let users = table.users[record.watch] else { continue }
                for (id, mask) in users where record.mask & (mask | Self.always) != 0 { give(record, to: id) }
                // The kernel removed the watch (its folder deleted, unmounted): it has no users any more.
                if record.has(IN_IGNORED) { table.users[record.watch] = nil }
            }
            return order.compactMap { id in table.subscribers[id].map { ($0, routed[id] ?? []) } }
        }
    }

    /// Tests: stop reading, so that records pile up in the kernel's queue until it overflows — for every watcher of
    /// the instance.
    func pauseReading() {
        reading.set(paused: true)
    }

    func resumeReading() {
        reading.set(paused: false)
    }

    /// Tests: what the reading thread holds until it has closed the descriptors and ended.
    var readingThread: AnyObject { reading }
}

/// The thread that waits for an instance's descriptor to be readable and has it read, until stopped: poll(2) on the
/// descriptor and on an eventfd that `set(paused:)` and `stop` write to, so that a change is seen at once.
private final class ReadingThread: Sendable {
    private struct State {
        var paused = false
        var stopped = false
    }

    private let descriptor: Int32
    private let wake: Int32
    private let state = Mutex(State())

    init(descriptor: Int32, wake: Int32) {
        self.descriptor = descriptor
        self.wake = wake
    }

    /// Starts the thread: `readable` is called each time the descriptor has records, while not paused.
    func start(_ readable: @escaping @Sendable () -> Void) {
        Thread.detachNewThread { [self] in
            loop(readable)
            close(descriptor)
            close(wake)
        }
    }

    private func loop(_ readable: () -> Void) {
        while true {
            let (paused, stopped) = state.withLock { ($0.paused, $0.stopped) }
            if stopped { return }
            // Paused, the descriptor isn't polled: records pile up in the kernel's queue.
            var polled = [pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
                          pollfd(fd: paused ? -1 : descriptor, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&polled, 2, -1)
            if ready < 0 { continue }  // EINTR, or ENOMEM for the kernel's table: the next poll may go through.
            if polled[0].revents != 0 {
                var count: UInt64 = 0
                _ = read(wake, &count, 8)
            }
            if polled[1].revents != 0 { readable() }
        }
    }

    func set(paused: Bool) {
        state.withLock { $0.paused = paused }
        signal()
    }

    func stop() {
        state.withLock { $0.stopped = true }
        signal()
    }

    private func signal() {
        var one: UInt64 = 1
        _ = write(wake, &one, 8)
    }
}

/// A watcher's tree's hold on its instance's watches: added and removed under the tree's subscriber id.
struct InotifyWatches: Sendable {
    let instance: InotifyInstance
    let subscriber: Int

    func add(_ path: String, mask: UInt32) -> (watch: Int32, error: Int32) {
        instance.addWatch(path, mask: mask, for: subscriber)
    }

    func remove(_ watch: Int32) {
        instance.removeWatch(watch, for: subscriber)
    }
}
