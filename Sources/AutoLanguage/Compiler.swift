import AutoIntents
import AutoRuntime

/// Turns a checked body into an ActionGraph: every action becomes a node of its own (an action nested in
/// an expression runs first and leaves its result in a temporary slot), and every read of a variable, a
/// pipe's value or `it` becomes an edge from the node that wrote it.
struct Compiler {
    let file: SourceFile
    let registry: Registry
    /// The final descriptors of the shortcuts, for the provisional ones the checker resolved calls to.
    let shortcuts: [String: IntentDescriptor]
    var slotNames: [String]
    var nextID = 0
    var edges: [Edge] = []
    var seenEdges: Set<Edge> = []
    /// The node that last wrote each slot, and the one that last set `it`, in source order.
    var writers: [Int: Int] = [:]
    var itWriter: Int?
    /// Reads made by the expressions of the node being built: (writer node, label).
    var reads: [(Int, String)] = []
    /// What each temporary slot carries, for edge labels.
    var temporaryLabels: [Int: String] = [:]

    init(body: BoundBody, registry: Registry, shortcuts: [String: IntentDescriptor]) {
        self.registry = registry
        self.shortcuts = shortcuts
        file = body.file
        slotNames = body.slotNames
    }

    static func compile(_ body: BoundBody, registry: Registry, shortcuts: [String: IntentDescriptor] = [:]) -> ActionGraph {
        var compiler = Compiler(body: body, registry: registry, shortcuts: shortcuts)
        let nodes = compiler.lowerBlock(body.statements)
        var endsWithValue = false
        switch body.statements.last?.kind {
        case .expression(let value, _)?: endsWithValue = value.type != .null
        case .returnValue(let value?)?: endsWithValue = value.type != .null
        default: break
        }
        return ActionGraph(name: body.name, body: nodes, edges: compiler.edges, slotNames: compiler.slotNames, endsWithValue: endsWithValue)
    }

    func location(_ span: Span) -> SourceLocation {
        file.location(of: span.start)
    }

    /// The script's own text for a span, shortened for labels.
    func source(_ span: Span) -> String {
        let text = file.text(of: span).split(whereSeparator: \.isNewline).joined(separator: " ")
        return text.count > 40 ? String(text.prefix(39)) + "…" : text
    }

    // MARK: Statements

    mutating func lowerBlock(_ statements: [BoundStatement]) -> [Node] {
        var nodes: [Node] = []
        for statement in statements { lower(statement, into: &nodes) }
        return nodes
    }

    mutating func lower(_ statement: BoundStatement, into nodes: inout [Node]) {
        let span = statement.span
        switch statement.kind {
        case .expression(let value, let resultSlot):
            if case .find(let find) = value.kind {
                nodes.append(findNode(find, resultSlots: resultSlot.map { [$0] } ?? [], updatesIt: true, into: &nodes))
                return
            }
            if case .action(let action) = value.kind {
                nodes.append(actionNode(action, resultSlots: resultSlot.map { [$0] } ?? [],
                                        updatesIt: !Checker.returnsNothing(value), into: &nodes))
                return
            }
            // The node is located at its expression, so a runtime error in it points there.
            let expression = lower(value, into: &nodes)
            if let resultSlot {
                nodes.append(node(.assign(slot: resultSlot, expression), value.span, label: source(span), updatesIt: true, writes: [resultSlot]))
            } else {
                nodes.append(node(.evaluate(expression), value.span, label: source(span), updatesIt: true))
            }

        case .set(let slot, let value):
            if case .find(let find) = value.kind {
                nodes.append(findNode(find, resultSlots: [slot], updatesIt: true, into: &nodes))
                return
            }
            if case .action(let action) = value.kind {
                nodes.append(actionNode(action, resultSlots: [slot], updatesIt: true, into: &nodes))
                return
            }
            // `set x = x + more` on a list or a text adds in place: a loop that builds one stays linear.
            if case .arithmetic(.add, let left, let right) = value.kind, case .local(slot, _) = left.kind,
               value.type == .text || value.type.elementType != nil {
                _ = lower(left, into: &nodes)  // the read of the variable, for the graph's edges
                let more = lower(right, into: &nodes)
                nodes.append(node(.append(slot: slot, more), value.span, label: source(span), updatesIt: true, writes: [slot]))
                return
            }
            let expression = lower(value, into: &nodes)
            nodes.append(node(.assign(slot: slot, expression), value.span, label: source(span), updatesIt: true, writes: [slot]))

        case .ifElse(let branches, let otherwise):
            nodes.append(branchNode(branches[...], otherwise: otherwise, span: span, into: &nodes))

        case .forEach(let slot, let sequence, let body):
            let expression = lower(sequence, into: &nodes)
            let id = claimID()
            writers[slot] = id
            let header = takeReads()
            let bodyNodes = lowerBlock(body)
            nodes.append(finish(Node(id: id, kind: .forEach(slot: slot, sequence: expression, body: bodyNodes), location: location(span),
                                     updatesIt: false, label: "for \(slotNames[slot]) in \(source(sequence.span))"), reads: header))

        case .repeatTimes(let count, let body):
            let expression = lower(count, into: &nodes)
            let id = claimID()
            let header = takeReads()
            let bodyNodes = lowerBlock(body)
            nodes.append(finish(Node(id: id, kind: .repeatTimes(count: expression, body: bodyNodes), location: location(span),
                                     updatesIt: false, label: "repeat \(source(count.span)) times"), reads: header))

        case .whileLoop(let condition, let body):
            // The condition's actions run before each test of it, so they are the loop's own first block.
            let id = claimID()
            var conditionNodes: [Node] = []
            let expression = lower(condition, into: &conditionNodes)
            let header = takeReads()
            let bodyNodes = lowerBlock(body)
            nodes.append(finish(Node(id: id, kind: .whileLoop(conditionNodes: conditionNodes, condition: expression, body: bodyNodes),
                                     location: location(span), updatesIt: false, label: "while \(source(condition.span))"), reads: header))

        case .attempt(let body, let errorSlot, let handler):
            let id = claimID()
            let bodyNodes = lowerBlock(body)
            writers[errorSlot] = id
            let handlerNodes = lowerBlock(handler)
            nodes.append(finish(Node(id: id, kind: .attempt(body: bodyNodes, errorSlot: errorSlot, otherwise: handlerNodes),
                                     location: location(span), updatesIt: false, label: "try"), reads: takeReads()))

        case .breakLoop:
            nodes.append(node(.breakLoop, span, label: "break"))

        case .continueLoop:
            nodes.append(node(.continueLoop, span, label: "continue"))

        case .stop:
            nodes.append(node(.stop, span, label: "stop"))

        case .returnValue(let value):
            let expression = value.map { lower($0, into: &nodes) }
            nodes.append(node(.returnValue(expression), span, label: "return" + (value.map { " " + source($0.span) } ?? "")))
        }
    }

    /// `if a {…} else if b {…} else {…}`. A later condition that runs an action is compiled into the
    /// else-branch of the one before, so its action runs only when that condition is reached.
    mutating func branchNode(_ branches: ArraySlice<(condition: BoundExpression, body: [BoundStatement])>,
                             otherwise: [BoundStatement]?, span: Span, into nodes: inout [Node]) -> Node {
        var conditions: [(condition: Expr, body: [Node])] = []
        var allReads: [(Int, String)] = []
        var labels: [String] = []
        var index = branches.startIndex
        var elseNodes: [Node]? = nil
        let id = claimID()
        while index < branches.endIndex {
            let branch = branches[index]
            if !conditions.isEmpty && Self.containsAction(branch.condition) {
                // The rest of the chain, with the actions of its first condition, goes in the else branch.
                let outer = takeReads()
                var rest: [Node] = []
                let nested = branchNode(branches[index...], otherwise: otherwise, span: branch.condition.span, into: &rest)
                rest.append(nested)
                reads = outer
                elseNodes = rest
                break
            }
            let condition = lower(branch.condition, into: &nodes)
            allReads += takeReads()
            labels.append(source(branch.condition.span))
            conditions.append((condition, lowerBlock(branch.body)))
            index += 1
        }
        if index == branches.endIndex { elseNodes = otherwise.map { lowerBlock($0) } }
        let label = "if " + labels.joined(separator: " / else if ")
        return finish(Node(id: id, kind: .branch(conditions, otherwise: elseNodes), location: location(span), updatesIt: false, label: label), reads: allReads)
    }

    static func isAsync(_ expression: BoundExpression) -> Bool {
        switch expression.kind {
        case .action, .find: return true
        default: return false
        }
    }

    static func containsAction(_ expression: BoundExpression) -> Bool {
        switch expression.kind {
        case .action, .find: return true
        case .constant, .local, .it, .error: return false
        case .filter(let list, _), .sort(let list, _), .limit(let list, _), .group(let list, _, _): return containsAction(list)
        case .findFiles(let search): return [search.folder, search.limit].contains { $0.map(containsAction) ?? false }
        case .each(let list, let value), .otherwise(let list, let value): return containsAction(list) || containsAction(value)
        case .list(let items), .function(_, let items): return items.contains(where: containsAction)
        case .record(_, let values): return values.contains(where: containsAction)
        case .interpolation(let parts):
            return parts.contains { if case .value(let value) = $0 { return containsAction(value) }; return false }
        case .property(let base, _), .negate(let base), .not(let base): return containsAction(base)
        case .index(let base, let index): return containsAction(base) || containsAction(index)
        case .arithmetic(_, let a, let b), .compare(_, let a, let b), .and(let a, let b), .or(let a, let b):
            return containsAction(a) || containsAction(b)
        case .between(let a, let b, let c): return containsAction(a) || containsAction(b) || containsAction(c)
        }
    }

    // MARK: Nodes

    mutating func claimID() -> Int {
        defer { nextID += 1 }
        return nextID
    }

    mutating func takeReads() -> [(Int, String)] {
        defer { reads = [] }
        return reads
    }

    mutating func node(_ kind: Node.Kind, _ span: Span, label: String, updatesIt: Bool = false, writes: [Int] = []) -> Node {
        let id = claimID()
        let made = finish(Node(id: id, kind: kind, location: location(span), updatesIt: updatesIt, label: label), reads: takeReads())
        for slot in writes { writers[slot] = id }
        return made
    }

    /// Records the node's incoming edges and, if it sets `it`, that it does.
    mutating func finish(_ node: Node, reads: [(Int, String)]) -> Node {
        for (from, label) in reads where from != node.id {
            let edge = Edge(from: from, to: node.id, label: label)
            if seenEdges.insert(edge).inserted { edges.append(edge) }
        }
        if node.updatesIt { itWriter = node.id }
        return node
    }

    mutating func actionNode(_ action: BoundAction, resultSlots: [Int], updatesIt: Bool, into nodes: inout [Node]) -> Node {
        var arguments: [Expr?] = []
        for (index, argument) in action.arguments.enumerated() {
            guard let argument else {
                arguments.append(nil)
                continue
            }
            if index == 0, action.piped, Self.isAsync(argument) {
                arguments.append(lowerHoisted(argument, label: "pipe", into: &nodes))
            } else {
                arguments.append(lower(argument, into: &nodes))
            }
        }
        let locations = action.arguments.map { $0.map { location($0.span) } }
        // An entity parameter given as text, or asked for because it is missing, is found by its type's search.
        let lookups = zip(action.intent.parameters, action.arguments).map { parameter, argument -> QueryDescriptor? in
            guard case .entity(let type) = parameter.type, let query = registry.query(for: type), query.canFindByText else { return nil }
            guard let argument else { return query }
            return [.text, .any, .list(.text), .list(.any)].contains(argument.type) ? query : nil
        }
        let intent = shortcuts[action.intent.name] ?? action.intent
        let made = node(.action(ActionCall(intent: intent, arguments: arguments, argumentLocations: locations,
                                           textLookups: lookups, resultSlots: resultSlots, summary: summary(action))),
                        action.span, label: summary(action), updatesIt: updatesIt, writes: resultSlots)
        return made
    }

    mutating func findNode(_ find: BoundFind, resultSlots: [Int], updatesIt: Bool, into nodes: inout [Node]) -> Node {
        let source: FindCall.Source
        switch find.source {
        case .all: source = .all
        case .suggested: source = .suggested
        case .matching(let text): source = .matching(lower(text, into: &nodes))
        case .pushed(let comparisons, let mode, let sorts, let pushesLimit):
            source = .pushed(comparisons.map { ($0.property, $0.op, lower($0.value, into: &nodes)) }, mode, sorts, pushesLimit: pushesLimit)
        }
        let call = FindCall(query: find.query, source: source, condition: find.condition.map { lower($0, into: &nodes) },
                            sort: find.sort.map { SortPlan(path: $0.path, descending: $0.descending, ignoringCase: $0.ignoringCase) },
                            limit: find.limit.map { lower($0, into: &nodes) }, grouping: find.grouping,
                            resultSlots: resultSlots, summary: find.summary)
        return node(.find(call), find.span, label: find.summary, updatesIt: updatesIt, writes: resultSlots)
    }

    mutating func lower(_ condition: BoundCondition, into nodes: inout [Node]) -> ConditionPlan {
        switch condition {
        case .compare(let path, _, let op, let value): return .compare(path: path, op, lower(value, into: &nodes))
        case .and(let a, let b): return .and(lower(a, into: &nodes), lower(b, into: &nodes))
        case .or(let a, let b): return .or(lower(a, into: &nodes), lower(b, into: &nodes))
        case .not(let a): return .not(lower(a, into: &nodes))
        }
    }

    /// The intent's summary sentence with the script's arguments in place of its parameters.
    func summary(_ action: BoundAction) -> String {
        // A summary that follows the values reads the constants the script gives; another argument is not known yet,
        // and the first sentence it may have stands for them all. A single sentence asks for no value.
        let sentence = action.intent.summary.sentence { name in
            guard let index = action.intent.parameterIndex(named: name) else { return .null }
            guard let argument = action.arguments[index] else { return action.intent.parameters[index].defaultValue ?? .null }
            if case .constant(let value) = argument.kind { return value }
            return nil
        }
        return sentence.filled { name in
            guard let index = action.intent.parameterIndex(named: name) else { return name }
            if let argument = action.arguments[index] {
                if index == 0, action.piped { return "the piped value" }
                if case .constant(let value) = argument.kind { return ValueFormatter.inline(value) }
                return source(argument.span)
            }
            return action.intent.parameters[index].defaultValue.map(ValueFormatter.inline)
        }
    }

    // MARK: Expressions

    /// An action inside an expression runs as a node of its own before the expression; its result is
    /// read from a temporary slot.
    mutating func lowerHoisted(_ expression: BoundExpression, label: String, into nodes: inout [Node]) -> Expr {
        let outer = takeReads()
        let slot = slotNames.count
        slotNames.append("$\(slot)")
        temporaryLabels[slot] = label
        switch expression.kind {
        case .action(let action): nodes.append(actionNode(action, resultSlots: [slot], updatesIt: false, into: &nodes))
        case .find(let find): nodes.append(findNode(find, resultSlots: [slot], updatesIt: false, into: &nodes))
        default:
            reads = outer
            return lower(expression, into: &nodes)
        }
        reads = outer
        reads.append((writers[slot]!, label))
        return .local(slot)
    }

    /// `a otherwise b` where an action runs in either side: a `try` node whose blocks compute each side into a
    /// temporary, so that an action's failure is caught as an expression's is.
    mutating func lowerAttempt(_ attempt: BoundExpression, _ fallback: BoundExpression, span: Span, into nodes: inout [Node]) -> Expr {
        let outer = takeReads()
        let slot = slotNames.count
        slotNames.append("$\(slot)")
        temporaryLabels[slot] = "result"
        let errorSlot = slotNames.count
        slotNames.append("$\(errorSlot)")
        let id = claimID()
        var body: [Node] = []
        let first = lower(attempt, into: &body)
        body.append(node(.assign(slot: slot, first), attempt.span, label: source(attempt.span), writes: [slot]))
        var handler: [Node] = []
        let second = lower(fallback, into: &handler)
        handler.append(node(.assign(slot: slot, second), fallback.span, label: source(fallback.span), writes: [slot]))
        nodes.append(finish(Node(id: id, kind: .attempt(body: body, errorSlot: errorSlot, otherwise: handler), location: location(span),
                                 updatesIt: false, label: "try " + source(span)), reads: []))
        writers[slot] = id
        reads = outer
        reads.append((id, "result"))
        return .local(slot)
    }

    mutating func lower(_ expression: BoundExpression, into nodes: inout [Node]) -> Expr {
        switch expression.kind {
        case .constant(let value): return .constant(value)
        case .local(let slot, let name):
            if let writer = writers[slot] { reads.append((writer, temporaryLabels[slot] ?? name)) }
            return .local(slot)
        case .it:
            if let itWriter { reads.append((itWriter, "it")) }
            return .it
        case .list(let items): return .list(items.map { lower($0, into: &nodes) })
        case .record(let keys, let values): return .record(keys: keys, values: values.map { lower($0, into: &nodes) })
        case .interpolation(let parts):
            return .interpolation(parts.map { part in
                switch part {
                case .literal(let text): return .literal(text)
                case .value(let value): return .value(lower(value, into: &nodes))
                }
            })
        case .property(let base, let access):
            if case .local(let slot, let name) = base.kind, let writer = writers[slot] {
                reads.append((writer, "\(temporaryLabels[slot] ?? name).\(access)"))
                return .property(.local(slot), access)
            }
            return .property(lower(base, into: &nodes), access)
        case .index(let base, let index): return .index(lower(base, into: &nodes), lower(index, into: &nodes))
        case .negate(let operand): return .negate(lower(operand, into: &nodes))
        case .not(let operand): return .not(lower(operand, into: &nodes))
        case .arithmetic(let op, let left, let right): return .arithmetic(op, lower(left, into: &nodes), lower(right, into: &nodes))
        case .compare(let op, let left, let right): return .compare(op, lower(left, into: &nodes), lower(right, into: &nodes))
        case .between(let value, let low, let high):
            return .between(lower(value, into: &nodes), lower(low, into: &nodes), lower(high, into: &nodes))
        case .and(let left, let right): return .and(lower(left, into: &nodes), lower(right, into: &nodes))
        case .or(let left, let right): return .or(lower(left, into: &nodes), lower(right, into: &nodes))
        case .function(let function, let arguments): return .function(function, arguments.map { lower($0, into: &nodes) })
        case .action, .find: return lowerHoisted(expression, label: "result", into: &nodes)
        case .filter(let list, let condition): return .filter(lower(list, into: &nodes), lower(condition, into: &nodes))
        case .sort(let list, let keys): return .sort(lower(list, into: &nodes), keys.map { SortPlan(path: $0.path, descending: $0.descending, ignoringCase: $0.ignoringCase) })
        case .limit(let list, let count): return .limit(lower(list, into: &nodes), lower(count, into: &nodes))
        case .findFiles(let search):
            return .findFiles(FileSearchPlan(
                folder: search.folder.map { lower($0, into: &nodes) }, recursive: search.recursive, hidden: search.hidden,
                condition: search.condition.map { lower($0, into: &nodes) },
                sort: search.sort.map { SortPlan(path: $0.path, descending: $0.descending, ignoringCase: $0.ignoringCase) },
                limit: search.limit.map { lower($0, into: &nodes) }))
        case .each(let list, let value): return .each(lower(list, into: &nodes), lower(value, into: &nodes))
        case .group(let list, let path, let grouping): return .group(lower(list, into: &nodes), path, grouping)
        case .otherwise(let attempt, let fallback):
            if Self.containsAction(attempt) || Self.containsAction(fallback) { return lowerAttempt(attempt, fallback, span: expression.span, into: &nodes) }
            return .otherwise(lower(attempt, into: &nodes), lower(fallback, into: &nodes))
        case .error: return .constant(.null)
        }
    }
}
