import AutoIntents
import Synchronization

/// The steps of one run as they happened, for a run history (`auto automations trace`): each action's intent, the
/// arguments it ran with, a summary of its result or its error, when it started and how long it took. Given to
/// `Engine.run` by whoever keeps the history; a run without one records nothing.
///
/// Bounded: a loop of a million calls keeps its first `limit` steps and counts the rest, so that a trace never
/// holds more than a store should keep for one run.
package final class RunTrace: Sendable {
    package struct Step: Sendable, Equatable {
        package let intent: String
        /// The arguments given or filled in, in parameter order, each written as a script would (`"Emma"`, `3`).
        package let arguments: [Argument]
        /// The result written short, or nil when the action failed.
        package let result: String?
        /// The action's error, when it failed.
        package let error: String?
        /// From the start of the run to the start of the action.
        package let startedAfter: Duration
        package let duration: Duration
        package let location: SourceLocation
        /// The intent's identifier (`IntentDescriptor.identifier`), which stays when its title changes: a trace read
        /// after the host renamed the intent says what it is called now. Nil in runs recorded before it was kept.
        package let intentID: String?

        package init(intent: String, arguments: [Argument], result: String?, error: String?, startedAfter: Duration,
                    duration: Duration, location: SourceLocation, intentID: String? = nil) {
            self.intent = intent
            self.intentID = intentID
            self.arguments = arguments
            self.result = result
            self.error = error
            self.startedAfter = startedAfter
            self.duration = duration
            self.location = location
        }
    }

    package struct Argument: Sendable, Equatable {
        package let name: String
        package let value: String
        package init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// How many steps are kept.
    package let limit: Int
    /// Texts longer than this are cut with `…`.
    package static let textLimit = 200
    private let state = Mutex<(steps: [Step], dropped: Int)>(([], 0))
    let started = ContinuousClock.now

    package init(limit: Int = 1_000) {
        self.limit = limit
    }

    /// The steps kept, in the order the actions started.
    package var steps: [Step] { state.withLock { $0.steps }.sorted { $0.startedAfter < $1.startedAfter } }
    /// How many steps ran beyond `limit` and were not kept.
    package var dropped: Int { state.withLock { $0.dropped } }

    func record(_ intent: IntentDescriptor, _ arguments: [Value?], result: Result<Value, any Error>, startedAt: ContinuousClock.Instant,
                location: SourceLocation) {
        let now = ContinuousClock.now
        var written: [Argument] = []
        for (parameter, value) in zip(intent.parameters, arguments) {
            guard let value else { continue }
            written.append(Argument(name: parameter.name, value: Self.short(value)))
        }
        let step: Step
        switch result {
        case .success(let value):
            step = Step(intent: intent.name, arguments: written, result: Self.short(value), error: nil,
                        startedAfter: startedAt - started, duration: now - startedAt, location: location, intentID: intent.identifier)
        case .failure(let error):
            step = Step(intent: intent.name, arguments: written, result: nil, error: Self.cut("\(error)"),
                        startedAfter: startedAt - started, duration: now - startedAt, location: location, intentID: intent.identifier)
        }
        state.withLock { state in
            if state.steps.count < limit { state.steps.append(step) } else { state.dropped += 1 }
        }
    }

    static func short(_ value: Value) -> String {
        switch value {
        case .list(let items) where items.count > 3:
            return "\(items.count) items: " + cut(items.prefix(3).map(ValueFormatter.inline).joined(separator: ", ") + ", …")
        case .entity(let entity): return cut(entity.display.title)
        default: return cut(ValueFormatter.inline(value))
        }
    }

    static func cut(_ text: String) -> String {
        text.count > textLimit ? String(text.prefix(textLimit - 1)) + "…" : text
    }
}
