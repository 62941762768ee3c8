import Foundation
import MCP

/// Each message a client sends, checked against JSON-RPC 2.0 before the SDK's `Server` sees it, and answered here when
/// it is wrong: the SDK answers a message that isn't JSON, or a request without a method, with -32700 and an invented
/// id; takes a request whose id is an object, an array, a fraction or a boolean for a notification and never answers
/// it; and answers parameters it can't decode with -32603 "The data couldn't be read because it isn't in the correct
/// format" (Server.swift, the loop of `start(transport:)`; Messages.swift, `TypedRequestHandler`).
///
/// So here, as the specification says: a message that isn't JSON is -32700 with the id `null`; one that isn't a
/// request, a notification or a response (no `"jsonrpc": "2.0"`, no method, an id that is not a string or an integer
/// (MCP also forbids `null`), parameters that are neither an object nor an array) is -32600, with its id when it has a
/// valid one; and the parameters of a method the server serves are decoded as its handler will decode them, -32602
/// naming the parameter when they don't fit. An unknown method is left to the SDK, which answers -32601.
struct JSONRPCCheck: Sendable {
    /// What becomes of a message: what goes on to the SDK, and the answer given here; a batch may have both.
    struct Verdict: Equatable {
        var forward: Data?
        var answer: Data?
    }

    /// How to decode the parameters of each method served.
    private var parameters: [String: ParameterCheck] = [:]

    /// Checks the parameters of `methods` (each as its SDK handler decodes them).
    init(methods: [any MCP.Method.Type]) {
        for method in methods { expect(method) }
    }

    private mutating func expect<M: MCP.Method>(_ method: M.Type) {
        parameters[M.name] = ParameterCheck(required: !(M.Parameters.self is NotRequired.Type)) { decoder in
            _ = try M.Parameters(from: decoder)
        }
    }

    /// The verdict on one line the client sent.
    func check(_ message: Data) -> Verdict {
        let decoder = JSONDecoder()
        decoder.userInfo[ParameterCheck.key] = parameters
        guard message.first(where: { !LineFraming.isWhitespace($0) }) == UInt8(ascii: "[") else {
            return single(message, decoder: decoder)
        }
        // A batch (which MCP dropped in 2025-06-18 and the SDK still serves): its faulty items are answered here, in
        // one array, and the others go on to the SDK as a batch of their own, which it answers.
        let items: [JSON]
        do {
            items = try decoder.decode([JSON].self, from: message)
        } catch {
            return Verdict(answer: Self.errorResponse(id: nil, Self.parseError(error)))
        }
        guard !items.isEmpty else { return Verdict(answer: Self.errorResponse(id: nil, .invalidRequest("the batch is empty"))) }
        let encoder = JSONEncoder()
        var forwarded: [JSON] = [], answers: [JSON] = []
        for item in items {
            let verdict = single((try? encoder.encode(item)) ?? Data(), decoder: decoder)
            if verdict.forward != nil { forwarded.append(item) }
            if let answer = verdict.answer, let json = try? decoder.decode(JSON.self, from: answer) { answers.append(json) }
        }
        if answers.isEmpty { return Verdict(forward: message) }
        return Verdict(forward: forwarded.isEmpty ? nil : try? encoder.encode(forwarded), answer: try? encoder.encode(answers))
    }

    private func single(_ message: Data, decoder: JSONDecoder) -> Verdict {
        let envelope: Envelope
        do {
            envelope = try decoder.decode(Envelope.self, from: message)
        } catch DecodingError.typeMismatch {
            return Verdict(answer: Self.errorResponse(id: nil, .invalidRequest("a message must be a JSON object")))
        } catch {
            return Verdict(answer: Self.errorResponse(id: nil, Self.parseError(error)))
        }
        if let problem = envelope.problem { return Verdict(answer: Self.errorResponse(id: envelope.id, problem)) }
        return Verdict(forward: message)
    }

    static func parseError(_ error: any Error) -> MCPError {
        guard case DecodingError.dataCorrupted(let context) = error else { return .parseError("\(error)") }
        return .parseError(context.underlyingError.map { "\($0)" } ?? context.debugDescription)
    }

    /// An error response; `id` nil is `"id": null`, for a message whose id couldn't be read.
    static func errorResponse(id: ID?, _ error: MCPError) -> Data {
        (try? JSONEncoder().encode(ErrorResponse(id: id, error: error))) ?? Data()
    }
}

/// How one method's parameters are decoded: in `userInfo`, where the `Envelope` being decoded finds it by its method.
struct ParameterCheck: Sendable {
    static let key = CodingUserInfoKey(rawValue: "auto.mcp.parameters")!
    /// Whether the method needs `params` at all (the SDK's `NotRequired` types may be left out).
    let required: Bool
    let decode: @Sendable (any Decoder) throws -> Void

    init(required: Bool, decode: @escaping @Sendable (any Decoder) throws -> Void) {
        self.required = required
        self.decode = decode
    }
}

/// The members of a JSON-RPC message that say what it is, and what is wrong with it, if anything. The parameters are
/// decoded in the same pass, when their method is one the server serves.
private struct Envelope: Decodable {
    /// The message's id, when it has one that is valid.
    var id: ID?
    var problem: MCPError?

    enum Key: String, CodingKey {
        case jsonrpc, id, method, params, result, error
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        let hasID = container.contains(.id)
        if hasID, (try? container.decodeNil(forKey: .id)) == false { id = try? container.decode(ID.self, forKey: .id) }
        problem = Self.problem(container, hasID: hasID, id: id, checks: decoder.userInfo[ParameterCheck.key] as? [String: ParameterCheck] ?? [:])
    }

    static func problem(_ container: KeyedDecodingContainer<Key>, hasID: Bool, id: ID?, checks: [String: ParameterCheck]) -> MCPError? {
        guard (try? container.decode(String.self, forKey: .jsonrpc)) == "2.0" else {
            return .invalidRequest("'jsonrpc' must be \"2.0\"")
        }
        if hasID && id == nil { return .invalidRequest("'id' must be a string or an integer") }
        guard container.contains(.method) else {
            if hasID && (container.contains(.result) || container.contains(.error)) { return nil }  // a response
            return .invalidRequest("there is no 'method'")
        }
        guard let method = try? container.decode(String.self, forKey: .method) else { return .invalidRequest("'method' must be a string") }
        let hasParameters = container.contains(.params)
        if hasParameters && (try? container.nestedContainer(keyedBy: Key.self, forKey: .params)) == nil
            && (try? container.nestedUnkeyedContainer(forKey: .params)) == nil {
            return .invalidRequest("'params' must be an object or an array")
        }
        // A notification gets no answer, whatever its parameters; a method the server doesn't serve is the SDK's -32601.
        guard hasID, let check = checks[method] else { return nil }
        guard hasParameters else { return check.required ? .invalidParams("'params' is missing") : nil }
        do {
            try check.decode(try container.superDecoder(forKey: .params))
        } catch let error as DecodingError {
            return .invalidParams(describe(error))
        } catch {
            return .invalidParams("\(error)")
        }
        return nil
    }

    /// A decoding error as the parameter it is about and what is wrong with it: `'arguments': expected …`.
    static func describe(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, let context): return "'\(path(context.codingPath + [key]))' is missing"
        case .valueNotFound(_, let context): return "'\(path(context.codingPath))' must not be null"
        case .typeMismatch(_, let context), .dataCorrupted(let context):
            return "'\(path(context.codingPath))': " + context.debugDescription
        @unknown default: return "\(error)"
        }
    }

    /// `arguments.books[2]`: the path inside `params`.
    static func path(_ codingPath: [any CodingKey]) -> String {
        var text = ""
        for key in codingPath.dropFirst() {
            if let index = key.intValue { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
        }
        return text.isEmpty ? "params" : text
    }
}

/// `{"jsonrpc": "2.0", "id": …, "error": {…}}`, with `"id": null` when there is none.
private struct ErrorResponse: Encodable {
    let id: ID?
    let error: MCPError

    enum Key: String, CodingKey {
        case jsonrpc, id, error
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode("2.0", forKey: .jsonrpc)
        if let id { try container.encode(id, forKey: .id) } else { try container.encodeNil(forKey: .id) }
        try container.encode(error, forKey: .error)
    }
}
