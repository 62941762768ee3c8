import AutoIntents
import Foundation

/// A runtime failure inside an expression; the executor adds the location of the node it belongs to.
package struct EvaluationError: Error, Sendable {
    package let message: String
    /// A limit the run hit (its memory), for the front end's wording; `.failed` for any other error.
    package let kind: RuntimeError.Kind
    /// The run was cancelled or ran out of time while a long built-in worked: the executor reports why.
    let isInterruption: Bool

    /// Control characters a text value brings into the message (an ESC, a NUL) are escaped, so that printing
    /// the error can't drive the terminal.
    package init(_ message: String, kind: RuntimeError.Kind = .failed) {
        self.message = ValueFormatter.escapingControlCharacters(message)
        self.kind = kind
        self.isInterruption = false
    }

    private init(interruption: Void) {
        message = "interrupted"
        kind = .failed
        isInterruption = true
    }

    static let interrupted = EvaluationError(interruption: ())

    /// Whether `otherwise` may handle it: a failure of the script's own, not the run being stopped or out of memory.
    var isCatchable: Bool { !isInterruption && kind == .failed }
}

/// Arithmetic and comparison on values. The checker rejects what it can see is wrong; these functions
/// check again, because `Any` values are only known here. No operation traps: a result out of its type's
/// range is an `EvaluationError` that names the range.
package enum Operations {
    package static func arithmetic(_ op: ArithmeticOperator, _ a: Value, _ b: Value) throws(EvaluationError) -> Value {
        switch (op, a, b) {
        case (.add, .int(let x), .int(let y)): return try checked(x.addingReportingOverflow(y), x, "+", y)
        case (.subtract, .int(let x), .int(let y)): return try checked(x.subtractingReportingOverflow(y), x, "-", y)
        case (.multiply, .int(let x), .int(let y)): return try checked(x.multipliedReportingOverflow(by: y), x, "*", y)
        case (.remainder, .int(let x), .int(let y)):
            if y == 0 { throw EvaluationError("remainder of division by zero (\(x) % 0)") }
            // Every Int divided by -1 leaves 0; Swift reports Int.min % -1 as an overflow of the quotient.
            if y == -1 { return .int(0) }
            return .int(x % y)
        case (.add, .text(let x), .text(let y)): return .text(x + y)
        case (.add, .list(let x), .list(let y)): return .list(x + y)
        case (.add, .date(let d), .duration(let t)), (.add, .duration(let t), .date(let d)):
            return .date(try DurationArithmetic.date(d, plus: t, "\(ValueFormatter.date(d)) + \(ValueFormatter.duration(t))"))
        case (.subtract, .date(let d), .duration(let t)):
            return .date(try DurationArithmetic.date(d, plus: try DurationArithmetic.negate(t), "\(ValueFormatter.date(d)) - \(ValueFormatter.duration(t))"))
        case (.subtract, .date(let x), .date(let y)): return .duration(try DurationArithmetic.between(x, y))
        case (.add, .date(let d), .period(let p)), (.add, .period(let p), .date(let d)):
            return .date(try DurationArithmetic.date(d, plus: p, "\(ValueFormatter.date(d)) + \(ValueFormatter.period(p))"))
        case (.subtract, .date(let d), .period(let p)):
            return .date(try DurationArithmetic.date(d, plus: try DurationArithmetic.period(months: -p.months, ""), "\(ValueFormatter.date(d)) - \(ValueFormatter.period(p))"))
        case (.add, .period(let x), .period(let y)), (.subtract, .period(let x), .period(let y)):
            let (months, overflow) = op == .add ? x.months.addingReportingOverflow(y.months) : x.months.subtractingReportingOverflow(y.months)
            return .period(try DurationArithmetic.period(months: overflow ? nil : months, "\(ValueFormatter.period(x)) \(op.rawValue) \(ValueFormatter.period(y))"))
        case (.multiply, .period(let p), .int(let n)), (.multiply, .int(let n), .period(let p)):
            let (months, overflow) = p.months.multipliedReportingOverflow(by: n)
            return .period(try DurationArithmetic.period(months: overflow ? nil : months, "\(ValueFormatter.period(p)) * \(n)"))
        case (.add, .duration(let x), .duration(let y)): return .duration(try DurationArithmetic.add(x, y))
        case (.subtract, .duration(let x), .duration(let y)): return .duration(try DurationArithmetic.subtract(x, y))
        case (.multiply, .duration(let t), .int), (.multiply, .duration(let t), .decimal):
            return .duration(try DurationArithmetic.multiply(t, by: b))
        case (.multiply, .int, .duration(let t)), (.multiply, .decimal, .duration(let t)):
            return .duration(try DurationArithmetic.multiply(t, by: a))
        case (.divide, .duration(let t), .int), (.divide, .duration(let t), .decimal):
            return .duration(try DurationArithmetic.divide(t, by: b))
        case (.add, .size(let x), .size(let y)): return .size(try SizeArithmetic.add(x, y))
        case (.subtract, .size(let x), .size(let y)): return .size(try SizeArithmetic.subtract(x, y))
        case (.multiply, .size(let x), .int), (.multiply, .size(let x), .decimal):
            return .size(try SizeArithmetic.multiply(x, by: b))
        case (.divide, .size(let x), .int), (.divide, .size(let x), .decimal):
            return .size(try SizeArithmetic.divide(x, by: b))
        default: break
        }
        guard let x = number(a), let y = number(b) else {
            throw EvaluationError("can't apply '\(op.rawValue)' to \(a.type) and \(b.type)")
        }
        switch op {
        case .add: return .decimal(try DecimalArithmetic.add(x, y))
        case .subtract: return .decimal(try DecimalArithmetic.subtract(x, y))
        case .multiply: return .decimal(try DecimalArithmetic.multiply(x, y))
        case .divide: return .decimal(try DecimalArithmetic.divide(x, y))
        case .remainder: return .decimal(try DecimalArithmetic.remainder(x, y))
        }
    }

    /// `x op y` on two Ints, where the result is an Int that fits: the evaluator's fast path. Nil for an overflow,
    /// a division (its result is a Decimal) and a remainder by 0 or -1, which `arithmetic` then computes or reports.
    @inline(__always)
    static func intArithmetic(_ op: ArithmeticOperator, _ x: Int, _ y: Int) -> Int? {
        let result: (partialValue: Int, overflow: Bool)
        switch op {
        case .add: result = x.addingReportingOverflow(y)
        case .subtract: result = x.subtractingReportingOverflow(y)
        case .multiply: result = x.multipliedReportingOverflow(by: y)
        case .divide: return nil
        case .remainder: return y == 0 || y == -1 ? nil : x % y
        }
        return result.overflow ? nil : result.partialValue
    }

    /// `x op y` on two Ints for the comparisons that order or equate them; nil for the others (`contains`, …), which
    /// `compare` handles.
    @inline(__always)
    static func intComparison(_ op: ComparisonOperator, _ x: Int, _ y: Int) -> Bool? {
        switch op {
        case .equal: return x == y
        case .notEqual: return x != y
        case .less: return x < y
        case .lessOrEqual: return x <= y
        case .greater: return x > y
        case .greaterOrEqual: return x >= y
        default: return nil
        }
    }

    static func checked(_ result: (partialValue: Int, overflow: Bool), _ x: Int, _ op: String, _ y: Int) throws(EvaluationError) -> Value {
        if result.overflow { throw EvaluationError("integer overflow: \(x) \(op) \(y) does not fit in 64 bits") }
        return .int(result.partialValue)
    }

    /// An Int or a Decimal as a Decimal, exactly (an Int has at most 19 digits); nil for anything else.
    package static func number(_ value: Value) -> Decimal? {
        switch value {
        case .int(let i): return Decimal(i)
        case .decimal(let d): return d
        default: return nil
        }
    }

    /// `xs[i]` and `t[i]` from 0, negative from the end (`xs[-1]` is the last); `r[key]`. What is not there is nil.
    package static func index(_ base: Value, _ index: Value) throws(EvaluationError) -> Value {
        switch (base, index) {
        case (.null, _):
            return .null
        case (.list(let items), .int(let i)):
            let position = i < 0 ? items.count &+ i : i
            return items.indices.contains(position) ? items[position] : .null
        case (.text(let text), .int(let i)):
            // One walk from the nearer end, rather than counting the characters first.
            let position = i < 0 ? text.index(text.endIndex, offsetBy: i, limitedBy: text.startIndex)
                                 : text.index(text.startIndex, offsetBy: i, limitedBy: text.endIndex)
            guard let position, position < text.endIndex else { return .null }
            return .text(String(text[position]))
        case (.record(let record), .text(let key)):
            return record[key] ?? .null
        case (.list, _), (.text, _):
            throw EvaluationError("\(base.type) is indexed by a whole number, not \(index.type)")
        case (.record, _):
            throw EvaluationError("a record is indexed by a text, not \(index.type)")
        default:
            throw EvaluationError("\(base.type) can't be indexed: xs[i] works on lists, texts and records")
        }
    }

    package static func negate(_ value: Value) throws(EvaluationError) -> Value {
        switch value {
        case .int(let i):
            if i == .min { throw EvaluationError("integer overflow: -(\(i)) does not fit in 64 bits") }
            return .int(-i)
        case .decimal(let d): return .decimal(try DecimalArithmetic.negate(d))
        case .duration(let d): return .duration(try DurationArithmetic.negate(d))
        case .period(let p): return .period(try DurationArithmetic.period(months: -p.months, "-(\(ValueFormatter.period(p)))"))
        default: throw EvaluationError("can't negate \(value.type)")
        }
    }

    /// `==`: numbers by value whatever their kind, entities by type and id, enum cases by case.
    package static func equal(_ a: Value, _ b: Value) -> Bool {
        // Lists and records here, everything else in `equalScalars`: this frame is the one repeated per level
        // of a nested value, so it is kept small (see `ValueLimits`).
        switch a {
        case .list(let x):
            guard case .list(let y) = b else { return false }
            return equalItems(x, y)
        case .record(let x):
            guard case .record(let y) = b else { return false }
            return x.keys == y.keys && equalItems(x.values, y.values)
        default:
            return equalScalars(a, b)
        }
    }

    /// A plain loop rather than `zip(…).allSatisfy { … }`, which would add closure frames to every level.
    static func equalItems(_ x: [Value], _ y: [Value]) -> Bool {
        guard x.count == y.count else { return false }
        for index in x.indices where !equal(x[index], y[index]) { return false }
        return true
    }

    static func equalScalars(_ a: Value, _ b: Value) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.int(let x), .int(let y)): return x == y
        case (.decimal(let x), .decimal(let y)): return x == y
        case (.text(let x), .text(let y)): return x == y
        case (.date(let x), .date(let y)): return x == y
        case (.duration(let x), .duration(let y)): return x == y
        case (.period(let x), .period(let y)): return x == y
        case (.size(let x), .size(let y)): return x == y
        case (.file(let x), .file(let y)): return x == y
        case (.entity(let x), .entity(let y)): return x.type === y.type && x.id == y.id
        case (.enumCase(let x), .enumCase(let y)): return x.type === y.type && x.index == y.index
        case (.enumCase(let x), .text(let y)), (.text(let y), .enumCase(let x)): return x.type.caseIndex(named: y) == x.index
        case (.file(let x), .text(let y)), (.text(let y), .file(let x)): return x.path == y
        default:
            if let x = number(a), let y = number(b) { return x == y }
            return false
        }
    }

    /// Ordering for `<`, `sort by`, `min` and `max`. Nil when the two can't be ordered.
    package static func order(_ a: Value, _ b: Value) -> ComparisonResult? {
        func result<T: Comparable>(_ x: T, _ y: T) -> ComparisonResult {
            x < y ? .orderedAscending : (x > y ? .orderedDescending : .orderedSame)
        }
        switch (a, b) {
        case (.int(let x), .int(let y)): return result(x, y)
        case (.decimal(let x), .decimal(let y)): return result(x, y)
        case (.text(let x), .text(let y)): return result(x, y)
        case (.date(let x), .date(let y)): return result(x, y)
        case (.duration(let x), .duration(let y)): return result(x, y)
        case (.period(let x), .period(let y)): return result(x, y)
        case (.size(let x), .size(let y)): return result(x, y)
        case (.bool(let x), .bool(let y)): return result(x ? 1 : 0, y ? 1 : 0)
        case (.enumCase(let x), .enumCase(let y)) where x.type === y.type: return result(x.index, y.index)
        default:
            if let x = number(a), let y = number(b) { return result(x, y) }
            return nil
        }
    }

    package static func compare(_ op: ComparisonOperator, _ a: Value, _ b: Value) throws(EvaluationError) -> Bool {
        switch op {
        case .equal, .notEqual:
            if equal(a, b) { return op == .equal }
            // Unequal: because they differ, or because they could never be equal, which is a mistake to say.
            if let problem = ComparisonRules.problem(op, property: ComparisonRules.kind(of: a), value: b) { throw problem }
            return op == .notEqual
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            // Comparing with nil is false, as in SQL: a book not read yet is neither before nor after a date.
            if a.isNull || b.isNull { return false }
            guard let order = order(a, b) else {
                let (x, y) = (ComparisonRules.kind(of: a), ComparisonRules.kind(of: b))
                let problem = ComparisonRules.problem(op, x, y) ?? "can't order \(x) and \(y) with '\(op.rawValue)'"
                throw EvaluationError(problem + (ComparisonRules.hint(x, y).map { "; \($0)" } ?? ""))
            }
            switch op {
            case .less: return order == .orderedAscending
            case .lessOrEqual: return order != .orderedDescending
            case .greater: return order == .orderedDescending
            default: return order != .orderedAscending
            }
        case .contains:
            switch (a, b) {
            case (.text(let x), .text(let y)): return x.range(of: y, options: .caseInsensitive) != nil || y.isEmpty
            case (.list(let items), _): return items.contains { equal($0, b) }
            case (.record(let record), .text(let key)): return record[key] != nil
            case (.null, _): return false
            default: throw EvaluationError("can't look for \(b.type) in \(a.type) with 'contains'")
            }
        case .startsWith, .endsWith:
            guard case .text(let x) = a, case .text(let y) = b else {
                if a.isNull { return false }
                throw EvaluationError("'\(op.rawValue)' compares texts, not \(a.type) and \(b.type)")
            }
            let options: String.CompareOptions = op == .startsWith ? [.caseInsensitive, .anchored] : [.caseInsensitive, .anchored, .backwards]
            return y.isEmpty || x.range(of: y, options: options) != nil
        case .oneOf:
            return try compare(.contains, b, a)
        case .between:
            guard case .list(let ends) = b, ends.count == 2 else { throw EvaluationError("'between' needs two ends") }
            guard try compare(.greaterOrEqual, a, ends[0]) else { return false }
            return try compare(.lessOrEqual, a, ends[1])
        }
    }

    package static func truth(_ value: Value, _ context: String) throws(EvaluationError) -> Bool {
        guard case .bool(let flag) = value else {
            throw EvaluationError("\(context) must be true or false, not \(value.type)")
        }
        return flag
    }
}
