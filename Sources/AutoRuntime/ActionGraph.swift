import AutoIntents

/// A compiled script or shortcut: nodes are resolved intent calls and control steps, edges are the data
/// that flows between them. The executor runs `body`; `auto graph` draws nodes and edges.
package final class ActionGraph: Sendable {
    package let name: String
    /// The top-level steps, in order. Control nodes hold their own blocks.
    package let body: [Node]
    package let edges: [Edge]
    /// Variable names by slot, for traces and DOT; temporaries are named `$1`, `$2`, ….
    package let slotNames: [String]
    /// Whether the last top-level statement produces a value worth printing (an expression or an action,
    /// not `set`, `show` or a control statement).
    package let endsWithValue: Bool
    /// The body laid out as the executor runs it. Its instructions reference `body`'s nodes, which the graph keeps.
    let code: Code

    package init(name: String, body: [Node], edges: [Edge], slotNames: [String], endsWithValue: Bool) {
        self.name = name
        self.body = body
        self.edges = edges
        self.slotNames = slotNames
        self.endsWithValue = endsWithValue
        code = Code(body)
    }

    /// The nodes the executor awaits (`Instruction.await`), in order: calls of intents that await or ask, and finds.
    /// Every other node runs without an async call.
    package var awaitedNodes: [Node] { code.awaitedNodes }

    /// Every node, depth first, in source order.
    package var allNodes: [Node] {
        var result: [Node] = []
        func visit(_ nodes: [Node]) {
            for node in nodes {
                result.append(node)
                for block in node.blocks { visit(block) }
            }
        }
        visit(body)
        return result
    }
}

package final class Node: Sendable {
    package enum Kind: Sendable {
        case action(ActionCall)
        case find(FindCall)
        /// `set name = value`, or the value of an expression statement kept in a slot.
        case assign(slot: Int, Expr)
        /// `set name = name + value` on a list or a text: added in place (`Run.append`).
        case append(slot: Int, Expr)
        /// An expression statement: its value becomes `it`.
        case evaluate(Expr)
        case branch([(condition: Expr, body: [Node])], otherwise: [Node]?)
        case forEach(slot: Int, sequence: Expr, body: [Node])
        case repeatTimes(count: Expr, body: [Node])
        /// `while`: the nodes of the condition's actions, run before each test of it, then the condition, then the body.
        case whileLoop(conditionNodes: [Node], condition: Expr, body: [Node])
        /// `try { … } otherwise { … }`: when the body fails with an error of the script or an intent, the
        /// message goes in `errorSlot` and the second block runs.
        case attempt(body: [Node], errorSlot: Int, otherwise: [Node])
        case breakLoop
        case continueLoop
        case stop
        case returnValue(Expr?)
    }

    package let id: Int
    package let kind: Kind
    package let location: SourceLocation
    /// Whether this node's value becomes `it`: the last node of each statement.
    package let updatesIt: Bool
    /// What the node does in the script's own words, for graphs and traces: "Open Emma", "set x = x + 1".
    package let label: String
    /// How the node runs when it doesn't await (`Node+Step`).
    let step: Step

    package init(id: Int, kind: Kind, location: SourceLocation, updatesIt: Bool, label: String) {
        self.id = id
        self.kind = kind
        self.location = location
        self.updatesIt = updatesIt
        self.label = label
        step = Self.step(for: kind, updatesIt: updatesIt)
    }

    package var blocks: [[Node]] { Self.blocks(of: kind) }

    static func blocks(of kind: Kind) -> [[Node]] {
        switch kind {
        case .branch(let branches, let otherwise): return branches.map(\.body) + (otherwise.map { [$0] } ?? [])
        case .forEach(_, _, let body), .repeatTimes(_, let body): return [body]
        case .whileLoop(let conditionNodes, _, let body): return [conditionNodes, body]
        case .attempt(let body, _, let handler): return [body, handler]
        default: return []
        }
    }
}

/// One call of an intent with its arguments bound to parameters by index. A class, as is `FindCall`: the
/// executor reads it on every run of its node, and one reference is cheaper to copy than its six fields.
package final class ActionCall: Sendable {
    package let intent: IntentDescriptor
    /// One entry per parameter of `intent`; nil where the script gave none.
    package let arguments: [Expr?]
    /// Slots that receive the result: a pipe's temporary, `-> name`, the variable of a `set`.
    package let resultSlots: [Int]
    /// Where each argument is written, so an error while evaluating one points at it.
    package let argumentLocations: [SourceLocation?]
    /// For an entity parameter that may be given as text (`open book "Emma"`) or asked for: the query that finds it.
    package let textLookups: [QueryDescriptor?]
    /// The parameter summary with the script's arguments filled in, for graphs and traces.
    package let summary: String
    /// Whether the call runs without awaiting: the intent is an `ImmediateIntent`, and nothing before it
    /// awaits either (no question for a missing argument, no search for an entity named by text, no
    /// confirmation). Then the executor runs it without awaiting (`Instruction.call`), a loop of such calls included.
    package let runsImmediately: Bool
    /// Whether the intent's input takes one value, so that a list given to it runs the call once per element:
    /// known when the call is built, so that other calls don't look at their first argument.
    let inputTakesOneValue: Bool
    /// Evaluates the arguments (`ActionCall+Arguments`).
    let evaluateArguments: ArgumentsStep
    /// How the intent runs, taken out of the descriptor once rather than on every call (a native intent's is made on
    /// its first use).
    let implementation: IntentDescriptor.Implementation
    /// An immediate intent's `performNow`, taken out of the descriptor once rather than on every call.
    let performNow: (@Sendable ([Value?], IntentContext) throws -> IntentOutput)?
    /// The call through its own call site, when the intent is a native `ImmediateIntent` that runs immediately
    /// here (`ActionCall+Bound`); nil otherwise.
    let boundStep: BoundStep?
    /// The call through its own awaiting call site, when the intent is a native one that awaits and nothing before it
    /// does (`ActionCall+AwaitingSite`); nil otherwise.
    let awaitingSite: AwaitingSite?
    /// Whether the call goes through a call site of its own (`boundStep` or `awaitingSite`), in runs that neither trace
    /// nor only say.
    package var callsThroughSite: Bool { boundStep != nil || awaitingSite != nil }

    package init(intent: IntentDescriptor, arguments: [Expr?], argumentLocations: [SourceLocation?], textLookups: [QueryDescriptor?],
                resultSlots: [Int], summary: String) {
        self.intent = intent
        self.arguments = arguments
        self.argumentLocations = argumentLocations
        self.textLookups = textLookups
        self.resultSlots = resultSlots
        self.summary = summary
        inputTakesOneValue = intent.parameters.first?.type.takesOneValue ?? false
        evaluateArguments = Self.argumentsStep(intent, arguments, argumentLocations, textLookups)
        implementation = intent.implementation
        // Nothing awaits before the intent runs: no question for a missing argument, no search, no confirmation.
        let needsNothing = intent.sideEffect != .destructive && intent.parameters.indices.allSatisfy { index in
            let parameter = intent.parameters[index]
            let asked = arguments[index] == nil && parameter.isRequired && parameter.defaultValue == nil
            return !asked && textLookups[index] == nil
        }
        if case .immediate(let performNow) = implementation {
            self.performNow = performNow
            runsImmediately = needsNothing
        } else {
            performNow = nil
            runsImmediately = false
        }
        boundStep = runsImmediately ? Self.boundStep(intent, arguments, argumentLocations) : nil
        if case .native = implementation, needsNothing {
            awaitingSite = AwaitingSite(intent, arguments, argumentLocations)
        } else {
            awaitingSite = nil
        }
    }
}

/// `find books …`, planned: what the host's query is asked for and what the engine does with the answer.
package final class FindCall: Sendable {
    package enum Source: Sendable {
        case all
        case suggested
        case matching(Expr)
        /// Comparisons, sort and (when `pushesLimit`) the limit, pushed down to a property query.
        case pushed([(property: String, op: ComparisonOperator, value: Expr)], ComparatorMode, [QuerySort], pushesLimit: Bool)
    }
    package let query: QueryDescriptor
    package let source: Source
    /// Evaluated by the engine on what the host returned.
    package let condition: ConditionPlan?
    package let sort: [SortPlan]
    package let limit: Expr?
    /// `| count by p` or `| group by p` right after the find, on one property of the entity (by index): done on what
    /// the host returned, before its entities are values (`FindRequest.group`). The find's result is then the groups.
    package let grouping: (property: Int, Grouping)?
    package let resultSlots: [Int]
    /// What runs where, for `auto graph`: "host: author == "X" · engine: sort by published desc, limit 3".
    package let summary: String

    package init(query: QueryDescriptor, source: Source, condition: ConditionPlan?, sort: [SortPlan], limit: Expr?,
                grouping: (property: Int, Grouping)? = nil, resultSlots: [Int], summary: String) {
        self.query = query
        self.source = source
        self.condition = condition
        self.sort = sort
        self.limit = limit
        self.grouping = grouping
        self.resultSlots = resultSlots
        self.summary = summary
    }
}

/// Data flowing from one node to another, labelled with what it carries: a variable, a pipe, a property.
package struct Edge: Sendable, Hashable {
    package let from: Int
    package let to: Int
    package let label: String
    package init(from: Int, to: Int, label: String) {
        self.from = from
        self.to = to
        self.label = label
    }
}
