import AutoIntents

/// The intents every script can use: `show`, `ask`, `choose` and `confirm`.
///
/// Declared as descriptors, with their parameters listed and their arguments read by index, not as `AppIntent`
/// structs: a native intent's descriptor is read from its type, with Swift's reflection and a generic class per
/// `@Parameter` type, and the first such read in a process pays for the runtime's reflection and for the check of the
/// toolchain's layout (`StoredProperties.toolchainProblem`), an eighth of `auto -e 'show 1'`. Registering the built-ins
/// then costs a start nothing it doesn't use. Each keeps the identifier its struct gave it (`ShowIntent`), which
/// schemas and run traces record; `BuiltinIntentsTests` holds every descriptor equal to the one the struct declared.
package enum BuiltinIntents {
    /// `show value`: writes a value for people. Immediate, so that `show` in a loop doesn't make the loop await.
    static var show: IntentDescriptor {
        IntentDescriptor(
            title: "Show", description: IntentDescription("Shows a value: a text, a number, a list, an entity.", category: "Interaction"),
            parameters: [ParameterInfo(name: "value", title: "Value", type: .any, isRequired: true, question: "What should be shown?")],
            summary: "Show {value}", outputType: .null, identifier: "ShowIntent",
            implementation: .immediate { arguments, _ in
                let value = try argument(arguments, 0, of: "show")
                let text = ValueFormatter.display(value)
                // Formatting a big list stops early when the run should stop; a text cut short is never shown.
                guard case .list = value else { return IntentOutput(value: .null, dialog: Dialog(text)) }
                try Interruption.check()
                var dialog = Dialog(text)
                dialog.value = value
                return IntentOutput(value: .null, dialog: dialog)
            })
    }

    /// `ask "How many?" as Int -> n`: asks for a value of a type (Text unless `as` says otherwise).
    static var ask: IntentDescriptor {
        IntentDescriptor(
            title: "Ask",
            description: IntentDescription("Asks for a value: a text, or the type named after 'as'.", category: "Interaction", resultName: "answer"),
            parameters: [ParameterInfo(name: "prompt", title: "Prompt", type: .text, isRequired: true, question: "What should be asked?"),
                         // Filled by the checker from `as Type`: a type's name, or a case of the enum type asked for.
                         ParameterInfo(name: "as", title: "Type", type: .any, isRequired: false, identifier: "type")],
            summary: "Ask {prompt}", outputType: .any, resultRule: .typeNamedBy(parameter: 1), identifier: "AskIntent",
            implementation: .native { arguments, context in
                let prompt = try text(arguments, 0, of: "ask")
                // Optional: not given is Text, and a call made with fewer arguments is no trap.
                let asked = askedType(arguments.count > 1 ? arguments[1] : nil)
                let value = try await context.interaction.requestValue(ValueRequest(prompt: prompt, type: asked, intent: "ask"))
                return IntentOutput(value: value)
            })
    }

    /// `choose "Open which?" from books -> b`: lets people pick one value of a list.
    static var choose: IntentDescriptor {
        IntentDescriptor(
            title: "Choose", description: IntentDescription("Lets people pick one of a list's values.", category: "Interaction", resultName: "choice"),
            parameters: [ParameterInfo(name: "prompt", title: "Prompt", type: .text, isRequired: true, question: "What should be asked?"),
                         ParameterInfo(name: "from", title: "From", type: .list(.any), isRequired: true, question: "Choose from what?")],
            summary: "Choose {prompt} from {from}", outputType: .any, resultRule: .elementOf(parameter: 1), identifier: "ChooseIntent",
            implementation: .native { arguments, context in
                let prompt = try text(arguments, 0, of: "choose")
                guard case .list(let options) = try argument(arguments, 1, of: "choose") else {
                    throw IntentError("'choose' needs a list to choose from")
                }
                guard !options.isEmpty else { throw IntentError("there is nothing to choose from for '\(prompt)'") }
                if options.count == 1 { return IntentOutput(value: options[0]) }
                let request = ChoiceRequest(prompt: prompt, options: options.map(choice), intent: "choose", parameter: "from")
                let index = try await context.interaction.choose(request)
                guard options.indices.contains(index) else { throw IntentError("there is no option \(index + 1)") }
                return IntentOutput(value: options[index])
            })
    }

    /// `confirm "Delete 3 files?"`: goes on when people agree; stops the run as cancelled when they don't.
    static var confirm: IntentDescriptor {
        IntentDescriptor(
            title: "Confirm", description: IntentDescription("Asks yes or no; 'no' stops the run as cancelled.", category: "Interaction"),
            parameters: [ParameterInfo(name: "prompt", title: "Prompt", type: .text, isRequired: true, question: "What should be confirmed?")],
            summary: "Confirm {prompt}", outputType: .null, identifier: "ConfirmIntent",
            implementation: .native { arguments, context in
                try await context.requestConfirmation(try text(arguments, 0, of: "confirm"))
                return IntentOutput(value: .null)
            })
    }

    /// The type `as` named, as the checker encoded it.
    static func askedType(_ encoded: Value?) -> ValueType {
        switch encoded {
        case .enumCase(let sample)?: return .enumeration(sample.type)
        case .text(let name)?: return ValueType.builtin(named: name) ?? .text
        default: return .text
        }
    }

    /// How `choose` offers a value.
    static func choice(_ value: Value) -> Choice {
        switch value {
        case .entity, .enumCase, .text: return IntentContext.choice(for: value)
        default: return Choice(title: ValueFormatter.inline(value))
        }
    }

    /// A required argument. The run has asked for every missing one and converted each to its parameter's type
    /// before the intent runs (`Run.prepareNow`), so the errors here are for a call made some other way.
    static func argument(_ arguments: [Value?], _ index: Int, of intent: String) throws -> Value {
        guard arguments.indices.contains(index), let value = arguments[index] else {
            throw IntentError("'\(intent)' was called without its argument \(index + 1)")
        }
        return value
    }

    /// A required argument of type Text.
    static func text(_ arguments: [Value?], _ index: Int, of intent: String) throws -> String {
        guard case .text(let text) = try argument(arguments, index, of: intent) else {
            throw IntentError("'\(intent)' expects Text as its argument \(index + 1)")
        }
        return text
    }
}

extension Registry {
    /// A registry with the built-in intents every script can use. Hosts start from it and add their own.
    package static var standard: Registry {
        var registry = Registry()
        // The built-ins are fixed and valid (`BuiltinIntentsTests`); registration only throws for a host's faulty metadata.
        for intent in [BuiltinIntents.show, BuiltinIntents.ask, BuiltinIntents.choose, BuiltinIntents.confirm] {
            try? registry.add(intent)
        }
        return registry
    }
}
