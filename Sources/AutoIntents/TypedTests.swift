import Foundation

/// The comparisons of a where-clause, shared by the engine, the hosts' property queries and `auto graph`.
@usableFromInline
package enum ComparisonOperator: String, Sendable, CaseIterable {
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
    case contains
    case startsWith = "starts with"
    case endsWith = "ends with"
    /// `in [a, b]`: the value is a list.
    case oneOf = "in"
    /// `between a and b`: the value is a list of the two ends, both included.
    case between
}

/// Typed comparisons for entity properties, built once per query from the script's value, so that scanning
/// a million entities compares Swift values directly. Nil means "can't be typed": the engine then falls
/// back to comparing engine values, with the same results.
@usableFromInline
package enum TypedTests {
    @inlinable
    package static func order<T: Comparable>(_ a: T, _ b: T) -> Int {
        a < b ? -1 : (b < a ? 1 : 0)
    }

    @inlinable
    package static func test<E, T: IntentValue & Comparable>(_ op: ComparisonOperator, _ value: Value,
                                                             _ get: @escaping @Sendable (E) -> T) -> (@Sendable (E) -> Bool)? {
        switch op {
        case .oneOf:
            guard case .list(let items) = value else { return nil }
            let wanted = items.compactMap(T.init(autoValue:))
            guard wanted.count == items.count else { return nil }
            return { entity in wanted.contains(get(entity)) }
        case .between:
            guard case .list(let ends) = value, ends.count == 2, let low = T(autoValue: ends[0]), let high = T(autoValue: ends[1]) else { return nil }
            return { entity in let v = get(entity); return low <= v && v <= high }
        case .contains, .startsWith, .endsWith:
            return nil
        default:
            guard let x = T(autoValue: value) else { return nil }
            switch op {
            case .equal: return { get($0) == x }
            case .notEqual: return { get($0) != x }
            case .less: return { get($0) < x }
            case .lessOrEqual: return { get($0) <= x }
            case .greater: return { get($0) > x }
            default: return { get($0) >= x }
            }
        }
    }

    /// A test of a property that may be missing, from the test of a present value: a missing value equals
    /// nothing, differs from everything and is neither before nor after anything.
    @inlinable
    package static func whenPresent<E, T>(_ op: ComparisonOperator, _ test: (@Sendable (T) -> Bool)?,
                                         _ get: @escaping @Sendable (E) -> T?) -> (@Sendable (E) -> Bool)? {
        guard let test else { return nil }
        let missing = op == .notEqual
        return { entity in get(entity).map(test) ?? missing }
    }

    /// Order with a missing value first.
    @inlinable
    package static func optionalOrder<T: Comparable>(_ a: T?, _ b: T?) -> Int {
        switch (a, b) {
        case (nil, nil): return 0
        case (nil, _): return -1
        case (_, nil): return 1
        case (let x?, let y?): return order(x, y)
        }
    }

    @inlinable
    package static func textTest<E>(_ op: ComparisonOperator, _ value: Value, _ get: @escaping @Sendable (E) -> String) -> (@Sendable (E) -> Bool)? {
        switch op {
        case .contains, .startsWith, .endsWith:
            guard case .text(let needle) = value else { return nil }
            if needle.isEmpty { return { _ in true } }
            let options: String.CompareOptions = op == .contains ? [.caseInsensitive]
                : op == .startsWith ? [.caseInsensitive, .anchored] : [.caseInsensitive, .anchored, .backwards]
            return { get($0).range(of: needle, options: options) != nil }
        default:
            return test(op, value, get)
        }
    }
}
