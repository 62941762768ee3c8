import AutoIntents

/// The block drivers: statements in order, control flow, and the two ways a node runs. A node that may await
/// (a call of an intent that waits, a question, a query, or a block holding one) runs through the `async`
/// driver; every other node through its step (`Node+Step`), a closure built with the node, so a loop of plain
/// statements pays no async call per iteration. Swift has no `reasync`, so the two are written twice; each keeps
/// to driving, and the work they share is in functions both call.
extension Run {
    enum Flow {
        case normal
        case stop
        /// `return`: the value waits in the frame's `returned`, so that a flow is copied as a plain number.
        case returned
        case breakLoop
        case continueLoop

        /// After one pass of a loop's body: nil to go on with the next pass, or what the loop returns — `.normal`
        /// when `break` left it, the flow itself for `stop` and `return`.
        @inline(__always)
        var endingLoop: Flow? {
            switch self {
            case .normal, .continueLoop: return nil
            case .breakLoop: return .normal
            case .stop, .returned: return self
            }
        }
    }

    nonisolated(nonsending) func execute(_ nodes: [Node], _ frame: Frame) async throws -> Flow {
        for node in nodes {
            try enter(node, frame)
            let flow = node.canSuspend ? try await runSuspending(node, frame) : try node.step(self, frame, node)
            if !pendingDialogs.isEmpty { await showPendingDialogs() }
            if case .normal = flow {} else { return flow }
        }
        return .normal
    }

    /// The synchronous twin of `execute`, for blocks in which nothing awaits.
    func executeSync(_ nodes: [Node], _ frame: Frame) throws -> Flow {
        for node in nodes {
            try enter(node, frame)
            let flow = try node.step(self, frame, node)
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
            let ready = try evaluateArguments(call, frame, node, into: &arguments)
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
        case .branch(let branches, let otherwise):
            if let chosen = try chosenBlock(branches, otherwise, frame, node) { return try await execute(chosen, frame) }
        case .forEach(let slot, let sequence, let body):
            for item in try listToIterate(sequence, frame, node) {
                try countStep(node)
                frame.slots[slot] = item
                if let ending = try await execute(body, frame).endingLoop { return ending }
            }
        case .repeatTimes(let countExpression, let body):
            let count = try repeatCount(countExpression, frame, node)
            var done = 0
            while done < count {
                try countStep(node)
                if let ending = try await execute(body, frame).endingLoop { return ending }
                done += 1
            }
        case .whileLoop(let conditionNodes, let condition, let body):
            while true {
                try countStep(node)
                if let ending = try await execute(conditionNodes, frame).endingLoop { return ending }
                guard try truth(condition, frame, node, "the condition of 'while'") else { break }
                if let ending = try await execute(body, frame).endingLoop { return ending }
            }
        case .attempt(let body, let errorSlot, let handler):
            do {
                return try await execute(body, frame)
            } catch let failure as RuntimeError where failure.isCatchable {
                frame.slots[errorSlot] = .text(failure.message)
                return try await execute(handler, frame)
            }
        case .assign, .append, .evaluate, .stop, .returnValue, .breakLoop, .continueLoop:
            return try node.step(self, frame, node)
        }
        return .normal
    }

    /// A call's or a find's result, into the slots that receive it and, where the node sets it, into `it`.
    @inline(__always)
    func store(_ value: Value, in slots: [Int], of node: Node, _ frame: Frame) {
        if !slots.isEmpty { for slot in slots { frame.slots[slot] = value } }
        if node.updatesIt { frame.it = value }
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
}
