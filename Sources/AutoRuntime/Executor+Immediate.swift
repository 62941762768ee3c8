import AutoIntents

/// Calls that run without awaiting: an `ImmediateIntent` whose arguments are all written, with no entity to
/// find by text and no confirmation (`ActionCall.runsImmediately`). Their nodes run in the synchronous
/// executor, so a loop of such calls never awaits, as a loop of plain statements doesn't.
extension Executor {
    /// `invoke` without awaiting.
    func invokeNow(_ call: ActionCall, _ arguments: inout [Value?], _ node: Node) throws -> Value {
        let intent = call.intent
        if !Self.isReady(call, arguments) {
            try prepareNow(call, &arguments, node)
        }
        if whatIf, intent.sideEffect != .none {
            showNow(Dialog("What if: \(Self.describe(intent, arguments))"))
            throw WhatIfStop()
        }
        if cancellation.isCancelled { throw RunCancelled() }
        guard case .immediate(let performNow) = intent.implementation else {
            throw RuntimeError("internal error: '\(intent.name)' was run without awaiting it", at: node.location)
        }
        do {
            return try perform(performNow, arguments, of: intent, node)
        } catch {
            throw Self.reported(error, of: intent, node)
        }
    }

    /// `prepare` for a call that runs immediately: no argument is asked for or found by text, so what is left
    /// is filling in defaults and bringing every argument to its parameter's type.
    func prepareNow(_ call: ActionCall, _ arguments: inout [Value?], _ node: Node) throws {
        let intent = call.intent
        for (index, parameter) in intent.parameters.enumerated() {
            if arguments[index] == nil, let defaultValue = parameter.defaultValue { arguments[index] = defaultValue }
            let location = call.argumentLocations[index] ?? node.location
            guard let value = arguments[index] else {
                // `runsImmediately` rules this out; `perform` must never read a required parameter that is unset.
                guard !parameter.isRequired else { throw RuntimeError("'\(intent.name)' needs '\(parameter.name)'", at: location) }
                continue
            }
            arguments[index] = try coerce(value, to: parameter, of: intent, at: location)
        }
    }

    /// `performForEach` without awaiting: a list piped into an immediate call's one-value input.
    func performForEachNow(_ items: [Value], _ call: ActionCall, _ given: [Value?], _ node: Node) throws -> Value {
        if whatIf, call.intent.sideEffect != .none {
            for dialog in Self.whatIfDialogs(items, call, given) { showNow(dialog) }
            throw WhatIfStop()
        }
        var results: [Value] = []
        results.reserveCapacity(items.count)
        for item in items {
            try countStep(node)
            // Each element starts from the arguments as written, as in `performForEach`.
            var each = given
            each[0] = item
            results.append(try invokeNow(call, &each, node))
        }
        return .list(results)
    }

    /// Runs an immediate intent and the immediate intents it opens, showing their dialogs.
    func perform(_ performNow: @Sendable ([Value?], IntentContext) throws -> IntentOutput, _ arguments: [Value?],
                 of intent: IntentDescriptor, _ node: Node) throws -> Value {
        var output: IntentOutput
        do {
            output = try performNow(arguments, context)
        } catch let needed as NeedsValueError {
            // Asking would await: the need is reported as it is when nobody can answer.
            throw Self.unansweredNeed(needed, of: intent, node)
        }
        while let extras = output.extras {
            if let dialog = extras.dialog { showNow(dialog) }
            guard let next = extras.next else { break }
            guard let runNext = next.runNow else {
                throw RuntimeError("\(intent.name): can't open '\(next.title)', which awaits, from an intent that runs immediately", at: node.location)
            }
            output = try runNext(context)
        }
        return output.value
    }

    /// Shows a dialog at once where the interaction can; otherwise it waits for `showPendingDialogs`.
    func showNow(_ dialog: Dialog) {
        dialogs += 1
        if !pendingDialogs.isEmpty || !interaction.showNow(dialog) { pendingDialogs.append(dialog) }
    }

    /// Shows the dialogs `showNow` kept, in order.
    func showPendingDialogs() async {
        while !pendingDialogs.isEmpty {
            let dialog = pendingDialogs.removeFirst()
            await interaction.show(dialog)
        }
    }
}
