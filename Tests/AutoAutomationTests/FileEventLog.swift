@testable import AutoAutomation
import Foundation
import Synchronization

/// Objects a test keeps alive as long as it runs.
final class Kept<Object: Sendable>: Sendable {
    private let objects = Mutex<[Object]>([])
    func keep(_ object: Object) { objects.withLock { $0.append(object) } }
}

/// What a watcher reported, in order, for a test to wait on and read.
final class EventLog: Sendable {
    private let state = Mutex<(events: [FileEvent], statuses: [FileWatchStatus], largestBatch: Int)>(([], [], 0))
    private let sentinels = Atomic<Int>(0)

    var add: FileEventWatcher.EventHandler {
        { batch in self.state.withLock { $0.events += batch; $0.largestBatch = max($0.largestBatch, batch.count) } }
    }

    var addStatus: FileEventWatcher.StatusHandler {
        { status in self.state.withLock { $0.statuses.append(status) } }
    }

    /// Every event so far but the sentinels'.
    var events: [FileEvent] { state.withLock { $0.events }.filter { !$0.path.contains(Self.sentinelMark) } }
    var statuses: [FileWatchStatus] { state.withLock { $0.statuses } }
    var largestBatch: Int { state.withLock { $0.largestBatch } }

    /// The events of one path.
    func events(of path: String) -> [FileEvent] { events.filter { $0.path == path } }

    /// Waits until `condition` holds; false if it never did in two minutes (generous: the whole suite runs at once,
    /// here on two cores).
    func wait(until condition: (EventLog) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(120)
        while !condition(self) {
            if ContinuousClock.now > deadline { return false }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return true
    }

    static let sentinelMark = "zz-sentinel"

    /// Makes a file in `folder` and waits for its creation to be reported: since records are read in order,
    /// everything done before has been reported by then. `suffix`: for a glob the sentinel must pass.
    @discardableResult
    func settle(_ folder: String, suffix: String = "") async -> Bool {
        let number = sentinels.add(1, ordering: .relaxed).newValue
        let path = folder + "/\(Self.sentinelMark)-\(number)\(suffix)"
        guard (try? writeFile(path, "")) != nil else { return false }
        return await wait { log in log.state.withLock { $0.events }.contains { $0.path == path && $0.kind == .created } }
    }
}
