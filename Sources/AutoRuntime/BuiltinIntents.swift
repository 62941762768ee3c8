import AutoIntents

/// `show value`: writes a value for people. Available to every script.
struct ShowIntent: ImmediateIntent {
    static let title = "Show"
    static let description = IntentDescription("Shows a value: a text, a number, a list, an entity.", category: "Interaction")
    static let parameterSummary: ParameterSummary? = "Show {value}"

    @Parameter(question: "What should be shown?") var value: AnyValue

    /// Immediate, so that `show` in a loop doesn't make the loop await.
    func performNow(_ context: IntentContext) throws -> IntentResult<NoValue> {
        let text = ValueFormatter.display(value.value)
        // Formatting a big list stops early when the run should stop; a text cut short is never shown.
        guard case .list = value.value else { return .result(dialog: Dialog(text)) }
        try Interruption.check()
        var dialog = Dialog(text)
        dialog.value = value.value
        return .result(dialog: dialog)
    }
}

/// `ask "How many?" as Int -> n`: asks for a value of a type (Text unless `as` says otherwise).
struct AskIntent: AppIntent {
    static let title = "Ask"
    static let description = IntentDescription("Asks for a value: a text, or the type named after 'as'.", category: "Interaction", resultName: "answer")
    static let parameterSummary: ParameterSummary? = "Ask {prompt}"

    @Parameter(question: "What should be asked?") var prompt: String
    /// Filled by the checker from `as Type`: a type's name, or a case of the enum type asked for.
    @Parameter("as", title: "Type") var type: AnyValue?

    func perform(_ context: IntentContext) async throws -> IntentResult<AnyValue> {
        let asked = Self.type(of: type?.value)
        let value = try await context.interaction.requestValue(ValueRequest(prompt: prompt, type: asked, intent: "ask"))
        return .result(value: AnyValue(value))
    }

    /// The type `as` named, as the checker encoded it.
    static func type(of encoded: Value?) -> ValueType {
        switch encoded {
        case .enumCase(let sample)?: return .enumeration(sample.type)
        case .text(let name)?: return ValueType.builtin(named: name) ?? .text
        default: return .text
        }
    }
}

/// `choose "Open which?" from books -> b`: lets people pick one value of a list.
struct ChooseIntent: AppIntent {
    static let title = "Choose"
    static let description = IntentDescription("Lets people pick one of a list's values.", category: "Interaction", resultName: "choice")
    static let parameterSummary: ParameterSummary? = "Choose {prompt} from {from}"

    @Parameter(question: "What should be asked?") var prompt: String
    @Parameter(question: "Choose from what?") var from: [AnyValue]

    func perform(_ context: IntentContext) async throws -> IntentResult<AnyValue> {
        let options = from.map(\.value)
        guard !options.isEmpty else { throw IntentError("there is nothing to choose from for '\(prompt)'") }
        if options.count == 1 { return .result(value: AnyValue(options[0])) }
        let request = ChoiceRequest(prompt: prompt, options: options.map(Self.choice), intent: "choose", parameter: "from")
        let index = try await context.interaction.choose(request)
        guard options.indices.contains(index) else { throw IntentError("there is no option \(index + 1)") }
        return .result(value: AnyValue(options[index]))
    }

    static func choice(_ value: Value) -> Choice {
        switch value {
        case .entity, .enumCase, .text: return IntentContext.choice(for: value)
        default: return Choice(title: ValueFormatter.inline(value))
        }
    }
}

/// `confirm "Delete 3 files?"`: goes on when people agree; stops the run as cancelled when they don't.
struct ConfirmIntent: AppIntent {
    static let title = "Confirm"
    static let description = IntentDescription("Asks yes or no; 'no' stops the run as cancelled.", category: "Interaction")
    static let parameterSummary: ParameterSummary? = "Confirm {prompt}"

    @Parameter(question: "What should be confirmed?") var prompt: String

    func perform(_ context: IntentContext) async throws -> IntentResult<NoValue> {
        try await context.requestConfirmation(prompt)
        return .result()
    }
}

extension Registry {
    /// A registry with the built-in intents every script can use. Hosts start from it and add their own.
    package static var standard: Registry {
        var registry = Registry()
        // The built-ins are fixed and valid; registration only throws for a host's faulty metadata.
        try? registry.register(ShowIntent.self)
        try? registry.add(IntentDescriptor(AskIntent.self, resultRule: .typeNamedBy(parameter: 1)))
        try? registry.add(IntentDescriptor(ChooseIntent.self, resultRule: .elementOf(parameter: 1)))
        try? registry.register(ConfirmIntent.self)
        return registry
    }
}
