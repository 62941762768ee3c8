import Synchronization

/// Set once, from any thread (a signal handler's dispatch source, a test); read by the executor between
/// steps and by intents through `IntentContext.checkCancellation()`.
public final class CancellationFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    public init() {}
    public var isCancelled: Bool { flag.load(ordering: .relaxed) }
    public func cancel() { flag.store(true, ordering: .relaxed) }
}
