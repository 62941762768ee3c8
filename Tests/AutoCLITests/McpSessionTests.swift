@testable import AutoMCP
import AutoTestSupport
import Foundation
import Testing

/// What the server does as MCP's JSON-RPC peer, now that it speaks it itself (`McpConnection`, `JSONRPCCheck`,
/// `McpRequest`): errors with the codes JSON-RPC gives them, silence for notifications, the handshake's version,
/// cancellation, and the end of the input, through the real binary (`McpPipe`) and, for the checks, directly.
@Suite(.timeLimit(.minutes(5))) struct McpSessionTests {
    @Test func aLineThatIsNotJSONIsAParseErrorWithANullIDAndTheServerGoesOn() async throws {
        let server = try McpPipe()
        try await server.initialize()
        for (index, line) in [#"{"jsonrpc":"2.0","id":5,"method":"ping""#, "\u{1}\u{2}", "[1,"].enumerated() {
            let seen = server.count
            server.send(line)
            let answer = await server.message(after: seen) { _ in true }
            #expect(McpPipe.errorCode(answer) == -32700 && answer?["id"] is NSNull, "\(line) → \(String(describing: answer))")
            server.request(10 + index, "ping")
            #expect(await server.response(10 + index)?["result"] != nil)
        }
        server.close()
        #expect(await server.exitStatus() == 0)
    }

    /// An unknown method is -32601 with the request's id; notifications, known or not, get nothing back, and nor does
    /// a response to a request the server never sent.
    @Test func anUnknownMethodIsMethodNotFoundAndNotificationsGetNoAnswer() async throws {
        let server = try McpPipe()
        try await server.initialize()
        server.request(1, "tools/cut")
        let notFound = await server.response(1)
        #expect(McpPipe.errorCode(notFound) == -32601, "\(String(describing: notFound))")
        #expect(McpPipe.errorMessage(notFound).contains("tools/cut"))
        let seen = server.count
        server.send(#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
        server.send(#"{"jsonrpc":"2.0","method":"no/such/notification","params":{"a":1}}"#)
        server.send(#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}}"#)
        server.send(#"{"jsonrpc":"2.0","id":"never-sent","result":{}}"#)
        server.request(2, "ping")
        #expect(await server.response(2)?["result"] != nil)
        // The notifications were read before the ping, and what they were answered with would have been written first.
        #expect(server.count == seen + 1, "\(server.count - seen) messages for four notifications and a ping")
        server.close()
        #expect(await server.exitStatus() == 0)
    }

    /// The client's version when the server speaks it, the newest the server speaks otherwise; and one handshake only.
    /// A request before it is served, as the official SDK's server serves it.
    @Test(arguments: [("2025-03-26", "2025-03-26"), ("2024-11-05", "2024-11-05"), ("1999-01-01", ProtocolVersion.latest)])
    func theHandshakeNegotiatesTheVersion(asked: String, answered: String) async throws {
        let server = try McpPipe()
        server.request(7, "tools/list")
        #expect((await server.response(7)?["result"] as? [String: Any])?["tools"] is [Any])
        server.request(0, "initialize", #"{"protocolVersion":"\#(asked)","capabilities":{},"clientInfo":{"name":"tests","version":"1"}}"#)
        let result = try #require(await server.response(0)?["result"] as? [String: Any])
        #expect(result["protocolVersion"] as? String == answered)
        #expect((result["serverInfo"] as? [String: Any])?["name"] as? String == "auto")
        let capabilities = result["capabilities"] as? [String: Any]
        #expect((capabilities?["tools"] as? [String: Any])?["listChanged"] as? Bool == false)
        #expect((capabilities?["resources"] as? [String: Any])?["subscribe"] as? Bool == false)
        server.request(1, "initialize", #"{"protocolVersion":"\#(asked)","capabilities":{},"clientInfo":{"name":"tests","version":"1"}}"#)
        #expect(McpPipe.errorCode(await server.response(1)) == -32600)
        server.close()
    }

    /// A call waiting for the person's answer is cancelled: the server stops waiting (and says so to the client), the
    /// call gets no response, its file is not written, and the next request is answered.
    @Test func aCancelledCallGetsNoResponseAndTheNextRequestIsAnswered() async throws {
        let folder = try TemporaryFolder("mcp-session")
        defer { withExtendedLifetime(folder) {} }
        let file = folder.url.appendingPathComponent("cancelled.txt")
        let server = try McpPipe(["--allow-write=\(folder.path)"])
        try await server.initialize(elicitation: true)
        server.request(1, "tools/call", #"{"name":"write_text","arguments":{"to":"\#(file.path)"}}"#)
        let question = try #require(await server.message { $0["method"] as? String == "elicitation/create" })
        let questionID = try #require(question["id"] as? String)
        server.send(#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"changed my mind"}}"#)
        let withdrawn = await server.message { message in
            message["method"] as? String == "notifications/cancelled"
                && (message["params"] as? [String: Any])?["requestId"] as? String == questionID
        }
        #expect(withdrawn != nil, "the server did not withdraw its question")
        server.request(2, "ping")
        #expect(await server.response(2)?["result"] != nil)
        server.close()
        #expect(await server.exitStatus() == 0)
        #expect(!server.answered(1))
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    /// The client goes away while a call waits for its answer: the wait ends, the call with it, and the server ends
    /// with status 0.
    @Test func theEndOfTheInputWhileACallWaitsForAnAnswerEndsTheServer() async throws {
        let folder = try TemporaryFolder("mcp-session")
        defer { withExtendedLifetime(folder) {} }
        let server = try McpPipe(["--allow-write=\(folder.path)"])
        try await server.initialize(elicitation: true)
        server.request(1, "tools/call", #"{"name":"write_text","arguments":{"to":"\#(folder.path)/never.txt"}}"#)
        #expect(await server.message { $0["method"] as? String == "elicitation/create" } != nil)
        server.close()
        #expect(await server.exitStatus(timeout: .seconds(30)) == 0)
        #expect(!server.answered(1))
    }

    /// A batch is answered in one array, its faulty items and its requests alike; a notification in it adds nothing.
    @Test func aBatchIsAnsweredInOneArray() async throws {
        let server = try McpPipe()
        try await server.initialize()
        let seen = server.count
        server.send(#"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","id":2,"method":"tools/cut"},7]"#)
        let answer = try #require(await server.message(after: seen) { _ in true }?["unparsed"] as? String)
        let items = try #require(try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [[String: Any]])
        #expect(items.count == 3, "\(answer)")
        #expect(items.contains { ($0["id"] as? Int) == 1 && $0["result"] != nil }, "\(answer)")
        #expect(items.contains { ($0["id"] as? Int) == 2 && McpPipe.errorCode($0) == -32601 }, "\(answer)")
        #expect(items.contains { $0["id"] is NSNull && McpPipe.errorCode($0) == -32600 }, "\(answer)")
        server.close()
    }

    /// The checks themselves, line by line: what each kind of mistake is answered with.
    @Test func theCheckAnswersEachMistakeWithItsCode() {
        func answer(_ line: String) -> (id: JSON?, code: Int?, messages: Int) {
            let verdict = JSONRPCCheck.check(Data(line.utf8))
            guard case .int(let code)? = verdict.answers.first?["error"]?["code"] else { return (nil, nil, verdict.messages.count) }
            return (verdict.answers.first?["id"], code, verdict.messages.count)
        }
        #expect(answer("{]").code == -32700 && answer("{]").id == .null)
        #expect(answer(#"{"jsonrpc":"2.0","id":"a","method":"nope"}"#).code == -32601)
        #expect(answer(#"{"jsonrpc":"2.0","id":"a","method":"nope"}"#).id == "a")
        #expect(answer(#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":1}}"#).code == -32602)
        #expect(answer(#"{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"clientInfo":{"name":"x"}}}"#).code == -32602)
        #expect(answer(#"{"jsonrpc":"2.0","id":3,"method":"ping","params":[]}"#).code == -32602)
        let notification = answer(#"{"jsonrpc":"2.0","method":"nope","params":{"x":[]}}"#)
        #expect(notification.code == nil && notification.messages == 1)
        let call = JSONRPCCheck.check(Data(#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"t","_meta":{"progressToken":7}}}"#.utf8))
        guard case .request(.number(4), .callTool(let tool))? = call.messages.first else {
            Issue.record("not a tools/call: \(call.messages)")
            return
        }
        #expect(tool == McpRequest.ToolCall(name: "t", arguments: [:], progressToken: 7))
    }
}
