import AutoIntents
import AutoPrelude
import AutoRuntime
import Foundation
import Synchronization

/// What a host's scripts are compiled against and run in: its registry, the name its command goes by and the
/// prelude. Every front end (the command line, the REPL, the daemon, the MCP server) is given one; a host makes it
/// through `AutoHost.main`.
package struct ScriptHost: Sendable {
    package let name: String
    /// Every intent the host offers: the registry it was given, with the intents of `adding` registered in it the
    /// first time it is asked for (see `init(name:version:registry:adding:prelude:)`).
    package var registry: Registry { registries.full }
    package let prelude: [SourceFile]
    private let registries: Registries
    /// What `--version` prints: the host's own version, or the engine's.
    package let version: String
    /// Which intents `mcp` offers as tools; nil: `McpTools.all` for `auto`, `.host` for any other host.
    package var mcpTools: McpTools?

    /// The engine's version (semantic versioning); hosts that don't give one of their own report it.
    package static let engineVersion = "0.5.0"

    /// `registry` should start from `Registry.standard`, which holds the built-in intents.
    package init(name: String = "auto", version: String? = nil, registry: Registry = .standard, prelude: [SourceFile]? = nil) {
        self.name = name
        self.version = version ?? "\(name) \(Self.engineVersion)"
        registries = Registries(base: registry, adding: nil, host: name)
        self.prelude = prelude ?? Self.standardPrelude
    }

    /// A host whose registry is `registry` with `bundle`'s intents registered in it, when they are first needed: a run
    /// whose script mentions none of their names (nor one of the prelude's shortcuts, which may call them) is compiled
    /// against `registry` alone. `auto` adds the standard library so: registering its intents was a tenth of
    /// `auto -e 'show 1'`. Registering them can only fail for a mistake in the bundle; the command then ends, saying so.
    package init(name: String = "auto", version: String? = nil, registry: Registry = .standard, adding bundle: IntentBundle,
                prelude: [SourceFile]? = nil) {
        self.name = name
        self.version = version ?? "\(name) \(Self.engineVersion)"
        registries = Registries(base: registry, adding: bundle, host: name)
        self.prelude = prelude ?? Self.standardPrelude
    }

    /// The shortcuts of stdlib/*.auto, which need only the built-in intents: every host's prelude starts with them.
    package static var standardPrelude: [SourceFile] { standardPrelude(adding: []) }

    /// The standard prelude and more files after it: `StandardLibrary.prelude`, for a host that registers the
    /// standard library's intents, which its shortcuts are written on.
    package static func standardPrelude(adding files: [(name: String, text: String)]) -> [SourceFile] {
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

    /// Where the script's variables and shortcuts are declared and used, with this host's intents and prelude: for an
    /// editor's navigation, whether the script compiles or not.
    package func index(_ source: SourceFile) -> SymbolIndex {
        ScriptCompiler.index(source, prelude: prelude, registry: registry)
    }

    /// `shortcuts`: files of shortcut declarations the source sees after the prelude's (the REPL session's, or those
    /// of the script given to `say --file`).
    package func compile(_ source: SourceFile, limits: Parser.Limits = Parser.Limits(), grants: Grants = .all, preludeBodies: PreludeBodies = .all,
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
                    // The bundle's own mistake, which `AutoHost.main` checks for at start; a front end can't go on without its intents.
                    FileHandle.standardError.write(Data("\(host): its intents could not be registered: \(error)\n".utf8))
                    exit(1)
                }
                made = registry
                return registry
            }
        }
    }
}
