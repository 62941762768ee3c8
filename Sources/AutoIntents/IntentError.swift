import Foundation

/// An error whose message a person can read: intents throw it from `perform`; the engine reports it with
/// the script location of the action that failed.
public struct IntentError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }

    /// What a person reads of an error a host threw from `perform` or a query: a `LocalizedError`'s
    /// `errorDescription`, else the description of a `CustomStringConvertible` one, else how Swift prints it
    /// (`outOfBeans(left: 0)` for a case of an enum, which is why the other two come first).
    package static func message(of error: any Error) -> String {
        if let localized = error as? any LocalizedError, let description = localized.errorDescription { return description }
        return String(describing: error)
    }
}

/// The run was stopped on purpose: a declined confirmation, Ctrl-C. Exit code 130, not a failure.
public struct RunCancelled: Error, Sendable, CustomStringConvertible {
    public let reason: String
    /// Without a reason, the run was interrupted (Ctrl-C sets the cancellation flag).
    public init(_ reason: String = "interrupted") { self.reason = reason }
    public var description: String { reason }
}
