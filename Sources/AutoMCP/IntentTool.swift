import AutoIntents

/// A discoverable intent as an MCP tool: `delete book` is `delete_book`, its parameters the input's properties.
struct IntentTool {
    let intent: IntentDescriptor
    let name: String
    /// What a call may touch outside the engine: for a shortcut, what the intents its body calls need.
    let capabilities: Set<Capability>

    init(_ intent: IntentDescriptor, capabilities: Set<Capability>) {
        self.intent = intent
        self.name = Self.toolName(intent.name)
        self.capabilities = capabilities
    }

    /// Tool names are letters, digits, `_` and `-`: a space (or anything else) becomes `_`.
    static func toolName(_ text: String) -> String {
        String(text.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") ? $0 : "_" })
    }

    /// The tool as `tools/list` gives it, with the options of each parameter that has a provider, asked for now.
    func tool(addresses: ResourceAddresses) async -> Tool {
        var description = intent.description.text.isEmpty ? intent.title : intent.description.text
        if intent.sideEffect == .destructive { description += " Destructive: the person is asked to confirm first." }
        var options: [Int: [JSON]] = [:]
        for (index, parameter) in intent.parameters.enumerated() {
            if let provider = parameter.options, let values = await Self.options(provider) { options[index] = values.map(JSONValues.json) }
        }
        let input = ToolSchemas.input(of: intent, addresses: addresses, options: options)
        return Tool(name: name, title: intent.title, description: description, inputSchema: input,
                    annotations: Tool.Annotations(title: intent.title, readOnlyHint: intent.sideEffect == .none,
                                       destructiveHint: intent.sideEffect == .destructive, openWorldHint: capabilities.contains(.net)))
    }

    /// How long a provider may take to give its options for a list of tools; a slower one, or one that fails, gives
    /// none, and its parameter is listed without them (its values are suggestions, never a limit).
    static let optionsBudget = Duration.seconds(2)

    /// The options a provider gives for a call with no argument yet, or nil when it fails or is slower than the budget.
    static func options(_ provider: ParameterOptions) async -> [AutoIntents.Value]? {
        await withTaskGroup(of: [AutoIntents.Value]?.self) { group in
            group.addTask { try? await provider.options(for: OptionsRequest()) }
            group.addTask {
                try? await Task.sleep(for: optionsBudget)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    /// The call as a line of the language: the intent's first parameter is the input, the others are labelled. An entity
    /// given by identifier is looked up here, so that `42` is book 42 and not a book whose title contains "42"; any
    /// other text is left to the engine's text search, as `open book "Emma"` is. The call is in parentheses, an
    /// expression, so that a name starting with a statement's keyword is still the call: `repeat text mcpArgument0`
    /// alone is a `repeat … times` statement. A parameter that names a type (`ask`'s `as`) is that name in the code,
    /// once it is known to be a name and nothing else.
    func script(_ arguments: [String: JSON], registry: Registry) async throws -> ToolScript {
        for key in arguments.keys where intent.parameterIndex(named: key) == nil {
            let names = intent.parameters.map(\.name)
            throw ArgumentError("'\(intent.name)' has no parameter '\(key)'; " + (names.isEmpty ? "it takes none" : "its parameters: \(names.joined(separator: ", "))"))
        }
        var script = ToolScript()
        script.write("(" + intent.name)
        for (index, parameter) in intent.parameters.enumerated() {
            guard let json = arguments.first(where: { $0.key.lowercased() == parameter.name.lowercased() })?.value else { continue }
            script.write(index == 0 ? " " : " \(parameter.name): ")
            if case .typeNamedBy(index) = intent.resultRule {
                guard case .string(let name) = json, let first = name.first, first.isLetter,
                      name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
                    throw ArgumentError("'\(parameter.name)' of '\(intent.name)' is the name of a type, such as \"Int\" or \"Date\"")
                }
                script.write(name)
                continue
            }
            let value: AutoIntents.Value
            do {
                value = try JSONValues.value(json, as: parameter.type)
            } catch {
                throw ArgumentError("'\(parameter.name)' of '\(intent.name)': \(error.message)")
            }
            if case .entity(let type) = parameter.type, case .text(let text) = value,
               let query = registry.query(for: type), let entity = try await query.entities(withIdentifiers: [text]).first {
                script.write(entity, as: parameter.type)
            } else {
                script.write(value, as: value.type == .text ? .text : parameter.type)
            }
        }
        script.write(")")
        return script
    }
}
