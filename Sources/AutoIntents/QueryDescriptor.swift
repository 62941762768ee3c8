/// What the engine knows of a registered query, without its Swift types: what it can do, and closures
/// that run it (built, typed, where the host registered it).
@usableFromInline package final class QueryDescriptor: Sendable {
    package let entityType: AnyEntityType
    package let canEnumerate: Bool
    /// Whether the host's query searches by text itself (an `EntityStringQuery`).
    package let canSearchText: Bool
    package let isPropertyQuery: Bool
    /// Property name (lower case) → the comparators the host answers for it.
    package let comparators: [String: Set<ComparisonOperator>]
    /// Lower-case names of the properties the host sorts by.
    package let sortableProperties: Set<String>
    @usableFromInline let find: @Sendable (FindRequest) async throws -> [Value]
    @usableFromInline let lookup: @Sendable ([String]) async throws -> [Value]

    @usableFromInline
    init(entityType: AnyEntityType, canEnumerate: Bool, canSearchText: Bool, isPropertyQuery: Bool,
         comparators: [String: Set<ComparisonOperator>], sortableProperties: Set<String>,
         find: @escaping @Sendable (FindRequest) async throws -> [Value],
         lookup: @escaping @Sendable ([String]) async throws -> [Value]) {
        self.entityType = entityType
        self.canEnumerate = canEnumerate
        self.canSearchText = canSearchText
        self.isPropertyQuery = isPropertyQuery
        self.comparators = comparators
        self.sortableProperties = sortableProperties
        self.find = find
        self.lookup = lookup
    }

    /// Whether a text can name an entity of the type (`open region "Valais"`, a phrase's parameter): the host's text
    /// search, or else the engine's match of the titles of all the entities (`DisplayRepresentation.matches`).
    package var canFindByText: Bool { canSearchText || canEnumerate }

    /// Runs a find: asks the host for the source, then filters, sorts and limits what the engine must.
    package func run(_ request: FindRequest) async throws -> [Value] { try await find(request) }

    /// Entities by identifier, in the order asked; unknown ones are left out.
    package func entities(withIdentifiers identifiers: [String]) async throws -> [Value] { try await lookup(identifiers) }

    package func supports(_ property: String, _ op: ComparisonOperator) -> Bool {
        comparators[property.lowercased()]?.contains(op) ?? false
    }
}

extension Registry {
    /// Registers how entities of `Q.Entity` are found. What the query conforms to (property, enumerable,
    /// string query) decides what `find` can push down and what the engine does itself.
    /// The query's `@Dependency` properties are filled in from the registry's dependencies, as an intent's are.
    @inlinable
    public mutating func register<Q: EntityQuery>(query: Q) throws(RegistrationError) {
        var filled = query
        try dependencies.fill(&filled, in: "the query of \(Q.Entity.entityType.plural)")
        let query = filled
        let type = Q.Entity.entityType
        let support = (query as? any EntityPropertyQuery<Q.Entity>).map { Self.propertySupport($0) }
        let comparators = support?.comparators ?? [:], sortable = support?.sortable ?? []
        let pushed = support?.run
        let enumerable = query as? any EnumerableEntityQuery<Q.Entity>
        let searchable = query as? any EntityStringQuery<Q.Entity>
        let descriptor = QueryDescriptor(
            entityType: type, canEnumerate: enumerable != nil, canSearchText: searchable != nil,
            isPropertyQuery: pushed != nil, comparators: comparators, sortableProperties: sortable,
            find: { request in
                var request = request
                let source: [Q.Entity]
                switch request.source {
                case .all:
                    guard let enumerable else { throw IntentError("\(type.plural) can't be listed all at once") }
                    source = try await enumerable.allEntities()
                case .suggested:
                    source = try await query.suggestedEntities()
                case .matching(let text):
                    if let searchable {
                        source = try await searchable.entities(matching: text)
                    } else if let enumerable {
                        source = try await enumerable.allEntities().filter { $0.displayRepresentation.matches(text) }
                    } else {
                        throw IntentError("\(type.plural) can't be searched by text")
                    }
                case .pushed(let comparisons, let mode, let sorts, let limit):
                    guard let pushed else { throw IntentError("\(type.plural) can't be filtered by the host") }
                    source = try await Self.runPushed(comparisons, mode, sorts, limit, pushed: pushed, support: support,
                                                      enumerable: enumerable, type: type, request: &request)
                }
                let found = request.condition == nil && request.sort.isEmpty && request.limit == nil ? source
                    : EngineQuery.run(source, type, request)
                if let group = request.group { return try EngineQuery.group(found, type, group) }
                return found.map(\.autoValue)
            },
            lookup: { identifiers in
                let ids = identifiers.compactMap { Q.Entity.ID(entityIdentifier: $0) }
                let found = try await query.entities(for: ids)
                // In the order asked, whatever order the host answered in.
                var byID: [Q.Entity.ID: Q.Entity] = [:]
                for entity in found { byID[entity.id] = entity }
                return ids.compactMap { byID[$0]?.autoValue }
            })
        try add(query: descriptor)
    }

    /// Runs the pushed part of a find. A comparison the host can't express for this value (a `nil`, a
    /// decimal for a whole-number column) moves to the engine: with `and`, the host's answer is then a
    /// superset the engine narrows, so the sort and limit move to the engine too; with `or`, the engine
    /// evaluates everything over all entities.
    @inlinable
    static func runPushed<E: AppEntity>(
        _ comparisons: [PushedComparison], _ mode: ComparatorMode, _ sorts: [QuerySort], _ limit: Int?,
        pushed: @Sendable ([PushedComparison], ComparatorMode, [QuerySort], Int?) async throws -> [E],
        support: (comparators: [String: Set<ComparisonOperator>], sortable: Set<String>, canExpress: @Sendable (PushedComparison) -> Bool,
                  run: @Sendable ([PushedComparison], ComparatorMode, [QuerySort], Int?) async throws -> [E])?,
        enumerable: (any EnumerableEntityQuery<E>)?, type: EntityType<E>, request: inout FindRequest
    ) async throws -> [E] {
        let refused = comparisons.filter { !(support?.canExpress($0) ?? false) }
        if refused.isEmpty { return try await pushed(comparisons, mode, sorts, limit) }
        func condition(_ comparison: PushedComparison) -> EntityCondition {
            .test(property: type.propertyIndex[comparison.property.lowercased()] ?? 0, comparison.op, comparison.value)
        }
        let sortKeys = sorts.map { EntitySortKey.property(type.propertyIndex[$0.property.lowercased()] ?? 0, descending: $0.descending) }
        if mode == .or {
            guard let enumerable else {
                throw IntentError("the host can't filter \(type.plural) by \(refused[0].property) \(refused[0].op.rawValue) \(refused[0].value)")
            }
            let anyOf = combine(comparisons.map(condition), or: true)
            request.condition = combine([anyOf, request.condition].compactMap { $0 }, or: false)
            if !sorts.isEmpty { request.sort = sortKeys }
            if let limit { request.limit = limit }
            return try await enumerable.allEntities()
        }
        let kept = comparisons.filter { support?.canExpress($0) ?? false }
        request.condition = combine(refused.map(condition) + [request.condition].compactMap { $0 }, or: false)
        if !sorts.isEmpty { request.sort = sortKeys }
        if let limit { request.limit = limit }
        return try await pushed(kept, .and, [], nil)
    }

    @inlinable
    static func combine(_ conditions: [EntityCondition], or: Bool) -> EntityCondition? {
        guard var result = conditions.first else { return nil }
        for next in conditions.dropFirst() { result = or ? .or(result, next) : .and(result, next) }
        return result
    }

    @inlinable
    static func propertySupport<P: EntityPropertyQuery>(_ query: P) -> (
        comparators: [String: Set<ComparisonOperator>], sortable: Set<String>,
        canExpress: @Sendable (PushedComparison) -> Bool,
        run: @Sendable ([PushedComparison], ComparatorMode, [QuerySort], Int?) async throws -> [P.Entity]
    ) {
        var comparators: [String: Set<ComparisonOperator>] = [:]
        var makers: [String: [ComparisonOperator: @Sendable (Value) -> P.Predicate?]] = [:]
        for property in query.properties {
            let name = property.name.lowercased()
            for comparator in property.comparators {
                comparators[name, default: []].insert(comparator.kind)
                makers[name, default: [:]][comparator.kind] = comparator.makePredicate
            }
        }
        let frozen = makers
        return (comparators, Set(query.sortableProperties.map { $0.lowercased() }), { comparison in
            frozen[comparison.property.lowercased()]?[comparison.op]?(comparison.value) != nil
        }, { comparisons, mode, sorts, limit in
            var predicates: [P.Predicate] = []
            for comparison in comparisons {
                guard let make = frozen[comparison.property.lowercased()]?[comparison.op], let predicate = make(comparison.value) else {
                    throw IntentError("the host can't filter \(comparison.property) \(comparison.op.rawValue) \(comparison.value)")
                }
                predicates.append(predicate)
            }
            return try await query.entities(matching: predicates, mode: mode, sortedBy: sorts, limit: limit)
        })
    }
}
