import CLinux
import Dispatch
import Foundation
import Synchronization

/// The time the scheduler lives by: the wall clock, and a wait for an instant of it. Injected, so that tests move
/// time themselves (forwards, backwards, in jumps) and nothing sleeps.
package protocol SchedulerClock: Sendable {
    func now() -> Date
    /// Waits until the wall clock reads `instant`; at once when it already has. Returns early with
    /// `.clockChanged` when the clock is set meanwhile (NTP, a person, a resume from suspend), so that the
    /// scheduler looks again at what is due. Throws `CancellationError` when the task is cancelled.
    func wait(until instant: Date) async throws -> ClockWake
}

package enum ClockWake: Sendable, Equatable {
    case reached
    case clockChanged
}

/// The machine's wall clock, waited on with a timerfd on CLOCK_REALTIME armed with `TFD_TIMER_CANCEL_ON_SET`:
/// the kernel wakes it at the instant however the clock moved in between, and says when the clock was set.
/// Between fires the daemon makes no other wake-up.
package struct SystemClock: SchedulerClock {
    package init() {}

    package func now() -> Date { Date() }

    package func wait(until instant: Date) async throws -> ClockWake {
        let descriptor = timerfd_create(CLOCK_REALTIME, Int32(TFD_CLOEXEC | TFD_NONBLOCK))
        guard descriptor >= 0 else {
            // No timerfd (a kernel without it): a plain sleep, which a clock change doesn't cut short.
            let seconds = max(0, instant.timeIntervalSinceNow)
            try await Task.sleep(for: .milliseconds(Int64(seconds * 1000)))
            return .reached
        }
        let seconds = instant.timeIntervalSince1970
        let whole = seconds.rounded(.down)
        var setting = itimerspec(it_interval: timespec(tv_sec: 0, tv_nsec: 0),
                                 it_value: timespec(tv_sec: max(0, Int(whole)), tv_nsec: Int((seconds - whole) * 1e9)))
        // A zero it_value would disarm the timer: an instant at or before the epoch is "now".
        if setting.it_value.tv_sec == 0, setting.it_value.tv_nsec == 0 { setting.it_value.tv_nsec = 1 }
        guard timerfd_settime(descriptor, Int32(TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET), &setting, nil) == 0 else {
            close(descriptor)
            return .reached
        }
        let wait = TimerWait(descriptor: descriptor)
        return try await withTaskCancellationHandler {
            try await wait.result()
        } onCancel: {
            wait.cancel()
        }
    }
}

/// One armed timerfd, read when it is ready: resumed once, by the timer or by a cancellation.
private final class TimerWait: Sendable {
    private let descriptor: Int32
    private let state = Mutex<(continuation: CheckedContinuation<ClockWake, any Error>?, source: (any DispatchSourceRead)?, cancelled: Bool)>(
        (nil, nil, false))

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    func result() async throws -> ClockWake {
        try await withCheckedThrowingContinuation { continuation in
            let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: .global())
            let descriptor = self.descriptor
            source.setEventHandler { [weak self] in
                var expirations: UInt64 = 0
                let count = read(descriptor, &expirations, MemoryLayout<UInt64>.size)
                // ECANCELED: the clock was set; EAGAIN: woken with nothing to read yet, wait on.
                if count < 0, errno == EAGAIN { return }
                self?.finish(.success(count < 0 && errno == ECANCELED ? .clockChanged : .reached))
            }
            source.setCancelHandler { close(descriptor) }
            let cancelledAlready = state.withLock { state in
                state.continuation = continuation
                state.source = source
                return state.cancelled
            }
            source.resume()
            if cancelledAlready { finish(.failure(CancellationError())) }
        }
    }

    func cancel() {
        let ready = state.withLock { state in
            state.cancelled = true
            return state.continuation != nil
        }
        if ready { finish(.failure(CancellationError())) }
    }

    private func finish(_ result: Result<ClockWake, any Error>) {
        let continuation = state.withLock { state -> CheckedContinuation<ClockWake, any Error>? in
            guard let continuation = state.continuation else { return nil }
            // Cancelling a source only marks it: its cancel handler (closing the timer) runs later, on its queue.
            state.source?.cancel()
            state.continuation = nil
            state.source = nil
            return continuation
        }
        continuation?.resume(with: result)
    }
}
