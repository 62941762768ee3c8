import Foundation

/// How the engine talks to people (App Intents' dialogs, requestValue, requestDisambiguation,
/// requestConfirmation and progress). Each front end implements it: the terminal, a test's script of
/// answers, an automation where nobody answers (every question throws `NoAnswerError`).
package protocol Interaction: Sendable {
    /// Text for people: `show`, an intent's dialog.
    func show(_ dialog: Dialog) async
    /// The same without awaiting, for the dialog of an immediate intent running in work that never awaits.
    /// Returns false where showing has to await (the default): the engine then keeps the dialog and shows it
    /// with `show`, in order, as soon as the run awaits or ends.
    func showNow(_ dialog: Dialog) -> Bool
    /// Asks for a value of `request.type`.
    func requestValue(_ request: ValueRequest) async throws -> Value
    /// Asks to pick one of the options; returns its index.
    func choose(_ request: ChoiceRequest) async throws -> Int
    /// Asks yes or no.
    func confirm(_ request: ConfirmationRequest) async throws -> Bool
    /// Progress of long work: determinate (a total) or not, nested under a parent.
    func progress(_ event: ProgressEvent) async
    /// A line for the log, apart from what is shown (`log "…"`): on standard error by default; a daemon's run puts
    /// it in the daemon's log, in its format.
    func log(_ line: String)
}

extension Interaction {
    package func showNow(_ dialog: Dialog) -> Bool { false }

    package func log(_ line: String) {
        // One write of the whole line, so that lines of runs going at once don't interleave.
        FileHandle.standardError.write(Data(("log: " + line.replacingOccurrences(of: "\n", with: "\n     ") + "\n").utf8))
    }
}

/// What an intent says: the full text, and a short one for narrow places (a notification, a status line). Written
/// as a string, interpolations included: `.result(value: book, dialog: "Opening \(book.title)")`.
public struct Dialog: Sendable, ExpressibleByStringInterpolation, CustomStringConvertible {
    /// What people read.
    public var full: String
    /// A shorter text for narrow places; nil to use `full`.
    public var short: String?
    /// The value `show` shows, which `full` writes on one line: a front end may lay it out itself (a terminal puts a
    /// list one element per line).
    package var value: Value?
    /// A dialog with its full text and, optionally, a short one.
    public init(_ full: String, short: String? = nil) {
        self.full = full
        self.short = short
    }
    /// A dialog whose full text is the string.
    public init(stringLiteral value: String) { self.init(value) }
    /// The full text.
    public var description: String { full }
}

package struct ValueRequest: Sendable {
    package let prompt: String
    /// The type asked for. For an entity type the answer is the entity's name, as a text: the engine finds the
    /// entity with its type's text search.
    package let type: ValueType
    /// The intent and parameter asking, for messages when nobody can answer.
    package let intent: String?
    package let parameter: String?
    /// Why it is asked again, when the intent found the value it had unusable ("more.csv: no such file"): said
    /// before the question.
    package let reason: String?
    package init(prompt: String, type: ValueType, intent: String? = nil, parameter: String? = nil, reason: String? = nil) {
        self.prompt = prompt
        self.type = type
        self.intent = intent
        self.parameter = parameter
        self.reason = reason
    }
}

/// One option of a choice, as people see it.
package struct Choice: Sendable, Equatable {
    package let title: String
    package let subtitle: String?
    package init(title: String, subtitle: String? = nil) {
        self.title = title
        self.subtitle = subtitle
    }
}

package struct ChoiceRequest: Sendable {
    package let prompt: String
    package let options: [Choice]
    package let intent: String?
    package let parameter: String?
    package init(prompt: String, options: [Choice], intent: String? = nil, parameter: String? = nil) {
        self.prompt = prompt
        self.options = options
        self.intent = intent
        self.parameter = parameter
    }
}

package struct ConfirmationRequest: Sendable {
    package let prompt: String
    /// The verb of the action being confirmed ("Delete"), for buttons and messages.
    package let actionName: String?
    package let isDestructive: Bool
    package let intent: String?
    package init(prompt: String, actionName: String? = nil, isDestructive: Bool = false, intent: String? = nil) {
        self.prompt = prompt
        self.actionName = actionName
        self.isDestructive = isDestructive
        self.intent = intent
    }
}

package enum ProgressEvent: Sendable, Equatable {
    /// A task starts; `total` nil means indeterminate; `parent` nests it under another task.
    case started(id: Int, parent: Int?, label: String, total: Int?)
    case advanced(id: Int, completed: Int)
    case finished(id: Int)
    /// The task ended before it was done: its intent failed or the run was cancelled.
    case stopped(id: Int)
}

/// A question nobody could answer: a script run with `--no-input` or without a terminal, an automation.
/// `requestValue` and `choose` throw it; an intent may catch it to say what the answer was for and how to give it
/// another way (the Library's `import books`: "fill in its author column").
public struct NoAnswerError: Error, Sendable, CustomStringConvertible {
    /// The question that was asked.
    public let question: String
    /// Why nobody can: "standard input is not a terminal", "--no-input was given".
    public let reason: String
    /// Whether it was a confirmation, which `--yes` approves, rather than a question or a choice.
    package let isConfirmation: Bool
    package init(question: String, reason: String = "the run is not interactive", isConfirmation: Bool = false) {
        self.question = question
        self.reason = reason
        self.isConfirmation = isConfirmation
    }
    /// "nobody can answer '…' (why)".
    public var description: String { "nobody can answer '\(question)' (\(reason))" }
}

/// Thrown from `perform` when a parameter is missing or unusable (`IntentContext.needsValue(_:reason:)` makes it): the
/// engine asks for it with the parameter's question and runs `perform` again from the start with the answer.
package struct NeedsValueError: Error, Sendable {
    /// The parameter's name in scripts.
    package let parameter: String
    /// Why the value given is unusable, said before the question; nil when it was missing.
    package let reason: String?
    package init(parameter: String, reason: String? = nil) {
        self.parameter = parameter
        self.reason = reason
    }
}
