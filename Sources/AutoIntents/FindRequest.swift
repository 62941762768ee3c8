/// A where-clause with its right-hand sides evaluated, ready to test entities.
@usableFromInline package indirect enum EntityCondition: Sendable {
    /// `property <op> value` on one property of the entity: compiled to a typed test where it can be.
    case test(property: Int, ComparisonOperator, Value)
    /// Anything else (a path such as `published.year`), tested on the entity as an engine value.
    case valueTest(@Sendable (Value) -> Bool)
    case and(EntityCondition, EntityCondition)
    case or(EntityCondition, EntityCondition)
    case not(EntityCondition)
}

/// One key of an engine-side sort.
@usableFromInline package enum EntitySortKey: Sendable {
    /// With `folding` (the engine's `ignoring case`), the property's values are ordered after passing through
    /// it, as engine values: the typed order would see the case.
    case property(Int, descending: Bool, folding: (@Sendable (Value) -> Value)? = nil)
    /// A path beyond one property, read from the entity as an engine value.
    case value(@Sendable (Value) -> Value, descending: Bool)
}

/// What the host's query is asked for, and what the engine does with its answer.
@usableFromInline package struct FindRequest: Sendable {
    @usableFromInline package enum Source: Sendable {
        /// Every entity (an enumerable query).
        case all
        /// The query's suggestions.
        case suggested
        /// A text search (a string query).
        case matching(String)
        /// A property query with the comparisons, sort and limit pushed down to it.
        case pushed([PushedComparison], ComparatorMode, [QuerySort], limit: Int?)
    }
    @usableFromInline package var source: Source
    /// Evaluated by the engine on what the source returned.
    @usableFromInline package var condition: EntityCondition?
    @usableFromInline package var sort: [EntitySortKey]
    @usableFromInline package var limit: Int?
    /// `count by` or `group by` one property of what is found, after the condition, sort and limit: done where the
    /// entities are still the host's Swift values (`EngineQuery.group`), so that each is made into an engine value only
    /// where the result holds it, and none for a count.
    @usableFromInline package var group: EntityGrouping?
    /// The engine's own comparison and order of values, for what can't be compared typed.
    @usableFromInline package var compare: @Sendable (ComparisonOperator, Value, Value) -> Bool
    @usableFromInline package var order: @Sendable (Value, Value) -> Int

    @usableFromInline package init(source: Source, condition: EntityCondition? = nil, sort: [EntitySortKey] = [], limit: Int? = nil,
                compare: @escaping @Sendable (ComparisonOperator, Value, Value) -> Bool,
                order: @escaping @Sendable (Value, Value) -> Int) {
        self.source = source
        self.condition = condition
        self.sort = sort
        self.limit = limit
        self.compare = compare
        self.order = order
    }

    /// What `source` gives, at most `limit` of it, as the host returns it: the engine compares and orders nothing (an
    /// entity named by text, a sentence's words, completions, an example value).
    package static func asReturned(_ source: Source, limit: Int? = nil) -> FindRequest {
        FindRequest(source: source, limit: limit, compare: { _, _, _ in false }, order: { _, _ in 0 })
    }
}

/// `count by` or `group by` one property, for `FindRequest.group`.
@usableFromInline package struct EntityGrouping: Sendable {
    /// The property, by index in the entity type's properties.
    @usableFromInline package let property: Int
    /// The engine's grouping of `count` elements (`ListQueries.group`): `key` reads an element's key, `element` makes an
    /// element an engine value, asked only for the elements the result holds. Gives the groups.
    @usableFromInline package let run: @Sendable (_ count: Int, _ key: (Int) -> Value, _ element: (Int) -> Value) throws -> [Value]

    package init(property: Int, run: @escaping @Sendable (_ count: Int, _ key: (Int) -> Value, _ element: (Int) -> Value) throws -> [Value]) {
        self.property = property
        self.run = run
    }
}

@usableFromInline package struct PushedComparison: Sendable {
    @usableFromInline package let property: String
    @usableFromInline package let op: ComparisonOperator
    @usableFromInline package let value: Value
    @usableFromInline package init(property: String, op: ComparisonOperator, value: Value) {
        self.property = property
        self.op = op
        self.value = value
    }
}

/// Filtering, sorting and limiting typed entities in the engine. Inlinable, so that it is specialised for
/// each host's entity type in the host's module, where the scan runs on concrete Swift values.
@usableFromInline package enum EngineQuery {
    @inlinable
    package static func run<E: AppEntity>(_ entities: [E], _ type: EntityType<E>, _ request: FindRequest) -> [E] {
        let limit = request.limit ?? Int.max
        if limit <= 0 { return [] }
        // Elements are read in place from the buffer: a `for entity in` loop would copy (and retain) every
        // entity of the scan, not only the few that are kept.
        return entities.withUnsafeBufferPointer { buffer in
            // Where the condition starts with a comparison of a stored property, one typed scan finds the
            // candidates (and the rest of the condition, if any, tests only those); otherwise each entity is tested.
            if let candidates = request.condition.flatMap({ scan($0, type, request) })?(buffer) {
                return select(candidates, buffer, type, request, limit: limit)
            }
            let test = request.condition.map { compile($0, type, request) }
            return select(buffer.indices.lazy.filter { test?(buffer[$0]) ?? true }, buffer, type, request, limit: limit)
        }
    }

    /// The groups of `entities` by one property (`FindRequest.group`), the property read in place from each.
    @inlinable
    package static func group<E: AppEntity>(_ entities: [E], _ type: EntityType<E>, _ grouping: EntityGrouping) throws -> [Value] {
        let get = type.typedProperties[grouping.property].get
        return try entities.withUnsafeBufferPointer { buffer in
            try grouping.run(buffer.count, { get(buffer[$0]) }, { buffer[$0].autoValue })
        }
    }

    /// The entities at `positions` (the ones that matched, in order), sorted and limited as asked.
    @inlinable
    static func select<E: AppEntity, Positions: Sequence<Int>>(_ positions: Positions, _ buffer: UnsafeBufferPointer<E>,
                                                               _ type: EntityType<E>, _ request: FindRequest, limit: Int) -> [E] {
        guard !request.sort.isEmpty else { return positions.prefix(limit).map { buffer[$0] } }
        let before = ordering(request.sort, type, request)
        if limit < buffer.count / 2 {
            var heap = BoundedHeap<E>(capacity: limit, before: before)
            for index in positions { heap.insert(buffer[index], index) }
            return heap.sorted()
        }
        var matching = positions.map { (buffer[$0], $0) }
        matching.sort { before($0.0, $0.1, $1.0, $1.1) }
        return matching.prefix(limit).map(\.0)
    }

    /// The positions of the entities that pass `condition`, when it is (or, under `and`, includes) a
    /// comparison that a stored property can scan in place; nil otherwise, and the caller tests each entity.
    @inlinable
    static func scan<E: AppEntity>(_ condition: EntityCondition, _ type: EntityType<E>, _ request: FindRequest) -> TypedScans.Scan<E>? {
        switch condition {
        case .test(let index, let op, let value):
            return type.typedProperties[index].makeScan(op, value)
        case .and(let a, let b):
            // Tests have no effects, so which side narrows first doesn't change the result.
            for (first, rest) in [(a, b), (b, a)] {
                guard let narrow = scan(first, type, request) else { continue }
                let test = compile(rest, type, request)
                return { buffer in narrow(buffer).filter { test(buffer[$0]) } }
            }
            return nil
        default:
            return nil
        }
    }

    @inlinable
    static func compile<E: AppEntity>(_ condition: EntityCondition, _ type: EntityType<E>, _ request: FindRequest) -> @Sendable (E) -> Bool {
        switch condition {
        case .test(let index, let op, let value):
            let property = type.typedProperties[index]
            if let typed = property.makeTest(op, value) { return typed }
            let get = property.get, compare = request.compare
            return { compare(op, get($0), value) }
        case .valueTest(let test):
            return { test($0.autoValue) }
        case .and(let a, let b):
            let (x, y) = (compile(a, type, request), compile(b, type, request))
            return { x($0) && y($0) }
        case .or(let a, let b):
            let (x, y) = (compile(a, type, request), compile(b, type, request))
            return { x($0) || y($0) }
        case .not(let a):
            let x = compile(a, type, request)
            return { !x($0) }
        }
    }

    @inlinable
    static func comparison<E: AppEntity>(for key: EntitySortKey, _ type: EntityType<E>, _ request: FindRequest) -> @Sendable (E, E) -> Int {
        let compare: @Sendable (E, E) -> Int
        let descending: Bool
        switch key {
        case .property(let index, let isDescending, let folding):
            descending = isDescending
            let property = type.typedProperties[index]
            if let folding {
                let get = property.get, order = request.order
                compare = { a, b in order(folding(get(a)), folding(get(b))) }
            } else if let typed = property.makeOrder?() {
                compare = typed
            } else {
                let get = property.get, order = request.order
                compare = { a, b in order(get(a), get(b)) }
            }
        case .value(let read, let isDescending):
            descending = isDescending
            let order = request.order
            compare = { a, b in order(read(a.autoValue), read(b.autoValue)) }
        }
        if descending { return { a, b in compare(b, a) } }
        return compare
    }

    /// "a comes before b", by the sort keys and then by the original position, so sorting is stable.
    @inlinable
    static func ordering<E: AppEntity>(_ keys: [EntitySortKey], _ type: EntityType<E>, _ request: FindRequest) -> @Sendable (E, Int, E, Int) -> Bool {
        let comparisons = keys.map { comparison(for: $0, type, request) }
        if comparisons.count == 1 {
            let only = comparisons[0]
            return { a, i, b, j in
                let c = only(a, b)
                return c != 0 ? c < 0 : i < j
            }
        }
        return { a, i, b, j in
            for compare in comparisons {
                let c = compare(a, b)
                if c != 0 { return c < 0 }
            }
            return i < j
        }
    }
}

/// The best `capacity` elements seen so far, by `before`: a max-heap whose root is the worst kept one,
/// so `sort by … limit n` over N entities costs N log n, not a full sort.
@usableFromInline package struct BoundedHeap<E> {
    @usableFromInline var items: [(E, Int)] = []
    @usableFromInline let capacity: Int
    @usableFromInline let before: (E, Int, E, Int) -> Bool

    @inlinable
    package init(capacity: Int, before: @escaping (E, Int, E, Int) -> Bool) {
        self.capacity = capacity
        self.before = before
        items.reserveCapacity(capacity)
    }

    @inlinable
    func worse(_ a: Int, _ b: Int) -> Bool { before(items[b].0, items[b].1, items[a].0, items[a].1) }

    @inlinable
    package mutating func insert(_ element: E, _ position: Int) {
        if items.count < capacity {
            items.append((element, position))
            var child = items.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard worse(child, parent) else { break }
                items.swapAt(child, parent)
                child = parent
            }
            return
        }
        // Only an element that comes before the worst kept one gets in.
        guard before(element, position, items[0].0, items[0].1) else { return }
        items[0] = (element, position)
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var worst = parent
            if left < items.count, worse(left, worst) { worst = left }
            if right < items.count, worse(right, worst) { worst = right }
            if worst == parent { return }
            items.swapAt(parent, worst)
            parent = worst
        }
    }

    @inlinable
    package func sorted() -> [E] {
        items.sorted { before($0.0, $0.1, $1.0, $1.1) }.map(\.0)
    }
}
