import AutoIntents
import AutoLanguage
import AutoPrelude
import AutoRuntime

/// A program that embeds the engine: its registry, the name its command goes by and the prelude.
public struct AutoHost: Sendable {
    public let name: String
    public let registry: Registry
    public let prelude: [SourceFile]

    /// `registry` should start from `Registry.standard`, which holds the built-in intents.
    public init(name: String = "auto", registry: Registry = .standard, prelude: [SourceFile]? = nil) {
        self.name = name
        self.registry = registry
        self.prelude = prelude ?? Prelude.sources.map { SourceFile(name: $0.name, text: $0.text) }
    }

    public func compile(_ source: SourceFile, limits: Parser.Limits = Parser.Limits()) -> Result<CompiledScript, CompilationFailure> {
        ScriptCompiler.compile(source, prelude: prelude, registry: registry, limits: limits)
    }
}
