/// An error whose message a person can read: intents throw it from `perform`; the engine reports it with
/// the script location of the action that failed.
public struct IntentError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The run was stopped on purpose: a declined confirmation, Ctrl-C. Exit code 130, not a failure.
public struct RunCancelled: Error, Sendable, CustomStringConvertible {
    public let reason: String
    /// Without a reason, the run was interrupted (Ctrl-C sets the cancellation flag).
    public init(_ reason: String = "interrupted") { self.reason = reason }
    public var description: String { reason }
}
