/// A request of a method the server serves, its parameters read and checked: what `JSONRPCCheck` hands on. Parameters
/// are read as the official SDK's types decode them (members it doesn't know are ignored, optional ones may be null),
/// and a member missing or of the wrong type is -32602, naming it.
enum McpRequest: Sendable {
    case initialize(ClientHello)
    case ping
    case listTools
    case callTool(ToolCall)
    /// A page of entities, from the cursor a previous page gave.
    case listResources(cursor: String?)
    case listResourceTemplates
    case readResource(uri: String)

    /// What the client said of itself when it initialized.
    struct ClientHello: Sendable, Equatable {
        /// The protocol version it asked for; nil when it named none.
        let protocolVersion: String?
        /// Whether it declared it can ask people (`capabilities.elicitation`).
        let canElicit: Bool
    }

    struct ToolCall: Sendable, Equatable {
        let name: String
        let arguments: [String: JSON]
        /// `_meta.progressToken`: a string or an integer, the client's name for the call's progress.
        let progressToken: JSON?
    }

    /// The request `method` makes of `params` (nil when the message had none): -32601 for a method not served, -32602
    /// for parameters that don't fit it.
    static func read(method: String, params: JSON?) throws(JSONRPCError) -> McpRequest {
        switch method {
        case "initialize":
            let params = try Parameters(params, required: true)
            _ = try params.object("capabilities")
            let clientInfo = try params.object("clientInfo")
            if clientInfo != nil {
                _ = try params.requiredString("clientInfo.name")
                _ = try params.requiredString("clientInfo.version")
            }
            let elicitation = try params.object("capabilities.elicitation")
            return .initialize(ClientHello(protocolVersion: try params.string("protocolVersion"), canElicit: elicitation != nil))
        case "ping":
            _ = try Parameters(params, required: false)
            return .ping
        case "tools/list":
            _ = try Parameters(params, required: false).string("cursor")
            return .listTools
        case "tools/call":
            let params = try Parameters(params, required: true)
            let name = try params.requiredString("name")
            _ = try params.object("_meta")
            // A token of another kind is no token (the SDK's `Metadata.progressToken` reads it so): no progress is sent.
            var token = try params.value("_meta.progressToken")
            if case .string? = token {} else if case .int? = token {} else { token = nil }
            return .callTool(ToolCall(name: name, arguments: try params.object("arguments") ?? [:], progressToken: token))
        case "resources/list":
            return .listResources(cursor: try Parameters(params, required: false).string("cursor"))
        case "resources/templates/list":
            _ = try Parameters(params, required: false).string("cursor")
            return .listResourceTemplates
        case "resources/read":
            return .readResource(uri: try Parameters(params, required: true).requiredString("uri"))
        default:
            throw .methodNotFound("Unknown method: \(method)")
        }
    }
}

/// A request's `params`, read member by member; a member is named by its path (`clientInfo.name`).
private struct Parameters {
    let fields: [String: JSON]

    init(_ params: JSON?, required: Bool) throws(JSONRPCError) {
        switch params {
        case nil:
            if required { throw .invalidParams("'params' is missing") }
            fields = [:]
        case .object(let fields)?:
            self.fields = fields
        default:
            throw .invalidParams("'params' must be an object")
        }
    }

    /// The member at `path`; nil when it, or an object on the way to it, is missing or null.
    func value(_ path: String) throws(JSONRPCError) -> JSON? {
        var current: JSON? = .object(fields)
        for key in path.split(separator: ".") {
            switch current {
            case nil, .null?: return nil
            case .object(let members)?: current = members[String(key)]
            default: throw .invalidParams("'\(path)' is not in an object")
            }
        }
        return current == .null ? nil : current
    }

    func string(_ path: String) throws(JSONRPCError) -> String? {
        switch try value(path) {
        case nil: return nil
        case .string(let text)?: return text
        default: throw .invalidParams("'\(path)' must be a string")
        }
    }

    func requiredString(_ path: String) throws(JSONRPCError) -> String {
        guard let text = try string(path) else { throw .invalidParams("'\(path)' is missing") }
        return text
    }

    func object(_ path: String) throws(JSONRPCError) -> [String: JSON]? {
        switch try value(path) {
        case nil: return nil
        case .object(let members)?: return members
        default: throw .invalidParams("'\(path)' must be an object")
        }
    }
}

/// The versions of MCP this server speaks: those the official SDK (0.12) speaks, the newest first.
enum ProtocolVersion {
    static let supported = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]
    static var latest: String { supported[0] }

    /// The client's version when the server speaks it, otherwise the newest it does: the client then decides
    /// whether it can go on (MCP's lifecycle).
    static func negotiate(_ requested: String?) -> String {
        requested.flatMap { supported.contains($0) ? $0 : nil } ?? latest
    }
}
