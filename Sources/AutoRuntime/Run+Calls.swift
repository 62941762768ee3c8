import AutoIntents

/// Calls of intents: an awaiting call (`invoke`) and an immediate one (`invokeNow`), a list piped into a
/// one-value input, what an intent's result opens next, and the errors of an intent as the script's errors.
extension Run {
    /// The arguments of `call` by parameter index (nil where none is written), into `arguments`, whose storage is
    /// reused from call to call; whether each is already what its parameter takes.
    func evaluateArguments(_ call: ActionCall, _ frame: Frame, _ node: Node, into arguments: inout [Value?]) throws -> Bool {
        let count = call.arguments.count
        if arguments.count != count {
            arguments.removeAll(keepingCapacity: true)
            arguments.append(contentsOf: repeatElement(nil, count: count))
        }
        return try arguments.withUnsafeMutableBufferPointer { buffer in try call.evaluateArguments(self, frame, node, buffer) }
    }

    /// A call node that runs immediately: its arguments, the call, and its result stored. The frame's argument buffer
    /// is taken for the call and given back after it, so that a call in a loop allocates no array. A list piped into
    /// it is left, evaluated, for the awaiting path (`Frame.evaluatedArguments`), which alone runs a call once per element;
    /// then it returns false.
    func runNow(_ call: ActionCall, _ frame: Frame, _ node: Node) throws -> Bool {
        var arguments = frame.takeArguments()
        let ready = try evaluateArguments(call, frame, node, into: &arguments)
        guard let value = try invokeNow(call, taking: arguments, ready: ready, frame, node) else { return false }
        store(value, in: call.resultSlots, of: node, frame)
        return true
    }

    /// `invokeNow` with the frame's argument buffer, which it gives back; nil, with the arguments left in the frame for
    /// the awaiting path, when a list is piped into the call.
    @inline(__always)
    func invokeNow(_ call: ActionCall, taking arguments: consuming [Value?], ready: Bool, _ frame: Frame, _ node: Node) throws -> Value? {
        if pipedList(call, arguments) != nil {
            frame.evaluatedArguments = consume arguments
            return nil
        }
        var arguments = arguments
        let value = try invokeNow(call, &arguments, node, ready: ready)
        frame.giveBack(consume arguments)
        return value
    }

    /// A list piped into a call whose input takes one value: the call then runs once per element.
    @inline(__always)
    func pipedList(_ call: ActionCall, _ arguments: [Value?]) -> [Value]? {
        guard call.inputTakesOneValue, case .list(let items)? = arguments.first else { return nil }
        return items
    }

    // MARK: Traced

    /// A call, a list piped into one included, recorded in the run's trace; apart from the untraced path so that
    /// a run without a trace runs exactly as before.
    @inline(never)
    nonisolated(nonsending) func invokeTraced(_ call: ActionCall, _ arguments: inout [Value?], _ node: Node, _ trace: RunTrace) async throws -> Value {
        let startedAt = ContinuousClock.now
        do {
            let value = if let items = pipedList(call, arguments) {
                try await performForEach(items, call, arguments, node)
            } else {
                try await invoke(call, &arguments, node)
            }
            trace.record(call.intent, arguments, result: .success(value), startedAt: startedAt, location: node.location)
            return value
        } catch {
            trace.record(call.intent, arguments, result: .failure(error), startedAt: startedAt, location: node.location)
            throw error
        }
    }

    // MARK: Awaiting

    /// Runs one call. `arguments` is the caller's buffer: it comes back with the values `perform` was given. `ready`
    /// as for `invokeNow`.
    nonisolated(nonsending) func invoke(_ call: ActionCall, _ arguments: inout [Value?], _ node: Node, ready: Bool? = nil) async throws -> Value {
        let intent = call.intent
        let ready = ready ?? Self.isReady(call, arguments)
        if !ready { try await askForMissing(call, &arguments, node) }
        try admit(call, &arguments, node, ready: ready)
        if intent.sideEffect == .destructive { try await confirmDestructive(intent, arguments, node) }
        // Only Ctrl-C here, on the path of every call: the time limit is looked at between steps, and it cancels
        // an intent that is running.
        if cancellation.isCancelled { throw RunCancelled() }
        do {
            switch call.implementation {
            case .native(let perform):
                return try await performNative(perform, call, &arguments, node)
            case .immediate(let performNow):
                // Here because something before it awaited (a question, a confirmation); it runs as it would in
                // a loop, so it behaves the same wherever it is called.
                let value = try perform(performNow, arguments, of: intent, node)
                await showPendingDialogs()
                return value
            case .shortcut(let index):
                return try await callShortcut(index, of: intent, arguments, node)
            }
        } catch {
            throw reported(error, doing: intent.name, at: node.location)
        }
    }

    /// `perform`, asked again with an answer when it says it needs a value; then the intents it opens. Every
    /// progress task it started and left open is finished when it ends, however it ends. The common call (one
    /// `perform` that shows nothing and opens nothing) awaits nothing but `perform`.
    @inline(__always)
    nonisolated(nonsending) func performNative(_ perform: NativePerform,
                                               _ call: ActionCall, _ arguments: inout [Value?], _ node: Node) async throws -> Value {
        let progressMark = context.progressMark()
        let output: IntentOutput
        do {
            output = try await perform(arguments, context)
        } catch let needed as NeedsValueError {
            return try await performAsking(perform, needed, call, &arguments, node, progressMark)
        } catch {
            await finishProgress(after: progressMark, failed: true)
            throw error
        }
        return try await completed(output, of: call, node, progressMark)
    }

    /// `perform`'s value, through `finish` only when something is left to do: a dialog, an opened intent, progress
    /// left open. The common call awaits nothing more.
    @inline(__always)
    nonisolated(nonsending) func completed(_ output: IntentOutput, of call: ActionCall, _ node: Node, _ progressMark: Int) async throws -> Value {
        guard isSettled(output, progressMark) else { return try await finish(output, of: call, node, progressMark) }
        return output.value
    }

    /// Whether nothing is left to do after `perform` (`completed`): no dialog, no opened intent, no progress started;
    /// otherwise `finish` has work.
    @inline(__always)
    func isSettled(_ output: IntentOutput, _ progressMark: Int) -> Bool {
        context.progressMark() == progressMark && output.extras == nil
    }

    /// A `perform` that said it needs a value: the parameter asked for and `perform` run again from the start, three
    /// times at most for each parameter.
    @inline(never)
    nonisolated(nonsending) func performAsking(_ perform: NativePerform,
                                               _ firstNeed: NeedsValueError, _ call: ActionCall, _ arguments: inout [Value?],
                                               _ node: Node, _ progressMark: Int) async throws -> Value {
        let intent = call.intent
        var needed = firstNeed
        var asked: [Int: Int] = [:]
        do {
            while true {
                guard let index = intent.parameterIndex(named: needed.parameter), asked[index, default: 0] < 3 else {
                    throw unansweredNeed(needed, of: intent, node)
                }
                asked[index, default: 0] += 1
                arguments[index] = try await answer(for: index, of: call, given: arguments, reason: needed.reason, node)
                let output: IntentOutput
                do {
                    output = try await perform(arguments, context)
                } catch let again as NeedsValueError {
                    needed = again
                    continue
                }
                // Outside the retry: a need of an intent this one opens is not this one's (`finish` reports it).
                return try await finish(output, of: call, node, progressMark)
            }
        } catch {
            await finishProgress(after: progressMark, failed: true)
            throw error
        }
    }

    /// After `perform`: its open progress tasks finished, its dialog shown and the intents it opens run, their
    /// results shown; the value.
    @inline(never)
    nonisolated(nonsending) func finish(_ output: IntentOutput, of call: ActionCall, _ node: Node, _ progressMark: Int) async throws -> Value {
        do {
            await finishProgress(after: progressMark, failed: false)
            if let dialog = output.dialog {
                try checkCancellation(at: node.location)
                await showDialog(dialog)
            }
            var next = output.next
            while let opened = next {
                // The opened intent's result is shown, not substituted: the action keeps its declared type.
                let shown = try await opened.run(context)
                await finishProgress(after: progressMark, failed: false)
                if let dialog = Self.shownDialog(of: shown) {
                    try checkCancellation(at: node.location)
                    await showDialog(dialog)
                }
                next = shown.next
            }
            return output.value
        } catch {
            await finishProgress(after: progressMark, failed: true)
            throw error
        }
    }

    /// Ends the progress tasks an intent left open; nothing to do, and no await, when it started none (every call
    /// of most intents).
    @inline(__always)
    nonisolated(nonsending) func finishProgress(after mark: Int, failed: Bool) async {
        if context.progressMark() != mark { await context.finishProgress(after: mark, failed: failed) }
    }

    nonisolated(nonsending) func callShortcut(_ index: Int, of intent: IntentDescriptor, _ arguments: [Value?], _ node: Node) async throws -> Value {
        guard program.shortcuts.indices.contains(index) else {
            throw RuntimeError("internal error: the shortcut '\(intent.name)' is not part of this program", at: node.location)
        }
        callDepth += 1
        defer { callDepth -= 1 }
        if callDepth > limits.maxCallDepth {
            throw RuntimeError("shortcuts call each other more than \(limits.maxCallDepth) deep; is there a recursion without an end?",
                               at: node.location, kind: .callDepth(limits.maxCallDepth))
        }
        return try await self.call(program.shortcuts[index], arguments: arguments.map { $0 ?? .null })
    }

    /// A list piped into a call whose input takes one value: one call per element, each awaited if its intent awaits.
    nonisolated(nonsending) func performForEach(_ items: [Value], _ call: ActionCall, _ given: [Value?], _ node: Node) async throws -> Value {
        if whatIf, call.intent.sideEffect != .none {
            for dialog in whatIfDialogs(items, call, given) { showNow(dialog) }
            throw WhatIfStop()
        }
        var results: [Value] = []
        results.reserveCapacity(items.count)
        for item in items {
            try countStep(node)
            // Each element starts from the arguments as written: what `invoke` filled in is not carried over.
            var each = given
            each[0] = item
            results.append(try await invoke(call, &each, node))
        }
        return .list(results)
    }

    // MARK: Immediate

    /// `invoke` for calls that `ActionCall.runsImmediately` allows: nothing to ask, nothing to confirm, nothing to
    /// await. `ready`: whether the arguments are known to need no preparing (`ActionCall.evaluateArguments` says so).
    func invokeNow(_ call: ActionCall, _ arguments: inout [Value?], _ node: Node, ready: Bool) throws -> Value {
        let intent = call.intent
        try admit(call, &arguments, node, ready: ready)
        if cancellation.isCancelled { throw RunCancelled() }
        guard let performNow = call.performNow else {
            throw RuntimeError("internal error: '\(intent.name)' was run without awaiting it", at: node.location)
        }
        do {
            return try perform(performNow, arguments, of: intent, node)
        } catch {
            throw reported(error, doing: intent.name, at: node.location)
        }
    }

    /// What every call does before its intent runs, awaiting or not, once anything missing has been asked for:
    /// defaults filled in and every argument brought to its parameter's type (unless `ready`), and with `--what-if`,
    /// the stop before an intent that changes anything, saying what it would do.
    @inline(__always)
    func admit(_ call: ActionCall, _ arguments: inout [Value?], _ node: Node, ready: Bool) throws {
        if !ready { try prepareNow(call, &arguments, node) }
        if whatIf, call.intent.sideEffect != .none {
            showNow(whatIfDialog(call.intent, arguments))
            throw WhatIfStop()
        }
    }

    /// Runs an immediate intent and the immediate intents it opens, showing their dialogs.
    func perform(_ performNow: @Sendable ([Value?], IntentContext) throws -> IntentOutput, _ arguments: [Value?],
                 of intent: IntentDescriptor, _ node: Node) throws -> Value {
        let output: IntentOutput
        do {
            output = try performNow(arguments, context)
        } catch let needed as NeedsValueError {
            // Asking would await: the need is reported as it is when nobody can answer.
            throw unansweredNeed(needed, of: intent, node)
        }
        return try shown(output, of: intent, node)
    }

    /// Shows what an immediate intent's output says and runs the immediate intents it opens; its value.
    func shown(_ output: IntentOutput, of intent: IntentDescriptor, _ node: Node) throws -> Value {
        // Nothing is shown after the time limit or Ctrl-C: a long step before it (a big copy, a sort) may have run
        // past them between two of the executor's checks.
        if let dialog = output.dialog {
            try checkCancellation(at: node.location)
            showNow(dialog)
        }
        var next = output.next
        while let opened = next {
            guard let runNext = opened.runNow else {
                throw RuntimeError("\(intent.name): can't open '\(opened.title)', which awaits, from an intent that runs immediately", at: node.location)
            }
            // As for an awaiting intent, the opened intent's result is shown and the action keeps its own.
            let shown = try runNext(context)
            if let dialog = Self.shownDialog(of: shown) {
                try checkCancellation(at: node.location)
                showNow(dialog)
            }
            next = shown.next
        }
        return output.value
    }

    /// What an opened intent's result shows: its dialog, or its value where it says nothing.
    static func shownDialog(of output: IntentOutput) -> Dialog? {
        if let dialog = output.dialog { return dialog }
        return output.value.isNull ? nil : Dialog(ValueFormatter.display(output.value))
    }

    // MARK: Errors

    /// An error from an intent or a query as the script's error: with what was being done and the action's
    /// location. Cancellations stay cancellations, unless the time limit caused them.
    func reported(_ error: any Error, doing what: String, at location: SourceLocation) -> any Error {
        switch error {
        case is RuntimeError, is WhatIfStop:
            return error
        case is RunCancelled, is CancellationError:
            return stopped(by: error, at: location) ?? ((error as? RunCancelled) ?? RunCancelled())
        case let error as EvaluationError:
            // A built-in intent's own evaluation (showing a value): the run's error, or why it stopped.
            return located(error, at: location)
        case let error as IntentError:
            return RuntimeError("\(what): \(error.message)", at: location)
        case let error as ScriptFailure:
            return RuntimeError(error.message, at: location)
        case let error as NoAnswerError:
            // An intent's own confirmation is approved by --yes, as a destructive intent's is; a question is not.
            return RuntimeError("\(what): \(error)", at: location,
                                kind: error.isConfirmation ? .unconfirmed(intent: what, question: error.question)
                                    : .unanswered(intent: what, parameter: nil, question: error.question))
        default:
            // A host's own error: a database's, a file system's.
            return RuntimeError("\(what): \(IntentError.message(of: error))", at: location)
        }
    }

    /// The error for a `needsValue` that no answer can satisfy, with the intent's reason.
    func unansweredNeed(_ needed: NeedsValueError, of intent: IntentDescriptor, _ node: Node) -> RuntimeError {
        RuntimeError("\(intent.name): needs a value for '\(needed.parameter)'\(needed.reason.map { ": \($0)" } ?? "")",
                     at: node.location, kind: .unanswered(intent: intent.name, parameter: needed.parameter, question: nil))
    }
}
