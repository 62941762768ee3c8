import AutoTerminal
import ArgumentParser
import AutoMCP

/// `auto mcp`: serves the host's intents, finds and entities to an AI assistant over MCP on standard input and output.
/// Unlike a script, which the person running it wrote, the calls come from an assistant: so nothing outside the
/// engine is granted unless the command line says so (`--allow-read=~/Books`), and a tool needing more is left out.
struct McpCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mcp", abstract: "Serve the intents to AI assistants: an MCP server on standard input and output.",
        discussion: """
            Each discoverable intent is a tool, each entity type with a query a find_<plural> tool, each entity a \
            resource (\(AutoCommandLine.host.name)://book/42). Questions and confirmations go to the person through the \
            client (elicitation). Nothing outside the engine is granted unless --allow-… says so.
            """)

    @OptionGroup(title: "Capabilities") var capabilities: CapabilityOptions

    func run() async throws {
        let host = AutoCommandLine.host
        let server = try McpServer(McpHost(name: host.name, version: host.version, registry: host.registry, prelude: host.prelude,
                                           grants: try capabilities.grants(unflagged: .none), tools: host.mcpTools))
        try await server.run()
    }
}
