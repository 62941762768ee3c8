import AutoIntents
import AutoRuntime

/// `find`, `filter where`, `sort by` and `limit`: where-clauses are resolved against the candidate's type,
/// and a find is planned: what its query can answer is pushed down to the host, the rest stays in the
/// engine, and what neither can do is an error that lists what can.
extension Checker {
    // MARK: Where-clauses

    mutating func bindCondition(_ expression: Expression, candidate: ValueType, noun: String) -> BoundCondition? {
        switch expression.kind {
        case .binary(.and, let left, let right), .binary(.or, let left, let right):
            let a = bindCondition(left, candidate: candidate, noun: noun)
            let b = bindCondition(right, candidate: candidate, noun: noun)
            guard let a, let b else { return nil }
            if case .binary(.and, _, _) = expression.kind { return .and(a, b) }
            return .or(a, b)
        case .unary(.not, let operand):
            return bindCondition(operand, candidate: candidate, noun: noun).map { .not($0) }
        case .between(let value, let low, let high):
            guard let (path, names, type) = bindPath(value, candidate: candidate, noun: noun) else { return nil }
            let (l, h) = (bind(low, expected: type), bind(high, expected: type))
            let left = BoundExpression(kind: .constant(.null), type: type, span: value.span)
            checkOrderable(left, l, "between", expression.span)
            checkOrderable(left, h, "between", expression.span)
            let ends = BoundExpression(kind: .list([l, h]), type: .list(l.type.joined(with: h.type)), span: low.span.to(high.span))
            return .compare(path: path, names: names, .between, ends)
        case .binary(let op, let leftExpression, let rightExpression) where Self.conditionOperators[op] != nil:
            guard let (path, names, type) = bindPath(leftExpression, candidate: candidate, noun: noun) else {
                _ = bind(rightExpression)
                return nil
            }
            let left = BoundExpression(kind: .constant(.null), type: type, span: leftExpression.span)
            var right = bind(rightExpression, expected: op == .isIn ? .list(type) : type)
            right = coercedForComparison(right, to: type)
            if case .list(let items) = right.kind, case .enumeration = type {
                right = BoundExpression(kind: .list(items.map { coercedForComparison($0, to: type) }), type: .list(type), span: right.span)
                right = folded(right)
            }
            checkComparison(op, left, right, span: expression.span)
            return .compare(path: path, names: names, Self.conditionOperators[op]!, right)
        case .name, .member:
            // A Bool property on its own: `where isFavourite`.
            guard let (path, names, type) = bindPath(expression, candidate: candidate, noun: noun) else { return nil }
            if type != .bool && type != .any {
                error("'\(names.joined(separator: "."))' is \(type), not true or false", expression.span,
                      hint: "compare it: '\(names.joined(separator: ".")) == …'")
                return nil
            }
            return .compare(path: path, names: names, .equal, BoundExpression(kind: .constant(.bool(true)), type: .bool, span: expression.span))
        default:
            error("a where-clause compares the \(noun)'s properties with values, e.g. 'rating >= 4'", expression.span)
            return nil
        }
    }

    static let conditionOperators: [BinaryOperator: ComparisonOperator] = [
        .equal: .equal, .notEqual: .notEqual, .less: .less, .lessEqual: .lessOrEqual, .greater: .greater,
        .greaterEqual: .greaterOrEqual, .contains: .contains, .startsWith: .startsWith, .endsWith: .endsWith, .isIn: .oneOf,
    ]

    /// Type checks `property <op> value` as the same comparison is checked anywhere else.
    mutating func checkComparison(_ op: BinaryOperator, _ left: BoundExpression, _ right: BoundExpression, span: Span) {
        let (l, r) = (left.type, right.type)
        if l == .any || r == .any || isError(right) { return }
        switch op {
        case .equal, .notEqual:
            if let problem = ComparisonRules.problem(op == .equal ? .equal : .notEqual, l, r) {
                error(problem, span, hint: ComparisonRules.hint(l, r))
            }
        case .less, .lessEqual, .greater, .greaterEqual:
            checkOrderable(left, right, op.rawValue, span)
        case .contains, .startsWith, .endsWith:
            if l != .text || (r != .text && r != .null) {
                if !(op == .contains && l.elementType != nil) {
                    error("'\(op.rawValue)' compares texts, and this is \(l) with \(r)", span)
                }
            }
        case .isIn:
            if r.elementType == nil && r != .text { error("'in' looks in a list: write 'in [a, b]'", right.span) }
        default:
            break
        }
    }

    /// The left side of a comparison: a property path of the candidate (`author`, `published.year`).
    mutating func bindPath(_ expression: Expression, candidate: ValueType, noun: String) -> ([PropertyAccess], [String], ValueType)? {
        var members: [Identifier] = []
        var current = expression
        while case .member(let base, let member) = current.kind {
            members.insert(member, at: 0)
            current = base
        }
        guard case .name(let first) = current.kind else {
            error("the left side of a comparison in a where-clause is a property of the \(noun)", expression.span,
                  hint: propertyList(of: candidate).map { "its properties: \($0)" })
            return nil
        }
        members.insert(first, at: 0)
        var type = candidate
        var path: [PropertyAccess] = []
        for member in members.drop(while: { Self.isElementItself($0, at: members, candidate: candidate) }) {
            if case .entity(let entity) = type, entity.propertyIndex[member.name.lowercased()] == nil, scope.lookup(member.name) != nil, path.isEmpty {
                error("'\(member.name)' is a variable; the left side of a comparison in a where-clause is a property of the \(noun)", member.span,
                      hint: propertyList(of: candidate).map { "its properties: \($0); put the variable on the right: 'author == \(member.name)'" })
                return nil
            }
            guard let (access, next) = resolveProperty(member, on: type) else { return nil }
            path.append(access)
            type = next
        }
        return (path, Self.currentNames(members.map(\.name), path), type)
    }

    /// `it` at the start of a path in a list stage is the element itself: `[3, 1, 2] | sort by it`, `filter where it
    /// > 2`, `filter where it.year == 2024`. Not for entities (a where-clause on them names their properties,
    /// and `find` pushes it to the host), nor for records that have a field called `it`.
    static func isElementItself(_ member: Identifier, at members: [Identifier], candidate: ValueType) -> Bool {
        guard member.name == "it", member.span == members[0].span else { return false }
        switch candidate {
        case .entity: return false
        case .recordOf(let shape): return shape.type(of: "it") == nil
        default: return true
        }
    }

    func propertyList(of type: ValueType) -> String? {
        switch type {
        case .entity(let entity): return entity.properties.map(\.name).joined(separator: ", ")
        case .recordOf(let shape): return shape.names.joined(separator: ", ")
        default: return nil
        }
    }

    mutating func bindSortKeys(_ keys: [SortKey], candidate: ValueType, noun: String) -> [BoundSortKey] {
        keys.compactMap { key in
            guard let (path, type) = bindKeyPath(key.path, candidate: candidate) else { return nil }
            let name = key.path.map(\.name).joined(separator: ".")
            if type.elementType != nil || type.isRecord || type == .file {
                error("\(noun)s can't be sorted by '\(name)': it is \(type), which has no order", key.path[0].span)
                return nil
            }
            // Only texts have a case. Where the type is known only when the script runs (Any), texts are
            // folded and other values order as they always do.
            if let span = key.ignoringCase, ![.text, .any, .null].contains(type) {
                error("'ignoring case' applies to texts, and '\(name)' is \(type)", span,
                      hint: "remove 'ignoring case': \(type) values order the same without it")
                return nil
            }
            return BoundSortKey(path: path, names: Self.currentNames(key.path.map(\.name), path), descending: key.descending, ignoringCase: key.ignoringCase != nil)
        }
    }

    /// The names of a path as the host knows them: a property written by a former name (`where recommender == …`) is
    /// asked of the host's query by its current one. The path's accesses are the names' last ones.
    static func currentNames(_ names: [String], _ path: [PropertyAccess]) -> [String] {
        var current = names
        for (offset, access) in path.enumerated() where names.count >= path.count {
            if case .entity(let type, let index) = access { current[names.count - path.count + offset] = type.properties[index].name }
        }
        return current
    }

    /// A sort or group key: a property path of the element, or the element itself (`it`).
    mutating func bindKeyPath(_ names: [Identifier], candidate: ValueType) -> ([PropertyAccess], ValueType)? {
        var path: [PropertyAccess] = []
        var type = candidate
        for member in names.drop(while: { Self.isElementItself($0, at: names, candidate: candidate) }) {
            guard let (access, next) = resolveProperty(member, on: type) else { return nil }
            path.append(access)
            type = next
        }
        return (path, type)
    }

    mutating func bindLimit(_ expression: Expression) -> BoundExpression {
        let count = bind(expression)
        if count.type != .int && count.type != .any && !isError(count) {
            error("'limit' needs a whole number, and this is \(count.type)", expression.span)
        }
        if case .constant(.int(let n)) = count.kind, n < 0 {
            error("'limit' can't be negative", expression.span)
        }
        return count
    }

    // MARK: List stages

    mutating func bindListStage(_ stage: ListStage, input: BoundExpression, span: Span) -> BoundExpression {
        let element: ValueType
        switch input.type {
        case .list(let type): element = type
        case .any, .null: element = .any
        default:
            error("'\(Self.stageName(stage))' works on a list, and this is \(input.type)", input.span)
            return .error(span)
        }
        let noun = Self.noun(for: element)
        switch stage {
        case .filter(let condition):
            guard let bound = bindCondition(condition, candidate: element, noun: noun) else { return .error(span) }
            return BoundExpression(kind: .filter(input, bound), type: input.type, span: span)
        case .sort(let keys):
            let bound = bindSortKeys(keys, candidate: element, noun: noun)
            guard bound.count == keys.count else { return .error(span) }
            return BoundExpression(kind: .sort(input, bound), type: input.type, span: span)
        case .limit(let count):
            return BoundExpression(kind: .limit(input, bindLimit(count)), type: input.type, span: span)
        case .each(let expression):
            // An action given each element as its input, `each plural it word: "book"`, is the list piped into it,
            // which runs it for each element and gives the list of its results.
            if case .action(let words, let arguments) = expression.kind, words.count >= 2, words.last?.name == "it",
               !arguments.contains(where: { $0.label == nil }) {
                return bindAction(words: Array(words.dropLast()), arguments: arguments, piped: input, span: span)
            }
            let outer = (scope.itType, scope.itSetBy)
            (scope.itType, scope.itSetBy) = (element, nil)
            let value = bind(expression)
            (scope.itType, scope.itSetBy) = outer
            if Compiler.containsAction(value) {
                error("'each' runs an action only as a whole, given each element: 'each plural it word: \"book\"'; not inside a value",
                      expression.span, hint: "name the action's result in a 'for' loop, or pipe the list into the action ('xs | open')")
                return .error(span)
            }
            return BoundExpression(kind: .each(input, value), type: .list(value.type), span: span)
        case .group(let names), .count(let names):
            guard let (path, keyType) = bindKeyPath(names, candidate: element) else { return .error(span) }
            let grouping: Grouping
            if case .count = stage { grouping = .count } else { grouping = .items }
            let shape = RecordShape(names: ["key", grouping == .count ? "count" : "items"], types: [keyType, grouping == .count ? .int : .list(element)])
            // Right after a `find`, on one property of its entity: the find groups what the host returns, so that a
            // count makes no value of any entity.
            if case .find(var find) = input.kind, find.grouping == nil, path.count == 1, case .entity(let type, let index) = path[0],
               type === find.query.entityType {
                find.grouping = (index, grouping)
                let stage = "\(Self.stageName(stage)) \(path[0])"
                find.summary += find.summary.contains(" · engine: ") ? ", \(stage)" : " · engine: \(stage)"
                return BoundExpression(kind: .find(find), type: .list(.recordOf(shape)), span: span)
            }
            return BoundExpression(kind: .group(input, path, grouping), type: .list(.recordOf(shape)), span: span)
        case .distinct:
            return BoundExpression(kind: .group(input, [], .distinct), type: input.type, span: span)
        }
    }

    static func stageName(_ stage: ListStage) -> String {
        switch stage {
        case .filter: return "filter"
        case .sort: return "sort by"
        case .limit: return "limit"
        case .each: return "each"
        case .group: return "group by"
        case .count: return "count by"
        case .distinct: return "distinct"
        }
    }

    static func noun(for type: ValueType) -> String {
        switch type {
        case .entity(let entity): return entity.singular
        case .record, .recordOf: return "record"
        default: return "item"
        }
    }

    // MARK: Find

    mutating func bindFind(_ find: FindExpression, span: Span) -> BoundExpression {
        let entityType = registry.entityType(named: find.typeName.name)
        // `find files` is the engine's own search of the file system, unless the host has an entity type of that name.
        if entityType == nil, ["files", "file"].contains(find.typeName.name.lowercased()) { return bindFileSearch(find, span: span) }
        if let walk = find.walk {
            error("only 'find files' walks a folder ('in', 'recursive', 'hidden'); \(find.typeName.name) are found by the host's query",
                  walk.span)
            return .error(span)
        }
        guard let type = entityType else {
            let names = registry.entityTypes.flatMap { [$0.plural, $0.singular] }
            error("there is no entity type '\(find.typeName.name)' to find", find.typeName.span,
                  hint: NearestNames.hint(for: find.typeName.name, in: names, listing: "entity types") ?? "this host has no entity types")
            return .error(span)
        }
        guard let query = registry.query(for: type) else {
            error("\(type.plural) can't be found: the host registered no query for them", find.typeName.span)
            return .error(span)
        }
        let candidate = ValueType.entity(type)
        let matching = find.matching.map { bind($0) }
        if let matching, matching.type != .text, matching.type != .any {
            error("'matching' needs a text, and this is \(matching.type)", matching.span)
        }
        let condition = find.condition.flatMap { bindCondition($0, candidate: candidate, noun: type.singular) }
        if find.condition != nil && condition == nil { return .error(span) }
        let sort = bindSortKeys(find.sort, candidate: candidate, noun: type.singular)
        if sort.count != find.sort.count { return .error(span) }
        let limit = find.limit.map { bindLimit($0) }
        guard let plan = plan(find, type: type, query: query, matching: matching, condition: condition, sort: sort, limit: limit, span: span) else {
            return .error(span)
        }
        return BoundExpression(kind: .find(plan), type: .list(candidate), span: span)
    }

    /// `find files in FOLDER recursive hidden where … sort by … limit n`: the where-clause and sort keys name a file's
    /// properties, as `filter where` does on a list of files.
    mutating func bindFileSearch(_ find: FindExpression, span: Span) -> BoundExpression {
        if let matching = find.matching {
            error("files are not searched by text", matching.span, hint: "compare their names: 'where name contains \"…\"'")
            return .error(span)
        }
        let folder = find.walk?.folder.map { bind($0) }
        if let folder, ![.file, .text, .any].contains(folder.type), !isError(folder) {
            error("'in' needs a folder, as a file or a text path, and this is \(folder.type)", folder.span)
            return .error(span)
        }
        let condition = find.condition.flatMap { bindCondition($0, candidate: .file, noun: "file") }
        if find.condition != nil && condition == nil { return .error(span) }
        let sort = bindSortKeys(find.sort, candidate: .file, noun: "file")
        if sort.count != find.sort.count { return .error(span) }
        let search = BoundFileSearch(folder: folder, recursive: find.walk?.recursive ?? false, hidden: find.walk?.hidden ?? false,
                                     condition: condition, sort: sort, limit: find.limit.map { bindLimit($0) })
        return BoundExpression(kind: .findFiles(search), type: .list(.file), span: span)
    }

    /// Decides what the host's query answers and what the engine evaluates. Whatever is pushed down, the
    /// result is the one the engine would compute alone: a limit is pushed only when no filter and no sort
    /// stays in the engine.
    mutating func plan(_ find: FindExpression, type: AnyEntityType, query: QueryDescriptor, matching: BoundExpression?,
                       condition: BoundCondition?, sort: [BoundSortKey], limit: BoundExpression?, span: Span) -> BoundFind? {
        func make(_ source: BoundFind.Source, _ residual: BoundCondition?, engineSort: [BoundSortKey], engineLimit: BoundExpression?) -> BoundFind {
            BoundFind(query: query, source: source, condition: residual, sort: engineSort, limit: engineLimit,
                      summary: Self.describe(type, query, source, residual, engineSort, engineLimit, checker: self), span: span)
        }
        if let matching {
            // Without a search of its own, the query lists its entities and matches their titles (`QueryDescriptor`).
            if query.canFindByText { return make(.matching(matching), condition, engineSort: sort, engineLimit: limit) }
            error("\(type.plural) can't be searched by text: the host's query has no text search", find.matching.map { $0.span } ?? span,
                  hint: capabilityHint(type, query))
            return nil
        }
        if query.isPropertyQuery {
            var pushed: [(property: String, op: ComparisonOperator, value: BoundExpression)] = []
            var residual: BoundCondition?
            var mode = ComparatorMode.and
            if let condition {
                let disjuncts = Self.flatten(condition, or: true)
                if disjuncts.count > 1, disjuncts.allSatisfy({ pushable($0, query) != nil }) {
                    pushed = disjuncts.compactMap { pushable($0, query) }
                    mode = .or
                } else {
                    for conjunct in Self.flatten(condition, or: false) {
                        if let comparison = pushable(conjunct, query) {
                            pushed.append(comparison)
                        } else {
                            residual = residual.map { .and($0, conjunct) } ?? conjunct
                        }
                    }
                }
            }
            // A key ignoring case stays in the engine: a query declares plain sorts only, and its own idea of case
            // (SQL's NOCASE folds ASCII alone) could give another order than the engine's.
            let sortPushable = residual == nil && sort.allSatisfy {
                $0.path.count == 1 && !$0.ignoringCase && query.sortableProperties.contains($0.names[0].lowercased())
            }
            if pushed.isEmpty && !(sortPushable && !sort.isEmpty) {
                // Nothing for the host to do: the engine needs every entity, or the query's suggestions.
                if query.canEnumerate { return make(.all, condition, engineSort: sort, engineLimit: limit) }
                if condition == nil && sort.isEmpty { return make(.suggested, nil, engineSort: [], engineLimit: limit) }
                let what = residual != nil ? "filtered this way: the host's query supports none of these comparisons"
                    : "sorted this way: the host's query can't sort by \(sort.map(\.description).joined(separator: ", "))"
                error("\(type.plural) can't be \(what), and it can't list them all for the engine to do it", span,
                      hint: capabilityHint(type, query))
                return nil
            }
            if sortPushable {
                let sorts = sort.map { QuerySort(property: $0.names[0], descending: $0.descending) }
                return make(.pushed(pushed, mode, sorts, pushesLimit: limit != nil), nil, engineSort: [], engineLimit: limit)
            }
            return make(.pushed(pushed, mode, [], pushesLimit: false), residual, engineSort: sort, engineLimit: limit)
        }
        if query.canEnumerate { return make(.all, condition, engineSort: sort, engineLimit: limit) }
        if condition != nil || !sort.isEmpty {
            error("\(type.plural) can't be filtered or sorted: the host's query can neither filter nor list them all", span,
                  hint: capabilityHint(type, query))
            return nil
        }
        return make(.suggested, nil, engineSort: [], engineLimit: limit)
    }

    /// A comparison the host's query answers: one property, a declared comparator.
    func pushable(_ condition: BoundCondition, _ query: QueryDescriptor) -> (property: String, op: ComparisonOperator, value: BoundExpression)? {
        guard case .compare(let path, let names, let op, let value) = condition, path.count == 1,
              query.supports(names[0], op) else { return nil }
        // Push down by the property's declared name, whatever case the script wrote it in.
        if case .entity(let type, let index) = path[0] { return (type.properties[index].name, op, value) }
        return (names[0], op, value)
    }

    static func flatten(_ condition: BoundCondition, or: Bool) -> [BoundCondition] {
        switch condition {
        case .and(let a, let b) where !or: return flatten(a, or: false) + flatten(b, or: false)
        case .or(let a, let b) where or: return flatten(a, or: true) + flatten(b, or: true)
        default: return [condition]
        }
    }

    func capabilityHint(_ type: AnyEntityType, _ query: QueryDescriptor) -> String {
        var parts: [String] = []
        if !query.comparators.isEmpty {
            let filters = type.properties.compactMap { property -> String? in
                guard let ops = query.comparators[property.name.lowercased()], !ops.isEmpty else { return nil }
                let ordered = ComparisonOperator.allCases.filter(ops.contains).map(\.rawValue)
                return "\(property.name) (\(ordered.joined(separator: ", ")))"
            }
            parts.append("they can be filtered by " + filters.joined(separator: ", "))
        }
        if !query.sortableProperties.isEmpty {
            parts.append("sorted by " + type.properties.map(\.name).filter { query.sortableProperties.contains($0.lowercased()) }.joined(separator: ", "))
        }
        if query.canFindByText { parts.append("searched with 'matching'") }
        if parts.isEmpty { return "\(type.plural) can only be listed as the host suggests them: 'find \(type.plural)' or 'find \(type.plural) limit n'" }
        return parts.joined(separator: "; ")
    }

    /// "host: author == "X", sort by published desc, limit 3 · engine: title contains "y"".
    static func describe(_ type: AnyEntityType, _ query: QueryDescriptor, _ source: BoundFind.Source, _ residual: BoundCondition?,
                         _ sort: [BoundSortKey], _ limit: BoundExpression?, checker: Checker) -> String {
        func text(_ value: BoundExpression) -> String {
            if case .constant(let constant) = value.kind { return ValueFormatter.inline(constant) }
            return checker.file.text(of: value.span)
        }
        func condition(_ c: BoundCondition) -> String {
            switch c {
            case .compare(_, let names, let op, let value): return "\(names.joined(separator: ".")) \(op.rawValue) \(text(value))"
            case .and(let a, let b): return "\(condition(a)) and \(condition(b))"
            case .or(let a, let b): return "(\(condition(a)) or \(condition(b)))"
            case .not(let a): return "not (\(condition(a)))"
            }
        }
        func sorting(_ keys: [String]) -> String { "sort by " + keys.joined(separator: ", ") }
        var host: [String] = []
        var engine: [String] = []
        switch source {
        case .all: host.append("all \(type.plural)")
        case .suggested: host.append("suggested \(type.plural)")
        case .matching(let text_) where query.canSearchText: host.append("matching \(text(text_))")
        case .matching(let text_):
            host.append("all \(type.plural)")
            engine.append("title matching \(text(text_))")
        case .pushed(let comparisons, let mode, let sorts, let pushesLimit):
            if !comparisons.isEmpty {
                host.append(comparisons.map { "\($0.property) \($0.op.rawValue) \(text($0.value))" }.joined(separator: " \(mode.rawValue) "))
            }
            if !sorts.isEmpty { host.append(sorting(sorts.map { $0.property + ($0.descending ? " desc" : "") })) }
            if pushesLimit, let limit { host.append("limit \(text(limit))") }
            if comparisons.isEmpty && sorts.isEmpty && !pushesLimit { host.append("all \(type.plural)") }
        }
        if let residual { engine.append("where " + condition(residual)) }
        if !sort.isEmpty { engine.append(sorting(sort.map(\.description))) }
        var pushedLimit = false
        if case .pushed(_, _, _, let pushes) = source { pushedLimit = pushes }
        if let limit, !pushedLimit { engine.append("limit \(text(limit))") }
        var summary = "find \(type.plural) · host: " + host.joined(separator: ", ")
        if !engine.isEmpty { summary += " · engine: " + engine.joined(separator: ", ") }
        return summary
    }
}
