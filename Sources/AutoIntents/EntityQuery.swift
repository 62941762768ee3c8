/// How the engine finds a host's entities (DESIGN.md §3). A host implements one or more of these for an
/// entity type and registers it with `Registry.register(query:)`; `find books …` then runs in it.
///
/// Every query answers lookups by identifier. What else it can do decides how `find` runs:
/// - `EntityPropertyQuery`: the where-clause, sort and limit are pushed down to the host (SQL, a REST filter),
///   as far as it declares support;
/// - `EnumerableEntityQuery`: the engine filters, sorts and limits all entities itself;
/// - `EntityStringQuery`: `find books matching "text"`, and entity parameters given as text.
public protocol EntityQuery<Entity>: Sendable {
    associatedtype Entity: AppEntity
    /// The entities with these identifiers; unknown ones are left out.
    func entities(for identifiers: [Entity.ID]) async throws -> [Entity]
    /// What `find books` returns when the query can neither enumerate nor filter: recent or likely ones.
    func suggestedEntities() async throws -> [Entity]
}

extension EntityQuery {
    public func suggestedEntities() async throws -> [Entity] { [] }
}

public protocol EntityStringQuery<Entity>: EntityQuery {
    /// Entities whose name or other text matches `text`, best first.
    func entities(matching text: String) async throws -> [Entity]
}

public protocol EnumerableEntityQuery<Entity>: EntityQuery {
    func allEntities() async throws -> [Entity]
}

/// Whether pushed comparisons must all hold or any of them.
public enum ComparatorMode: String, Sendable {
    case and
    case or
}

/// One key of a pushed-down sort.
public struct QuerySort: Sendable, Hashable {
    public let property: String
    public let descending: Bool
    public init(property: String, descending: Bool) {
        self.property = property
        self.descending = descending
    }
}

/// A query that filters, sorts and limits in the host. It declares which (property, comparator) pairs it
/// supports, each mapped to the host's own predicate type, and which properties it can sort by.
///
/// A pushed comparison must mean what the engine means by it: texts compare exactly with `==`, `contains`,
/// `starts with` and `ends with` ignore case; a missing value is unequal to every value and neither before
/// nor after anything. The engine's differential tests hold hosts to it.
public protocol EntityPropertyQuery<Entity>: EntityQuery {
    associatedtype Predicate: Sendable
    var properties: [QueryProperty<Entity, Predicate>] { get }
    /// Property names the host can sort by.
    var sortableProperties: [String] { get }
    func entities(matching predicates: [Predicate], mode: ComparatorMode, sortedBy: [QuerySort], limit: Int?) async throws -> [Entity]
}

/// One property a property query can filter on, with the comparators it supports.
public struct QueryProperty<Entity: AppEntity, Predicate: Sendable>: Sendable {
    public let name: String
    public let comparators: [QueryComparator<Predicate>]
    public init(_ name: String, _ comparators: [QueryComparator<Predicate>]) {
        self.name = name
        self.comparators = comparators
    }
}

/// A comparator a property query supports, and how it becomes the host's predicate.
public struct QueryComparator<Predicate: Sendable>: Sendable {
    public let kind: ComparisonOperator
    /// Nil when the value can't be expressed for this comparator (the engine then filters itself).
    public let makePredicate: @Sendable (Value) -> Predicate?

    public init(_ kind: ComparisonOperator, _ makePredicate: @escaping @Sendable (Value) -> Predicate?) {
        self.kind = kind
        self.makePredicate = makePredicate
    }

    static func typed<T: IntentValue>(_ kind: ComparisonOperator, _ make: @escaping @Sendable (T) -> Predicate) -> Self {
        Self(kind) { value in T(autoValue: value).map(make) }
    }

    public static func equal<T: IntentValue>(_ make: @escaping @Sendable (T) -> Predicate) -> Self { typed(.equal, make) }
    public static func notEqual<T: IntentValue>(_ make: @escaping @Sendable (T) -> Predicate) -> Self { typed(.notEqual, make) }
    public static func less<T: IntentValue>(_ make: @escaping @Sendable (T) -> Predicate) -> Self { typed(.less, make) }
    public static func lessOrEqual<T: IntentValue>(_ make: @escaping @Sendable (T) -> Predicate) -> Self { typed(.lessOrEqual, make) }
    public static func greater<T: IntentValue>(_ make: @escaping @Sendable (T) -> Predicate) -> Self { typed(.greater, make) }
    public static func greaterOrEqual<T: IntentValue>(_ make: @escaping @Sendable (T) -> Predicate) -> Self { typed(.greaterOrEqual, make) }
    public static func contains(_ make: @escaping @Sendable (String) -> Predicate) -> Self { typed(.contains, make) }
    public static func startsWith(_ make: @escaping @Sendable (String) -> Predicate) -> Self { typed(.startsWith, make) }
    public static func endsWith(_ make: @escaping @Sendable (String) -> Predicate) -> Self { typed(.endsWith, make) }
    public static func oneOf<T: IntentValue>(_ make: @escaping @Sendable ([T]) -> Predicate) -> Self { typed(.oneOf, make) }
    public static func between<T: IntentValue>(_ make: @escaping @Sendable (T, T) -> Predicate) -> Self {
        Self(.between) { value in
            guard case .list(let ends) = value, ends.count == 2, let low = T(autoValue: ends[0]), let high = T(autoValue: ends[1]) else { return nil }
            return make(low, high)
        }
    }
}
