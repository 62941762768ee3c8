import AutoIntents
import AutoRuntime

extension Checker {
    mutating func bindUnary(_ op: UnaryOperator, _ operand: BoundExpression, span: Span) -> BoundExpression {
        switch op {
        case .not:
            if operand.type != .bool && operand.type != .any {
                error("'not' needs true or false, and this is \(operand.type)", operand.span)
            }
            return BoundExpression(kind: .not(operand), type: .bool, span: span)
        case .negate:
            if case .constant(.int(let value)) = operand.kind, value != .min {
                return BoundExpression(kind: .constant(.int(-value)), type: .int, span: span)
            }
            if case .constant(.decimal(let value)) = operand.kind {
                return BoundExpression(kind: .constant(.decimal(-value)), type: .decimal, span: span)
            }
            if ![.int, .decimal, .duration, .period, .any].contains(operand.type) {
                error("can't negate \(operand.type)", span)
            }
            return BoundExpression(kind: .negate(operand), type: operand.type, span: span)
        }
    }

    mutating func bindBinary(_ op: BinaryOperator, _ leftExpression: Expression, _ rightExpression: Expression, span: Span) -> BoundExpression {
        let left = bind(leftExpression)
        // A text compared with an enum names a case: `shelf == "Currently Reading"`.
        let right = bind(rightExpression, expected: left.type)
        let (l, r) = (left.type, right.type)
        let unknown = l == .any || r == .any || isError(left) || isError(right)
        switch op {
        case .and, .or:
            for side in [left, right] where side.type != .bool && side.type != .any && !isError(side) {
                error("'\(op.rawValue)' needs true or false on both sides, and this is \(side.type)", side.span)
            }
            return BoundExpression(kind: op == .and ? .and(left, right) : .or(left, right), type: .bool, span: span)

        case .equal, .notEqual:
            let rightSide = coercedForComparison(right, to: l)
            if !unknown, let problem = ComparisonRules.problem(op == .equal ? .equal : .notEqual, l, r) {
                error(problem, span, hint: ComparisonRules.hint(l, r))
            }
            return BoundExpression(kind: .compare(op == .equal ? .equal : .notEqual, left, rightSide), type: .bool, span: span)

        case .less, .lessEqual, .greater, .greaterEqual:
            let rightSide = coercedForComparison(right, to: l)
            checkOrderable(left, rightSide, op.rawValue, span)
            let comparator: ComparisonOperator = [.less: .less, .lessEqual: .lessOrEqual, .greater: .greater][op] ?? .greaterOrEqual
            return BoundExpression(kind: .compare(comparator, left, rightSide), type: .bool, span: span)

        case .contains, .startsWith, .endsWith, .isIn:
            let (haystack, needle) = op == .isIn ? (r, l) : (l, r)
            let valid: Bool
            switch op {
            case .contains, .isIn: valid = haystack == .text ? needle == .text || needle == .any : haystack.elementType != nil || haystack.isRecord
            default: valid = haystack == .text && (needle == .text || needle == .any)
            }
            if !unknown, !valid {
                error("'\(op.rawValue)' can't look for \(needle) in \(haystack)", span,
                      hint: op == .isIn ? "'in' looks in a list or a text: x in [1, 2, 3]" : "'\(op.rawValue)' works on texts and lists")
            }
            let comparator: ComparisonOperator = [.contains: .contains, .startsWith: .startsWith, .endsWith: .endsWith][op] ?? .oneOf
            return BoundExpression(kind: .compare(comparator, left, right), type: .bool, span: span)

        case .add, .subtract, .multiply, .divide, .remainder:
            let arithmetic: ArithmeticOperator = [.add: .add, .subtract: .subtract, .multiply: .multiply, .divide: .divide][op] ?? .remainder
            let type = arithmeticType(arithmetic, l, r)
            if type == nil, !unknown {
                error("can't apply '\(op.rawValue)' to \(l) and \(r)", span, hint: Self.arithmeticHint(arithmetic, l, r))
            }
            return BoundExpression(kind: .arithmetic(arithmetic, left, right), type: type ?? .any, span: span)
        }
    }

    func isError(_ expression: BoundExpression) -> Bool {
        if case .error = expression.kind { return true }
        return false
    }

    /// A constant text compared with an enum value becomes the case it names.
    mutating func coercedForComparison(_ expression: BoundExpression, to type: ValueType) -> BoundExpression {
        guard case .enumeration = type, case .constant(let value) = expression.kind, case .text = value else { return expression }
        let converted = coerceConstant(value, to: type, at: expression.span)
        return BoundExpression(kind: .constant(converted), type: converted.type, span: expression.span)
    }

    mutating func checkOrderable(_ left: BoundExpression, _ right: BoundExpression, _ op: String, _ span: Span) {
        let (l, r) = (left.type, right.type)
        if isError(left) || isError(right) || ComparisonRules.canOrder(l, r) { return }
        error("can't order \(l) and \(r) with '\(op)'", span, hint: ComparisonRules.hint(l, r))
    }

    /// What was likely meant by an arithmetic that does not apply.
    static func arithmeticHint(_ op: ArithmeticOperator, _ l: ValueType, _ r: ValueType) -> String? {
        switch (op, l, r) {
        case (.add, .list, _), (.subtract, .list, _):
            return op == .add ? "to add an element to a list, put it in a list: xs + [x]" : "to leave out elements, filter: xs | filter where it != x"
        case (_, .period, .duration), (_, .duration, .period):
            return "months and years move a date by the calendar, other units by elapsed time: add each to the date in turn (d + 1 month + 2 days)"
        case (_, .period, .decimal), (_, .decimal, .period):
            return "a period is a whole number of months: multiply it by an Int"
        case _ where l == .text || r == .text:
            return "to build a text, interpolate: \"…\\(value)…\""
        default:
            return nil
        }
    }

    /// The type of `l op r`, or nil when the operator does not apply.
    func arithmeticType(_ op: ArithmeticOperator, _ l: ValueType, _ r: ValueType) -> ValueType? {
        if l == .any || r == .any {
            if op == .divide { return l.isNumeric || r.isNumeric ? .decimal : .any }
            return .any
        }
        switch (op, l, r) {
        case (.divide, _, _) where l.isNumeric && r.isNumeric: return .decimal
        case (_, .int, .int): return .int
        case (_, _, _) where l.isNumeric && r.isNumeric: return .decimal
        case (.add, .text, .text): return .text
        case (.add, .list(let a), .list(let b)): return .list(a.joined(with: b))
        case (.add, .date, .duration), (.add, .duration, .date), (.subtract, .date, .duration): return .date
        case (.subtract, .date, .date): return .duration
        case (.add, .duration, .duration), (.subtract, .duration, .duration): return .duration
        case (.multiply, .duration, _) where r.isNumeric, (.divide, .duration, _) where r.isNumeric: return .duration
        case (.multiply, _, .duration) where l.isNumeric: return .duration
        case (.add, .date, .period), (.add, .period, .date), (.subtract, .date, .period): return .date
        case (.add, .period, .period), (.subtract, .period, .period), (.multiply, .period, .int), (.multiply, .int, .period): return .period
        case (.add, .size, .size), (.subtract, .size, .size): return .size
        case (.multiply, .size, _) where r.isNumeric, (.divide, .size, _) where r.isNumeric: return .size
        default: return nil
        }
    }
}
