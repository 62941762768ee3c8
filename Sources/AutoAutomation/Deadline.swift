import Synchronization

/// Work given at most so long: for calls to a store whose server may go away under them (PostgreSQL's pool was seen to
/// leave a request unanswered for good across a restart), where waiting longer serves nobody. Its caller is never held
/// past the deadline, even by work that doesn't heed cancellation: the work is cancelled then, and left to end on its
/// own. The deadline is kept to a tenth of a second: one watcher wakes every 100 ms while work is under way, rather
/// than a timer per call (a sleep of 10 s per request, each left in the system's timers until it fell due, put fire
/// latency's p99 on PostgreSQL at 134 ms against 10 ms without them).
enum Deadline {
    /// What `work` returned or threw, or nil once `limit` has passed.
    static func run<T: Sendable>(within limit: Duration, _ work: @escaping @Sendable () async throws -> T) async throws -> T? {
        let race = Race<T>()
        return try await withCheckedThrowingContinuation { continuation in
            race.waiting.withLock { $0 = continuation }
            let watched = Watcher.shared.watch(until: ContinuousClock.now + limit) { race.expire() }
            let task = Task {
                let result: Result<T?, any Error>
                do { result = .success(try await work()) } catch { result = .failure(error) }
                Watcher.shared.forget(watched)
                race.end(with: result)
            }
            race.task.withLock { $0 = task }
        }
    }

    /// Who of the work and the watcher ends first resumes the caller.
    private final class Race<T: Sendable>: Sendable {
        let waiting = Mutex<CheckedContinuation<T?, any Error>?>(nil)
        let task = Mutex<Task<Void, Never>?>(nil)

        func end(with result: Result<T?, any Error>) {
            waiting.withLock { $0.take() }?.resume(with: result)
        }

        func expire() {
            task.withLock { $0 }?.cancel()
            end(with: .success(nil))
        }
    }

    /// The calls under way with their deadlines, and one task that looks at them every 100 ms while there are any.
    private final class Watcher: Sendable {
        static let shared = Watcher()
        private struct Watched {
            let deadline: ContinuousClock.Instant
            let expire: @Sendable () -> Void
        }
        private struct State {
            var next = 0
            var watched: [Int: Watched] = [:]
            var looking = false
        }
        private let state = Mutex(State())

        func watch(until deadline: ContinuousClock.Instant, _ expire: @escaping @Sendable () -> Void) -> Int {
            let (id, start) = state.withLock { state -> (Int, Bool) in
                state.next += 1
                state.watched[state.next] = Watched(deadline: deadline, expire: expire)
                defer { state.looking = true }
                return (state.next, !state.looking)
            }
            if start { Task { await self.look() } }
            return id
        }

        func forget(_ id: Int) {
            state.withLock { _ = $0.watched.removeValue(forKey: id) }
        }

        /// Until nothing is watched: it stops then, in the same step as it finds nothing (`watch` starts it again).
        private func look() async {
            while true {
                try? await Task.sleep(for: .milliseconds(100))
                let now = ContinuousClock.now
                let (due, done) = state.withLock { state -> ([Watched], Bool) in
                    let due = state.watched.filter { $0.value.deadline <= now }
                    for id in due.keys { state.watched.removeValue(forKey: id) }
                    if state.watched.isEmpty { state.looking = false }
                    return (Array(due.values), state.watched.isEmpty)
                }
                for watched in due { watched.expire() }
                if done { return }
            }
        }
    }
}
