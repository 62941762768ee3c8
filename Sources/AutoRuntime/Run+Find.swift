import AutoIntents

/// `find`: the request for the host's query, with the script's values in it, and what the engine does with the
/// answer (the part of the where-clause, the sort and the limit that the host doesn't do).
extension Run {
    nonisolated(nonsending) func find(_ call: FindCall, _ frame: Frame, _ node: Node) async throws -> Value {
        let request: FindRequest
        do {
            request = try findRequest(call, frame)
        } catch {
            throw located(error, at: node.location)
        }
        try checkCancellation(at: node.location)
        do {
            return .list(try await call.query.run(request))
        } catch {
            throw reported(error, doing: "finding \(call.query.entityType.plural)", at: node.location)
        }
    }

    func findRequest(_ call: FindCall, _ frame: Frame) throws(EvaluationError) -> FindRequest {
        let source: FindRequest.Source
        var limit = try call.limit.map { expression throws(EvaluationError) in try ListQueries.limit(try expression.evaluate(self, frame)) }
        switch call.source {
        case .all: source = .all
        case .suggested: source = .suggested
        case .matching(let text):
            guard case .text(let needle) = try text.evaluate(self, frame) else { throw EvaluationError("'matching' needs a text") }
            source = .matching(needle)
        case .pushed(let comparisons, let mode, let sorts, let pushesLimit):
            var pushed: [PushedComparison] = []
            let type = call.query.entityType
            for comparison in comparisons {
                let propertyType = type.propertyIndex[comparison.property.lowercased()].map { type.properties[$0].type }
                let value = try Self.compared(try comparison.value.evaluate(self, frame), with: propertyType)
                // The host's query would turn the value down as of another type, or read it as no condition at all.
                if let propertyType, let problem = ComparisonRules.problem(comparison.op, property: propertyType, value: value) { throw problem }
                pushed.append(PushedComparison(property: comparison.property, op: comparison.op, value: value))
            }
            source = .pushed(pushed, mode, sorts, limit: pushesLimit ? limit : nil)
            if pushesLimit { limit = nil }
        }
        let condition = try call.condition.map { plan throws(EvaluationError) in try entityCondition(plan, frame) }
        let grants = context.grants
        let sort: [EntitySortKey] = call.sort.map { key in
            let folding: (@Sendable (Value) -> Value)? = key.ignoringCase ? ListQueries.foldingCase : nil
            if key.path.count == 1, case .entity(_, let index) = key.path[0] {
                return .property(index, descending: key.descending, folding: folding)
            }
            let path = key.path
            return .value({ value in
                let read = (try? ListQueries.read(path, value, grants: grants)) ?? .null
                return folding?(read) ?? read
            }, descending: key.descending)
        }
        var request = FindRequest(source: source, condition: condition, sort: sort, limit: limit,
                                  compare: { op, a, b in (try? Operations.compare(op, a, b)) ?? false },
                                  order: ListQueries.order)
        if let (property, grouping) = call.grouping {
            let limits = self.limits.values
            request.group = EntityGrouping(property: property) { count, key, element in
                try ListQueries.group(count: count, key: { index throws(EvaluationError) in key(index) }, element: element, grouping, limits: limits)
            }
        }
        return request
    }

    /// A where-clause for the engine, with one-property comparisons left typed for the entity's own test.
    func entityCondition(_ plan: ConditionPlan, _ frame: Frame) throws(EvaluationError) -> EntityCondition {
        switch plan {
        case .compare(let path, let op, let right):
            let type = Self.propertyType(at: path)
            let value = try Self.compared(try right.evaluate(self, frame), with: type)
            // Refused before any entity is tested: the tests below can only turn an entity down.
            if let type, let problem = ComparisonRules.problem(op, property: type, value: value) { throw problem }
            if path.count == 1, case .entity(_, let index) = path[0] { return .test(property: index, op, value) }
            let grants = context.grants
            return .valueTest { candidate in
                // Only a comparison with a property of a type not known before (a record's field) can fail here.
                guard let left = try? ListQueries.read(path, candidate, grants: grants) else { return false }
                return (try? Operations.compare(op, left, value)) ?? false
            }
        case .and(let a, let b): return .and(try entityCondition(a, frame), try entityCondition(b, frame))
        case .or(let a, let b): return .or(try entityCondition(a, frame), try entityCondition(b, frame))
        case .not(let a): return .not(try entityCondition(a, frame))
        }
    }

    /// A script's value as the property it is compared with takes it: a text (or a list of texts, for `in`) that
    /// names a case of the property's enum becomes the case, and one that names none is an error listing the cases,
    /// as the same literal is before the run. (Left a text, it would silently match nothing.)
    static func compared(_ value: Value, with propertyType: ValueType?) throws(EvaluationError) -> Value {
        guard case .enumeration? = propertyType, let type = propertyType else { return value }
        switch value {
        case .text: return try Coercion.converted(value, to: type)
        case .list(let items):
            var converted: [Value] = []
            converted.reserveCapacity(items.count)
            for item in items { converted.append(try Coercion.converted(item, to: type)) }
            return .list(converted)
        default: return value
        }
    }

    /// The type of the property a where-clause's path ends at, where the checker resolved it to an entity's.
    static func propertyType(at path: [PropertyAccess]) -> ValueType? {
        // A find's candidates are entities, whose `id` is their identifier as a text.
        if path.count == 1, case .dynamic("id") = path[0] { return .text }
        var last = path.last
        while case .each(let inner)? = last { last = inner }
        guard case .entity(let type, let index)? = last else { return nil }
        return type.properties[index].type
    }
}
