import AutoTestSupport
import Foundation
import Testing

/// `auto mcp` serves from `auto`'s own binary: a host needs no second binary for its MCP server (issue 30, item 4).
/// The server itself is tested through raw JSON-RPC (McpProtocolTests) and the SDK's client (LibraryHostTests).
@Suite struct McpCommandTests {
    @Test func theServerIsInTheHostsOwnBinary() async throws {
        // A copy of `auto` alone in a folder: nothing beside it to start.
        let folder = try TemporaryFolder("mcp-command")
        defer { withExtendedLifetime(folder) {} }
        let auto = folder("auto")
        // Through a descriptor closed on exec: FileManager's copy, open while another test started a program, once made
        // running the copy fail with "Text file busy".
        try InstalledBinary.copy(BinaryRunner.binary, to: auto)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["auto"])

        let server = try McpPipe(["--allow-read=/tmp"], executable: auto)
        server.request(0, "initialize", #"{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"tests","version":"1"}}"#)
        let answer = try #require(await server.response(0)?["result"] as? [String: Any])
        #expect((answer["serverInfo"] as? [String: Any])?["name"] as? String == "auto")
        server.send(#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
        // The grant given on its command line is the server's: `read text` is a tool, as it needs reading.
        server.request(1, "tools/list")
        let tools = try #require(await server.response(1)?["result"] as? [String: Any])["tools"] as? [[String: Any]]
        #expect(tools?.contains { $0["name"] as? String == "read_text" } == true, "\(tools ?? [])")
    }

    @Test func optionsAreCheckedBeforeServing() async throws {
        let bad = try await BinaryRunner.runAwaiting(["mcp", "--frobnicate"])
        #expect(bad.exitCode == 2 && bad.standardOutput.isEmpty, "\(bad.standardOutput)")
    }
}
