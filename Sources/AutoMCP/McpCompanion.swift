import AutoCLI

/// The main of a host's MCP binary (`auto-mcp`, `library-mcp`): the host's whole command line, whose `mcp` command
/// serves here instead of executing this binary. The host's own `mcp` executes it with its arguments as they were,
/// so a host that reads options of its own before `AutoCommandLine` (the Library's `--db`) reads them here too.
public enum McpCompanion {
    /// `host` with its `mcp` command serving the registry; `tools` says which intents are tools (by default the
    /// host's own, or all of them for `auto`: `McpTools`).
    public static func serving(_ host: AutoHost, tools: McpTools? = nil) -> AutoHost {
        var host = host
        host.serveMCP = { host, grants in
            let server = try McpServer(McpHost(name: host.name, version: host.version, registry: host.registry, prelude: host.prelude,
                                               grants: grants, tools: tools))
            try await server.run()
        }
        return host
    }
}
