import AutoIntents
import AutoRuntime
import Synchronization

/// The bodies of one script's automations, compiled when each is first asked for, then kept.
///
/// Why: a daemon holds every automation of its scripts for as long as it runs, most of them waiting days for their
/// next fire. Their graphs were most of what it kept (`show 1` compiles to ~800 bytes of nodes, a real body to
/// kilobytes); a place in the script costs 16 bytes. The script was checked whole when it was compiled, so the
/// body compiled again from the same text, against the same registry, has no error; if it ever had, the fire that
/// asked for it fails with that error instead of running something else.
package final class AutomationBodies: Sendable {
    let file: SourceFile
    /// The registry the script was compiled against, with its shortcuts' final descriptors: calls resolve to them.
    let registry: Registry
    let limits: Parser.Limits
    let commandName: String
    let grants: Grants
    /// Graphs compiled so far, by the offset of their automation's declaration.
    private let compiled = Mutex<[Int: ActionGraph]>([:])

    init(file: SourceFile, registry: Registry, limits: Parser.Limits, commandName: String, grants: Grants) {
        self.file = file
        self.registry = registry
        self.limits = limits
        self.commandName = commandName
        self.grants = grants
    }

    func graph(of automation: Automation) throws(CompilationFailure) -> ActionGraph {
        if let graph = compiled.withLock({ $0[automation.span.start] }) { return graph }
        let result = LargeStack.run({ self.compile(automation.span) }, fallback: {
            .failure(CompilationFailure(diagnostics: [Diagnostic(.error, "not enough memory to compile the automation's body",
                                                                 at: automation.nameSpan, in: self.file)]))
        })
        let graph = try result.get()
        // Two fires racing here compile the same graph; the first kept is the one both use from then on.
        return compiled.withLock { graphs in
            if let first = graphs[automation.span.start] { return first }
            graphs[automation.span.start] = graph
            return graph
        }
    }

    /// Parses the declaration at `span` alone, checks it as `ScriptCompiler` checked it and compiles its body.
    private func compile(_ span: Span) -> Result<ActionGraph, CompilationFailure> {
        var parser = Parser(file: file, range: span.start..<span.end, limits: limits)
        let program = parser.parseProgram()
        var checker = Checker(registry: registry, file: file)
        checker.commandName = commandName
        checker.grants = grants
        let automations = checker.checkAutomations(in: program, session: nil)
        let errors = (parser.diagnostics + checker.diagnostics).filter { $0.severity == .error }
        guard errors.isEmpty, automations.count == 1 else {
            return .failure(CompilationFailure(diagnostics: errors.isEmpty
                ? [Diagnostic(.error, "internal error: the automation's declaration did not parse as one automation again",
                              at: span, in: file)] : errors))
        }
        return .success(Compiler.compile(automations[0].body, registry: registry))
    }
}
