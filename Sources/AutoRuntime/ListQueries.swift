import Foundation
import AutoIntents

/// Where-clauses, sorts and limits evaluated on engine values: the list stages `filter where`, `sort by`
/// and `limit`, and the part of a `find` that stays in the engine.
enum ListQueries {
    /// A where-clause's test of one candidate. A comparison that can't be made (a Text property with an Int) is an
    /// error, not a candidate turned down.
    typealias Test = @Sendable (Value) throws(EvaluationError) -> Bool

    /// The condition with its right-hand sides evaluated, as a test of one candidate. A candidate whose property
    /// can't be read (a record without that field, a file gone) is turned down.
    static func test(_ plan: ConditionPlan, grants: Grants, _ evaluate: (Expr) throws(EvaluationError) -> Value) throws(EvaluationError)
        -> Test {
        switch plan {
        case .compare(let path, let op, let right):
            let value = try evaluate(right)
            return { candidate throws(EvaluationError) in
                guard let left = try? read(path, candidate, grants: grants) else { return false }
                return try Operations.compare(op, left, value)
            }
        case .and(let a, let b):
            let (x, y) = (try test(a, grants: grants, evaluate), try test(b, grants: grants, evaluate))
            // Not `&&` and `||`, whose autoclosures would lose the error's type.
            return { candidate throws(EvaluationError) in
                guard try x(candidate) else { return false }
                return try y(candidate)
            }
        case .or(let a, let b):
            let (x, y) = (try test(a, grants: grants, evaluate), try test(b, grants: grants, evaluate))
            return { candidate throws(EvaluationError) in
                if try x(candidate) { return true }
                return try y(candidate)
            }
        case .not(let a):
            let x = try test(a, grants: grants, evaluate)
            return { candidate throws(EvaluationError) in try !x(candidate) }
        }
    }

    static func read(_ path: [PropertyAccess], _ value: Value, grants: Grants) throws(EvaluationError) -> Value {
        var current = value
        for access in path { current = try Properties.read(access, of: current, grants: grants) }
        return current
    }

    /// Three-way order of engine values: nil first, then by `Operations.order`; values that can't be
    /// ordered keep their places.
    static func order(_ a: Value, _ b: Value) -> Int {
        switch (a.isNull, b.isNull) {
        case (true, true): return 0
        case (true, false): return -1
        case (false, true): return 1
        default:
            switch Operations.order(a, b) {
            case .orderedAscending?: return -1
            case .orderedDescending?: return 1
            default: return 0
            }
        }
    }

    /// What `ignoring case` orders: a text's lowercase form (Swift's `lowercased()`, Unicode's default full
    /// mapping, the same on every platform), so `"apple" < "Banana" < "cherry"`, and texts that differ only in
    /// case tie (and keep their order). Other values are left as they are. The one place this rule lives: the
    /// list stage and the engine's side of a `find` both order through it.
    static func foldingCase(_ value: Value) -> Value {
        if case .text(let text) = value { return .text(text.lowercased()) }
        return value
    }

    static func filter(_ items: [Value], _ plan: ConditionPlan, grants: Grants, _ evaluate: (Expr) throws(EvaluationError) -> Value)
        throws(EvaluationError) -> [Value] {
        let keep = try test(plan, grants: grants, evaluate)
        var kept: [Value] = []
        for index in items.indices {
            if index % Interruption.stride == 0 { try Interruption.check() }
            if try keep(items[index]) { kept.append(items[index]) }
        }
        return kept
    }

    /// Stable. Nil sorts first; values of kinds that can't be ordered with each other (a number and a text,
    /// two records) are an error, as they are for `max`, rather than a list left half sorted.
    static func sort(_ items: [Value], _ keys: [SortPlan], grants: Grants) throws(EvaluationError) -> [Value] {
        // Each key is read (and folded) once per item, not once per comparison.
        let keyed = items.enumerated().map { index, item in (item, index, sortValues(of: item, keys, grants: grants)) }
        var failure: EvaluationError?
        var comparisons = 0
        let sorted = keyed.sorted { a, b in
            // A sort of a big list is one step of the script: it looks for Ctrl-C and the time limit itself.
            comparisons &+= 1
            if failure == nil, comparisons % Interruption.stride == 0, Interruption.isRequested { failure = .interrupted }
            if failure != nil { return a.1 < b.1 }
            return precedes(a.2, a.1, b.2, b.1, keys, failure: &failure)
        }
        if let failure { throw failure }
        return sorted.map(\.0)
    }

    /// What a sort orders an item by: the value at each key's path, folded for `ignoring case`; nil where it can't
    /// be read.
    static func sortValues(of item: Value, _ keys: [SortPlan], grants: Grants) -> [Value] {
        keys.map { key in
            let value = (try? read(key.path, item, grants: grants)) ?? .null
            return key.ignoringCase ? foldingCase(value) : value
        }
    }

    /// Whether the item at `i` with sort values `x` comes before the one at `j` with `y`: by the keys in turn, then by
    /// position (so sorts are stable). Two values that can't be ordered with each other set `failure`.
    static func precedes(_ x: [Value], _ i: Int, _ y: [Value], _ j: Int, _ keys: [SortPlan], failure: inout EvaluationError?) -> Bool {
        let c = compare(x, y, keys, failure: &failure)
        return c != 0 ? c < 0 : i < j
    }

    /// Which of two elements' sort keys goes first: below 0 `x`, above 0 `y`, 0 when they tie (or can't be ordered, which
    /// sets `failure`).
    static func compare(_ x: [Value], _ y: [Value], _ keys: [SortPlan], failure: inout EvaluationError?) -> Int {
        for (index, key) in keys.enumerated() {
            let (a, b) = (x[index], y[index])
            if !a.isNull, !b.isNull, Operations.order(a, b) == nil {
                failure = failure ?? EvaluationError("sort by \(key.path.map(\.description).joined(separator: ".")) can't order \(a.type) and \(b.type)")
                return 0
            }
            let c = order(a, b)
            if c != 0 { return key.descending ? -c : c }
        }
        return 0
    }

    static func limit(_ value: Value) throws(EvaluationError) -> Int {
        guard case .int(let count) = value else { throw EvaluationError("'limit' needs a whole number, not \(value.type)") }
        guard count >= 0 else { throw EvaluationError("'limit' can't be negative (\(count))") }
        return count
    }

    /// Groups of elements whose keys are equal, in the order their keys first appear: one dictionary lookup per
    /// element, so a list of a million distinct values is grouped in one pass.
    static func group(_ items: [Value], by path: [PropertyAccess], _ grouping: Grouping, limits: ValueLimits, grants: Grants)
        throws(EvaluationError) -> Value {
        .list(try group(count: items.count, key: { index throws(EvaluationError) in try read(path, items[index], grants: grants) },
                        element: { items[$0] }, grouping, limits: limits))
    }

    /// The grouping of `count` elements, whatever holds them: a list of values, or the host's entities before they are
    /// values (`FindRequest.group`). `key` reads an element's key; `element` gives an element as a value, asked only for
    /// those the result holds (none for `count by`).
    static func group(count: Int, key: (Int) throws(EvaluationError) -> Value, element: (Int) -> Value, _ grouping: Grouping,
                      limits: ValueLimits) throws(EvaluationError) -> [Value] {
        var positions: [GroupKey: Int] = [:]
        // Texts, the most common keys, by the text itself: two texts are equal keys exactly when `==` says so (as in
        // `GroupKey`), and a text never equals a key of another kind, so they can be apart; this skips `GroupKey`'s
        // switches on every element, and `TextPositions` hashes ASCII texts without `Hasher`.
        var textPositions = TextPositions()
        var groups: [(key: Value, items: [Value], count: Int)] = []
        for index in 0..<count {
            if index % Interruption.stride == 0 { try Interruption.check() }
            let value = try key(index)
            let found: Int?
            if case .text(let text) = value {
                found = textPositions.existing(text, else: groups.count)
            } else {
                let groupKey = GroupKey(value)
                found = positions[groupKey]
                if found == nil { positions[groupKey] = groups.count }
            }
            if let position = found {
                groups[position].count += 1
                if grouping == .items { groups[position].items.append(element(index)) }
            } else {
                groups.append((value, grouping == .count ? [] : [element(index)], 1))
            }
        }
        let result: [Value]
        switch grouping {
        case .distinct:
            return groups.map { $0.items[0] }
        case .items:
            result = groups.map { .record(Record(keys: ["key", "items"], values: [$0.key, .list($0.items)])) }
        case .count:
            result = groups.map { .record(Record(keys: ["key", "count"], values: [$0.key, .int($0.count)])) }
        }
        try limits.checkNesting(result)
        return result
    }
}
