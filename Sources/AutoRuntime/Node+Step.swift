import AutoIntents

/// How a node runs when nothing in it awaits: a closure built once, with the node, that holds what the node's kind
/// holds (its expressions' closures, its blocks). The synchronous executor calls it directly; reading the node's
/// kind instead would copy the kind's payload, and count a reference to each part of it, on every run of the node.
/// The awaiting twin, `Run.runSuspending`, still reads the kind: a node that awaits pays far more for that.
extension Node {
    typealias Step = @Sendable (Run, Frame, Node) throws -> Run.Flow
    /// A block of nodes run in order; see `blockStep`.
    typealias BlockStep = @Sendable (Run, Frame) throws -> Run.Flow

    static func step(for kind: Kind, updatesIt: Bool) -> Step {
        switch kind {
        case .action(let call):
            // `canSuspend` is false, so the call runs immediately.
            if let bound = call.boundStep {
                return { run, frame, node in
                    guard run.callsThroughSites else {
                        try run.runNow(call, frame, node)
                        return .normal
                    }
                    run.store(try bound(run, call, frame, node), in: call.resultSlots, of: node, frame)
                    return .normal
                }
            }
            return { run, frame, node in
                try run.runNow(call, frame, node)
                return .normal
            }
        case .assign(let slot, let expression):
            // A closure held by the step is borrowed when called; a leaf is read in place (`Expr.evaluate`), with
            // no closure made for it.
            guard case .compiled(let evaluate) = expression.kind else {
                return { run, frame, node in
                    run.assign(try run.evaluate(expression, frame, node), toSlot: slot, updatingIt: updatesIt, frame)
                    return .normal
                }
            }
            return { run, frame, node in
                run.assign(try run.value(of: evaluate, frame, node), toSlot: slot, updatingIt: updatesIt, frame)
                return .normal
            }
        case .append(let slot, let expression):
            return { run, frame, node in
                try run.append(expression, toSlot: slot, frame, node)
                return .normal
            }
        case .evaluate(let expression):
            guard case .compiled(let evaluate) = expression.kind else {
                return { run, frame, node in
                    let value = try run.evaluate(expression, frame, node)
                    if updatesIt { frame.it = value }
                    return .normal
                }
            }
            return { run, frame, node in
                let value = try run.value(of: evaluate, frame, node)
                if updatesIt { frame.it = value }
                return .normal
            }
        case .branch(let branches, let otherwise):
            return { run, frame, node in
                guard let chosen = try run.chosenBlock(branches, otherwise, frame, node) else { return .normal }
                return try run.executeSync(chosen, frame)
            }
        case .forEach(let slot, let sequence, let body):
            let block = blockStep(body)
            return { run, frame, node in
                for item in try run.listToIterate(sequence, frame, node) {
                    try run.countStep(node)
                    frame.slots[slot] = item
                    if let ending = try block(run, frame).endingLoop { return ending }
                }
                return .normal
            }
        case .repeatTimes(let countExpression, let body):
            let block = blockStep(body)
            return { run, frame, node in
                let count = try run.repeatCount(countExpression, frame, node)
                var done = 0
                while done < count {
                    try run.countStep(node)
                    if let ending = try block(run, frame).endingLoop { return ending }
                    done += 1
                }
                return .normal
            }
        case .whileLoop(let conditionNodes, let condition, let body):
            let conditionBlock = blockStep(conditionNodes), block = blockStep(body)
            return { run, frame, node in
                while true {
                    try run.countStep(node)
                    if let ending = try conditionBlock(run, frame).endingLoop { return ending }
                    guard try run.truth(condition, frame, node, "the condition of 'while'") else { return .normal }
                    if let ending = try block(run, frame).endingLoop { return ending }
                }
            }
        case .attempt(let body, let errorSlot, let handler):
            return { run, frame, _ in
                do {
                    return try run.executeSync(body, frame)
                } catch let failure as RuntimeError where failure.isCatchable {
                    frame.slots[errorSlot] = .text(failure.message)
                    return try run.executeSync(handler, frame)
                }
            }
        case .breakLoop:
            return { _, _, _ in .breakLoop }
        case .continueLoop:
            return { _, _, _ in .continueLoop }
        case .stop:
            return { _, _, _ in .stop }
        case .returnValue(let expression):
            return { run, frame, node in
                frame.returned = try expression.map { try run.evaluate($0, frame, node) } ?? .null
                return .returned
            }
        case .find:
            // `canSuspend` is true for a find, so the executor never runs it without awaiting.
            return { _, _, node in
                throw RuntimeError("internal error: '\(node.label)' was run without awaiting it", at: node.location)
            }
        }
    }

    /// A block run without awaiting. A block of one node, the body of most small loops, calls that node's step
    /// directly, with no walk of the array (which counts a reference to the array and to each node it reads).
    static func blockStep(_ nodes: [Node]) -> BlockStep {
        guard nodes.count == 1 else { return { run, frame in try run.executeSync(nodes, frame) } }
        let only = nodes[0], step = only.step
        return { run, frame in
            try run.enter(only, frame)
            return try step(run, frame, only)
        }
    }
}
