import Foundation
import Synchronization

/// `debounce 2 seconds`: events gather until none has come for the quiet time, or until ten quiet times have passed
/// since the first (so that a folder written to without pause still gets its run), then go as one batch: each key
/// once, in the order each first came, with its latest element. On the injected clock, so tests move time themselves.
final class Debouncer<Element: Sendable>: Sendable {
    let quiet: Duration
    let clock: any SchedulerClock
    let key: @Sendable (Element) -> String
    let flush: @Sendable ([Element]) -> Void

    struct State {
        var order: [String] = []
        var latest: [String: Element] = [:]
        var first: Date?
        var last: Date?
        /// The loop's wait on the clock: cancelled when a first event starts a batch (its wait was for nothing).
        var waiting: Task<ClockWake, any Error>?
        var stopped = false
    }
    let state = Mutex(State())
    let loop = Mutex<Task<Void, Never>?>(nil)

    /// How much longer than the quiet time a batch may gather while events keep coming.
    static var maxWaitFactor: Double { 10 }

    init(quiet: Duration, clock: any SchedulerClock, key: @escaping @Sendable (Element) -> String, flush: @escaping @Sendable ([Element]) -> Void) {
        self.quiet = quiet
        self.clock = clock
        self.key = key
        self.flush = flush
        loop.withLock { $0 = Task { [weak self] in await self?.run() } }
    }

    func add(_ elements: [Element]) {
        guard !elements.isEmpty else { return }
        let now = clock.now()
        let idleWait = state.withLock { state -> Task<ClockWake, any Error>? in
            guard !state.stopped else { return nil }
            for element in elements {
                let key = key(element)
                if state.latest.updateValue(element, forKey: key) == nil { state.order.append(key) }
            }
            state.last = now
            guard state.first == nil else { return nil }
            state.first = now
            return state.waiting
        }
        // A batch starts: the loop, waiting for nothing, looks again. Later events only move the deadline later, and
        // the loop, woken at the earlier one, waits on.
        idleWait?.cancel()
    }

    /// When the batch goes: the quiet time after the last event, at the latest ten quiet times after the first.
    func deadline(_ state: State) -> Date? {
        guard let first = state.first, let last = state.last else { return nil }
        let seconds = quiet.timeInterval
        return min(last.addingTimeInterval(seconds), first.addingTimeInterval(seconds * Self.maxWaitFactor))
    }

    /// Waits for the deadline of the batch gathering (or forever while none is), and hands the batch on when it comes.
    func run() async {
        let clock = self.clock
        while true {
            let waiting = state.withLock { state -> Task<ClockWake, any Error>? in
                guard !state.stopped else { return nil }
                let until = deadline(state) ?? .distantFuture
                let task = Task { try await clock.wait(until: until) }
                state.waiting = task
                return task
            }
            guard let waiting else { return }
            _ = try? await waiting.value
            let now = clock.now()
            let batch = state.withLock { state -> [Element]? in
                guard !state.stopped, let due = deadline(state), now >= due else { return nil }
                let batch = state.order.compactMap { state.latest[$0] }
                state.order = []
                state.latest = [:]
                state.first = nil
                state.last = nil
                return batch
            }
            if let batch { flush(batch) }
        }
    }

    /// Drops what is gathering: the daemon is stopping, and a restart finds those changes by comparing the folder.
    func stop() {
        let waiting = state.withLock { state -> Task<ClockWake, any Error>? in
            state.stopped = true
            return state.waiting
        }
        waiting?.cancel()
    }
}
