import AutoIntents

/// JSON Schemas for tool inputs and elicitation, from what the engine knows of parameters and properties: what a
/// client shows people and what an assistant reads to fill in a call.
enum ToolSchemas {
    /// The input of an intent: one property per parameter, with its type, title, question, default and range;
    /// required where the parameter is required and has no default. A call may still leave a required one out:
    /// it is then asked for, as a script's call asks. `options` are a parameter's options, by its index, as its
    /// provider gave them: they are its `enum`.
    static func input(of intent: IntentDescriptor, addresses: ResourceAddresses, options: [Int: [JSON]] = [:]) -> JSON {
        var properties: [String: JSON] = [:]
        var required: [JSON] = []
        for (index, parameter) in intent.parameters.enumerated() {
            var schema = self.schema(for: parameter.type, addresses: addresses)
            if let options = options[index], !options.isEmpty { schema["enum"] = .array(options) }
            if case .typeNamedBy(index) = intent.resultRule {
                schema = ["type": "string", "description": "the name of a type: Int, Decimal, Text, Bool, Date, Duration, Size, File, or an enum's"]
            }
            schema["title"] = .string(parameter.title)
            // The question, and then how a value of the type is written (a date's form, an entity's identifier).
            if let question = parameter.question {
                schema["description"] = .string(schema["description"]?.stringValue.map { "\(question) (\($0))" } ?? question)
            }
            if let defaultValue = parameter.defaultValue { schema["default"] = JSONValues.json(defaultValue) }
            if let range = parameter.range, parameter.type.isNumeric {
                schema["minimum"] = JSONValues.json(range.lowerBound)
                schema["maximum"] = JSONValues.json(range.upperBound)
            }
            properties[parameter.name] = .object(schema)
            if parameter.isRequired && parameter.defaultValue == nil { required.append(.string(parameter.name)) }
        }
        return object(properties, required: required)
    }

    static func object(_ properties: [String: JSON], required: [JSON] = []) -> JSON {
        var schema: [String: JSON] = ["type": "object", "properties": .object(properties)]
        if !required.isEmpty { schema["required"] = .array(required) }
        return .object(schema)
    }

    /// The schema of one value of `type`, as `JSONValues.value(_:as:)` reads it.
    static func schema(for type: ValueType, addresses: ResourceAddresses) -> [String: JSON] {
        switch type {
        case .bool: return ["type": "boolean"]
        case .int: return ["type": "integer"]
        case .decimal: return ["type": "number"]
        case .text: return ["type": "string"]
        case .date: return ["type": "string", "format": "date-time", "description": "ISO 8601: 2024-05-01 or 2024-05-01T09:30:00Z"]
        case .duration: return ["type": "number", "description": "seconds"]
        case .size: return ["type": "integer", "description": "bytes"]
        case .file: return ["type": "string", "description": "a path"]
        case .period: return ["type": "string"]
        case .null: return ["type": "null"]
        case .enumeration(let enumeration): return enumCases(enumeration)
        case .entity(let entity):
            switch entity.identifierForm {
            case .integer:
                return ["type": .array(["string", "integer"]),
                        "description": .string("a \(entity.singular): its identifier (as in \(addresses.uri(entity, "42"))) or its name")]
            case .uuid:
                return ["type": "string", "format": "uuid",
                        "description": .string("a \(entity.singular)'s identifier, as in \(addresses.uri(entity, "{id}"))")]
            case .text:
                return ["type": "string",
                        "description": .string("a \(entity.singular): its identifier (as in \(addresses.uri(entity, "{id}"))) or its name")]
            }
        case .list(let element): return ["type": "array", "items": .object(schema(for: element, addresses: addresses))]
        case .record, .recordOf: return ["type": "object"]
        case .any: return [:]
        }
    }

    /// An enum's cases by identifier, each with the title people read (`oneOf` of `const` and `title`, as JSON Schema
    /// titles choices); either the identifier or the title is accepted.
    static func enumCases(_ enumeration: AnyEnumType) -> [String: JSON] {
        ["type": "string",
         "enum": .array(enumeration.cases.map { .string($0.identifier) }),
         "oneOf": .array(enumeration.cases.map { .object(["const": .string($0.identifier), "title": .string($0.displayName)]) })]
    }
}
