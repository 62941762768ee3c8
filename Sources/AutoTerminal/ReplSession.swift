import AutoIntents
import AutoLanguage
import AutoRuntime
import Foundation

/// What a REPL keeps from one entry to the next: its variables (types for the checker, values for the run), `it`,
/// and the shortcuts declared at the prompt. An entry that doesn't compile changes nothing; one that fails while
/// running keeps what it set before the error.
package final class ReplSession {
    package let host: ScriptHost
    package let console: Console
    /// What the session's entries may touch outside the engine.
    package let grants: Grants
    private(set) var scope = SessionScope()
    private(set) var state = SessionState()
    /// Shortcuts declared at the prompt, by name, each compiled with every later entry. Its file is the entry
    /// with everything but the declaration blanked out, so a diagnostic in it points at the entry's own line
    /// and column.
    private(set) var shortcuts: [(name: String, file: SourceFile)] = [] {
        didSet { cachedDeclared = nil }
    }
    /// Every entry's text by its name (`entry 3`), to show the line of a runtime error in it.
    private var entries: [String: SourceFile] = [:]
    private var entryCount = 0

    package init(host: ScriptHost, console: Console, grants: Grants = .all) {
        self.host = host
        self.console = console
        self.grants = grants
    }

    /// Forgets every variable, `it` and the shortcuts declared at the prompt (`:reset`).
    package func reset() {
        scope = SessionScope()
        state = SessionState()
        shortcuts = []
    }

    /// An entry compiled against the session, without running it: with the session's variables, `it` and
    /// shortcuts (those the entry declares again replace the session's).
    package func compile(_ text: String, name: String? = nil) -> Result<CompiledScript, CompilationFailure> {
        compile(SourceFile(name: name ?? "entry \(entryCount + 1)", text: text)).result
    }

    private func compile(_ source: SourceFile) -> (result: Result<CompiledScript, CompilationFailure>, shortcuts: [(name: String, file: SourceFile)]) {
        let declared = Self.shortcutDeclarations(in: source)
        let kept = shortcuts.filter { old in !declared.contains { $0.name == old.name } }
        let result = ScriptCompiler.compile(source, prelude: host.prelude + kept.map(\.file), registry: host.registry,
                                            commandName: host.name, session: scope, grants: grants)
        return (result, kept + declared)
    }

    /// Compiles an entry against the session and runs it; reports what happened as a script run would.
    /// `name` names it in messages (a file given to `:load`); entries are `entry 1`, `entry 2`, ….
    package func run(_ text: String, name: String? = nil, interaction: any Interaction, cancellation: CancellationFlag, limits: RunLimits) async {
        entryCount += 1
        let source = SourceFile(name: name ?? "entry \(entryCount)", text: text)
        entries[source.name] = source
        let (result, shortcutsAfter) = compile(source)
        let compiled: CompiledScript
        switch result {
        case .success(let script): compiled = script
        case .failure(let failure):
            report(failure.diagnostics)
            return
        }
        report(compiled.warnings)
        let outcome = await Engine(registry: compiled.registry, limits: limits, grants: grants).run(
            compiled.program, interaction: interaction, cancellation: cancellation, session: state)
        // What the entry set stays, whether or not it ran to its end.
        if let after = outcome.session {
            state = SessionState(slots: Array(after.slots.prefix(compiled.scope.variables.count)), it: after.it)
            scope = compiled.scope
        }
        shortcuts = shortcutsAfter
        switch outcome.ending {
        case .completed:
            if let value = outcome.printedResult(of: compiled.program) {
                // On a terminal entities are a table; piped, the output is what a script's would be.
                if let width = console.outputColumns() {
                    console.writeOut(TerminalLayout.render(value, width: width))
                } else {
                    console.writeOut(ValueFormatter.display(value) + "\n")
                }
            }
        case .stoppedBeforeChange:
            break
        case .failed(let error):
            // The value left in `it` may not be of the type the last statement promised.
            scope.itType = .any
            report(error)
        case .cancelled(let reason):
            scope.itType = .any
            console.writeError("cancelled: \(reason)\n")
        }
    }

    /// The variables with their types and values, for `:vars`: `args` is left out, as it is always there.
    package var variables: [(name: String, type: ValueType, value: Value)] {
        zip(scope.variables, state.slots).filter { $0.0.name != "args" }.map { ($0.0.name, $0.0.type, $0.1) }
    }

    /// The registry an entry sees: the host's, the prelude's shortcuts and those declared at the prompt, with the
    /// shortcuts' graphs (what `:help` says a shortcut needs). Made again only when the shortcuts change, since Tab
    /// asks for the registry at every press.
    package var declared: (registry: Registry, program: Program?) {
        if let cachedDeclared { return cachedDeclared }
        let made: (registry: Registry, program: Program?)
        switch ScriptCompiler.compile(SourceFile(name: "<session>", text: ""), prelude: host.prelude + shortcuts.map(\.file),
                                      registry: host.registry, commandName: host.name) {
        case .success(let compiled): made = (compiled.registry, compiled.program)
        case .failure: made = (host.registry, nil)
        }
        cachedDeclared = made
        return made
    }
    private var cachedDeclared: (registry: Registry, program: Program?)?

    package var registry: Registry { declared.registry }

    /// Completion for the text of an entry at a cursor, against what the session has defined.
    package func complete(_ text: String, cursor: Int) -> CompletionResult {
        let result = Completer(registry: registry, scope: scope, commands: Repl.commands).complete(text, cursor: cursor)
        guard let wanted = result.values else { return result }
        // The host's values first: they are what the position is for (the code-position names follow options).
        return CompletionResult(range: result.range, candidates: HostValues.completions(for: wanted, registry: registry) + result.candidates)
    }

    /// The shortcuts an entry (or the script given to `say --file`) declares, each as the entry with everything else
    /// blanked out (line breaks kept).
    package static func shortcutDeclarations(in source: SourceFile) -> [(name: String, file: SourceFile)] {
        let (tree, _) = Parser.parse(source)
        return tree.statements.compactMap { statement in
            guard case .shortcut(let declaration) = statement.kind else { return nil }
            let bytes = Array(source.text.utf8)
            let kept = statement.span.start..<min(statement.span.end, bytes.count)
            let masked = bytes.enumerated().map { index, byte in
                kept.contains(index) || byte == UInt8(ascii: "\n") ? byte : UInt8(ascii: " ")
            }
            return (declaration.name, SourceFile(name: source.name, text: String(decoding: masked, as: UTF8.self)))
        }
    }

    /// A kept shortcut's file is its entry with the rest blanked out, so the line shown is the declaration's own.
    package func report(_ diagnostics: [Diagnostic]) {
        for diagnostic in diagnostics { console.writeError(diagnostic.rendered(colour: console.colourError)) }
    }

    package func report(_ error: RuntimeError) {
        ScriptRunner(host: host, console: console).report(error, in: host.prelude + Array(entries.values))
    }
}
