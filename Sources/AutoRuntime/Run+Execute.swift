import AutoIntents

/// The executor: a body's code (`Code`) run by one loop, `advance`, which never awaits, and driven by `execute`, which
/// awaits only what has to be awaited: a node that calls an awaiting intent, asks or finds, and dialogs the
/// interaction can't show at once. Control flow has one owner, the code's jumps, so a loop of plain statements pays
/// no async call per pass, and a loop that awaits is the same loop. A loop whose body is one awaiting call takes its
/// passes in `runPasses`, through the same steps from pass to pass (`nextRepeat`, `nextFor`) as `advance`.
extension Run {
    /// How a body ended.
    enum Ending {
        case normal
        case stop
        /// `return`: the value waits in the frame's `returned`.
        case returned
    }

    /// Why `advance` handed control back to its driver.
    enum Pause {
        case ended(Ending)
        /// The node at the current instruction awaits; it has been counted.
        case awaiting(Unmanaged<Node>)
        /// The same, for a call through its awaiting site.
        case awaitingSite(Unmanaged<Node>, Unmanaged<ActionCall>)
        /// A loop whose body is one call through an awaiting site (`Loop.site`), its first pass counted and at its body.
        case awaitingPasses(Unmanaged<Loop>)
        /// Dialogs wait to be shown (`pendingDialogs`); the current instruction is the next to run.
        case dialogs
    }

    /// Runs `code` in `frame` to its end, from the instruction `start`, and from `first` when `advance` already stopped
    /// there with it. An error of the script or of an intent goes to the innermost `try` around the instruction that
    /// threw, if any.
    ///
    /// Never inlined: inlined into `runScript`'s closure, it made each awaiting call a sixth slower (1M calls: 86–90 ms
    /// against 72–75).
    @inline(never)
    nonisolated(nonsending) func execute(_ code: Code, _ frame: Frame, from start: Int = 0, after first: Pause? = nil) async throws -> Ending {
        var pc = start
        var paused = first
        while true {
            do {
                let pause: Pause
                if let first = paused {
                    pause = first
                    paused = nil
                } else {
                    pause = try advance(code, frame, &pc)
                }
                switch pause {
                case .ended(let ending):
                    if !pendingDialogs.isEmpty { await showPendingDialogs() }
                    return ending
                case .awaiting(let node):
                    try await runAwaiting(node.takeUnretainedValue(), frame)
                    pc += 1
                    if !pendingDialogs.isEmpty { await showPendingDialogs() }
                case .awaitingSite(let node, let call):
                    try await runSite(node, call, frame)
                    pc += 1
                case .awaitingPasses(let loop):
                    try await runPasses(loop, frame)
                    pc = loop._withUnsafeGuaranteedRef { $0.exit }
                case .dialogs:
                    await showPendingDialogs()
                }
            } catch {
                try handle(error, code, frame, &pc)
            }
        }
    }

    /// `advance`, with failures going to their `try`s: runs until the body ends or something has to be awaited.
    func advanceHandling(_ code: Code, _ frame: Frame, _ pc: inout Int) throws -> Pause {
        while true {
            do {
                return try advance(code, frame, &pc)
            } catch {
                try handle(error, code, frame, &pc)
            }
        }
    }

    /// Sends a failure at `pc` to the innermost `try` around it (its message in the `try`'s slot, `pc` at its
    /// handler), or throws it on when there is none or the failure can't be caught (a limit, a cancellation).
    func handle(_ error: any Error, _ code: Code, _ frame: Frame, _ pc: inout Int) throws {
        guard let failure = error as? RuntimeError, failure.isCatchable, let handler = code.handler(at: pc) else { throw error }
        frame.slots[handler.errorSlot] = .text(failure.message)
        pc = handler.handler
    }

    /// Runs instructions from `pc` until the body ends or something has to be awaited; `pc` is then the instruction to
    /// go on from (or, when it throws, the one that threw).
    func advance(_ code: Code, _ frame: Frame, _ pc: inout Int) throws -> Pause {
        let instructions = code.instructions.baseAddress!
        let isScript = frame === scriptFrame
        var at = pc
        defer { pc = at }
        while true {
            switch instructions[at] {
            case .run(let node):
                try run(node, frame, isScript)
                at += 1
            case .intAdd(let update):
                try add(update, frame, isScript)
                at += 1
            case .intUpdate(let update):
                try apply(update, frame, isScript)
                at += 1
            case .call(let node):
                let ran = try node._withUnsafeGuaranteedRef { node in
                    try enter(node, isScript)
                    // A traced call is timed and recorded by the awaiting path.
                    return trace == nil ? try node.step(self, frame, node) : false
                }
                guard ran else { return .awaiting(node) }
                at += 1
                if !pendingDialogs.isEmpty { return .dialogs }
            case .await(let node):
                try node._withUnsafeGuaranteedRef { node in try enter(node, isScript) }
                return .awaiting(node)
            case .awaitSite(let node, let call):
                try node._withUnsafeGuaranteedRef { node in try enter(node, isScript) }
                return .awaitingSite(node, call)
            case .enter(let node):
                try node._withUnsafeGuaranteedRef { node in try enter(node, isScript) }
                at += 1
            case .pass(let node):
                try node._withUnsafeGuaranteedRef { node in try countStep(node) }
                at += 1
            case .jump(let target):
                at = target
            case .jumpUnless(let condition, let target):
                let holds = try condition._withUnsafeGuaranteedRef { condition in
                    try truth(condition.evaluate, frame, condition.node, condition.context)
                }
                at = holds ? at + 1 : target
            case .repeatStart(let loop):
                at = try loop._withUnsafeGuaranteedRef { loop in
                    let count = try repeatCount(loop.expression, frame, loop.node)
                    guard count > 0 else { return loop.exit }
                    if let single = loop.single {
                        try repeatSingle(single, count, loop.node, frame, isScript)
                        return loop.exit
                    }
                    frame.loops[loop.index].done = 0
                    frame.loops[loop.index].count = count
                    try countStep(loop.node)
                    return loop.body
                }
                if loop._withUnsafeGuaranteedRef({ $0.site != nil && $0.body == at }) { return .awaitingPasses(loop) }
            case .repeatNext(let loop):
                at = try loop._withUnsafeGuaranteedRef { loop in try nextRepeat(loop, frame) }
            case .forStart(let loop):
                at = try loop._withUnsafeGuaranteedRef { loop in
                    let list = try listToIterate(loop.expression, frame, loop.node)
                    guard !list.isEmpty else { return loop.exit }
                    if let single = loop.single {
                        for item in list {
                            try countStep(loop.node)
                            frame.slots[loop.variable] = item
                            try runSingle(single, frame, isScript)
                        }
                        return loop.exit
                    }
                    try countStep(loop.node)
                    frame.slots[loop.variable] = list[0]
                    frame.loops[loop.index] = LoopState(list: list, done: 1, count: list.count)
                    return loop.body
                }
                if loop._withUnsafeGuaranteedRef({ $0.site != nil && $0.body == at }) { return .awaitingPasses(loop) }
            case .forNext(let loop):
                at = try loop._withUnsafeGuaranteedRef { loop in try nextFor(loop, frame) }
            case .forEnd(let index):
                frame.loops[index].list = []
                at += 1
            case .stop(let node):
                try node._withUnsafeGuaranteedRef { node in try enter(node, isScript) }
                return .ended(.stop)
            case .returnValue(let node):
                try node._withUnsafeGuaranteedRef { node in
                    try enter(node, isScript)
                    guard case .returnValue(let expression) = node.kind else { return }
                    frame.returned = try expression.map { try evaluate($0, frame, node) } ?? .null
                }
                return .ended(.returned)
            case .end:
                return .ended(.normal)
            }
        }
    }

    /// After a pass of `repeat`: the next pass, counted, at the body, or the loop's end.
    @inline(__always)
    func nextRepeat(_ loop: Loop, _ frame: Frame) throws -> Int {
        let state = frame.loops.baseAddress! + loop.index
        state.pointee.done += 1
        guard state.pointee.done < state.pointee.count else { return loop.exit }
        try countStep(loop.node)
        return loop.body
    }

    /// After a pass of `for`: the next element in the loop's variable and the pass counted, at the body, or the
    /// loop's end.
    @inline(__always)
    func nextFor(_ loop: Loop, _ frame: Frame) throws -> Int {
        let state = frame.loops.baseAddress! + loop.index
        guard state.pointee.done < state.pointee.count else { return loop.exit }
        try countStep(loop.node)
        frame.slots[loop.variable] = state.pointee.list[state.pointee.done]
        state.pointee.done += 1
        return loop.body
    }

    /// The passes of a loop whose body is one call through an awaiting site (`Loop.site`), from its first, which
    /// `advance` counted: each pass as `execute` runs the call and `advance` goes on to the next (`nextRepeat`,
    /// `nextFor`), without leaving this function in between. Through `advance`, each pass also returned a `Pause` and
    /// re-entered `execute`'s resumption: 12 ns a call more (40M awaiting calls: 2.21 against 1.73 s).
    @inline(never)
    nonisolated(nonsending) func runPasses(_ loop: Unmanaged<Loop>, _ frame: Frame) async throws {
        let isScript = frame === scriptFrame
        let (site, body, isFor) = loop._withUnsafeGuaranteedRef { ($0.site, $0.body, $0.variable >= 0) }
        guard let (node, call) = site else { return }
        while true {
            try node._withUnsafeGuaranteedRef { node in try enter(node, isScript) }
            try await runSite(node, call, frame)
            let next = try loop._withUnsafeGuaranteedRef { loop in isFor ? try nextFor(loop, frame) : try nextRepeat(loop, frame) }
            if next != body { return }
        }
    }

    /// A call through its awaiting site, or along the awaiting path when the site can't take its values, then the
    /// dialogs it left. Inlined where it runs: each async call allocates its frame.
    @inline(__always)
    nonisolated(nonsending) func runSite(_ node: Unmanaged<Node>, _ call: Unmanaged<ActionCall>, _ frame: Frame) async throws {
        let ran = callsThroughSites ? try await callSite(call, frame, node) : false
        if !ran { try await runAwaiting(node.takeUnretainedValue(), frame) }
        if !pendingDialogs.isEmpty { await showPendingDialogs() }
    }

    /// A statement that runs without awaiting, through its step.
    @inline(__always)
    func run(_ node: Unmanaged<Node>, _ frame: Frame, _ isScript: Bool) throws {
        try node._withUnsafeGuaranteedRef { node in
            try enter(node, isScript)
            _ = try node.step(self, frame, node)
        }
    }

    @inline(__always)
    func add(_ update: Unmanaged<IntUpdate>, _ frame: Frame, _ isScript: Bool) throws {
        try update._withUnsafeGuaranteedRef { update in
            try enter(update.node, isScript)
            let source = frame.slots.baseAddress! + update.source
            if case .int(let x) = source.pointee, case (let result, false) = x.addingReportingOverflow(update.constant) {
                store(result, update, frame)
            } else {
                _ = try update.node.step(self, frame, update.node)
            }
        }
    }

    @inline(__always)
    func apply(_ update: Unmanaged<IntUpdate>, _ frame: Frame, _ isScript: Bool) throws {
        try update._withUnsafeGuaranteedRef { update in
            try enter(update.node, isScript)
            if case .int(let x) = frame.slots[update.source], let result = Operations.intArithmetic(update.op, x, update.constant) {
                store(result, update, frame)
            } else {
                _ = try update.node.step(self, frame, update.node)
            }
        }
    }

    /// `repeat count times` over a body of one statement that never pauses (`Loop.single`): a loop of its own for each
    /// kind of statement, so that the counter and most of what a pass reads stay in registers. For `set x = x + c` and
    /// the other updates of an Int by a constant, the passes that can't reach the next check of the limits run in
    /// `quietPasses`; the pass that reaches it, or that the fast path can't take, runs as any pass does.
    @inline(never)
    func repeatSingle(_ single: Instruction, _ count: Int, _ node: Node, _ frame: Frame, _ isScript: Bool) throws {
        switch single {
        case .intAdd(let update):
            try repeatUpdate(update, count, node, frame, isScript, pass: add) { $0.addingReportingOverflow($1) }
        case .intUpdate(let update):
            let op = update._withUnsafeGuaranteedRef { $0.op }
            try repeatUpdate(update, count, node, frame, isScript, pass: apply) { x, c in
                Operations.intArithmetic(op, x, c).map { ($0, false) } ?? (0, true)
            }
        default:
            for _ in 0..<count {
                try countStep(node)
                try runSingle(single, frame, isScript)
            }
        }
    }

    /// `count` passes of a loop whose body is `update`: the quiet ones in `quietPasses` with `next` (the statement's
    /// arithmetic), the others through `pass` (`add` or `apply`), as any pass runs.
    @inline(__always)
    func repeatUpdate(_ update: Unmanaged<IntUpdate>, _ count: Int, _ node: Node, _ frame: Frame, _ isScript: Bool,
                      pass: (Unmanaged<IntUpdate>, Frame, Bool) throws -> Void,
                      _ next: (Int, Int) -> (partialValue: Int, overflow: Bool)) throws {
        var done = 0
        while done < count {
            done &+= update._withUnsafeGuaranteedRef { update in quietPasses(update, count &- done, frame, isScript, next) }
            guard done < count else { break }
            try countStep(node)
            try pass(update, frame, isScript)
            done &+= 1
        }
    }

    /// Up to `passes` passes of a loop whose body is `update`, as many as end before the next check of the limits
    /// (`nextCheck`: two steps a pass, the loop's and the statement's), stopping before one whose `next` overflows or
    /// that would write over something other than an Int; says how many it ran, and the caller runs the next pass as
    /// any pass runs. Their steps are counted once at the end and what a statement marks (`dialogsBeforeStatement`)
    /// once at the start, as nothing in these passes shows a dialog, so a pass writes only its variable (and `it`).
    /// When each pass also wrote the run's step count, 1M passes took 2.8–3.1 ms, and twice that in some processes.
    @inline(__always)
    func quietPasses(_ update: IntUpdate, _ passes: Int, _ frame: Frame, _ isScript: Bool,
                     _ next: (Int, Int) -> (partialValue: Int, overflow: Bool)) -> Int {
        let quiet = min(passes, max(0, (nextCheck &- steps &- 1) >> 1))
        guard quiet > 0 else { return 0 }
        if isScript, update.node.updatesIt { dialogsBeforeStatement = dialogs }
        let slots = frame.slots.baseAddress!
        let source = slots + update.source, target = slots + update.target, constant = update.constant
        let it = update.updatesIt ? frame.itStorage : nil
        // Only Ints are written over here, without destroying them (anything else is destroyed first, a call, which
        // would take the registers the loop's values are in): otherwise the caller runs the pass.
        guard case .int(var x) = source.pointee, case .int = target.pointee else { return 0 }
        if let it { guard case .int = it.pointee else { return 0 } }
        // `set x = x + 1`: the variable is read once and kept in a register, so that a pass doesn't wait for the
        // last one's store to be read back. Otherwise the source isn't written here, so its value stays what it was.
        let accumulates = source == target
        var done = 0
        while done < quiet, case (let result, false) = next(x, constant) {
            target.initialize(to: .int(result))
            it?.initialize(to: .int(result))
            if accumulates { x = result }
            done &+= 1
        }
        steps &+= done &* 2
        return done
    }

    /// The body of a loop that is one statement which never pauses (`Loop.single`).
    @inline(__always)
    func runSingle(_ instruction: Instruction, _ frame: Frame, _ isScript: Bool) throws {
        switch instruction {
        case .intAdd(let update): try add(update, frame, isScript)
        case .intUpdate(let update): try apply(update, frame, isScript)
        case .run(let node): try run(node, frame, isScript)
        default: throw RuntimeError("internal error: a loop's body was taken for one statement", at: nil)
        }
    }

    /// The result of an `IntUpdate`, into its variable and, where the statement sets it, `it`. A value that was an Int
    /// holds no reference, so it is written over without being destroyed (a call per write otherwise).
    @inline(__always)
    func store(_ result: Int, _ update: IntUpdate, _ frame: Frame) {
        let target = frame.slots.baseAddress! + update.target
        if case .int = target.pointee { target.initialize(to: .int(result)) } else { target.pointee = .int(result) }
        guard update.updatesIt else { return }
        let it = frame.itStorage
        if case .int = it.pointee { it.initialize(to: .int(result)) } else { it.pointee = .int(result) }
    }

    /// A statement begins: one step, and for a statement of the script itself, the mark of which dialogs it showed.
    @inline(__always)
    func enter(_ node: Node, _ isScript: Bool) throws {
        try countStep(node)
        if isScript, node.updatesIt { dialogsBeforeStatement = dialogs }
    }

    /// A node that awaits: a call of an awaiting intent (or of an immediate one that asks, or is traced, or has a list
    /// piped into it), or a `find`.
    nonisolated(nonsending) func runAwaiting(_ node: Node, _ frame: Frame) async throws {
        switch node.kind {
        case .action(let call):
            // The frame's argument buffer is taken for the call and given back after it, so that a call in a
            // loop allocates no array. (A shortcut called from here runs in a frame of its own.)
            var arguments: [Value?]
            let ready: Bool?
            if let piped = frame.evaluatedArguments {
                frame.evaluatedArguments = nil
                arguments = piped
                ready = nil
            } else {
                arguments = frame.takeArguments()
                ready = try evaluateArguments(call, frame, node, into: &arguments)
            }
            let value: Value
            if let trace {
                value = try await invokeTraced(call, &arguments, node, trace)
            } else if let items = pipedList(call, arguments) {
                value = try await performForEach(items, call, arguments, node)
            } else {
                value = try await invoke(call, &arguments, node, ready: ready)
            }
            frame.giveBack(consume arguments)
            store(value, in: call.resultSlots, of: node, frame)
        case .find(let call):
            store(try await find(call, frame, node), in: call.resultSlots, of: node, frame)
        default:
            throw RuntimeError("internal error: '\(node.label)' was awaited, but it runs without awaiting", at: node.location)
        }
    }

    /// A call's or a find's result, into the slots that receive it and, where the node sets it, into `it`.
    @inline(__always)
    func store(_ value: Value, in slots: [Int], of node: Node, _ frame: Frame) {
        if !slots.isEmpty { for slot in slots { frame.slots[slot] = value } }
        if node.updatesIt { frame.it = value }
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
}
