/// How the engine talks to people. Each front end implements it: the terminal, a test's script of answers,
/// an automation where nobody answers.
public protocol Interaction: Sendable {
    /// Text for people: `show`, an intent's dialog.
    func show(_ text: String) async
    /// Asks for a value of `type`; throws when nobody can answer.
    func requestValue(_ prompt: String, type: ValueType) async throws -> Value
    /// Asks yes or no; throws when nobody can answer.
    func confirm(_ prompt: String) async throws -> Bool
}

/// A question nobody could answer: a script run without a terminal, an automation.
public struct NoAnswerError: Error, Sendable, CustomStringConvertible {
    public let question: String
    public init(question: String) { self.question = question }
    public var description: String { "nobody can answer '\(question)' (the run is not interactive)" }
}

/// What `perform` receives: the way to talk to people and to notice cancellation.
public final class IntentContext: Sendable {
    public let interaction: any Interaction
    let cancellation: CancellationFlag
    /// What the host registered for its intents to use (`Registry.dependency`): a database, a client.
    let dependency: (any Sendable)?

    public init(interaction: any Interaction, cancellation: CancellationFlag, dependency: (any Sendable)? = nil) {
        self.interaction = interaction
        self.cancellation = cancellation
        self.dependency = dependency
    }

    /// The host's dependency of type `T`, as registered with `Registry.dependency`. Intents are created by
    /// the engine, so this is how they reach the host's state without globals.
    public func dependency<T>(_ type: T.Type = T.self) throws -> T {
        guard let value = dependency as? T else { throw IntentError("this intent needs a \(T.self), and the host registered none") }
        return value
    }

    public var isCancelled: Bool { cancellation.isCancelled }

    /// Throws `RunCancelled` once the run was cancelled; long intents call it between steps.
    public func checkCancellation() throws {
        if cancellation.isCancelled { throw RunCancelled() }
    }

    public func show(_ text: String) async { await interaction.show(text) }

    public func requestValue<T: IntentValue>(_ prompt: String, as type: T.Type = T.self) async throws -> T {
        let value = try await interaction.requestValue(prompt, type: T.valueType)
        guard let typed = T(autoValue: value) else { throw IntentError("expected \(T.valueType), got \(value.type)") }
        return typed
    }

    /// Stops the run as cancelled when the person declines.
    public func requestConfirmation(_ prompt: String) async throws {
        guard try await interaction.confirm(prompt) else { throw RunCancelled("declined: \(prompt)") }
    }
}
