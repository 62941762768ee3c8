import AutoIntents
import AutoRuntime
import Synchronization

/// An Interaction for tests: what is shown is collected, questions take the next scripted answer and
/// fail as "nobody can answer" when there is none.
public final class ScriptedInteraction: Interaction, Sendable {
    struct State {
        var shown: [String] = []
        var questions: [String] = []
        var answers: [String]
        var confirmations: [Bool]
    }
    private let state: Mutex<State>
    private let onShow: @Sendable (String) -> Void

    public init(answers: [String] = [], confirmations: [Bool] = [], onShow: @escaping @Sendable (String) -> Void = { _ in }) {
        state = Mutex(State(answers: answers, confirmations: confirmations))
        self.onShow = onShow
    }

    public var shown: [String] { state.withLock { $0.shown } }
    public var questions: [String] { state.withLock { $0.questions } }

    public func show(_ text: String) async {
        state.withLock { $0.shown.append(text) }
        onShow(text)
    }

    public func requestValue(_ prompt: String, type: ValueType) async throws -> Value {
        let answer: String? = state.withLock { state in
            state.questions.append(prompt)
            return state.answers.isEmpty ? nil : state.answers.removeFirst()
        }
        guard let answer else { throw NoAnswerError(question: prompt) }
        switch type {
        case .int: return Int(answer).map(Value.int) ?? .text(answer)
        case .decimal: return Double(answer).map(Value.decimal) ?? .text(answer)
        default: return .text(answer)
        }
    }

    public func confirm(_ prompt: String) async throws -> Bool {
        let answer: Bool? = state.withLock { state in
            state.questions.append(prompt)
            return state.confirmations.isEmpty ? nil : state.confirmations.removeFirst()
        }
        guard let answer else { throw NoAnswerError(question: prompt) }
        return answer
    }
}

/// Collects what a Console writes, for tests.
public final class OutputCapture: Sendable {
    private let out = Mutex("")
    private let error = Mutex("")
    public init() {}

    public var standardOutput: String { out.withLock { $0 } }
    public var standardError: String { error.withLock { $0 } }
}

import AutoCLI

extension OutputCapture {
    public var console: Console {
        Console(writeOut: { text in self.out.withLock { $0 += text } },
                writeError: { text in self.error.withLock { $0 += text } })
    }
}
