/// Which intents a host's MCP server (`<host> mcp`) offers an AI assistant as tools. Every host's server also offers
/// a `find_<plural>` tool per entity type it can query, and its entities as resources.
///
/// ```swift
/// await AutoHost.main(name: "library", mcpTools: .hostAnd(["read text"])) { registry in … }
/// ```
public enum McpTools: Sendable, Equatable {
    /// The host's own intents and shortcuts: not the engine's built-ins (`show`, `ask`, `wait`…), nor the standard
    /// library's intents (`read text`, `notify`…) and shortcuts. The default of every host but `auto`, whose
    /// assistant should see the host, not thirty tools of the engine.
    case host
    /// Every discoverable intent and shortcut, the engine's included: the default of `auto`, whose intents are
    /// all the engine's.
    case all
    /// The host's own, and these of the engine's by name (`["read text", "notify"]`).
    case hostAnd([String])
}
