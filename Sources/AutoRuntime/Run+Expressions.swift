import AutoIntents

/// Expressions: pure, and evaluated without awaiting (the compiler hoisted every action out of them). An error
/// inside one is an `EvaluationError`, which gets the location of the node it belongs to here. How each kind of
/// expression evaluates is in `Expr+Compiled`.
extension Run {
    @inline(__always)
    func evaluate(_ expression: Expr, _ frame: Frame, _ node: Node) throws -> Value {
        do {
            return try expression.evaluate(self, frame)
        } catch {
            throw located(error, at: node.location)
        }
    }

    /// `evaluate` with an expression's closure, as a node's step holds it (`Expr.evaluator`).
    @inline(__always)
    func value(of evaluate: Expr.Evaluator, _ frame: Frame, _ node: Node) throws -> Value {
        do {
            return try evaluate(self, frame)
        } catch {
            throw located(error, at: node.location)
        }
    }

    @inline(__always)
    func truth(_ evaluate: Expr.Evaluator, _ frame: Frame, _ node: Node, _ context: String) throws -> Bool {
        do {
            return try Operations.truth(try evaluate(self, frame), context)
        } catch {
            throw located(error, at: node.location)
        }
    }

    /// `set`: the value into its slot and, where the statement sets it, into `it`.
    @inline(__always)
    func assign(_ value: Value, toSlot slot: Int, updatingIt: Bool, _ frame: Frame) {
        frame.slots[slot] = value
        if updatingIt { frame.it = value }
    }

    /// `a op b` where the operands are not two Ints that fit (the evaluator's own fast path): the sum of two lists
    /// or texts is checked against the value limits before it is built.
    func arithmetic(_ op: ArithmeticOperator, _ a: Value, _ b: Value) throws(EvaluationError) -> Value {
        if op == .add { try limits.values.checkSum(a, b) }
        return try Operations.arithmetic(op, a, b)
    }

    /// The values of a list's items, a record's fields or a function's arguments, in order.
    func values(of expressions: [Expr], _ frame: Frame) throws(EvaluationError) -> [Value] {
        var values: [Value] = []
        values.reserveCapacity(expressions.count)
        for expression in expressions { values.append(try expression.evaluate(self, frame)) }
        return values
    }

    func items(_ expression: Expr, _ frame: Frame, _ stage: String) throws(EvaluationError) -> [Value] {
        switch try expression.evaluate(self, frame) {
        case .list(let items): return items
        case .null: return []
        case let other: throw EvaluationError("'\(stage)' works on a list, not \(other.type)")
        }
    }

    /// `set x = x + value` on a list or a text: the value is added in place, so that building a list or a text in a
    /// loop takes time in proportion to its length, not its square. The variable's value is moved out of its slot
    /// (and `it` let go of, which still holds it after the previous `set`), so the storage is unique unless another
    /// variable shares it, and then `+` copies as it always does.
    func append(_ expression: Expr, toSlot slot: Int, _ frame: Frame, _ node: Node) throws {
        let addition = try evaluate(expression, frame, node)
        do {
            try limits.values.checkSum(frame.slots[slot], addition)
        } catch {
            throw located(error, at: node.location)
        }
        frame.it = .null
        var current = Value.null
        swap(&current, &frame.slots[slot])
        let result: Value
        if case .list(let more) = addition, case .list(var items) = current {
            current = .null
            items.append(contentsOf: more)
            result = .list(items)
        } else if case .text(let more) = addition, case .text(var text) = current {
            current = .null
            text += more
            result = .text(text)
        } else {
            do {
                result = try Operations.arithmetic(.add, current, addition)
            } catch {
                frame.slots[slot] = current
                throw located(error, at: node.location)
            }
        }
        frame.slots[slot] = result
        if node.updatesIt { frame.it = result }
    }
}
