import AutoIntents
@testable import AutoRuntime
import AutoTestSupport
import Testing

/// The built-ins are declared as descriptors, without reflection (`BuiltinIntents`). These are the `AppIntent` structs
/// they were declared as before: each hand-written descriptor must be what registering its struct makes, so that a
/// built-in reads, checks, completes and records (its identifier, in schemas and traces) as any native intent does.
@Suite struct BuiltinIntentsTests {
    struct ShowIntent: ImmediateIntent {
        static let title = "Show"
        static let description = IntentDescription("Shows a value: a text, a number, a list, an entity.", category: "Interaction")
        static let parameterSummary: ParameterSummary? = "Show {value}"
        @Parameter(question: "What should be shown?") var value: AnyValue
        func performNow(_ context: IntentContext) throws -> IntentResult<NoValue> { .result() }
    }

    struct AskIntent: AppIntent {
        static let title = "Ask"
        static let description = IntentDescription("Asks for a value: a text, or the type named after 'as'.", category: "Interaction", resultName: "answer")
        static let parameterSummary: ParameterSummary? = "Ask {prompt}"
        @Parameter(question: "What should be asked?") var prompt: String
        @Parameter("as", title: "Type") var type: AnyValue?
        func perform(_ context: IntentContext) async throws -> IntentResult<AnyValue> { .result(value: AnyValue(.null)) }
    }

    struct ChooseIntent: AppIntent {
        static let title = "Choose"
        static let description = IntentDescription("Lets people pick one of a list's values.", category: "Interaction", resultName: "choice")
        static let parameterSummary: ParameterSummary? = "Choose {prompt} from {from}"
        @Parameter(question: "What should be asked?") var prompt: String
        @Parameter(question: "Choose from what?") var from: [AnyValue]
        func perform(_ context: IntentContext) async throws -> IntentResult<AnyValue> { .result(value: AnyValue(.null)) }
    }

    struct ConfirmIntent: AppIntent {
        static let title = "Confirm"
        static let description = IntentDescription("Asks yes or no; 'no' stops the run as cancelled.", category: "Interaction")
        static let parameterSummary: ParameterSummary? = "Confirm {prompt}"
        @Parameter(question: "What should be confirmed?") var prompt: String
        func perform(_ context: IntentContext) async throws -> IntentResult<NoValue> { .result() }
    }

    /// What registration reads of a descriptor, as text to compare.
    static func declaration(of intent: IntentDescriptor) -> [String] {
        let kind = switch intent.implementation {
        case .immediate: "immediate"
        case .native: "awaits"
        case .shortcut: "shortcut"
        }
        let description = intent.description
        var lines = [
            "name \(intent.name), words \(intent.words), title \(intent.title), identifier \(intent.identifier), \(kind)",
            "description \(description.text) | \(description.category ?? "-") | \(description.searchKeywords) | \(description.resultName ?? "-")",
            "summary \(intent.summary), side effect \(intent.sideEffect), capabilities \(intent.capabilities.map { "\($0)" }.sorted())",
            "discoverable \(intent.isDiscoverable), former \(intent.formerNames), deprecated \(intent.deprecation != nil)",
            "output \(intent.outputType), rule \(intent.resultRule), origin \(intent.origin ?? "-")",
        ]
        for parameter in intent.parameters {
            lines.append("parameter \(parameter.name) | \(parameter.title) | \(parameter.type) | required \(parameter.isRequired) | "
                         + "default \(parameter.defaultValue.map { "\($0)" } ?? "-") | \(parameter.question ?? "-") | \(parameter.formerNames) | "
                         + "\(parameter.identifier) | range \(parameter.range != nil) | options \(parameter.options != nil) | "
                         + "as is \(parameter.takesAsIs.map { "\($0)" } ?? "-")")
        }
        return lines
    }

    @Test func eachBuiltinIsWhatItsStructDeclared() throws {
        let declared = [
            try IntentDescriptor(ShowIntent.self),
            try IntentDescriptor(AskIntent.self, resultRule: .typeNamedBy(parameter: 1)),
            try IntentDescriptor(ChooseIntent.self, resultRule: .elementOf(parameter: 1)),
            try IntentDescriptor(ConfirmIntent.self),
        ]
        let builtins = Registry.standard.intents
        #expect(builtins.map(\.name) == ["show", "ask", "choose", "confirm"])
        for (builtin, reference) in zip(builtins, declared) {
            #expect(Self.declaration(of: builtin) == Self.declaration(of: reference))
        }
    }

    @Test func argumentsOfAnotherKindAreErrorsNotTraps() async throws {
        guard case .immediate(let show) = BuiltinIntents.show.implementation else {
            Issue.record("show is not immediate")
            return
        }
        let context = IntentContext(interaction: ScriptedInteraction(), cancellation: CancellationFlag())
        #expect(throws: IntentError.self) { try show([], context) }
        #expect(throws: IntentError.self) { try show([nil], context) }
        #expect(try show([.int(3)], context).dialog?.full == "3")
        guard case .native(let ask) = BuiltinIntents.ask.implementation else {
            Issue.record("ask is not an awaiting intent")
            return
        }
        await #expect(throws: IntentError.self) { try await ask([], context) }
        // `as` left out, even from the array: the answer is read as Text.
        let answered = IntentContext(interaction: ScriptedInteraction(answers: ["42"]), cancellation: CancellationFlag())
        guard case .text(let answer) = try await ask([.text("How many?")], answered).value else {
            Issue.record("ask without 'as' gave no text")
            return
        }
        #expect(answer == "42")
    }
}
