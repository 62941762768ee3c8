/// How the engine finds a host's entities (DESIGN.md §3). A host implements one or more of these for an
/// entity type and registers it with `Registry.register(query:)`; `find books …` then runs in it.
///
/// Every query answers lookups by identifier. What else it can do decides how `find` runs:
/// - `EntityPropertyQuery`: the where-clause, sort and limit are pushed down to the host (SQL, a REST filter),
///   as far as it declares support;
/// - `EnumerableEntityQuery`: the engine filters, sorts and limits all entities itself;
/// - `EntityStringQuery`: `find books matching "text"`, and entity parameters given as text.
///
/// Its `@Dependency` properties are filled in when it is registered, as an intent's are.
public protocol EntityQuery<Entity>: Sendable {
    /// The entity type it finds.
    associatedtype Entity: AppEntity
    /// The entities with these identifiers; unknown ones are left out.
    func entities(for identifiers: [Entity.ID]) async throws -> [Entity]
    /// What `find books` returns when the query can neither enumerate nor filter: recent or likely ones.
    func suggestedEntities() async throws -> [Entity]
}

extension EntityQuery {
    /// None: `find` without a filter finds nothing in a query that can neither enumerate nor filter.
    public func suggestedEntities() async throws -> [Entity] { [] }
}

/// A query that finds entities by text, as App Intents' `EntityStringQuery`: what `find books matching "circe"` runs,
/// and how a text given for an entity parameter (`open book "Circe"`) or answered to its question becomes one.
///
/// ```swift
/// struct BookQuery: EntityStringQuery {
///     @Dependency var database: LibraryDatabase
///     func entities(for identifiers: [Int64]) async throws -> [Book] { try await database.books(identifiers) }
///     func entities(matching text: String) async throws -> [Book] { try await database.books(titled: text) }
/// }
/// ```
public protocol EntityStringQuery<Entity>: EntityQuery {
    /// Entities whose name or other text matches `text`, best first.
    func entities(matching text: String) async throws -> [Entity]
}

/// A query that can list every entity, as App Intents' `EnumerableEntityQuery`: the engine then filters, sorts and
/// limits them itself, so `find` takes any where-clause. For a few thousand entities or fewer, or in memory.
///
/// ```swift
/// struct AuthorQuery: EnumerableEntityQuery {
///     func allEntities() async throws -> [Author] { try await database.authors() }
///     func entities(for identifiers: [String]) async throws -> [Author] {
///         try await allEntities().filter { identifiers.contains($0.id) }
///     }
/// }
/// ```
public protocol EnumerableEntityQuery<Entity>: EntityQuery {
    /// Every entity of the type, in a stable order (ties in a sort keep it).
    func allEntities() async throws -> [Entity]
}

/// Whether pushed comparisons must all hold or any of them.
public enum ComparatorMode: String, Sendable {
    /// Every predicate must hold: `where a and b`.
    case and
    /// Any of them: `where a or b`.
    case or
}

/// One key of a pushed-down sort.
public struct QuerySort: Sendable, Hashable {
    /// The property's name, one of the query's `sortableProperties`.
    public let property: String
    /// Largest first.
    public let descending: Bool
    /// A sort key; the engine makes them from `sort by`.
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
///
/// ```swift
/// struct BookQuery: EntityPropertyQuery {
///     var properties: [QueryProperty<Book, SQLExpression>] {
///         [.init("title", [.equal { (text: String) in Column("title") == text }, .contains { text in … }])]
///     }
///     var sortableProperties: [String] { ["title"] }
///     func entities(matching predicates: [SQLExpression], mode: ComparatorMode, sortedBy: [QuerySort],
///                   limit: Int?) async throws -> [Book] { … }
///     func entities(for identifiers: [Int64]) async throws -> [Book] { … }
/// }
/// ```
///
/// The predicate type is the host's: SQL for a database, or a closure for entities held in memory:
///
/// ```swift
/// struct TrailQuery: EntityPropertyQuery {
///     typealias Predicate = @Sendable (Trail) -> Bool
///     var properties: [QueryProperty<Trail, Predicate>] {
///         [.init("length", [.less { (km: Decimal) in { $0.length < km } }])]
///     }
///     var sortableProperties: [String] { [] }
///     func entities(matching predicates: [Predicate], mode: ComparatorMode, sortedBy: [QuerySort],
///                   limit: Int?) async throws -> [Trail] {
///         let found = store.trails.filter { trail in
///             mode == .and ? predicates.allSatisfy { $0(trail) } : predicates.contains { $0(trail) }
///         }
///         return Array(found.prefix(limit ?? found.count))
///     }
///     func entities(for identifiers: [UUID]) async throws -> [Trail] { … }
/// }
/// ```
public protocol EntityPropertyQuery<Entity>: EntityQuery {
    /// The host's own condition type: a SQL expression, a REST filter.
    associatedtype Predicate: Sendable
    /// The properties it filters on, each with the comparators it supports.
    var properties: [QueryProperty<Entity, Predicate>] { get }
    /// Property names the host can sort by.
    var sortableProperties: [String] { get }
    /// The entities that match `predicates` (all of them or any, by `mode`), sorted by the keys in order, at most
    /// `limit` of them. A comparison the query doesn't support is left to the engine, which then sorts and limits too.
    func entities(matching predicates: [Predicate], mode: ComparatorMode, sortedBy: [QuerySort], limit: Int?) async throws -> [Entity]
}

/// One property a property query can filter on, with the comparators it supports.
public struct QueryProperty<Entity: AppEntity, Predicate: Sendable>: Sendable {
    @usableFromInline package let name: String
    @usableFromInline package let comparators: [QueryComparator<Predicate>]
    /// The property `name` of the entity type, filtered with these comparators.
    public init(_ name: String, _ comparators: [QueryComparator<Predicate>]) {
        self.name = name
        self.comparators = comparators
    }
}

/// A comparator a property query supports, and how it becomes the host's predicate: `.equal { (text: String) in
/// Column("title") == text }`. Each takes the script's value as the Swift type its closure names; a value of another
/// type is left to the engine, which then filters itself.
public struct QueryComparator<Predicate: Sendable>: Sendable {
    @usableFromInline package let kind: ComparisonOperator
    /// Nil when the value can't be expressed for this comparator (the engine then filters itself).
    @usableFromInline package let makePredicate: @Sendable (Value) -> Predicate?

    package init(_ kind: ComparisonOperator, _ makePredicate: @escaping @Sendable (Value) -> Predicate?) {
        self.kind = kind
        self.makePredicate = makePredicate
    }

    static func typed<T: IntentValue>(_ kind: ComparisonOperator, _ make: @escaping @Sendable (T) -> Predicate) -> Self {
        Self(kind) { value in T(autoValue: value).map(make) }
    }

    /// `==`; texts compare exactly.
    public static func equal<T: IntentValue>(_ make: @escaping @Sendable (T) -> Predicate) -> Self { typed(.equal, make) }
    /// `!=`; a missing value differs from every value, so it matches.
    public static func notEqual<T: IntentValue>(_ make: @escaping @Sendable (T) -> Predicate) -> Self { typed(.notEqual, make) }
    /// `<`.
    public static func less<T: IntentValue>(_ make: @escaping @Sendable (T) -> Predicate) -> Self { typed(.less, make) }
    /// `<=`.
    public static func lessOrEqual<T: IntentValue>(_ make: @escaping @Sendable (T) -> Predicate) -> Self { typed(.lessOrEqual, make) }
    /// `>`.
    public static func greater<T: IntentValue>(_ make: @escaping @Sendable (T) -> Predicate) -> Self { typed(.greater, make) }
    /// `>=`.
    public static func greaterOrEqual<T: IntentValue>(_ make: @escaping @Sendable (T) -> Predicate) -> Self { typed(.greaterOrEqual, make) }
    /// `contains`, ignoring case.
    public static func contains(_ make: @escaping @Sendable (String) -> Predicate) -> Self { typed(.contains, make) }
    /// `starts with`, ignoring case.
    public static func startsWith(_ make: @escaping @Sendable (String) -> Predicate) -> Self { typed(.startsWith, make) }
    /// `ends with`, ignoring case.
    public static func endsWith(_ make: @escaping @Sendable (String) -> Predicate) -> Self { typed(.endsWith, make) }
    /// `in [a, b]`: the value is one of the list's.
    public static func oneOf<T: IntentValue>(_ make: @escaping @Sendable ([T]) -> Predicate) -> Self { typed(.oneOf, make) }
    /// `between a and b`, both ends included.
    public static func between<T: IntentValue>(_ make: @escaping @Sendable (T, T) -> Predicate) -> Self {
        Self(.between) { value in
            guard case .list(let ends) = value, ends.count == 2, let low = T(autoValue: ends[0]), let high = T(autoValue: ends[1]) else { return nil }
            return make(low, high)
        }
    }
}
