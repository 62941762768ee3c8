import Foundation

/// Each line a client sends, checked against JSON-RPC 2.0 and read into what the server serves, or answered here when
/// it is wrong, as the specification says: a line that isn't JSON is -32700 with the id `null`; a message that isn't a
/// request, a notification or a response (no `"jsonrpc": "2.0"`, no method, an id that is not a string or an integer
/// (MCP also forbids `null`), parameters that are neither an object nor an array) is -32600, with its id when it has a
/// valid one; a request of a method the server doesn't serve is -32601, and one whose parameters don't fit its method
/// -32602 naming the parameter (`McpRequest`). A notification's method and parameters are not checked: it gets no
/// answer, and one the server doesn't know is ignored.
enum JSONRPCCheck {
    /// What one line holds: what goes on to be served, and the answers given here.
    struct Verdict: Sendable {
        var messages: [Incoming] = []
        /// Error responses for what was wrong.
        var answers: [JSON] = []
        /// Whether the line was a batch, whose responses all go out in one array.
        var isBatch = false
    }

    /// One message that passed the check.
    enum Incoming: Sendable {
        case request(RequestID, McpRequest)
        case notification(method: String, params: JSON?)
        /// The client's answer to a request of the server's.
        case response(RequestID, Result<JSON, JSONRPCError>)
    }

    /// The verdict on one line the client sent.
    static func check(_ line: Data) -> Verdict {
        let json: JSON
        do {
            json = try JSON.parse(line)
        } catch {
            return Verdict(answers: [JSONRPC.errorResponse(id: nil, parseError(error))])
        }
        guard case .array(let items) = json else { return single(json) }
        // A batch (which MCP dropped in 2025-06-18 and earlier versions serve): each item is checked on its own.
        guard !items.isEmpty else { return Verdict(answers: [JSONRPC.errorResponse(id: nil, .invalidRequest("the batch is empty"))]) }
        var verdict = Verdict(isBatch: true)
        for item in items {
            let one = single(item)
            verdict.messages += one.messages
            verdict.answers += one.answers
        }
        return verdict
    }

    static func parseError(_ error: any Error) -> JSONRPCError {
        guard case DecodingError.dataCorrupted(let context) = error else { return .parseError("\(error)") }
        return .parseError(context.underlyingError.map { "\($0)" } ?? context.debugDescription)
    }

    private static func single(_ json: JSON) -> Verdict {
        guard case .object(let fields) = json else { return Verdict(answers: [JSONRPC.errorResponse(id: nil, .invalidRequest("a message must be a JSON object"))]) }
        let id = fields["id"].flatMap(RequestID.init)
        do {
            return Verdict(messages: [try message(fields, id: id)])
        } catch {
            return Verdict(answers: [JSONRPC.errorResponse(id: id, error)])
        }
    }

    /// The message `fields` are.
    private static func message(_ fields: [String: JSON], id: RequestID?) throws(JSONRPCError) -> Incoming {
        guard fields["jsonrpc"] == "2.0" else { throw .invalidRequest("'jsonrpc' must be \"2.0\"") }
        let hasID = fields["id"] != nil
        guard !hasID || id != nil else { throw .invalidRequest("'id' must be a string or an integer") }
        guard let method = fields["method"] else {
            if let id, let result = fields["result"] { return .response(id, .success(result)) }
            if let id, let error = fields["error"] { return .response(id, .failure(clientError(error))) }
            throw .invalidRequest("there is no 'method'")
        }
        guard case .string(let name) = method else { throw .invalidRequest("'method' must be a string") }
        let params = fields["params"]
        switch params {
        case nil, .object?, .array?: break
        default: throw .invalidRequest("'params' must be an object or an array")
        }
        guard let id else { return .notification(method: name, params: params) }
        return .request(id, try McpRequest.read(method: name, params: params))
    }

    /// An error a client answered a request of the server's with, as it gave it.
    private static func clientError(_ error: JSON) -> JSONRPCError {
        guard case .int(let code)? = error["code"], case .string(let message)? = error["message"] else {
            return JSONRPCError(code: -32603, message: "the client answered with an error that is not JSON-RPC's: \(String(decoding: error.encoded, as: UTF8.self))")
        }
        return JSONRPCError(code: code, message: message)
    }
}
