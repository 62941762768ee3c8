import AutoIntents

/// `find_books`: an entity type's query as a tool. Its where / sort / limit come structured and become the `find`
/// line a script would write, so the checker plans it as it plans any `find`: what the host's query declares is
/// pushed down to it (the Library's SQL), the rest stays in the engine, and what neither can do is refused.
struct FindTool {
    let query: QueryDescriptor
    let name: String
    let addresses: ResourceAddresses

    init(_ query: QueryDescriptor, addresses: ResourceAddresses) {
        self.query = query
        self.addresses = addresses
        self.name = "find_" + IntentTool.toolName(query.entityType.plural)
    }

    /// The comparisons as scripts write them; `in` takes a list, `between` two values.
    static let operators = ComparisonOperator.allCases.map(\.rawValue)

    var type: AnyEntityType { query.entityType }

    var tool: Tool {
        let names = JSON.array(type.properties.map { .string($0.name) })
        let condition = ToolSchemas.object([
            "property": ["type": "string", "enum": names],
            "op": ["type": "string", "enum": .array(Self.operators.map { .string($0) })],
            "value": ["description": "a value of the property's type; a list for 'in', [low, high] for 'between'"],
        ], required: ["property", "op", "value"])
        let key = ToolSchemas.object([
            "property": ["type": "string", "enum": names],
            "descending": ["type": "boolean", "default": false],
            "ignoringCase": ["type": "boolean", "default": false, "description": "order texts as a reader would, ignoring case"],
        ], required: ["property"])
        var properties: [String: JSON] = [
            "where": ["type": "array", "items": condition, "description": "conditions on the properties, all of which must hold (any, with match: any)"],
            "match": ["type": "string", "enum": ["all", "any"], "default": "all"],
            "sort": ["type": "array", "items": key, "description": "sort keys, the first one first"],
            "limit": ["type": "integer", "minimum": 0],
        ]
        if query.canFindByText { properties["matching"] = ["type": "string", "description": "text the \(type.plural)' titles contain"] }
        return Tool(name: name, title: "Find \(type.plural)", description: description, inputSchema: ToolSchemas.object(properties),
                    annotations: Tool.Annotations(title: "Find \(type.plural)", readOnlyHint: true, destructiveHint: false, openWorldHint: false))
    }

    /// What the host answers itself, so that an assistant can prefer it; the engine does the rest.
    var description: String {
        let properties = type.properties.map { "\($0.name) (\($0.type))" }.joined(separator: ", ")
        var text = "Finds \(type.plural). Properties: \(properties)."
        // The query keeps property names in lower case, to match them as scripts may write them; shown as declared.
        let named = { (key: String) in type.propertyIndex[key].map { type.properties[$0].name } ?? key }
        let pushed = query.comparators.keys.sorted().map { "\(named($0)) \(query.comparators[$0]!.map(\.rawValue).sorted().joined(separator: " "))" }
        if !pushed.isEmpty { text += " The host filters \(pushed.joined(separator: "; "))" }
        if !query.sortableProperties.isEmpty { text += " and sorts by \(query.sortableProperties.sorted().map(named).joined(separator: ", "))" }
        if !pushed.isEmpty || !query.sortableProperties.isEmpty { text += " itself." }
        return text + " Each \(type.singular) is also the resource \(addresses.uri(type, "{id}"))."
    }

    /// `find books matching … where author == … and … sort by published desc limit …`.
    func script(_ arguments: [String: JSON]) throws -> ToolScript {
        let known: Set<String> = ["where", "match", "sort", "limit", "matching"]
        if let unknown = arguments.keys.sorted().first(where: { !known.contains($0) }) {
            throw ArgumentError("\(name) has no argument '\(unknown)'; it takes where, match, sort, limit" + (query.canFindByText ? " and matching" : ""))
        }
        var script = ToolScript()
        script.write("find \(type.plural)")
        if let matching = arguments["matching"], matching != .null {
            guard query.canFindByText else { throw ArgumentError("\(type.plural) can't be searched by text") }
            script.write(" matching ")
            script.write(try JSONValues.value(matching, as: .text), as: .text)
        }
        let conditions = try list(arguments["where"], "where")
        if !conditions.isEmpty {
            let any: Bool
            switch arguments["match"] {
            case nil, .null, .string("all"): any = false
            case .string("any"): any = true
            default: throw ArgumentError("'match' is \"all\" or \"any\"")
            }
            script.write(" where ")
            for (index, condition) in conditions.enumerated() {
                if index > 0 { script.write(any ? " or " : " and ") }
                try write(condition, into: &script)
            }
        }
        let keys = try list(arguments["sort"], "sort")
        if !keys.isEmpty {
            script.write(" sort by ")
            for (index, key) in keys.enumerated() {
                guard case .object(let fields) = key else { throw ArgumentError("each sort key is an object: {\"property\": …, \"descending\": …}") }
                if index > 0 { script.write(", ") }
                script.write(try property(fields["property"]).name)
                if try flag(fields["descending"], "descending") { script.write(" desc") }
                if try flag(fields["ignoringCase"], "ignoringCase") { script.write(" ignoring case") }
            }
        }
        if let limit = arguments["limit"], limit != .null {
            guard case .int(let count) = limit, count >= 0 else { throw ArgumentError("'limit' is a whole number, 0 or more") }
            script.write(" limit ")
            script.write(.int(count), as: .int)
        }
        return script
    }

    /// `author == mcpArgument0`: the property checked against the type's, the value read as the property's type.
    func write(_ condition: JSON, into script: inout ToolScript) throws {
        guard case .object(let fields) = condition else { throw ArgumentError("each where condition is an object: {\"property\": …, \"op\": …, \"value\": …}") }
        let property = try self.property(fields["property"])
        guard case .string(let op)? = fields["op"], Self.operators.contains(op) else {
            throw ArgumentError("'op' is one of: \(Self.operators.joined(separator: ", "))")
        }
        let json = fields["value"] ?? .null
        func value(_ json: JSON, as type: ValueType) throws -> AutoIntents.Value {
            do { return try JSONValues.value(json, as: type) } catch {
                throw ArgumentError("the value for \(property.name) \(op): \(error.message)")
            }
        }
        script.write(property.name + " " + op + " ")
        switch op {
        case "in":
            script.write(try value(json, as: .list(property.type)), as: .list(property.type))
        case "between":
            guard case .array(let ends) = json, ends.count == 2 else { throw ArgumentError("'between' takes two values: [low, high]") }
            script.write(try value(ends[0], as: property.type), as: property.type)
            script.write(" and ")
            script.write(try value(ends[1], as: property.type), as: property.type)
        default:
            script.write(try value(json, as: property.type), as: property.type)
        }
    }

    func property(_ json: JSON?) throws -> AnyEntityType.Property {
        let names = type.properties.map(\.name).joined(separator: ", ")
        guard case .string(let name)? = json, let index = type.propertyIndex[name.lowercased()] else {
            throw ArgumentError("'property' is one of the \(type.singular)'s: \(names)")
        }
        return type.properties[index]
    }

    func list(_ json: JSON?, _ name: String) throws -> [JSON] {
        switch json {
        case nil, .null: return []
        case .array(let items): return items
        default: throw ArgumentError("'\(name)' is a list")
        }
    }

    func flag(_ json: JSON?, _ name: String) throws -> Bool {
        switch json {
        case nil, .null: return false
        case .bool(let flag): return flag
        default: throw ArgumentError("'\(name)' is true or false")
        }
    }
}
