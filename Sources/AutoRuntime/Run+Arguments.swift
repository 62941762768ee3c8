import AutoIntents

/// Arguments, before an intent runs: what is missing is asked for, entities named by text are found, defaults
/// are filled in and every value is brought to its parameter's type. An awaiting call asks first
/// (`askForMissing`); every call then fills in and converts the same way (`prepareNow`, from `Run.admit`).
extension Run {
    /// Whether every argument is already what its parameter takes: given (or optional with no default), of
    /// exactly its scalar type, with no range to check and no text to look up. Then nothing needs preparing,
    /// the common case of a call in a loop.
    static func isReady(_ call: ActionCall, _ arguments: [Value?]) -> Bool {
        let intent = call.intent
        for index in intent.parameters.indices {
            let parameter = intent.parameters[index]
            guard let value = arguments[index] else {
                if parameter.isRequired || parameter.defaultValue != nil { return false }
                continue
            }
            guard call.textLookups[index] == nil, Coercion.isReady(value, for: parameter) else { return false }
        }
        return true
    }

    /// Asks for what is missing and finds the entities named by text.
    nonisolated(nonsending) func askForMissing(_ call: ActionCall, _ arguments: inout [Value?], _ node: Node) async throws {
        let intent = call.intent
        for (index, parameter) in intent.parameters.enumerated() {
            if arguments[index] == nil, parameter.isRequired, parameter.defaultValue == nil {
                arguments[index] = try await answer(for: index, of: call, given: arguments, reason: nil, node)
            } else if case .text(let text)? = arguments[index], let query = call.textLookups[index] {
                arguments[index] = try await entity(named: text, in: query, for: parameter, of: intent,
                                                    at: call.argumentLocations[index] ?? node.location)
            }
        }
    }

    /// Fills in defaults and brings every argument to its parameter's type: all that a call which runs
    /// immediately needs, and what an awaiting one needs after `askForMissing`.
    func prepareNow(_ call: ActionCall, _ arguments: inout [Value?], _ node: Node) throws {
        let intent = call.intent
        for (index, parameter) in intent.parameters.enumerated() {
            if arguments[index] == nil, let defaultValue = parameter.defaultValue { arguments[index] = defaultValue }
            let location = call.argumentLocations[index] ?? node.location
            guard let value = arguments[index] else {
                // `askForMissing` asked for it, and `runsImmediately` rules it out: `perform` never reads a required
                // parameter that is unset.
                guard !parameter.isRequired else { throw RuntimeError("'\(intent.name)' needs '\(parameter.name)'", at: location) }
                continue
            }
            do {
                arguments[index] = try Coercion.argument(value, for: parameter, of: intent)
            } catch {
                throw located(error, at: location)
            }
        }
    }

    /// Asks for a parameter's value (an entity by name, found with its type's text search) and converts the answer.
    /// A parameter with options from its host is a choice among them. `given` are the call's arguments so far, for the
    /// options; `reason` is why the intent asks again, said where nobody can answer.
    nonisolated(nonsending) func answer(for index: Int, of call: ActionCall, given: [Value?], reason: String?, _ node: Node) async throws -> Value {
        let intent = call.intent, parameter = intent.parameters[index]
        let question = parameter.question ?? "\(parameter.title) for '\(intent.name)'?"
        let value: Value
        do {
            if let options = try await options(for: parameter, of: intent, given: given, node), !options.isEmpty {
                let request = ChoiceRequest(prompt: reason.map { "\($0)\n\(question)" } ?? question, options: options.map(IntentContext.choice(for:)),
                                            intent: intent.name, parameter: parameter.name)
                let chosen = try await interaction.choose(request)
                guard options.indices.contains(chosen) else {
                    throw RuntimeError("no option \(chosen + 1) for '\(parameter.name)' of '\(intent.name)'", at: node.location)
                }
                value = options[chosen]
            } else {
                value = try await interaction.requestValue(ValueRequest(prompt: question, type: parameter.type, intent: intent.name,
                                                                        parameter: parameter.name, reason: reason))
            }
        } catch let error as NoAnswerError {
            // The intent's reason, where it gave one, says what was wrong with the value it had.
            let need = "'\(intent.name)' needs '\(parameter.name)' (\(parameter.type))" + (reason.map { ": \($0);" } ?? " and")
            throw RuntimeError("\(need) nobody can answer '\(question)' (\(error.reason)); give it as '\(parameter.name): …'",
                               at: node.location, kind: .unanswered(intent: intent.name, parameter: parameter.name, question: question))
        }
        if case .text(let text) = value, let query = call.textLookups[index] {
            return try await entity(named: text, in: query, for: parameter, of: intent, at: node.location)
        }
        do {
            return try Coercion.argument(value, for: parameter, of: intent)
        } catch {
            throw located(error, at: node.location)
        }
    }

    /// The values the host suggests for a parameter, asked with the arguments given so far; nil when it suggests none.
    nonisolated(nonsending) func options(for parameter: ParameterInfo, of intent: IntentDescriptor, given: [Value?],
                                         _ node: Node) async throws -> [Value]? {
        guard let options = parameter.options else { return nil }
        var arguments: [String: Value] = [:]
        for (index, value) in given.enumerated() {
            if let value { arguments[intent.parameters[index].name] = value }
        }
        do {
            return try await options.options(for: OptionsRequest(arguments: arguments))
        } catch {
            throw reported(error, doing: "finding the options for '\(parameter.name)' of '\(intent.name)'", at: node.location)
        }
    }

    /// The entity a text names, found with the type's text search: one match is taken, an exact title among
    /// several is taken, otherwise people choose, or the error lists what matched.
    nonisolated(nonsending) func entity(named text: String, in query: QueryDescriptor, for parameter: ParameterInfo,
                                        of intent: IntentDescriptor, at location: SourceLocation) async throws -> Value {
        let type = query.entityType
        let found: [Value]
        do {
            found = try await query.run(FindRequest.asReturned(.matching(text)))
        } catch {
            throw reported(error, doing: "finding the \(type.singular) '\(text)'", at: location)
        }
        if found.count == 1 { return found[0] }
        let exact = found.filter { if case .entity(let e) = $0 { e.display.title.lowercased() == text.lowercased() } else { false } }
        if exact.count == 1 { return exact[0] }
        if found.isEmpty { throw RuntimeError("no \(type.singular) matches '\(text)' for '\(parameter.name)' of '\(intent.name)'", at: location) }
        let request = ChoiceRequest(prompt: "Which \(type.singular) for '\(intent.name)'? Several match '\(text)':",
                                    options: found.map(IntentContext.choice(for:)), intent: intent.name, parameter: parameter.name)
        do {
            let index = try await interaction.choose(request)
            if found.indices.contains(index) { return found[index] }
        } catch is NoAnswerError {
            // Nobody can choose: the error below lists what matched.
        }
        let names = found.prefix(5).map(ValueFormatter.inline).joined(separator: ", ")
        throw RuntimeError("several \(type.plural) match '\(text)': \(names)\(found.count > 5 ? ", …" : ""); write more of the title", at: location)
    }

    /// A destructive intent is confirmed before it runs; declining cancels the run.
    nonisolated(nonsending) func confirmDestructive(_ intent: IntentDescriptor, _ arguments: [Value?], _ node: Node) async throws {
        let request = ConfirmationRequest(prompt: "\(describe(intent, arguments))? This can't be undone.",
                                          actionName: intent.title, isDestructive: true, intent: intent.name)
        let approved: Bool
        do {
            approved = try await interaction.confirm(request)
        } catch let error as NoAnswerError {
            throw RuntimeError("'\(intent.name)' needs a confirmation and \(error)", at: node.location, kind: .unconfirmed(intent: intent.name, question: request.prompt))
        }
        if !approved { throw RunCancelled("'\(intent.name)' was not confirmed") }
    }

    // MARK: What if

    /// What a changing intent would do, said instead of done (`--what-if`).
    func whatIfDialog(_ intent: IntentDescriptor, _ arguments: [Value?]) -> Dialog {
        Dialog("What if: \(describe(intent, arguments))")
    }

    /// Every action a list piped into a changing intent would run, with the defaults a single call would show.
    func whatIfDialogs(_ items: [Value], _ call: ActionCall, _ given: [Value?]) -> [Dialog] {
        var arguments = given
        for (index, parameter) in call.intent.parameters.enumerated() where arguments[index] == nil {
            arguments[index] = parameter.defaultValue
        }
        return items.map { item in
            arguments[0] = item
            return whatIfDialog(call.intent, arguments)
        }
    }

    /// The intent's summary with the values it is about to run with: `Delete 'Emma'`.
    func describe(_ intent: IntentDescriptor, _ arguments: [Value?]) -> String {
        // The sentence the values choose, when the summary follows them: "Add Emma by Jane Austen to Want to Read".
        let sentence = intent.summary.sentence { name in
            guard let index = intent.parameterIndex(named: name) else { return .null }
            return arguments[index] ?? intent.parameters[index].defaultValue ?? .null
        }
        return sentence.filled { name in
            guard let index = intent.parameterIndex(named: name), let value = arguments[index] else { return nil }
            if case .entity(let entity) = value { return "'\(entity.display.title)'" }
            return ValueFormatter.inline(value)
        }
    }
}
