import AutoIntents

/// `show value`: writes a value for people. Available to every script.
struct ShowIntent: AppIntent {
    static let title = "Show"
    static let description = IntentDescription("Shows a value: a text, a number, a list, an entity.", category: "Interaction")
    static let parameters: [IntentParameter<ShowIntent>] = [.init(\.$value)]
    static let parameterSummary: ParameterSummary? = "Show {value}"

    @Parameter("value", question: "What should be shown?") var value: AnyValue

    func perform(_ context: IntentContext) async throws -> IntentResult<NoValue> {
        await context.show(ValueFormatter.display(value.value))
        return .result()
    }
}

extension Registry {
    /// A registry with the built-in intents every script can use. Hosts start from it and add their own.
    public static var standard: Registry {
        var registry = Registry()
        // The built-ins are fixed and valid; registration only throws for a host's faulty metadata.
        try? registry.register(ShowIntent.self)
        return registry
    }
}
