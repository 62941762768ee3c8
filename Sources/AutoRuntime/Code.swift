import AutoIntents

/// A graph's body as one flat array of instructions, which `Run.advance` runs and `Run.execute` drives. Control flow
/// (`if`, the three loops, `try`, `break`, `continue`, `stop`, `return`) is written here once, as jumps, whether or
/// not anything in it awaits: an instruction that awaits hands its node to the driver, which awaits it and goes on
/// at the next instruction, so a loop holding one awaiting call is the same loop as one that holds none.
///
/// Instructions hold unmanaged references (to nodes, and to the loops and conditions made here), so reading one is
/// a copy of plain words with no reference counted; the code keeps the loops and conditions alive, and the graph
/// that owns the code keeps its nodes.
final class Code: @unchecked Sendable {
    /// Immutable after `init`; freed with the code.
    let instructions: UnsafeMutableBufferPointer<Instruction>
    /// The `try` blocks, innermost first: where an error thrown at an instruction goes.
    let handlers: [Handler]
    /// Each loop's state, in the frame (`Frame.loops`): one per loop of the body.
    let loopCount: Int
    /// What the instructions reference without counting: kept alive here.
    private let owned: [AnyObject]

    init(_ body: [Node]) {
        var builder = Builder()
        builder.emit(body)
        builder.instructions.append(.end)
        instructions = .allocate(capacity: builder.instructions.count)
        _ = instructions.initialize(from: builder.instructions)
        handlers = builder.handlers
        loopCount = builder.loopCount
        owned = builder.owned
    }

    deinit {
        instructions.deinitialize()
        instructions.deallocate()
    }

    var awaitedNodes: [Node] {
        instructions.compactMap { instruction in
            switch instruction {
            case .await(let node), .awaitSite(let node, _): node.takeUnretainedValue()
            default: nil
            }
        }
    }

    /// The innermost `try` whose body holds the instruction at `pc`.
    func handler(at pc: Int) -> Handler? {
        handlers.first { $0.body.contains(pc) }
    }
}

/// One step of a body's code. Every payload is a plain value or an unmanaged reference (see `Code`).
enum Instruction {
    /// A statement that runs without awaiting (`set`, `set x = x + more` on a list or a text, an expression):
    /// counted, then its node's step.
    case run(Unmanaged<Node>)
    /// A call of an intent that runs immediately: as `run`, and then the dialogs it could not show at once are shown
    /// by the driver. The driver runs it instead when the run is traced or a list is piped into it.
    case call(Unmanaged<Node>)
    /// A node that awaits (a call of an awaiting intent, one that asks, a `find`): counted, then run by the driver.
    case await(Unmanaged<Node>)
    /// A call of an awaiting intent through its site (`AwaitingSite`): counted, then run by the driver.
    case awaitSite(Unmanaged<Node>, Unmanaged<ActionCall>)
    /// `set x = y op n` on Ints, in place; any other value goes through the node's step.
    case intUpdate(Unmanaged<IntUpdate>)
    /// `intUpdate` for `+` and `-` (as `+` of the negated number), the shapes of counters: no operator to choose.
    case intAdd(Unmanaged<IntUpdate>)
    /// A control statement entered: counted as one step, as every statement is.
    case enter(Unmanaged<Node>)
    /// One pass of a `while`: counted.
    case pass(Unmanaged<Node>)
    case jump(to: Int)
    /// Goes on when the condition holds, jumps when it doesn't.
    case jumpUnless(Unmanaged<Condition>, to: Int)
    /// `repeat n times`: the count evaluated; no pass jumps to the loop's end, otherwise the first pass is counted. A
    /// body of one statement that never pauses runs every pass here (`Loop.single`), and so for `forStart`.
    case repeatStart(Unmanaged<Loop>)
    /// After a pass of `repeat`: the next one, counted, or on past the loop.
    case repeatNext(Unmanaged<Loop>)
    /// `for x in list`: the list evaluated and kept in the loop's state; its first element, or the loop's end.
    case forStart(Unmanaged<Loop>)
    /// After a pass of `for`: the next element, counted, or on past the loop.
    case forNext(Unmanaged<Loop>)
    /// A `for` loop left: its list is let go of.
    case forEnd(loop: Int)
    /// `stop`, counted: the body ends with `it` as its value.
    case stop(Unmanaged<Node>)
    /// `return`, counted: the value is kept in the frame and the body ends.
    case returnValue(Unmanaged<Node>)
    /// The end of the body.
    case end
}

/// A `try` block: errors of the script or of an intent thrown while running `body` go to `handler`, with the message
/// in `errorSlot`.
struct Handler {
    let body: Range<Int>
    let handler: Int
    let errorSlot: Int
}

/// A loop's parts, for its instructions.
final class Loop {
    let node: Node
    /// `repeat`'s count or `for`'s list.
    let expression: Expr
    /// Its state in the frame (`Frame.loops`).
    let index: Int
    /// The variable `for` sets; unused by `repeat`.
    let variable: Int
    /// The first instruction of the body, and the first after the loop.
    let body: Int
    let exit: Int
    /// The body, when it is one statement that never pauses (a `set`, an expression): the loop's first instruction
    /// then runs every pass itself, with no instruction dispatched per pass. The body's instructions stay in place
    /// for `break`'s and `continue`'s targets, unused.
    let single: Instruction?
    /// The body, when it is one call through an awaiting site: the loop's passes then run in `Run.runPasses`,
    /// from call to call without a return to `advance`.
    let site: (node: Unmanaged<Node>, call: Unmanaged<ActionCall>)?

    init(node: Node, expression: Expr, index: Int, variable: Int, body: Int, exit: Int, single: Instruction?,
         site: (node: Unmanaged<Node>, call: Unmanaged<ActionCall>)?) {
        self.node = node
        self.expression = expression
        self.index = index
        self.variable = variable
        self.body = body
        self.exit = exit
        self.single = single
        self.site = site
    }
}

/// The condition of an `if` branch or a `while`.
final class Condition {
    let node: Node
    let evaluate: Expr.Evaluator
    /// What the condition is, for the error when its value is not a Bool: "the condition of 'if'".
    let context: String

    init(node: Node, expression: Expr, context: String) {
        self.node = node
        evaluate = expression.evaluator
        self.context = context
    }
}

/// `set x = y op n`, with `y` a variable and `n` a whole number: the shape of most counters in loops. For `intAdd`,
/// `constant` is the number added (negated for `-`).
final class IntUpdate {
    let node: Node
    let target: Int
    let source: Int
    let op: ArithmeticOperator
    let constant: Int
    let updatesIt: Bool

    init(node: Node, target: Int, source: Int, op: ArithmeticOperator, constant: Int) {
        self.node = node
        self.target = target
        self.source = source
        self.op = op
        self.constant = constant
        updatesIt = node.updatesIt
    }
}

/// Lays out a body's nodes as instructions, in order, with the jumps of its control flow.
private struct Builder {
    var instructions: [Instruction] = []
    var handlers: [Handler] = []
    var loopCount = 0
    var owned: [AnyObject] = []
    /// For each loop being laid out, innermost last: where its `break`s and `continue`s jump from.
    var loops: [(breaks: [Int], continues: [Int])] = []

    var next: Int { instructions.count }

    mutating func emit(_ nodes: [Node]) {
        for node in nodes { emit(node) }
    }

    mutating func emit(_ node: Node) {
        let reference = Unmanaged.passUnretained(node)
        switch node.kind {
        case .action(let call):
            if call.runsImmediately {
                instructions.append(.call(reference))
            } else if call.awaitingSite != nil {
                // The node's kind holds the call, so the graph keeps it as it keeps the node.
                instructions.append(.awaitSite(reference, Unmanaged.passUnretained(call)))
            } else {
                instructions.append(.await(reference))
            }
        case .find:
            instructions.append(.await(reference))
        case .assign(let slot, let expression):
            if case .slotArithmetic(let op, let source, let constant, _) = expression.kind {
                // `x - n` is `x + -n`, with the same overflow, for every n but the one whose negation overflows.
                let added: Int? = op == .add ? constant : op == .subtract && constant != .min ? -constant : nil
                let update = IntUpdate(node: node, target: slot, source: source, op: op, constant: added ?? constant)
                owned.append(update)
                let reference = Unmanaged.passUnretained(update)
                instructions.append(added == nil ? .intUpdate(reference) : .intAdd(reference))
            } else {
                instructions.append(.run(reference))
            }
        case .append, .evaluate:
            instructions.append(.run(reference))
        case .branch(let branches, let otherwise):
            instructions.append(.enter(reference))
            var ends: [Int] = []
            for branch in branches {
                let test = placeholder()
                emit(branch.body)
                ends.append(placeholder())
                instructions[test] = .jumpUnless(condition(node, branch.condition, "the condition of 'if'"), to: next)
            }
            if let otherwise { emit(otherwise) }
            for end in ends { instructions[end] = .jump(to: next) }
        case .repeatTimes(let count, let body):
            instructions.append(.enter(reference))
            let start = placeholder()
            let (next, exit) = emitLoopBody(body)
            let loop = makeLoop(node, count, variable: -1, body: start + 1, exit: exit)
            instructions[start] = .repeatStart(loop)
            instructions[next] = .repeatNext(loop)
        case .forEach(let slot, let sequence, let body):
            instructions.append(.enter(reference))
            let start = placeholder()
            let (next, exit) = emitLoopBody(body)
            let loop = makeLoop(node, sequence, variable: slot, body: start + 1, exit: exit)
            instructions[start] = .forStart(loop)
            instructions[next] = .forNext(loop)
            instructions.append(.forEnd(loop: loop.takeUnretainedValue().index))
        case .whileLoop(let conditionNodes, let condition, let body):
            instructions.append(.enter(reference))
            let top = next
            instructions.append(.pass(reference))
            emit(conditionNodes)
            let test = placeholder()
            loops.append(([], []))
            emit(body)
            instructions.append(.jump(to: top))
            let exits = loops.removeLast()
            instructions[test] = .jumpUnless(self.condition(node, condition, "the condition of 'while'"), to: next)
            for at in exits.breaks { instructions[at] = .jump(to: next) }
            for at in exits.continues { instructions[at] = .jump(to: top) }
        case .attempt(let body, let errorSlot, let handler):
            instructions.append(.enter(reference))
            let start = next
            emit(body)
            let skip = placeholder()
            handlers.append(Handler(body: start..<skip, handler: next, errorSlot: errorSlot))
            emit(handler)
            instructions[skip] = .jump(to: next)
        case .breakLoop:
            instructions.append(.enter(reference))
            // The checker keeps `break` and `continue` inside loops; outside one, they would end nothing.
            if loops.isEmpty { instructions.append(.jump(to: next + 1)) } else { loops[loops.count - 1].breaks.append(placeholder()) }
        case .continueLoop:
            instructions.append(.enter(reference))
            if loops.isEmpty { instructions.append(.jump(to: next + 1)) } else { loops[loops.count - 1].continues.append(placeholder()) }
        case .stop:
            instructions.append(.stop(reference))
        case .returnValue:
            instructions.append(.returnValue(reference))
        }
    }

    /// A loop's body followed by the instruction that starts its next pass (left for the caller to write); `break`s jump
    /// past that instruction and `continue`s to it. Returns where that instruction is and the first one after it.
    private mutating func emitLoopBody(_ body: [Node]) -> (next: Int, exit: Int) {
        loops.append(([], []))
        emit(body)
        let next = placeholder()
        let exits = loops.removeLast()
        for at in exits.breaks { instructions[at] = .jump(to: next + 1) }
        for at in exits.continues { instructions[at] = .jump(to: next) }
        return (next, next + 1)
    }

    /// A loop whose body runs from `body` to its next-pass instruction, just before `exit`. A body of one instruction
    /// is the loop's `single` when `Run.runSingle` runs it, its `site` when it is a call through an awaiting site.
    private mutating func makeLoop(_ node: Node, _ expression: Expr, variable: Int, body: Int, exit: Int) -> Unmanaged<Loop> {
        var single: Instruction?
        var site: (node: Unmanaged<Node>, call: Unmanaged<ActionCall>)?
        switch exit == body + 2 ? instructions[body] : nil {
        case .some(.run), .some(.intAdd), .some(.intUpdate): single = instructions[body]
        case .some(.awaitSite(let node, let call)): site = (node, call)
        default: break
        }
        let loop = Loop(node: node, expression: expression, index: loopCount, variable: variable, body: body, exit: exit,
                        single: single, site: site)
        loopCount += 1
        owned.append(loop)
        return Unmanaged.passUnretained(loop)
    }

    private mutating func condition(_ node: Node, _ expression: Expr, _ context: String) -> Unmanaged<Condition> {
        let condition = Condition(node: node, expression: expression, context: context)
        owned.append(condition)
        return Unmanaged.passUnretained(condition)
    }

    /// An instruction to be written once its target is known.
    private mutating func placeholder() -> Int {
        instructions.append(.end)
        return instructions.count - 1
    }
}
