import AutoIntents

/// Which kinds of values a comparison may meet: the one rule for the checker, which knows the types before the run,
/// and for the run, which meets values whose types were not known (a field of parsed JSON, `valueAt`). A comparison
/// between kinds that can never be equal or ordered (a Text id with an Int) is an error in both, never `false`: a
/// where-clause that silently matches nothing hides the mistake.
package enum ComparisonRules {
    /// Whether `==` between values of these types can be true: the same type, two numbers, a text and an enum case
    /// (its name) or a file (its path), two lists whose elements can be equal, two records; nil or an unknown type
    /// on either side.
    package static func canBeEqual(_ a: ValueType, _ b: ValueType) -> Bool {
        if a == b || (a.isNumeric && b.isNumeric) || a == .any || b == .any || a == .null || b == .null { return true }
        switch (a, b) {
        case (.list(let x), .list(let y)): return canBeEqual(x, y)
        case (.enumeration, .text), (.text, .enumeration), (.file, .text), (.text, .file): return true
        default: return a.isRecord && b.isRecord
        }
    }

    /// Whether `<` and its kin order values of these types: two numbers, or two of one orderable type (an enum's
    /// cases by their order); nil or an unknown type on either side is left to the run, where nil is neither before
    /// nor after anything.
    package static func canOrder(_ a: ValueType, _ b: ValueType) -> Bool {
        if a == .any || b == .any || a == .null || b == .null || (a.isNumeric && b.isNumeric) { return true }
        guard a == b else { return false }
        switch a {
        case .int, .decimal, .text, .date, .duration, .period, .size, .bool, .enumeration: return true
        default: return false
        }
    }

    /// What is wrong with `a <op> b` for a comparison of these types; nil when it may hold. Only the comparisons
    /// that compare kinds (`==`, `!=`, `<`, `<=`, `>`, `>=`) are judged here.
    /// `shownAs` is the operator the script wrote, when it is made of these (`in`, `between`).
    package static func problem(_ op: ComparisonOperator, _ a: ValueType, _ b: ValueType, shownAs: String? = nil) -> String? {
        let shown = shownAs ?? op.rawValue
        switch op {
        case .equal, .notEqual:
            return canBeEqual(a, b) ? nil : "can't compare \(a) with \(b) using '\(shown)': they are never equal"
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            return canOrder(a, b) ? nil : "can't order \(a) and \(b) with '\(shown)'"
        default:
            return nil
        }
    }

    /// What is wrong with comparing a property of type `property` (or a value of that kind) with `value`, a script's
    /// value known only at run time, as the error to throw; the ends of `between` and the elements of `in` one by one.
    package static func problem(_ op: ComparisonOperator, property: ValueType, value: Value) -> EvaluationError? {
        let pairs: [(ComparisonOperator, Value)]
        switch (op, value) {
        case (.between, .list(let ends)): pairs = ends.map { (.greaterOrEqual, $0) }
        case (.oneOf, .list(let items)): pairs = items.map { (.equal, $0) }
        default: pairs = [(op, value)]
        }
        for (test, value) in pairs {
            let kind = Self.kind(of: value)
            if let problem = problem(test, property, kind, shownAs: op.rawValue) {
                return EvaluationError(problem + (hint(property, kind).map { "; \($0)" } ?? ""))
            }
        }
        return nil
    }

    /// What to write instead, when one side is a text.
    package static func hint(_ a: ValueType, _ b: ValueType) -> String? {
        a == .text || b == .text ? "convert one side with text(…) or number(…)" : nil
    }

    /// A value's type as far as the rules look: a list's or a record's contents are compared element by element,
    /// where two elements of different kinds are simply unequal (a list may hold both).
    package static func kind(of value: Value) -> ValueType {
        switch value {
        case .list: return .list(.any)
        case .record: return .record
        default: return value.type
        }
    }
}
