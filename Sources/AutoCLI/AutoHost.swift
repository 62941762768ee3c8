import AutoIntents
import AutoLanguage
import AutoPrelude
import AutoRuntime

/// A program that embeds the engine: its registry, the name its command goes by and the prelude.
public struct AutoHost: Sendable {
    public let name: String
    public let registry: Registry
    public let prelude: [SourceFile]
    /// What `--version` prints: the host's own version, or the engine's.
    public let version: String
    /// The MCP server, in the host's companion binary (`auto-mcp`, made by `McpCompanion.serving`); nil in the host's own
    /// binary, whose `mcp` command executes the companion beside it with the same arguments.
    public var serveMCP: (@Sendable (_ host: AutoHost, _ grants: Grants) async throws -> Void)?

    /// The engine's version (semantic versioning); hosts that don't give one of their own report it.
    public static let engineVersion = "0.5.0"

    /// `registry` should start from `Registry.standard`, which holds the built-in intents.
    public init(name: String = "auto", version: String? = nil, registry: Registry = .standard, prelude: [SourceFile]? = nil) {
        self.name = name
        self.version = version ?? "\(name) \(Self.engineVersion)"
        self.registry = registry
        self.prelude = prelude ?? Self.standardPrelude
    }

    /// The shortcuts of stdlib/*.auto, which need only the built-in intents: every host's prelude starts with them.
    public static var standardPrelude: [SourceFile] { standardPrelude(adding: []) }

    /// The standard prelude and more files after it: `StandardLibrary.prelude`, for a host that registers the
    /// standard library's intents, which its shortcuts are written on.
    public static func standardPrelude(adding files: [(name: String, text: String)]) -> [SourceFile] {
        (Prelude.sources + files).map { SourceFile(name: $0.name, text: $0.text) }
    }

    /// `session`: variables the source sees as declared before it (what `say` calls a shortcut's intent with).
    public func compile(_ source: SourceFile, limits: Parser.Limits = Parser.Limits(), grants: Grants = .all,
                        preludeBodies: PreludeBodies = .all, session: SessionScope? = nil) -> Result<CompiledScript, CompilationFailure> {
        ScriptCompiler.compile(source, prelude: prelude, registry: registry, limits: limits, commandName: name, session: session,
                               grants: grants, preludeBodies: preludeBodies)
    }
}
