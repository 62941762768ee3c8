import AutoIntents

/// Expressions: pure, and evaluated without awaiting (the compiler hoisted every action out of them). An error
/// inside one is an `EvaluationError`, which gets the location of the node it belongs to here.
extension Run {
    func evaluate(_ expression: Expr, _ frame: Frame, _ node: Node) throws -> Value {
        do {
            return try eval(expression, frame)
        } catch {
            throw located(error, at: node.location)
        }
    }

    func truth(_ expression: Expr, _ frame: Frame, _ node: Node, _ context: String) throws -> Bool {
        do {
            return try Operations.truth(try eval(expression, frame), context)
        } catch {
            throw located(error, at: node.location)
        }
    }

    func eval(_ expression: Expr, _ frame: Frame) throws(EvaluationError) -> Value {
        switch expression {
        case .constant(let value): return value
        case .local(let slot): return frame.slots[slot]
        case .it: return frame.it
        case .arithmetic(let op, let left, let right):
            let a = try eval(left, frame), b = try eval(right, frame)
            if op == .add {
                if case .int(let x) = a, case .int(let y) = b {
                    let (sum, overflow) = x.addingReportingOverflow(y)
                    if !overflow { return .int(sum) }
                }
                try limits.values.checkSum(a, b)
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
            return try Properties.read(access, of: try eval(base, frame), grants: context.grants)
        case .index(let base, let index):
            return try Operations.index(try eval(base, frame), try eval(index, frame))
        case .list(let items):
            var values: [Value] = []
            values.reserveCapacity(items.count)
            for item in items { values.append(try eval(item, frame)) }
            return try limits.values.list(values)
        case .record(let keys, let items):
            var values: [Value] = []
            values.reserveCapacity(items.count)
            for item in items { values.append(try eval(item, frame)) }
            return try limits.values.record(Record(keys: keys, values: values))
        case .interpolation(let parts):
            var text = ""
            for part in parts {
                switch part {
                case .literal(let literal): text += literal
                case .value(let value):
                    let inserted = try eval(value, frame)
                    text += ValueFormatter.interpolated(inserted)
                    // Formatting a big list stops early when the run should stop; nothing cut short is kept.
                    if case .list = inserted { try Interruption.check() }
                }
            }
            return .text(text)
        case .function(let function, let arguments):
            var values: [Value] = []
            values.reserveCapacity(arguments.count)
            for argument in arguments { values.append(try eval(argument, frame)) }
            return try BuiltinFunctions.call(function, values, limits: limits.values)
        case .filter(let list, let condition):
            return .list(try ListQueries.filter(try items(list, frame, "filter"), condition, grants: context.grants) { expression throws(EvaluationError) in
                try self.eval(expression, frame)
            })
        case .sort(let list, let keys):
            return .list(try ListQueries.sort(try items(list, frame, "sort"), keys, grants: context.grants))
        case .findFiles(let plan):
            let folder = try plan.folder.map { expression throws(EvaluationError) in try eval(expression, frame) }
            let limit = try plan.limit.map { expression throws(EvaluationError) in try ListQueries.limit(try eval(expression, frame)) }
            let parts = plan.condition.map(FileSearch.split)
            func test(_ condition: ConditionPlan?) throws(EvaluationError) -> (@Sendable (Value) -> Bool)? {
                try condition.map { condition throws(EvaluationError) in
                    try ListQueries.test(condition, grants: context.grants) { expression throws(EvaluationError) in try self.eval(expression, frame) }
                }
            }
            return .list(try FileSearch.run(plan, folder: folder, limit: limit, byName: try test(parts?.byName), test: try test(parts?.rest),
                                            grants: context.grants, limits: limits.values))
        case .limit(let list, let count):
            let values = try items(list, frame, "limit")
            return .list(Array(values.prefix(try ListQueries.limit(try eval(count, frame)))))
        case .each(let list, let value):
            let elements = try items(list, frame, "each")
            let outer = frame.it
            defer { frame.it = outer }
            var results: [Value] = []
            results.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                if index % Interruption.stride == 0 { try Interruption.check() }
                frame.it = element
                results.append(try eval(value, frame))
            }
            return try limits.values.list(results)
        case .otherwise(let attempt, let fallback):
            do throws(EvaluationError) {
                return try eval(attempt, frame)
            } catch let failure where failure.isCatchable {
                return try eval(fallback, frame)
            }
        case .group(let list, let path, let grouping):
            return try ListQueries.group(try items(list, frame, grouping.stageName), by: path, grouping, limits: limits.values,
                                         grants: context.grants)
        }
    }

    func items(_ expression: Expr, _ frame: Frame, _ stage: String) throws(EvaluationError) -> [Value] {
        switch try eval(expression, frame) {
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
