import Synchronization

/// Set once, from any thread (a signal handler's dispatch source, a test); read by the executor between
/// steps and by intents through `IntentContext.checkCancellation()`.
public final class CancellationFlag: Sendable {
    @usableFromInline let flag = Atomic<Bool>(false)
    public init() {}
    /// Inlinable: the executor reads it on every call of an intent, and a call into this module costs more than the load.
    @inlinable
    public var isCancelled: Bool { flag.load(ordering: .relaxed) }
    public func cancel() { flag.store(true, ordering: .relaxed) }
}
