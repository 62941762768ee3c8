import Synchronization

/// Work given at most so long: for the calls a stopping daemon makes to a store that may be gone (a node saying it
/// leaves, the ends of runs recorded), where waiting longer serves nobody — a lease runs out anyway, the next daemon
/// closes what was left. Its caller is never held past the deadline, even by work that doesn't heed cancellation (a
/// statement on a connection whose server went silent): the work is cancelled then, and left to end on its own.
enum Deadline {
    /// What `work` returned or threw, or nil once `limit` has passed.
    static func run<T: Sendable>(within limit: Duration, _ work: @escaping @Sendable () async throws -> T) async throws -> T? {
        let race = Race<T>()
        return try await withCheckedThrowingContinuation { continuation in
            race.waiting.withLock { $0 = continuation }
            let task = Task {
                let result: Result<T?, any Error>
                do { result = .success(try await work()) } catch { result = .failure(error) }
                race.end(with: result)
            }
            race.timer.withLock { timer in
                timer = Task {
                    try? await Task.sleep(for: limit)
                    guard !Task.isCancelled else { return }
                    task.cancel()
                    race.end(with: .success(nil))
                }
            }
        }
    }

    /// Who of the work and the timer ends first resumes the caller.
    private final class Race<T: Sendable>: Sendable {
        let waiting = Mutex<CheckedContinuation<T?, any Error>?>(nil)
        let timer = Mutex<Task<Void, Never>?>(nil)

        func end(with result: Result<T?, any Error>) {
            timer.withLock { $0?.cancel() }
            waiting.withLock { $0.take() }?.resume(with: result)
        }
    }
}
