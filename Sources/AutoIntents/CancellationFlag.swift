import Synchronization

/// Set once, from any thread (a signal handler's dispatch source, a test); read by the executor between
/// steps and by intents through `IntentContext.checkCancellation()`.
@usableFromInline
package final class CancellationFlag: Sendable {
    @usableFromInline let flag = Atomic<Bool>(false)
    package init() {}
    /// Inlinable: the executor reads it on every call of an intent, and a call into this module costs more than the load.
    @inlinable
    package var isCancelled: Bool { flag.load(ordering: .relaxed) }
    package func cancel() { flag.store(true, ordering: .relaxed) }
}
