import AutoIntents

/// How a statement runs when nothing in it awaits: a closure built once, with the node, that holds what the node's
/// kind holds (its expressions' closures, its call). The executor (`Run.advance`) calls it directly; reading the
/// node's kind instead would copy the kind's payload, and count a reference to each part of it, on every run of the
/// node. Control statements have no step: they are the code's jumps (`Code`).
extension Node {
    /// Runs the node; false when it is a call that the awaiting path has to run after all (a list was piped into
    /// it, see `Run.runNow`).
    typealias Step = @Sendable (Run, Frame, Node) throws -> Bool

    static func step(for kind: Kind, updatesIt: Bool) -> Step {
        switch kind {
        case .action(let call):
            // Only a call that runs immediately has its step called (`Instruction.call`).
            if let bound = call.boundStep {
                return { run, frame, node in
                    guard run.callsThroughSites else { return try run.runNow(call, frame, node) }
                    guard let value = try bound(run, call, frame, node) else { return false }
                    run.store(value, in: call.resultSlots, of: node, frame)
                    return true
                }
            }
            return { run, frame, node in try run.runNow(call, frame, node) }
        case .assign(let slot, let expression):
            // A closure held by the step is borrowed when called; a leaf is read in place (`Expr.evaluate`), with no
            // closure made for it.
            guard let evaluate = expression.compiled else {
                return { run, frame, node in
                    run.assign(try run.evaluate(expression, frame, node), toSlot: slot, updatingIt: updatesIt, frame)
                    return true
                }
            }
            return { run, frame, node in
                run.assign(try run.value(of: evaluate, frame, node), toSlot: slot, updatingIt: updatesIt, frame)
                return true
            }
        case .append(let slot, let expression):
            return { run, frame, node in
                try run.append(expression, toSlot: slot, frame, node)
                return true
            }
        case .evaluate(let expression):
            guard let evaluate = expression.compiled else {
                return { run, frame, node in
                    let value = try run.evaluate(expression, frame, node)
                    if updatesIt { frame.it = value }
                    return true
                }
            }
            return { run, frame, node in
                let value = try run.value(of: evaluate, frame, node)
                if updatesIt { frame.it = value }
                return true
            }
        case .find, .branch, .forEach, .repeatTimes, .whileLoop, .attempt, .breakLoop, .continueLoop, .stop, .returnValue:
            // The code runs these itself (`Code`); a find awaits.
            return { _, _, node in
                throw RuntimeError("internal error: '\(node.label)' has no step of its own", at: node.location)
            }
        }
    }
}
