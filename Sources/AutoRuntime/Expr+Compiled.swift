import AutoIntents

/// How each kind of expression is evaluated. The compiler builds an `Expr` with these functions, once, when it
/// compiles the graph; each operator returns the closure that evaluates it, holding its operands (constants,
/// variables and `it` are read in place, see `Expr.Kind`). Running one is a direct call per operator, with the
/// operator and the slots already chosen: no tree walk, no switch over a node's kind, and no reference counted on
/// the way down (a closure borrows what it holds).
///
/// Operators on two Ints, the common case in loops, compute in place; every other pair, an overflow included,
/// takes the general path (`Operations`), so a fast path never gives another result or another error.
extension Expr {
    package static func constant(_ value: Value) -> Expr {
        Expr(.constant(value))
    }

    /// A variable of the current frame.
    package static func local(_ slot: Int) -> Expr {
        Expr(.local(slot))
    }

    /// The result of the previous statement.
    package static let it = Expr(.it)

    package static func list(_ items: [Expr]) -> Expr {
        Expr { run, frame throws(EvaluationError) in
            try run.limits.values.list(try run.values(of: items, frame))
        }
    }

    package static func record(keys: [String], values: [Expr]) -> Expr {
        Expr { run, frame throws(EvaluationError) in
            try run.limits.values.record(Record(keys: keys, values: try run.values(of: values, frame)))
        }
    }

    package static func interpolation(_ parts: [InterpolationPart]) -> Expr {
        Expr { run, frame throws(EvaluationError) in
            var text = ""
            for part in parts {
                switch part {
                case .literal(let literal): text += literal
                case .value(let value):
                    let inserted = try value.evaluate(run, frame)
                    text += ValueFormatter.interpolated(inserted)
                    // Formatting a big list stops early when the run should stop; nothing cut short is kept.
                    if case .list = inserted { try Interruption.check() }
                }
            }
            return .text(text)
        }
    }

    package static func property(_ base: Expr, _ access: PropertyAccess) -> Expr {
        Expr { run, frame throws(EvaluationError) in
            try Properties.read(access, of: try base.evaluate(run, frame), grants: run.context.grants)
        }
    }

    /// `xs[i]`, `t[i]`, `r[key]` (`Operations.index`).
    package static func index(_ base: Expr, _ index: Expr) -> Expr {
        Expr { run, frame throws(EvaluationError) in
            try Operations.index(try base.evaluate(run, frame), try index.evaluate(run, frame))
        }
    }

    package static func negate(_ operand: Expr) -> Expr {
        Expr { run, frame throws(EvaluationError) in try Operations.negate(try operand.evaluate(run, frame)) }
    }

    package static func not(_ operand: Expr) -> Expr {
        Expr { run, frame throws(EvaluationError) in
            .bool(!(try Operations.truth(try operand.evaluate(run, frame), "the operand of 'not'")))
        }
    }

    package static func arithmetic(_ op: ArithmeticOperator, _ left: Expr, _ right: Expr) -> Expr {
        // A variable and a whole number (`x + 1`, `n * 2`) or two variables: read in place, without a call per operand.
        switch (left.kind, right.kind) {
        case (.local(let slot), .constant(.int(let constant))):
            return Expr(.slotArithmetic(op, slot: slot, constant: constant) { run, frame throws(EvaluationError) in
                if case .int(let x) = frame.slots[slot], let result = Operations.intArithmetic(op, x, constant) { return .int(result) }
                return try run.arithmetic(op, frame.slots[slot], .int(constant))
            })
        case (.local(let a), .local(let b)):
            return Expr { run, frame throws(EvaluationError) in
                if case .int(let x) = frame.slots[a], case .int(let y) = frame.slots[b], let result = Operations.intArithmetic(op, x, y) {
                    return .int(result)
                }
                return try run.arithmetic(op, frame.slots[a], frame.slots[b])
            }
        default:
            let left = left.evaluator, right = right.evaluator
            return Expr { run, frame throws(EvaluationError) in
                let a = try left(run, frame), b = try right(run, frame)
                if case .int(let x) = a, case .int(let y) = b, let result = Operations.intArithmetic(op, x, y) { return .int(result) }
                return try run.arithmetic(op, a, b)
            }
        }
    }

    package static func compare(_ op: ComparisonOperator, _ left: Expr, _ right: Expr) -> Expr {
        switch (left.kind, right.kind) {
        case (.local(let slot), .constant(.int(let constant))):
            return Expr { _, frame throws(EvaluationError) in
                if case .int(let x) = frame.slots[slot], let result = Operations.intComparison(op, x, constant) { return .bool(result) }
                return .bool(try Operations.compare(op, frame.slots[slot], .int(constant)))
            }
        default:
            let left = left.evaluator, right = right.evaluator
            return Expr { run, frame throws(EvaluationError) in
                let a = try left(run, frame), b = try right(run, frame)
                if case .int(let x) = a, case .int(let y) = b, let result = Operations.intComparison(op, x, y) { return .bool(result) }
                return .bool(try Operations.compare(op, a, b))
            }
        }
    }

    package static func between(_ value: Expr, _ low: Expr, _ high: Expr) -> Expr {
        Expr { run, frame throws(EvaluationError) in
            let v = try value.evaluate(run, frame)
            guard try Operations.compare(.greaterOrEqual, v, try low.evaluate(run, frame)) else { return .bool(false) }
            return .bool(try Operations.compare(.lessOrEqual, v, try high.evaluate(run, frame)))
        }
    }

    package static func and(_ left: Expr, _ right: Expr) -> Expr {
        Expr { run, frame throws(EvaluationError) in
            guard try Operations.truth(try left.evaluate(run, frame), "the left side of 'and'") else { return .bool(false) }
            return .bool(try Operations.truth(try right.evaluate(run, frame), "the right side of 'and'"))
        }
    }

    package static func or(_ left: Expr, _ right: Expr) -> Expr {
        Expr { run, frame throws(EvaluationError) in
            if try Operations.truth(try left.evaluate(run, frame), "the left side of 'or'") { return .bool(true) }
            return .bool(try Operations.truth(try right.evaluate(run, frame), "the right side of 'or'"))
        }
    }

    package static func function(_ function: BuiltinFunction, _ arguments: [Expr]) -> Expr {
        Expr { run, frame throws(EvaluationError) in
            try BuiltinFunctions.call(function, try run.values(of: arguments, frame), limits: run.limits.values)
        }
    }

    /// `list | filter where …`: the right-hand sides are evaluated once, then each element is tested.
    package static func filter(_ list: Expr, _ condition: ConditionPlan) -> Expr {
        Expr { run, frame throws(EvaluationError) in
            .list(try ListQueries.filter(try run.items(list, frame, "filter"), condition, grants: run.context.grants) {
                expression throws(EvaluationError) in try expression.evaluate(run, frame)
            })
        }
    }

    /// `list | sort by …`: stable.
    package static func sort(_ list: Expr, _ keys: [SortPlan]) -> Expr {
        Expr { run, frame throws(EvaluationError) in
            .list(try ListQueries.sort(try run.items(list, frame, "sort"), keys, grants: run.context.grants))
        }
    }

    /// `list | limit n`.
    package static func limit(_ list: Expr, _ count: Expr) -> Expr {
        Expr { run, frame throws(EvaluationError) in
            let values = try run.items(list, frame, "limit")
            return .list(Array(values.prefix(try ListQueries.limit(try count.evaluate(run, frame)))))
        }
    }

    /// `find files in …`: a walk of a folder with the where-clause, sort and limit applied as it goes (`FileSearch`).
    package static func findFiles(_ plan: FileSearchPlan) -> Expr {
        let parts = plan.condition.map(FileSearch.split)
        return Expr { run, frame throws(EvaluationError) in
            let grants = run.context.grants
            let folder = try plan.folder.map { expression throws(EvaluationError) in try expression.evaluate(run, frame) }
            let limit = try plan.limit.map { expression throws(EvaluationError) in try ListQueries.limit(try expression.evaluate(run, frame)) }
            func test(_ condition: ConditionPlan?) throws(EvaluationError) -> ListQueries.Test? {
                try condition.map { condition throws(EvaluationError) in
                    try ListQueries.test(condition, grants: grants) { expression throws(EvaluationError) in try expression.evaluate(run, frame) }
                }
            }
            return .list(try FileSearch.run(plan, folder: folder, limit: limit, byName: try test(parts?.byName), test: try test(parts?.rest),
                                            grants: grants, limits: run.limits.values))
        }
    }

    /// `xs | each expression`, with `it` as each element in turn.
    package static func each(_ list: Expr, _ value: Expr) -> Expr {
        Expr { run, frame throws(EvaluationError) in
            let elements = try run.items(list, frame, "each")
            let outer = frame.it
            defer { frame.it = outer }
            var results: [Value] = []
            results.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                if index % Interruption.stride == 0 { try Interruption.check() }
                frame.it = element
                results.append(try value.evaluate(run, frame))
            }
            return try run.limits.values.list(results)
        }
    }

    /// `a otherwise b`: b's value when evaluating a fails (not when the run is interrupted or out of memory) or gives
    /// nil, so that one operator defaults what may be missing (`valueAt(r, "x") otherwise 0`).
    package static func otherwise(_ attempt: Expr, _ fallback: Expr) -> Expr {
        Expr { run, frame throws(EvaluationError) in
            do throws(EvaluationError) {
                let value = try attempt.evaluate(run, frame)
                if !value.isNull { return value }
            } catch let failure where failure.isCatchable {}
            return try fallback.evaluate(run, frame)
        }
    }

    /// `group by`, `count by` and `distinct`: the elements grouped by the key at a path (`ListQueries.group`).
    package static func group(_ list: Expr, _ path: [PropertyAccess], _ grouping: Grouping) -> Expr {
        Expr { run, frame throws(EvaluationError) in
            try ListQueries.group(try run.items(list, frame, grouping.stageName), by: path, grouping, limits: run.limits.values,
                                  grants: run.context.grants)
        }
    }
}
