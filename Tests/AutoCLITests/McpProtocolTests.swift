import AutoTestSupport
import Foundation
import Testing

/// `auto mcp` spoken to in raw JSON-RPC lines through pipes (`McpPipe`): what any client may send, whatever its SDK.
/// The server must answer as JSON-RPC 2.0 says, read a message in time linear in its length, refuse one over its limit
/// and go on, and serve every tool it lists.
@Suite(.timeLimit(.minutes(5))) struct McpProtocolTests {
    @Test func malformedMessagesGetTheErrorsJSONRPCSpecifies() async throws {
        let server = try McpPipe()
        try await server.initialize()
        // An id that can't be read is answered with `"id": null`: one message at a time, each answer known by its place.
        let unreadableID: [(line: String, code: Int, says: String)] = [
            (#"{"jsonrpc":"2.0","id":1,"method":"#, -32700, "Parse error"),
            ("not json", -32700, "Parse error"),
            ("42", -32600, "a message must be a JSON object"),
            (#"{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}"#, -32600, "'id' must be a string or an integer"),
            (#"{"jsonrpc":"2.0","id":[1],"method":"ping"}"#, -32600, "'id' must be a string or an integer"),
            (#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#, -32600, "'id' must be a string or an integer"),
            (#"{"jsonrpc":"2.0","id":true,"method":"ping"}"#, -32600, "'id' must be a string or an integer"),
            (#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#, -32600, "'id' must be a string or an integer"),
            ("[]", -32600, "the batch is empty"),
        ]
        for (line, code, says) in unreadableID {
            let seen = server.count
            server.send(line)
            let answer = await server.message(after: seen) { _ in true }
            #expect(McpPipe.errorCode(answer) == code, "\(line) → \(String(describing: answer))")
            #expect(answer?["id"] is NSNull, "\(line) → \(String(describing: answer))")
            #expect(McpPipe.errorMessage(answer).contains(says), "\(line) → \(McpPipe.errorMessage(answer))")
        }
        // Otherwise the answer has the request's id.
        let readableID: [(id: Int, line: String, code: Int, says: String)] = [
            (7, #"{"jsonrpc":"2.0","id":7}"#, -32600, "there is no 'method'"),
            (8, #"{"jsonrpc":"1.0","id":8,"method":"ping"}"#, -32600, "'jsonrpc' must be \"2.0\""),
            (9, #"{"jsonrpc":"2.0","id":9,"method":3}"#, -32600, "'method' must be a string"),
            (10, #"{"jsonrpc":"2.0","id":10,"method":"tools/list","params":5}"#, -32600, "'params' must be an object or an array"),
            (11, #"{"jsonrpc":"2.0","id":11,"method":"tools/cut"}"#, -32601, "tools/cut"),
            (12, #"{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"arguments":{}}}"#, -32602, "'name' is missing"),
            (13, #"{"jsonrpc":"2.0","id":13,"method":"tools/call","params":{"name":"shout","arguments":"loud"}}"#, -32602, "'arguments'"),
            (14, #"{"jsonrpc":"2.0","id":14,"method":"resources/read"}"#, -32602, "'params' is missing"),
            (15, #"{"jsonrpc":"2.0","id":15,"method":"resources/read","params":{"uri":7}}"#, -32602, "'uri'"),
        ]
        for (id, line, code, says) in readableID {
            server.send(line)
            let answer = await server.response(id)
            #expect(McpPipe.errorCode(answer) == code, "\(line) → \(String(describing: answer))")
            #expect(McpPipe.errorMessage(answer).contains(says), "\(line) → \(McpPipe.errorMessage(answer))")
        }
        // A batch's faulty item is answered in an array; its good one by the SDK.
        let seen = server.count
        server.send(#"[{"jsonrpc":"2.0","id":16,"method":"ping"},{"jsonrpc":"2.0","id":1.5,"method":"ping"}]"#)
        let batchAnswers = await server.message(after: seen) { ($0["unparsed"] as? String)?.hasPrefix("[") == true }
        let faulty = try #require(batchAnswers?["unparsed"] as? String)
        #expect(faulty.contains("-32600") && faulty.contains("\"id\":null"), "\(faulty)")
        server.request(17, "ping")
        #expect(await server.response(17)?["result"] != nil)
        server.close()
    }

    /// A message over 64 MB is refused as soon as it passes the limit, without waiting for its end, and the next one is
    /// served.
    @Test func aMessageOverTheLimitIsRefusedAndTheNextOneServed() async throws {
        let server = try McpPipe()
        try await server.initialize()
        var line = Data(#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"shout","arguments":{"text":""#.utf8)
        line.append(Data(repeating: UInt8(ascii: "a"), count: 64 << 20))
        line.append(Data(#""}}}"#.utf8))
        server.send(line)
        server.request(2, "ping")
        let refused = await server.message { McpPipe.errorCode($0) != nil }
        #expect(McpPipe.errorCode(refused) == -32600 && refused?["id"] is NSNull, "\(String(describing: refused))")
        #expect(McpPipe.errorMessage(refused).contains("longer than 64 MB"), "\(McpPipe.errorMessage(refused))")
        #expect(await server.response(2)?["result"] != nil)
        #expect(!server.answered(1))
        server.close()
    }

    /// While a call waits for the person, a client sends a 20 MB request (its text repeated no times: the answer is
    /// small), a ping and the call's cancellation: the ping is answered and the 20 MB request too, and the cancelled
    /// call writes nothing when the person's answer comes after.
    @Test func aLargeRequestHoldsUpNeitherAPingNorACancellationWhileACallRuns() async throws {
        let folder = try TemporaryFolder("mcp-protocol")
        defer { withExtendedLifetime(folder) {} }
        let file = folder.url.appendingPathComponent("cancelled.txt")
        let server = try McpPipe(["--allow-write=\(folder.path)"])
        try await server.initialize(elicitation: true)

        server.request(1, "tools/call", #"{"name":"write_text","arguments":{"to":"\#(file.path)"}}"#)
        let question = try #require(await server.message { $0["method"] as? String == "elicitation/create" })
        let text = String(repeating: "a", count: 20 << 20)
        server.request(2, "tools/call", #"{"name":"repeat_text","arguments":{"text":"\#(text)","count":0}}"#)
        server.request(3, "ping")
        server.send(#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"changed my mind"}}"#)
        #expect(await server.response(3)?["result"] != nil)
        let repeated = await server.response(2)
        let result = (repeated?["result"] as? [String: Any])?["structuredContent"] as? [String: Any]
        #expect(result?["result"] as? String == "", "\(String(describing: repeated?["result"] ?? repeated?["error"]))")

        // The person answers after the cancellation: the call's run, cancelled, writes nothing and gets no answer.
        let questionID = String(decoding: try JSONSerialization.data(withJSONObject: question["id"] ?? NSNull(), options: .fragmentsAllowed),
                                as: UTF8.self)
        server.send(#"{"jsonrpc":"2.0","id":\#(questionID),"result":{"action":"accept","content":{"value":"hello"}}}"#)
        server.request(4, "ping")
        #expect(await server.response(4)?["result"] != nil)
        #expect(!FileManager.default.fileExists(atPath: file.path))
        #expect(!server.answered(1))
        server.close()
    }

    /// Each tool listed is called with arguments made from its own input schema, and each question it asks answered
    /// from the question's schema: it succeeds, or fails saying what is wrong with an argument (naming the parameter
    /// or quoting the value), never with the inside of the line it became (`mcpArgument0`). Without grants, and with files granted in a
    /// folder of the test's (the file tools are then listed too, their paths in that folder).
    @Test(arguments: [false, true]) func everyListedToolTakesArgumentsMadeFromItsSchema(filesGranted: Bool) async throws {
        let folder = try TemporaryFolder("mcp-tools")
        defer { withExtendedLifetime(folder) {} }
        let server = try McpPipe(filesGranted ? ["--allow-read=\(folder.path)", "--allow-write=\(folder.path)"] : [], directory: folder.path)
        try await server.initialize(elicitation: true)
        server.request(1, "tools/list")
        let listed = (await server.response(1)?["result"] as? [String: Any])?["tools"] as? [[String: Any]] ?? []
        let names = listed.compactMap { $0["name"] as? String }
        #expect(names.contains("repeat_text") && names.contains("shout"), "\(names)")
        #expect(names.contains("write_text") == filesGranted, "\(names)")

        let samples = SchemaSamples(folder: folder.path)
        var id = 100
        for tool in listed {
            let name = try #require(tool["name"] as? String)
            let properties = (tool["inputSchema"] as? [String: Any])?["properties"] as? [String: [String: Any]] ?? [:]
            let arguments = properties.mapValues { samples.value($0) }
            let params = try JSONSerialization.data(withJSONObject: ["name": name, "arguments": arguments])
            id += 1
            let answer = await server.call(id, params: String(decoding: params, as: UTF8.self)) { samples.value($0) }
            let result = try #require(answer?["result"] as? [String: Any], "\(name) → \(String(describing: answer))")
            guard result["isError"] as? Bool == true else { continue }
            let text = (result["content"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }.joined(separator: "\n")
            let aboutArguments = properties.keys.contains { text.range(of: "\\b\($0)\\b", options: .regularExpression) != nil }
                || samples.texts(in: arguments).contains { text.contains($0) }
            #expect(aboutArguments && !text.contains("mcpArgument"), "\(name) \(arguments) → \(text)")
        }
        server.close()
    }
}

/// A value for a JSON Schema of `ToolSchemas`, as a client that reads only the schema would make it: the first of an
/// enum, the minimum of a range, a path in the test's folder for a path, a date for a date, "sample" for a text.
struct SchemaSamples {
    let folder: String

    func value(_ schema: [String: Any]) -> Any {
        if let cases = schema["enum"] as? [Any], let first = cases.first { return first }
        let description = schema["description"] as? String ?? ""
        let types = (schema["type"] as? [String]) ?? [(schema["type"] as? String) ?? "string"]
        switch types.first {
        case "boolean": return false
        case "integer": return schema["minimum"] as? Int ?? 1
        case "number": return schema["minimum"] as? Double ?? 1
        case "array": return [value(schema["items"] as? [String: Any] ?? [:])]
        case "object": return [String: Any]()
        case "null": return NSNull()
        default:
            if schema["format"] as? String == "date-time" { return "2024-05-01" }
            if description == "a path" { return folder + "/sample-" + ((schema["title"] as? String) ?? "file").lowercased() }
            return "sample " + ((schema["title"] as? String) ?? "text").lowercased()
        }
    }

    /// The texts among `arguments`' values, for an error that quotes one.
    func texts(in arguments: [String: Any]) -> [String] {
        arguments.values.flatMap { value -> [String] in
            if let text = value as? String { return [text] }
            return (value as? [Any])?.compactMap { $0 as? String } ?? []
        }
    }
}

extension McpPipe {
    /// Calls a tool (`params` as JSON text) and answers each question it asks with `answer` of the question's field
    /// schema, until the call's response comes.
    func call(_ id: Int, params: String, answer: @escaping @Sendable ([String: Any]) -> Any) async -> [String: Any]? {
        let seen = count
        request(id, "tools/call", params)
        var answered = Set<String>()
        while true {
            let done = answered
            guard let message = await message(after: seen, where: { message in
                (message["id"] as? Int) == id && message["method"] == nil
                    || message["method"] as? String == "elicitation/create" && !done.contains("\(message["id"] ?? "")")
            }) else { return nil }
            guard message["method"] != nil else { return message }
            answered.insert("\(message["id"] ?? "")")
            let field = ((message["params"] as? [String: Any])?["requestedSchema"] as? [String: Any])?["properties"] as? [String: Any]
            let value = answer(field?["value"] as? [String: Any] ?? [:])
            let reply: [String: Any] = ["jsonrpc": "2.0", "id": message["id"] ?? NSNull(), "result": ["action": "accept", "content": ["value": value]]]
            guard let data = try? JSONSerialization.data(withJSONObject: reply) else { return nil }
            send(data)
        }
    }
}
