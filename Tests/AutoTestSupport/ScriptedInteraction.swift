@testable import AutoTerminal
import AutoCLI
import AutoIntents
import AutoRuntime
import Synchronization

/// An Interaction for tests: what is shown and every progress event are collected; questions take the
/// next scripted answer, choice or confirmation, and fail as "nobody can answer" when there is none.
package final class ScriptedInteraction: Interaction, Sendable {
    struct State {
        var shown: [String] = []
        var questions: [String] = []
        /// What was shown and asked, in the order it happened.
        var events: [String] = []
        var progress: [ProgressEvent] = []
        var answers: [String]
        var choices: [Int]
        var confirmations: [Bool]
    }
    private let state: Mutex<State>
    private let onShow: @Sendable (String) -> Void
    /// Like a front end that can only show by awaiting (one on the main actor): `showNow` declines.
    private let showsOnlyByAwaiting: Bool

    package init(answers: [String] = [], choices: [Int] = [], confirmations: [Bool] = [], showsOnlyByAwaiting: Bool = false,
                onShow: @escaping @Sendable (String) -> Void = { _ in }) {
        state = Mutex(State(answers: answers, choices: choices, confirmations: confirmations))
        self.showsOnlyByAwaiting = showsOnlyByAwaiting
        self.onShow = onShow
    }

    package var shown: [String] { state.withLock { $0.shown } }
    package var questions: [String] { state.withLock { $0.questions } }
    package var events: [String] { state.withLock { $0.events } }
    package var progressEvents: [ProgressEvent] { state.withLock { $0.progress } }

    package func show(_ dialog: Dialog) async {
        record(dialog)
    }

    package func showNow(_ dialog: Dialog) -> Bool {
        if showsOnlyByAwaiting { return false }
        record(dialog)
        return true
    }

    private func record(_ dialog: Dialog) {
        state.withLock {
            $0.shown.append(dialog.full)
            $0.events.append("show: " + dialog.full)
        }
        onShow(dialog.full)
    }

    package func requestValue(_ request: ValueRequest) async throws -> Value {
        let answer: String? = state.withLock { state in
            if let reason = request.reason { state.events.append("reason: " + reason) }
            state.questions.append(request.prompt)
            state.events.append("ask: " + request.prompt)
            return state.answers.isEmpty ? nil : state.answers.removeFirst()
        }
        guard let answer else { throw NoAnswerError(question: request.prompt) }
        // Answers are read as the terminal reads them.
        return TypedAnswer.parse(answer, as: request.type) ?? .text(answer)
    }

    package func choose(_ request: ChoiceRequest) async throws -> Int {
        let choice: Int? = state.withLock { state in
            state.questions.append(request.prompt + " " + request.options.map(\.title).joined(separator: " | "))
            return state.choices.isEmpty ? nil : state.choices.removeFirst()
        }
        guard let choice else { throw NoAnswerError(question: request.prompt) }
        return choice
    }

    package func confirm(_ request: ConfirmationRequest) async throws -> Bool {
        let answer: Bool? = state.withLock { state in
            state.questions.append(request.prompt)
            state.events.append("confirm: " + request.prompt)
            return state.confirmations.isEmpty ? nil : state.confirmations.removeFirst()
        }
        guard let answer else { throw NoAnswerError(question: request.prompt) }
        return answer
    }

    package func progress(_ event: ProgressEvent) async {
        state.withLock { $0.progress.append(event) }
    }
}

/// Collects what a Console writes, for tests.
package final class OutputCapture: Sendable {
    private let out = Mutex("")
    private let error = Mutex("")
    package init() {}

    package var standardOutput: String { out.withLock { $0 } }
    package var standardError: String { error.withLock { $0 } }
}

extension OutputCapture {
    package var console: Console {
        Console(writeOut: { text in self.out.withLock { $0 += text } },
                writeError: { text in self.error.withLock { $0 += text } })
    }
}
