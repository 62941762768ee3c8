import AutoIntents

/// A call of a native intent that awaits, through a call site of its own (`AwaitingBoundCall`), as `ActionCall+Bound`
/// does for immediate ones: constant arguments are set in the site's intent once, a call evaluates only the others and
/// awaits `perform`. No argument array is filled and no descriptor's enum is read, and a site whose arguments are all
/// constants performs on its own intent without copying it.
///
/// The site is used only when the call needs nothing else: nothing to ask or look up, no confirmation, no trace, no
/// `--what-if`, and on each call every computed value of its parameter's exact type. Otherwise the call takes the
/// array path (`Run.invoke`) with the same values.
final class AwaitingSite: Sendable {
    let call: AwaitingBoundCall
    /// The computed arguments, in parameter order, and the kind each parameter takes as it is.
    let perCall: [(expression: Expr, evaluate: Expr.Evaluator?, location: SourceLocation?, kind: ScalarKind)]

    /// The site, or nil when the intent has no awaiting binder or a constant needs converting.
    init?(_ intent: IntentDescriptor, _ arguments: [Expr?], _ locations: [SourceLocation?]) {
        guard let binder = intent.awaitingBinder, let (binding, perCall) = ActionCall.siteBinding(intent, arguments),
              let call = binder(binding) else { return nil }
        self.call = call
        // `siteBinding` keeps only parameters that take some values as they are.
        self.perCall = perCall.map { index in
            (arguments[index]!, arguments[index]!.compiled, locations[index], intent.parameters[index].takesAsIs!)
        }
    }
}

extension Run {
    /// Runs a call through its awaiting site and stores its result. False, with nothing run, when the call has no site
    /// or a computed value is not what its parameter takes as it is: the values are then left in the frame for the
    /// array path.
    ///
    /// The call, its node and its site come unretained from the code, which the run holds, and stay so across the
    /// await; only the site's intent is held, as `perform`'s argument. Held as references, the call and its node were
    /// two retains and releases more per call (1M awaiting calls: 70–76 against 62–66 ms), and the site one more
    /// (98.7–100 against 82.3–83.3 ms, on a day when atomic operations were slow here).
    @inline(__always)
    nonisolated(nonsending) func callSite(_ call: Unmanaged<ActionCall>, _ frame: Frame, _ node: Unmanaged<Node>) async throws -> Bool {
        guard let (site, values) = try call._withUnsafeGuaranteedRef({ call in
            try node._withUnsafeGuaranteedRef { node in try siteArguments(call, frame, node) }
        }) else { return false }
        if cancellation.isCancelled { throw RunCancelled() }
        let progressMark = context.progressMark()
        // The site's closure and intent, read before the await: the site itself is not held across it. Returning the
        // site's `AwaitingBoundCall` from `siteArguments` instead, the same two fields in a struct, was slower
        // (1M awaiting calls: 115 against 82 ms).
        let (perform, intent) = site._withUnsafeGuaranteedRef { site in (site.call.perform, site.call.intent) }
        let output: IntentOutput
        do {
            output = try await perform(intent, values, context)
        } catch let needed as NeedsValueError {
            let call = call.takeUnretainedValue(), node = node.takeUnretainedValue()
            store(try await siteAsking(needed, values, call, node, progressMark), in: call.resultSlots, of: node, frame)
            return true
        } catch {
            await finishProgress(after: progressMark, failed: true)
            let call = call.takeUnretainedValue(), node = node.takeUnretainedValue()
            throw reported(error, doing: call.intent.name, at: node.location)
        }
        guard isSettled(output, progressMark) else {
            // Apart from `perform`'s errors: a need of an intent this one opens is not this one's to ask.
            let call = call.takeUnretainedValue(), node = node.takeUnretainedValue()
            do {
                store(try await finish(output, of: call, node, progressMark), in: call.resultSlots, of: node, frame)
            } catch {
                throw reported(error, doing: call.intent.name, at: node.location)
            }
            return true
        }
        // The value taken out of the output rather than copied from it (the output ends here): with a copy, and the
        // output and the copy both destroyed after the store, a call took 8 ns more (40M calls: 1.83 against 1.50 s).
        let value = (consume output).value
        call._withUnsafeGuaranteedRef { call in
            node._withUnsafeGuaranteedRef { node in store(value, in: call.resultSlots, of: node, frame) }
        }
        return true
    }

    /// The call's site, unretained (the call owns it), and the values it computes on each call; nil when the call has
    /// no site or a value is not what its parameter takes as it is, with the values then left in the frame for the array
    /// path.
    @inline(__always)
    func siteArguments(_ call: ActionCall, _ frame: Frame, _ node: Node) throws -> (Unmanaged<AwaitingSite>, [Value])? {
        guard let site = call.awaitingSite else { return nil }
        var values: [Value] = []
        if !site.perCall.isEmpty {
            values.reserveCapacity(site.perCall.count)
            var ready = true
            for argument in site.perCall {
                let value = try ActionCall.argument(argument.expression, argument.evaluate, at: argument.location, self, frame, node)
                ready = ready && value.isScalar(argument.kind)
                values.append(value)
            }
            guard ready else {
                var arguments = frame.takeArguments()
                values.withUnsafeBufferPointer { values in call.writeArguments(values, into: &arguments) }
                frame.evaluatedArguments = arguments
                return nil
            }
        }
        return (Unmanaged.passUnretained(site), values)
    }

    /// A site's intent that said it needs a value: asked for the array path's way, with the arguments as that path
    /// would have had them.
    @inline(never)
    nonisolated(nonsending) func siteAsking(_ needed: NeedsValueError, _ values: [Value], _ call: ActionCall, _ node: Node,
                                            _ progressMark: Int) async throws -> Value {
        let intent = call.intent
        guard case .native(let perform) = call.implementation else { throw reported(needed, doing: intent.name, at: node.location) }
        var arguments: [Value?] = []
        values.withUnsafeBufferPointer { values in call.writeArguments(values, into: &arguments) }
        do {
            return try await performAsking(perform, needed, call, &arguments, node, progressMark)
        } catch {
            throw reported(error, doing: intent.name, at: node.location)
        }
    }
}
