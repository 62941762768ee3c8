@testable import AutoFuzz
import Testing

/// The MCP conversation oracle must be able to fail: transcripts that break JSON-RPC 2.0 in each way it checks are
/// caught, and one that keeps to it passes.
@Suite struct McpOracleTests {
    typealias Message = McpMessages.Message

    static let sent = [
        Message(line: "initialize", expected: .response(id: "\"init\"", code: nil), what: "initialize"),
        Message(line: "{]", expected: .nullIdError(code: -32700), what: "not JSON"),
        Message(line: "unknown", expected: .response(id: "2", code: -32601), what: "unknown method"),
        Message(line: "notification", expected: .nothing, what: "a notification"),
    ]

    static let initialized = #"{"jsonrpc":"2.0","id":"init","result":{}}"#
    static let parseError = #"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#
    static let notFound = #"{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"Method not found"}}"#

    func judge(_ lines: [String], status: Int32 = 0) -> String? {
        var result = RunResult(termination: .exited(status))
        result.standardOutput = Array(lines.map { $0 + "\n" }.joined().utf8)
        return McpMessages.judge(result, Self.sent)
    }

    @Test func aTranscriptThatKeepsToJSONRPCPasses() {
        #expect(judge([Self.notFound, Self.initialized, Self.parseError]) == nil)
    }

    @Test func eachBreachIsCaught() {
        let cases: [([String], Int32, String)] = [
            ([Self.initialized, Self.notFound], 0, "errors with id null: [], where [-32700] were due"),
            ([Self.initialized, #"{"jsonrpc":"2.0","id":"made-up","error":{"code":-32700,"message":"x"}}"#, Self.notFound], 0, "a response to id \"made-up\""),
            ([Self.initialized, Self.parseError], 0, "unknown method (id 2) got 0 responses"),
            ([Self.initialized, Self.parseError, Self.notFound, Self.notFound], 0, "unknown method (id 2) got 2 responses"),
            ([Self.initialized, Self.parseError, #"{"jsonrpc":"2.0","id":2,"error":{"code":-32603,"message":"x"}}"#], 0, "got error -32603, not error -32601"),
            ([Self.initialized, Self.parseError, Self.notFound, "not json"], 0, "not a JSON-RPC message"),
            ([Self.initialized, Self.parseError, Self.notFound], 1, "ended with status 1"),
        ]
        for (lines, status, expected) in cases {
            let problem = judge(lines, status: status)
            #expect(problem?.contains(expected) == true, "\(lines): \(problem ?? "passed")")
        }
    }
}
