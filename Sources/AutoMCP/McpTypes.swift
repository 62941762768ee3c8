/// A tool as `tools/list` gives it.
struct Tool {
    let name: String
    let title: String
    let description: String
    /// A JSON Schema of the arguments (`ToolSchemas`).
    let inputSchema: JSON
    let annotations: Annotations

    /// What a client may tell people, or decide, before calling the tool.
    struct Annotations {
        let title: String
        let readOnlyHint: Bool
        let destructiveHint: Bool
        let openWorldHint: Bool
    }

    var json: JSON {
        ["name": .string(name), "title": .string(title), "description": .string(description), "inputSchema": inputSchema,
         "annotations": ["title": .string(annotations.title), "readOnlyHint": .bool(annotations.readOnlyHint),
                         "destructiveHint": .bool(annotations.destructiveHint), "openWorldHint": .bool(annotations.openWorldHint)]]
    }
}

/// What a `tools/call` gives: texts for the assistant to read, the result as data, and whether the call failed (a
/// failure the assistant can correct is a result, not a JSON-RPC error).
struct ToolResult {
    var texts: [String]
    var structuredContent: JSON? = nil
    var isError = false
    /// Members of the result's `_meta`: `auto/plan`, how a find was split between the host and the engine.
    var meta: [String: JSON] = [:]

    static func failure(_ message: String) -> ToolResult {
        ToolResult(texts: [message], isError: true)
    }

    var json: JSON {
        var result: [String: JSON] = ["content": .array(texts.map { ["type": "text", "text": .string($0)] })]
        if let structuredContent { result["structuredContent"] = structuredContent }
        if isError { result["isError"] = true }
        if !meta.isEmpty { result["_meta"] = .object(meta) }
        return .object(result)
    }
}

/// An entity as `resources/list` gives it.
struct Resource {
    let name: String
    let uri: String
    let description: String?
    let mimeType: String

    var json: JSON {
        var resource: [String: JSON] = ["name": .string(name), "title": .string(name), "uri": .string(uri), "mimeType": .string(mimeType)]
        if let description { resource["description"] = .string(description) }
        return .object(resource)
    }
}

/// How an entity type's resources are addressed, as `resources/templates/list` gives it.
struct ResourceTemplate {
    let uriTemplate: String
    let name: String
    let title: String
    let description: String
    let mimeType: String

    var json: JSON {
        ["uriTemplate": .string(uriTemplate), "name": .string(name), "title": .string(title), "description": .string(description),
         "mimeType": .string(mimeType)]
    }
}

/// What `resources/read` gives of one resource: its text.
struct ResourceContent {
    let uri: String
    let mimeType: String
    let text: String

    var json: JSON {
        ["uri": .string(uri), "mimeType": .string(mimeType), "text": .string(text)]
    }
}
