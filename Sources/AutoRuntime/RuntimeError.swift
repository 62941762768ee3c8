/// A run that failed: what kind of failure, where in the script, and a sentence that says what went wrong in the
/// language's own terms. Front ends (the CLI, the REPL, the daemon) add what only they know: the CLI says which
/// option raises a limit, the daemon which automation option would.
package struct RuntimeError: Error, Sendable, CustomStringConvertible {
    package enum Kind: Sendable, Equatable {
        /// An expression or an intent failed; the message says why.
        case failed
        /// The run took more than this many steps.
        case stepLimit(Int)
        /// The run took longer than this.
        case timeLimit(Duration)
        /// Shortcuts called each other more than this deep.
        case callDepth(Int)
        /// A value would have been larger than this many bytes.
        case memoryLimit(Int)
        /// A question nobody could answer (the run is not interactive): the intent and parameter that asked, and the
        /// question, for the hint that answers it with `--answer`.
        case unanswered(intent: String, parameter: String?, question: String?)
        /// A confirmation nobody could give: the intent that needed it, and the question.
        case unconfirmed(intent: String, question: String?)
    }

    package let kind: Kind
    package let message: String

    /// Whether `try … otherwise` handles it: an expression's or an intent's failure. A limit (steps, time, memory,
    /// call depth), a question nobody answered and a confirmation nobody gave end the run whatever the script says.
    package var isCatchable: Bool { kind == .failed }
    package let location: SourceLocation?

    /// Control characters in the message (a text value's ESC or NUL, a host's message) are escaped, so that
    /// printing the error can't drive the terminal.
    package init(_ message: String, at location: SourceLocation?, kind: Kind = .failed) {
        self.kind = kind
        self.message = ValueFormatter.escapingControlCharacters(message)
        self.location = location
    }

    package var description: String {
        guard let location else { return "error: \(message)" }
        return "\(location): error: \(message)"
    }
}
