import AutoIntents
import Foundation

/// Runs action graphs: evaluates expressions, calls intents with their arguments, follows control nodes,
/// and enforces the limits. One executor runs one script at a time.
public final class Executor: @unchecked Sendable {
    public let interaction: any Interaction
    public let cancellation: CancellationFlag
    public let limits: RunLimits
    let context: IntentContext
    /// Counted on every step; unchecked, because only the task running the script touches it.
    @exclusivity(unchecked) var steps = 0
    @exclusivity(unchecked) var callDepth = 0
    @exclusivity(unchecked) var deadline: ContinuousClock.Instant?
    /// Dialogs intents have shown, and how many there were when the current top-level statement began.
    @exclusivity(unchecked) var dialogs = 0
    @exclusivity(unchecked) var dialogsBeforeStatement = 0
    @exclusivity(unchecked) var scriptFrame: Frame?
    /// Dialogs of immediate intents that the interaction could only show by awaiting: shown, in order, once
    /// the node that made them is done.
    @exclusivity(unchecked) var pendingDialogs: [Dialog] = []
    /// Whether the script's last statement showed a dialog: then the CLI doesn't print its result too.
    public private(set) var lastStatementShowedDialog = false

    /// `dependency` reaches intents through `IntentContext.dependency(_:)`; pass the registry's.
    /// `--what-if`: the run stops before the first intent that changes anything, saying what it would do.
    @exclusivity(unchecked) public var whatIf = false

    struct WhatIfStop: Error {}

    public init(interaction: any Interaction, cancellation: CancellationFlag = CancellationFlag(), limits: RunLimits = RunLimits(),
                dependency: (any Sendable)? = nil) {
        self.interaction = interaction
        self.cancellation = cancellation
        self.limits = limits
        self.context = IntentContext(interaction: interaction, cancellation: cancellation, dependency: dependency)
    }

    /// Runs a script graph. `arguments` fill its first slots (a script's `args`, a shortcut's parameters).
    /// Returns the script's result: the value of its last statement, or what `return` gave.
    public func run(_ graph: ActionGraph, arguments: [Value] = []) async throws -> Value {
        steps = 0
        callDepth = 0
        deadline = limits.maxDuration.map { ContinuousClock.now + $0 }
        dialogs = 0
        scriptFrame = nil
        pendingDialogs = []
        do {
            let result = try await call(graph, arguments: arguments, isScript: true)
            lastStatementShowedDialog = dialogs > dialogsBeforeStatement
            return result
        } catch is WhatIfStop {
            await showPendingDialogs()
            lastStatementShowedDialog = true
            return .null
        } catch {
            // What a loop showed before it failed is still shown, before the error.
            await showPendingDialogs()
            throw error
        }
    }

    nonisolated(nonsending) func call(_ graph: ActionGraph, arguments: [Value], isScript: Bool = false) async throws -> Value {
        let frame = Frame(slotCount: graph.slotNames.count)
        if isScript { scriptFrame = frame }
        for (index, argument) in arguments.enumerated() where index < frame.slots.count { frame.slots[index] = argument }
        switch try await execute(graph.body, frame) {
        case .normal, .stop: return frame.it
        case .returned: return frame.returned
        }
    }

    enum Flow {
        case normal
        case stop
        /// `return`: the value waits in the frame's `returned`, so that a flow is copied as a plain number.
        case returned
    }

    nonisolated(nonsending) func execute(_ nodes: [Node], _ frame: Frame) async throws -> Flow {
        for node in nodes {
            try enter(node, frame)
            let flow = node.canSuspend ? try await runSuspending(node, frame) : try run(node, frame)
            if !pendingDialogs.isEmpty { await showPendingDialogs() }
            if case .normal = flow {} else { return flow }
        }
        return .normal
    }

    /// The synchronous twin of `execute`, for blocks in which nothing awaits.
    func executeSync(_ nodes: [Node], _ frame: Frame) throws -> Flow {
        for node in nodes {
            try enter(node, frame)
            let flow = try run(node, frame)
            if case .normal = flow {} else { return flow }
        }
        return .normal
    }

    @inline(__always)
    func enter(_ node: Node, _ frame: Frame) throws {
        try countStep(node)
        if node.updatesIt, frame === scriptFrame { dialogsBeforeStatement = dialogs }
    }

    /// A node that calls an intent or a query, or holds a block that does.
    nonisolated(nonsending) func runSuspending(_ node: Node, _ frame: Frame) async throws -> Flow {
        switch node.kind {
        case .action(let call):
            // The frame's argument buffer is taken for the call and given back after it, so that a call in a
            // loop allocates no array. (A shortcut called from here runs in a frame of its own.)
            var arguments = frame.takeArguments()
            try evaluateArguments(call, frame, node, into: &arguments)
            let value: Value
            if let items = Self.pipedList(call, arguments) {
                value = try await performForEach(items, call, arguments, node)
            } else {
                value = try await invoke(call, &arguments, node)
            }
            frame.giveBack(consume arguments)
            store(value, in: call.resultSlots, of: node, frame)
        case .find(let call):
            store(try await find(call, frame, node), in: call.resultSlots, of: node, frame)
        case .branch(let branches, let otherwise):
            if let chosen = try chosenBlock(branches, otherwise, frame, node) { return try await execute(chosen, frame) }
        case .forEach(let slot, let sequence, let body):
            for item in try listToIterate(sequence, frame, node) {
                try countStep(node)
                frame.slots[slot] = item
                let flow = try await execute(body, frame)
                if case .normal = flow {} else { return flow }
            }
        case .repeatTimes(let countExpression, let body):
            let count = try repeatCount(countExpression, frame, node)
            var done = 0
            while done < count {
                try countStep(node)
                let flow = try await execute(body, frame)
                if case .normal = flow {} else { return flow }
                done += 1
            }
        case .assign, .evaluate, .stop, .returnValue:
            return try run(node, frame)
        }
        return .normal
    }

    /// A call's or a find's result, into the slots that receive it and, where the node sets it, into `it`.
    @inline(__always)
    func store(_ value: Value, in slots: [Int], of node: Node, _ frame: Frame) {
        for slot in slots { frame.slots[slot] = value }
        if node.updatesIt { frame.it = value }
    }

    /// A node in which nothing awaits: expressions, immediate calls, and control whose blocks hold nothing else.
    func run(_ node: Node, _ frame: Frame) throws -> Flow {
        switch node.kind {
        case .action(let call):
            // `canSuspend` is false, so the call runs immediately.
            var arguments = frame.takeArguments()
            try evaluateArguments(call, frame, node, into: &arguments)
            let value: Value
            if let items = Self.pipedList(call, arguments) {
                value = try performForEachNow(items, call, arguments, node)
            } else {
                value = try invokeNow(call, &arguments, node)
            }
            frame.giveBack(consume arguments)
            store(value, in: call.resultSlots, of: node, frame)
        case .assign(let slot, let expression):
            let value = try evaluate(expression, frame, node)
            frame.slots[slot] = value
            if node.updatesIt { frame.it = value }
        case .evaluate(let expression):
            let value = try evaluate(expression, frame, node)
            if node.updatesIt { frame.it = value }
        case .branch(let branches, let otherwise):
            if let chosen = try chosenBlock(branches, otherwise, frame, node) { return try executeSync(chosen, frame) }
        case .forEach(let slot, let sequence, let body):
            for item in try listToIterate(sequence, frame, node) {
                try countStep(node)
                frame.slots[slot] = item
                let flow = try executeSync(body, frame)
                if case .normal = flow {} else { return flow }
            }
        case .repeatTimes(let countExpression, let body):
            let count = try repeatCount(countExpression, frame, node)
            var done = 0
            while done < count {
                try countStep(node)
                let flow = try executeSync(body, frame)
                if case .normal = flow {} else { return flow }
                done += 1
            }
        case .stop:
            return .stop
        case .returnValue(let expression):
            frame.returned = try expression.map { try evaluate($0, frame, node) } ?? .null
            return .returned
        case .find:
            // `canSuspend` is true for a find, so `execute` never hands it here.
            throw RuntimeError("internal error: '\(node.label)' was run without awaiting it", at: node.location)
        }
        return .normal
    }

    func chosenBlock(_ branches: [(condition: Expr, body: [Node])], _ otherwise: [Node]?, _ frame: Frame, _ node: Node) throws -> [Node]? {
        for branch in branches where try truth(branch.condition, frame, node, "the condition of 'if'") { return branch.body }
        return otherwise
    }

    func listToIterate(_ sequence: Expr, _ frame: Frame, _ node: Node) throws -> [Value] {
        switch try evaluate(sequence, frame, node) {
        case .list(let list): return list
        case .null: return []
        case let other: throw RuntimeError("'for' goes through a list, not \(other.type)", at: node.location)
        }
    }

    func repeatCount(_ count: Expr, _ frame: Frame, _ node: Node) throws -> Int {
        guard case .int(let count) = try evaluate(count, frame, node) else {
            throw RuntimeError("'repeat' needs a whole number of times", at: node.location)
        }
        return count
    }

    @inline(__always)
    func countStep(_ node: Node) throws {
        steps &+= 1
        if steps & 1023 == 0 { try checkLimits(node) }
    }

    func checkLimits(_ node: Node) throws {
        if cancellation.isCancelled { throw RunCancelled() }
        if steps > limits.maxSteps {
            throw RuntimeError("the run took more than \(limits.maxSteps) steps and was stopped; it may loop forever (raise the limit with --max-steps)", at: node.location)
        }
        if let deadline, ContinuousClock.now > deadline {
            throw RuntimeError("the run took longer than its time limit and was stopped (raise it with --timeout)", at: node.location)
        }
    }

    // MARK: Expressions

    func evaluate(_ expression: Expr, _ frame: Frame, _ node: Node) throws -> Value {
        do {
            return try eval(expression, frame)
        } catch {
            throw RuntimeError(error.message, at: node.location)
        }
    }

    func truth(_ expression: Expr, _ frame: Frame, _ node: Node, _ context: String) throws -> Bool {
        do {
            return try Operations.truth(try eval(expression, frame), context)
        } catch {
            throw RuntimeError(error.message, at: node.location)
        }
    }

    func eval(_ expression: Expr, _ frame: Frame) throws(EvaluationError) -> Value {
        switch expression {
        case .constant(let value): return value
        case .local(let slot): return frame.slots[slot]
        case .it: return frame.it
        case .arithmetic(let op, let left, let right):
            let a = try eval(left, frame), b = try eval(right, frame)
            if op == .add, case .int(let x) = a, case .int(let y) = b {
                let (sum, overflow) = x.addingReportingOverflow(y)
                if !overflow { return .int(sum) }
            }
            return try Operations.arithmetic(op, a, b)
        case .compare(let op, let left, let right):
            return .bool(try Operations.compare(op, try eval(left, frame), try eval(right, frame)))
        case .between(let value, let low, let high):
            let v = try eval(value, frame)
            guard try Operations.compare(.greaterOrEqual, v, try eval(low, frame)) else { return .bool(false) }
            return .bool(try Operations.compare(.lessOrEqual, v, try eval(high, frame)))
        case .and(let left, let right):
            guard try Operations.truth(try eval(left, frame), "the left side of 'and'") else { return .bool(false) }
            return .bool(try Operations.truth(try eval(right, frame), "the right side of 'and'"))
        case .or(let left, let right):
            if try Operations.truth(try eval(left, frame), "the left side of 'or'") { return .bool(true) }
            return .bool(try Operations.truth(try eval(right, frame), "the right side of 'or'"))
        case .not(let operand):
            return .bool(!(try Operations.truth(try eval(operand, frame), "the operand of 'not'")))
        case .negate(let operand):
            return try Operations.negate(try eval(operand, frame))
        case .property(let base, let access):
            return try Properties.read(access, of: try eval(base, frame))
        case .list(let items):
            var values: [Value] = []
            values.reserveCapacity(items.count)
            for item in items { values.append(try eval(item, frame)) }
            return try ValueLimits().list(values)
        case .record(let keys, let items):
            var values: [Value] = []
            values.reserveCapacity(items.count)
            for item in items { values.append(try eval(item, frame)) }
            return try ValueLimits().record(Record(keys: keys, values: values))
        case .interpolation(let parts):
            var text = ""
            for part in parts {
                switch part {
                case .literal(let literal): text += literal
                case .value(let value): text += ValueFormatter.interpolated(try eval(value, frame))
                }
            }
            return .text(text)
        case .function(let function, let arguments):
            var values: [Value] = []
            values.reserveCapacity(arguments.count)
            for argument in arguments { values.append(try eval(argument, frame)) }
            return try BuiltinFunctions.call(function, values)
        case .filter(let list, let condition):
            return .list(try ListQueries.filter(try items(list, frame, "filter"), condition) { expression throws(EvaluationError) in
                try self.eval(expression, frame)
            })
        case .sort(let list, let keys):
            return .list(try ListQueries.sort(try items(list, frame, "sort"), keys))
        case .limit(let list, let count):
            let values = try items(list, frame, "limit")
            return .list(Array(values.prefix(try ListQueries.limit(try eval(count, frame)))))
        }
    }

    func items(_ expression: Expr, _ frame: Frame, _ stage: String) throws(EvaluationError) -> [Value] {
        switch try eval(expression, frame) {
        case .list(let items): return items
        case .null: return []
        case let other: throw EvaluationError("'\(stage)' works on a list, not \(other.type)")
        }
    }

    // MARK: Find

    nonisolated(nonsending) func find(_ call: FindCall, _ frame: Frame, _ node: Node) async throws -> Value {
        let request: FindRequest
        do {
            request = try findRequest(call, frame)
        } catch {
            throw RuntimeError(error.message, at: node.location)
        }
        if cancellation.isCancelled { throw RunCancelled() }
        do {
            return .list(try await call.query.run(request))
        } catch let error as IntentError {
            throw RuntimeError("finding \(call.query.entityType.plural): \(error.message)", at: node.location)
        } catch let error as RunCancelled {
            throw error
        } catch {
            throw RuntimeError("finding \(call.query.entityType.plural): \(error)", at: node.location)
        }
    }

    func findRequest(_ call: FindCall, _ frame: Frame) throws(EvaluationError) -> FindRequest {
        let source: FindRequest.Source
        var limit = try call.limit.map { expression throws(EvaluationError) in try ListQueries.limit(try eval(expression, frame)) }
        switch call.source {
        case .all: source = .all
        case .suggested: source = .suggested
        case .matching(let text):
            guard case .text(let needle) = try eval(text, frame) else { throw EvaluationError("'matching' needs a text") }
            source = .matching(needle)
        case .pushed(let comparisons, let mode, let sorts, let pushesLimit):
            var pushed: [PushedComparison] = []
            for comparison in comparisons {
                pushed.append(PushedComparison(property: comparison.property, op: comparison.op, value: try eval(comparison.value, frame)))
            }
            source = .pushed(pushed, mode, sorts, limit: pushesLimit ? limit : nil)
            if pushesLimit { limit = nil }
        }
        var condition = try call.condition.map { plan throws(EvaluationError) in try entityCondition(plan, frame) }
        if let matching = call.matchingInEngine {
            guard case .text(let needle) = try eval(matching, frame) else { throw EvaluationError("'matching' needs a text") }
            let byTitle = EntityCondition.valueTest { value in
                guard case .entity(let entity) = value else { return false }
                let display = entity.display
                return ([display.title] + (display.subtitle.map { [$0] } ?? []) + display.synonyms)
                    .contains { $0.range(of: needle, options: .caseInsensitive) != nil }
            }
            condition = condition.map { .and(byTitle, $0) } ?? byTitle
        }
        let sort: [EntitySortKey] = call.sort.map { key in
            if key.path.count == 1, case .entity(_, let index) = key.path[0] { return .property(index, descending: key.descending) }
            let path = key.path
            return .value({ (try? ListQueries.read(path, $0)) ?? .null }, descending: key.descending)
        }
        return FindRequest(source: source, condition: condition, sort: sort, limit: limit,
                           compare: { op, a, b in (try? Operations.compare(op, a, b)) ?? false },
                           order: ListQueries.order)
    }

    /// A where-clause for the engine, with one-property comparisons left typed for the entity's own test.
    func entityCondition(_ plan: ConditionPlan, _ frame: Frame) throws(EvaluationError) -> EntityCondition {
        switch plan {
        case .compare(let path, let op, let right):
            let value = try eval(right, frame)
            if path.count == 1, case .entity(_, let index) = path[0] { return .test(property: index, op, value) }
            return .valueTest { candidate in
                guard let left = try? ListQueries.read(path, candidate) else { return false }
                return (try? Operations.compare(op, left, value)) ?? false
            }
        case .and(let a, let b): return .and(try entityCondition(a, frame), try entityCondition(b, frame))
        case .or(let a, let b): return .or(try entityCondition(a, frame), try entityCondition(b, frame))
        case .not(let a): return .not(try entityCondition(a, frame))
        }
    }

    // MARK: Actions

    /// The arguments of `call` by parameter index (nil where none is written), into `arguments`, whose
    /// storage is reused from call to call.
    func evaluateArguments(_ call: ActionCall, _ frame: Frame, _ node: Node, into arguments: inout [Value?]) throws {
        let count = call.arguments.count
        if arguments.count != count {
            arguments.removeAll(keepingCapacity: true)
            arguments.append(contentsOf: repeatElement(nil, count: count))
        }
        for index in 0..<count {
            guard let expression = call.arguments[index] else {
                arguments[index] = nil
                continue
            }
            do {
                arguments[index] = try eval(expression, frame)
            } catch {
                throw RuntimeError(error.message, at: call.argumentLocations[index] ?? node.location)
            }
        }
    }

    nonisolated(nonsending) func performForEach(_ items: [Value], _ call: ActionCall, _ given: [Value?], _ node: Node) async throws -> Value {
        if whatIf, call.intent.sideEffect != .none {
            for dialog in Self.whatIfDialogs(items, call, given) { await interaction.show(dialog) }
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

    /// Every action a list piped into a changing intent would run, said instead of done (`--what-if`).
    static func whatIfDialogs(_ items: [Value], _ call: ActionCall, _ given: [Value?]) -> [Dialog] {
        var arguments = given
        return items.map { item in
            arguments[0] = item
            return Dialog("What if: \(describe(call.intent, arguments))")
        }
    }

    /// A list piped into a call whose input takes one value: the call then runs once per element.
    @inline(__always)
    static func pipedList(_ call: ActionCall, _ arguments: [Value?]) -> [Value]? {
        guard case .list(let items)? = arguments.first, let input = call.intent.parameters.first, takesOneValue(input.type) else { return nil }
        return items
    }

    package static func takesOneValue(_ type: ValueType) -> Bool {
        switch type {
        case .any, .list: return false
        default: return true
        }
    }

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
            guard call.textLookups[index] == nil, Self.needsNoCoercion(value, parameter) else { return false }
        }
        return true
    }

    /// Fills in defaults, asks for what is missing, finds entities named by text, and brings every argument to
    /// its parameter's type.
    func prepare(_ call: ActionCall, _ arguments: inout [Value?], _ node: Node) async throws {
        let intent = call.intent, lookups = call.textLookups, locations = call.argumentLocations
        for (index, parameter) in intent.parameters.enumerated() {
            if arguments[index] == nil {
                if let defaultValue = parameter.defaultValue {
                    arguments[index] = defaultValue
                } else if parameter.isRequired {
                    // An entity is asked for by name and found with its type's text search.
                    arguments[index] = try await ask(for: parameter, as: lookups[index] == nil ? parameter.type : .text, of: intent, node)
                }
            }
            if case .text(let text)? = arguments[index], let query = lookups[index] {
                arguments[index] = try await entity(named: text, in: query, for: parameter, of: intent, at: locations[index] ?? node.location)
            }
            if let value = arguments[index] {
                arguments[index] = try coerce(value, to: parameter, of: intent, at: locations[index] ?? node.location)
            }
        }
    }

    /// `arguments` is the caller's buffer: it comes back with the values `perform` was given.
    nonisolated(nonsending) func invoke(_ call: ActionCall, _ arguments: inout [Value?], _ node: Node) async throws -> Value {
        let intent = call.intent
        if !Self.isReady(call, arguments) {
            try await prepare(call, &arguments, node)
        }
        if whatIf, intent.sideEffect != .none {
            await interaction.show(Dialog("What if: \(Self.describe(intent, arguments))"))
            throw WhatIfStop()
        }
        if intent.sideEffect == .destructive {
            let request = ConfirmationRequest(prompt: "\(Self.describe(intent, arguments))? This can't be undone.",
                                              actionName: intent.title, isDestructive: true, intent: intent.name)
            let approved: Bool
            do { approved = try await interaction.confirm(request) } catch let error as NoAnswerError {
                throw RuntimeError("'\(intent.name)' needs a confirmation and \(error); run with --yes to approve it", at: node.location)
            }
            if !approved { throw RunCancelled("'\(intent.name)' was not confirmed") }
        }
        if cancellation.isCancelled { throw RunCancelled() }
        do {
            switch intent.implementation {
            case .native(let perform):
                var output: IntentOutput
                var asked: [Int: Int] = [:]
                while true {
                    do {
                        output = try await perform(arguments, context)
                        break
                    } catch let needed as NeedsValueError {
                        // Ask for the parameter and run `perform` again from the start, three times at most.
                        guard let index = intent.parameterIndex(named: needed.parameter), asked[index, default: 0] < 3 else {
                            throw Self.unansweredNeed(needed, of: intent, node)
                        }
                        asked[index, default: 0] += 1
                        let parameter = intent.parameters[index]
                        let answer = try await ask(for: parameter, as: call.textLookups[index] == nil ? parameter.type : .text, of: intent, node)
                        if case .text(let text) = answer, let query = call.textLookups[index] {
                            arguments[index] = try await entity(named: text, in: query, for: parameter, of: intent, at: node.location)
                        } else {
                            arguments[index] = try coerce(answer, to: parameter, of: intent, at: node.location)
                        }
                    }
                }
                if let dialog = output.dialog { await showDialog(dialog) }
                while let next = output.next {
                    output = try await next.run(context)
                    if let dialog = output.dialog { await showDialog(dialog) }
                }
                return output.value
            case .immediate(let performNow):
                // Here because something before it awaited (a question, a confirmation); it runs as it would
                // in a loop, so it behaves the same wherever it is called.
                let value = try perform(performNow, arguments, of: intent, node)
                await showPendingDialogs()
                return value
            case .script(let body):
                guard let graph = body.graph as? ActionGraph else {
                    throw RuntimeError("the shortcut '\(intent.name)' was not compiled", at: node.location)
                }
                callDepth += 1
                defer { callDepth -= 1 }
                if callDepth > limits.maxCallDepth {
                    throw RuntimeError("shortcuts call each other more than \(limits.maxCallDepth) deep; is there a recursion without an end?", at: node.location)
                }
                return try await self.call(graph, arguments: arguments.map { $0 ?? .null })
            }
        } catch {
            throw Self.reported(error, of: intent, node)
        }
    }

    /// An error from an intent as the script's error: with the intent's name and the action's location.
    static func reported(_ error: any Error, of intent: IntentDescriptor, _ node: Node) -> any Error {
        switch error {
        case let error as IntentError: return RuntimeError("\(intent.name): \(error.message)", at: node.location)
        case is RuntimeError, is RunCancelled, is WhatIfStop: return error
        // A NoAnswerError, or a host's own error (a database's, a file system's).
        default: return RuntimeError("\(intent.name): \(error)", at: node.location)
        }
    }

    /// The message for a `needsValue` that no answer can satisfy.
    static func unansweredNeed(_ needed: NeedsValueError, of intent: IntentDescriptor, _ node: Node) -> RuntimeError {
        RuntimeError("\(intent.name): needs a value for '\(needed.parameter)'\(needed.reason.map { ": \($0)" } ?? "")", at: node.location)
    }

    /// The entity a text names, found with the type's text search: one match is taken, an exact title
    /// among several is taken, otherwise the error lists what matched.
    func entity(named text: String, in query: QueryDescriptor, for parameter: ParameterInfo, of intent: IntentDescriptor,
                at location: ScriptLocation) async throws -> Value {
        let type = query.entityType
        let found: [Value]
        do {
            found = try await query.run(FindRequest(source: .matching(text), compare: { _, _, _ in false }, order: { _, _ in 0 }))
        } catch let error as IntentError {
            throw RuntimeError("finding the \(type.singular) '\(text)': \(error.message)", at: location)
        }
        if found.count == 1 { return found[0] }
        let exact = found.filter { if case .entity(let e) = $0 { e.display.title.lowercased() == text.lowercased() } else { false } }
        if exact.count == 1 { return exact[0] }
        if found.isEmpty { throw RuntimeError("no \(type.singular) matches '\(text)' for '\(parameter.name)' of '\(intent.name)'", at: location) }
        // Several match: people choose, where someone can answer.
        let request = ChoiceRequest(prompt: "Which \(type.singular) for '\(intent.name)'? Several match '\(text)':",
                                    options: found.map(IntentContext.choice(for:)), intent: intent.name, parameter: parameter.name)
        if let index = try? await interaction.choose(request), found.indices.contains(index) { return found[index] }
        let names = found.prefix(5).map(ValueFormatter.inline).joined(separator: ", ")
        throw RuntimeError("several \(type.plural) match '\(text)': \(names)\(found.count > 5 ? ", …" : ""); write more of the title", at: location)
    }

    func showDialog(_ dialog: Dialog) async {
        await showPendingDialogs()
        dialogs += 1
        await interaction.show(dialog)
    }

    /// The intent's summary with the values it is about to run with: `Delete "Emma" — Jane Austen`.
    static func describe(_ intent: IntentDescriptor, _ arguments: [Value?]) -> String {
        intent.summary.parts.map { part in
            switch part {
            case .text(let text): return text
            case .parameter(let name):
                guard let index = intent.parameterIndex(named: name), let value = arguments[index] else { return "…" }
                if case .entity(let entity) = value { return "'\(entity.display.title)'" }
                return ValueFormatter.inline(value)
            }
        }.joined()
    }

    func ask(for parameter: ParameterInfo, as type: ValueType, of intent: IntentDescriptor, _ node: Node) async throws -> Value {
        let question = parameter.question ?? "\(parameter.title) for '\(intent.name)'?"
        do {
            return try await interaction.requestValue(ValueRequest(prompt: question, type: type, intent: intent.name, parameter: parameter.name))
        } catch is NoAnswerError {
            throw RuntimeError("'\(intent.name)' needs '\(parameter.name)' (\(parameter.type)) and nobody can answer '\(question)'; give it as '\(parameter.name): …'", at: node.location)
        }
    }

    /// A value of exactly its parameter's scalar type, with no range to check: `coerce` would return it as is.
    static func needsNoCoercion(_ value: Value, _ parameter: ParameterInfo) -> Bool {
        parameter.range == nil && value.hasScalarType(parameter.type)
    }

    /// Brings an argument to its parameter's type where the language allows it (Int to Decimal, a text
    /// naming an enum case) and checks ranges; anything else is a type error naming the parameter.
    func coerce(_ value: Value, to parameter: ParameterInfo, of intent: IntentDescriptor, at location: ScriptLocation) throws -> Value {
        if Self.needsNoCoercion(value, parameter) { return value }
        var result = value
        switch (parameter.type, value) {
        case (_, .null):
            guard parameter.isRequired, parameter.type != .any else { return value }
            throw RuntimeError("'\(intent.name)' needs a value for '\(parameter.name)', got nil", at: location)
        case (.decimal, .int(let i)):
            result = .decimal(Decimal(i))
        case (.enumeration(let type), .text(let text)):
            guard let index = type.caseIndex(named: text) else {
                throw RuntimeError("'\(text)' is not a \(type.typeName); choose one of: \(type.cases.map(\.displayName).joined(separator: ", "))", at: location)
            }
            result = .enumCase(EnumCaseValue(type: type, index: index))
        case (.file, .text(let path)):
            result = .file(FileRef(path: path))
        default:
            guard value.type.isAssignable(to: parameter.type) else {
                throw RuntimeError("'\(intent.name)' expects \(parameter.type) for '\(parameter.name)', got \(value.type)", at: location)
            }
        }
        if let range = parameter.range, Operations.isNumber(result, within: range) == false {
            throw RuntimeError("'\(parameter.name)' of '\(intent.name)' must be \(parameter.rangeDescription ?? ""), got \(ValueFormatter.inline(result))", at: location)
        }
        return result
    }
}
