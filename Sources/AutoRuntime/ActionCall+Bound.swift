import AutoIntents

/// A call of a native `ImmediateIntent` through a call site of its own (`BoundCall`), made when the graph is built:
/// constant arguments are set in the site's intent once, and a call evaluates only the others, into memory on the
/// stack, and performs. No argument array is filled, read or cleared, and nothing is put back after a call whose
/// arguments are all constants.
///
/// The site is used only when a call needs nothing else: every constant is of its parameter's exact type, and on
/// each call every computed value is too. Otherwise the call takes the array path (`Run.invokeNow`) with the same
/// values, which converts, checks ranges and runs a list piped into a one-value input once per element, as before.
extension ActionCall {
    /// Runs the call and gives its result; nil when a list piped into it leaves the call to the awaiting path
    /// (`Run.runNow`).
    typealias BoundStep = @Sendable (Run, ActionCall, Frame, Node) throws -> Value?

    /// The step, or nil when the intent has no binder or a constant needs converting.
    static func boundStep(_ intent: IntentDescriptor, _ arguments: [Expr?], _ locations: [SourceLocation?]) -> BoundStep? {
        guard let binder = intent.binder, let (binding, perCall) = siteBinding(intent, arguments), let bound = binder(binding) else { return nil }
        guard !perCall.isEmpty else {
            return { run, _, _, node in try run.callBound(bound, UnsafeBufferPointer(start: nil, count: 0), intent, node) }
        }
        let count = perCall.count
        let evaluate = valuesStep(intent, perCall.map { (index: $0, expression: arguments[$0]!, location: locations[$0]) })
        return { run, call, frame, node in
            try withUnsafeTemporaryAllocation(of: Value.self, capacity: count) { values in
                let ready = try evaluate(run, frame, node, values.baseAddress!)
                defer { for position in 0..<count { (values.baseAddress! + position).deinitialize(count: 1) } }
                guard ready else { return try run.callUnbound(call, UnsafeBufferPointer(values), frame, node) }
                return try run.callBound(bound, UnsafeBufferPointer(values), intent, node)
            }
        }
    }

    /// What a call site sets once and what each call gives: by parameter, a constant (a default included), a value
    /// per call, or nothing; and the parameters given per call. Nil when a constant isn't of its parameter's exact type,
    /// or a computed argument's parameter takes no value as it is: such a call would take the array path every time.
    static func siteBinding(_ intent: IntentDescriptor, _ arguments: [Expr?]) -> (binding: [BoundArgument], perCall: [Int])? {
        var binding: [BoundArgument] = []
        var perCall: [Int] = []
        for index in arguments.indices {
            let parameter = intent.parameters[index]
            // A default is set as the array path sets it, as a given argument (`Run.prepareNow`).
            guard let given = arguments[index]?.constantValue ?? (arguments[index] == nil ? parameter.defaultValue : nil) else {
                if arguments[index] == nil {
                    binding.append(.absent)
                } else {
                    binding.append(.perCall)
                    perCall.append(index)
                }
                continue
            }
            guard Coercion.isReady(given, for: parameter) else { return nil }
            binding.append(.constant(given))
        }
        guard perCall.allSatisfy({ intent.parameters[$0].takesAsIs != nil }) else { return nil }
        return (binding, perCall)
    }

    /// Initialises the value of each computed argument, in order, and says whether each is of the kind its parameter
    /// takes as it is. When one fails, those before it are deinitialised again.
    typealias ValuesStep = @Sendable (Run, Frame, Node, UnsafeMutablePointer<Value>) throws -> Bool

    /// A chain of closures, one per computed argument, as `argumentsStep`'s, whose last link calls no other.
    static func valuesStep(_ intent: IntentDescriptor, _ perCall: [(index: Int, expression: Expr, location: SourceLocation?)]) -> ValuesStep {
        var step: ValuesStep?
        for position in perCall.indices.reversed() {
            let (index, expression, location) = perCall[position], rest = step
            // `boundStep` binds only parameters that take some values as they are.
            let kind = intent.parameters[index].takesAsIs!, evaluate = expression.compiled
            step = { run, frame, node, values in
                let value = try argument(expression, evaluate, at: location, run, frame, node)
                let ready = value.isScalar(kind)
                (values + position).initialize(to: value)
                guard let rest else { return ready }
                do {
                    return try rest(run, frame, node, values) && ready
                } catch {
                    (values + position).deinitialize(count: 1)
                    throw error
                }
            }
        }
        return step!
    }

    /// An argument's value; an error points at the argument, or at the call when it has no location of its own.
    @inline(__always)
    static func argument(_ expression: Expr, _ evaluate: Expr.Evaluator?, at location: SourceLocation?,
                         _ run: Run, _ frame: Frame, _ node: Node) throws -> Value {
        do throws(EvaluationError) {
            if let evaluate { return try evaluate(run, frame) }
            return try expression.evaluate(run, frame)
        } catch {
            throw run.located(error, at: location ?? node.location)
        }
    }
}

extension Run {
    /// A call through its site. As `invokeNow`: Ctrl-C is looked at first, and the intent's errors are the script's.
    @inline(__always)
    func callBound(_ bound: BoundCall, _ values: UnsafeBufferPointer<Value>, _ intent: IntentDescriptor, _ node: Node) throws -> Value {
        if cancellation.isCancelled { throw RunCancelled() }
        let output: IntentOutput
        do {
            output = try bound(values, context)
        } catch let needed as NeedsValueError {
            throw unansweredNeed(needed, of: intent, node)
        } catch {
            throw reported(error, doing: intent.name, at: node.location)
        }
        guard output.extras == nil else {
            do {
                return try shown(output, of: intent, node)
            } catch {
                throw reported(error, doing: intent.name, at: node.location)
            }
        }
        return output.value
    }

    /// A bound call whose computed values need what the array path does: the arguments as `ActionCall.evaluateArguments`
    /// would have written them, in the frame's buffer, then `invokeNow`; nil, with the arguments left in the frame, for
    /// a piped list (as `runNow`).
    @inline(never)
    func callUnbound(_ call: ActionCall, _ values: UnsafeBufferPointer<Value>, _ frame: Frame, _ node: Node) throws -> Value? {
        var arguments = frame.takeArguments()
        call.writeArguments(values, into: &arguments)
        return try invokeNow(call, taking: arguments, ready: false, frame, node)
    }
}

extension ActionCall {
    /// The arguments by parameter, as `evaluateArguments` writes them, from a site's per-call values (in parameter
    /// order) and the call's constants.
    func writeArguments(_ values: UnsafeBufferPointer<Value>, into arguments: inout [Value?]) {
        arguments.removeAll(keepingCapacity: true)
        var position = 0
        for expression in self.arguments {
            if let expression, expression.constantValue == nil {
                arguments.append(values[position])
                position += 1
            } else {
                arguments.append(expression?.constantValue)
            }
        }
    }
}
