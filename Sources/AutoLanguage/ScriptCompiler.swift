import AutoIntents
import AutoRuntime

/// A script ready to run: its graph, and the registry with its shortcuts (and the prelude's) added.
public struct CompiledScript: Sendable {
    public let graph: ActionGraph
    public let registry: Registry
    /// The graphs of the shortcuts declared by the script and the prelude, by name.
    public let shortcuts: [(name: String, graph: ActionGraph)]
}

/// What went wrong, located; `auto check` prints them all.
public struct CompilationFailure: Error, Sendable {
    public let diagnostics: [Diagnostic]
}

/// The whole front half: parse, check, compile. Prelude files go first; their shortcuts are available to
/// the script.
public enum ScriptCompiler {
    public static func compile(_ source: SourceFile, prelude: [SourceFile] = [], registry: Registry,
                               limits: Parser.Limits = Parser.Limits()) -> Result<CompiledScript, CompilationFailure> {
        LargeStack.run { compileOnThisThread(source, prelude: prelude, registry: registry, limits: limits) }
    }

    static func compileOnThisThread(_ source: SourceFile, prelude: [SourceFile], registry: Registry,
                                    limits: Parser.Limits) -> Result<CompiledScript, CompilationFailure> {
        var diagnostics: [Diagnostic] = []
        let programs = (prelude + [source]).map { file in
            // The limits are for the script; the prelude ships with the engine and always parses.
            let (program, parseDiagnostics) = Parser.parse(file, limits: file === source ? limits : Parser.Limits())
            diagnostics += parseDiagnostics
            return program
        }
        var checker = Checker(registry: registry, file: source)
        let pending = programs.flatMap { checker.declareShortcuts(in: $0) }
        let shortcutBodies = pending.map { (shortcut: $0, body: checker.checkShortcut($0)) }
        let main = checker.checkScript(programs[programs.count - 1])
        diagnostics += checker.diagnostics
        for program in programs.dropLast() where programs.count > 1 {
            // A prelude's own top-level statements would run before every script: only shortcuts belong there.
            if let statement = program.statements.first(where: { if case .shortcut = $0.kind { return false }; return true }) {
                diagnostics.append(Diagnostic(.error, "a prelude file declares shortcuts only", at: statement.span, in: program.file))
            }
        }
        if diagnostics.contains(where: { $0.severity == .error }) {
            let fileOrder = Dictionary(programs.enumerated().map { ($1.file.name, $0) }, uniquingKeysWith: { a, _ in a })
            let sorted = diagnostics.sorted { a, b in
                (fileOrder[a.file.name] ?? 0, a.span.start) < (fileOrder[b.file.name] ?? 0, b.span.start)
            }
            return .failure(CompilationFailure(diagnostics: sorted))
        }
        var shortcuts: [(name: String, graph: ActionGraph)] = []
        for (shortcut, body) in shortcutBodies {
            let graph = Compiler.compile(body, registry: checker.registry)
            if case .script(let box) = shortcut.descriptor.implementation { box.graph = graph }
            shortcuts.append((shortcut.descriptor.name, graph))
        }
        return .success(CompiledScript(graph: Compiler.compile(main, registry: checker.registry), registry: checker.registry, shortcuts: shortcuts))
    }

}
