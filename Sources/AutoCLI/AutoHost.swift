import AutoIntents
import AutoLanguage
import AutoPrelude
import AutoRuntime
import Foundation
import Synchronization

/// A program that embeds the engine: its registry, the name its command goes by and the prelude.
public struct AutoHost: Sendable {
    public let name: String
    /// Every intent the host offers: the registry it was given, with the intents of `adding` registered in it the
    /// first time it is asked for (see `init(name:version:registry:adding:prelude:)`).
    public var registry: Registry { registries.full }
    public let prelude: [SourceFile]
    private let registries: Registries
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
        registries = Registries(base: registry, adding: nil, host: name)
        self.prelude = prelude ?? Self.standardPrelude
    }

    /// A host whose registry is `registry` with `bundle`'s intents registered in it, when they are first needed: a run
    /// whose script mentions none of their names (nor one of the prelude's shortcuts, which may call them) is compiled
    /// against `registry` alone. `auto` adds the standard library so: registering its intents was a tenth of
    /// `auto -e 'show 1'`. Registering them can only fail for a mistake in the bundle; the command then ends, saying so.
    public init(name: String = "auto", version: String? = nil, registry: Registry = .standard, adding bundle: IntentBundle,
                prelude: [SourceFile]? = nil) {
        self.name = name
        self.version = version ?? "\(name) \(Self.engineVersion)"
        registries = Registries(base: registry, adding: bundle, host: name)
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
    /// With `.whenCalled`, a script that names none of the added intents and none of the prelude's shortcuts is
    /// compiled against the registry without them; an error compiles it again with them all, so that diagnostics
    /// and suggestions are those of a whole compile.
    package func compile(_ source: SourceFile, limits: Parser.Limits = Parser.Limits(), grants: Grants = .all,
                        preludeBodies: PreludeBodies = .all, session: SessionScope? = nil) -> Result<CompiledScript, CompilationFailure> {
        compile(source, limits: limits, grants: grants, preludeBodies: preludeBodies, session: session, shortcuts: [])
    }

    /// `shortcuts`: files of shortcut declarations the source sees after the prelude's (the REPL session's, or those
    /// of the script given to `say --file`).
    func compile(_ source: SourceFile, limits: Parser.Limits = Parser.Limits(), grants: Grants = .all, preludeBodies: PreludeBodies = .all,
                 session: SessionScope? = nil, shortcuts: [SourceFile]) -> Result<CompiledScript, CompilationFailure> {
        let prelude = prelude + shortcuts
        if preludeBodies == .whenCalled, registries.adding != nil, !ScriptCompiler.mentions(anyOf: registries.addedWords, in: source),
           !ScriptCompiler.mentionsAShortcut(of: prelude, in: source) {
            let alone = ScriptCompiler.compile(source, prelude: prelude, registry: registries.base, limits: limits, commandName: name,
                                               session: session, grants: grants, preludeBodies: preludeBodies)
            if case .success = alone { return alone }
        }
        return ScriptCompiler.compile(source, prelude: prelude, registry: registry, limits: limits, commandName: name, session: session,
                                      grants: grants, preludeBodies: preludeBodies)
    }

    /// The registry a host was given, and the one with its added intents, made once.
    private final class Registries: Sendable {
        let base: Registry
        let adding: IntentBundle?
        let addedWords: [String]
        let host: String
        private let made = Mutex<Registry?>(nil)

        init(base: Registry, adding: IntentBundle?, host: String) {
            self.base = base
            self.adding = adding
            addedWords = adding?.firstWords ?? []
            self.host = host
        }

        var full: Registry {
            guard let adding else { return base }
            return made.withLock { made in
                if let made { return made }
                var registry = base
                do {
                    try adding.register(into: &registry)
                } catch {
                    StandardStream.error.write("\(host): its intents could not be registered: \(error)\n")
                    exit(1)
                }
                made = registry
                return registry
            }
        }
    }
}
