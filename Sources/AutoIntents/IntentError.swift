import Foundation

/// An error whose message a person can read: intents throw it from `perform`, queries from their methods; the engine
/// reports it with the script location of the action that failed, and a script may catch it (`try … catch e`).
///
/// ```swift
/// guard !title.isEmpty else { throw IntentError("a book needs a title") }
/// ```
/// Any other error a host throws is reported too, by its `LocalizedError.errorDescription` or its description.
public struct IntentError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, for people: lower case, no final period, naming what it is about.
    public let message: String
    /// An error with its message.
    public init(_ message: String) { self.message = message }
    /// The message.
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
/// `requestConfirmation` throws it when people decline, `checkCancellation` when the run was stopped; an intent that
/// catches it to clean up throws it on (or one with a longer reason).
public struct RunCancelled: Error, Sendable, CustomStringConvertible {
    /// Why the run stopped: "declined: Import 3 books?", "interrupted".
    public let reason: String
    /// Without a reason, the run was interrupted (Ctrl-C sets the cancellation flag).
    public init(_ reason: String = "interrupted") { self.reason = reason }
    /// The reason.
    public var description: String { reason }
}

/// What `fail "…"` throws: the script's own words, which the run reports as they are, without the intent's name that
/// prefixes an intent's error (`import books: no such file`).
package struct ScriptFailure: Error, Sendable {
    package let message: String
    package init(_ message: String) { self.message = message }
}
