/// A request's id: JSON-RPC allows a string or a number, MCP a string or an integer (never null).
enum RequestID: Hashable, Sendable {
    case string(String)
    case number(Int)

    /// The id `json` is, nil for anything but a string or an integer.
    init?(_ json: JSON) {
        switch json {
        case .string(let text): self = .string(text)
        case .int(let number): self = .number(number)
        default: return nil
        }
    }

    var json: JSON {
        switch self {
        case .string(let text): .string(text)
        case .number(let number): .int(number)
        }
    }
}

/// A JSON-RPC error: its code, and a message that names the code and says what was wrong ("Invalid params: 'name'
/// is missing"); what was wrong is also the error's `data.detail`, as the official SDK writes it.
struct JSONRPCError: Error, Equatable, Sendable, CustomStringConvertible {
    let code: Int
    let message: String
    let detail: String?

    init(code: Int, message: String, detail: String? = nil) {
        self.code = code
        self.message = message
        self.detail = detail
    }

    private init(code: Int, name: String, _ detail: String) {
        self.init(code: code, message: "\(name): \(detail)", detail: detail)
    }

    /// Text that isn't JSON.
    static func parseError(_ detail: String) -> JSONRPCError { JSONRPCError(code: -32700, name: "Parse error: Invalid JSON", detail) }
    /// JSON that isn't a request, a notification or a response.
    static func invalidRequest(_ detail: String) -> JSONRPCError { JSONRPCError(code: -32600, name: "Invalid Request", detail) }
    static func methodNotFound(_ detail: String) -> JSONRPCError { JSONRPCError(code: -32601, name: "Method not found", detail) }
    /// Parameters that don't fit their method, or name what isn't there (a resource, a cursor).
    static func invalidParams(_ detail: String) -> JSONRPCError { JSONRPCError(code: -32602, name: "Invalid params", detail) }
    /// What went wrong in the server: a host's query that failed.
    static func internalError(_ detail: String) -> JSONRPCError { JSONRPCError(code: -32603, name: "Internal error", detail) }

    var description: String { message }

    var json: JSON {
        var error: [String: JSON] = ["code": .int(code), "message": .string(message)]
        if let detail { error["data"] = ["detail": .string(detail)] }
        return .object(error)
    }
}

/// The messages JSON-RPC 2.0 sends, as JSON.
enum JSONRPC {
    static func response(id: RequestID, result: JSON) -> JSON {
        ["jsonrpc": "2.0", "id": id.json, "result": result]
    }

    /// An error response; `id` nil is `"id": null`, for a message whose id couldn't be read.
    static func errorResponse(id: RequestID?, _ error: JSONRPCError) -> JSON {
        ["jsonrpc": "2.0", "id": id?.json ?? .null, "error": error.json]
    }

    static func request(id: RequestID, method: String, params: JSON) -> JSON {
        ["jsonrpc": "2.0", "id": id.json, "method": .string(method), "params": params]
    }

    static func notification(method: String, params: JSON) -> JSON {
        ["jsonrpc": "2.0", "method": .string(method), "params": params]
    }
}
