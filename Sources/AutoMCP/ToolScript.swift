import AutoIntents
import AutoLanguage
import AutoRuntime
import Foundation

/// What a tool call becomes: a line of the language (`(delete book mcpArgument0)`, `find books where author ==
/// mcpArgument0 limit mcpArgument1`) whose values are variables of the run, never text spliced into the code. So a
/// call is checked, planned (a find's pushdown), prepared (missing values asked for, entities named by text found,
/// defaults, ranges), confirmed and run exactly as the same line in a script, and a value can't change what the line
/// means.
struct ToolScript {
    private(set) var code = ""
    private(set) var variables: [(name: String, type: ValueType, value: AutoIntents.Value)] = []

    /// Appends code.
    mutating func write(_ text: String) {
        code += text
    }

    /// Appends a new variable holding `value`, declared as `type` for the checker.
    mutating func write(_ value: AutoIntents.Value, as type: ValueType) {
        let name = "mcpArgument\(variables.count)"
        variables.append((name, value.isNull ? .null : type, value))
        code += name
    }

    /// Compiles the line as the session of a REPL compiles an entry, its variables defined before it.
    func compile(_ setup: McpHost) -> Result<CompiledScript, CompilationFailure> {
        ScriptCompiler.compile(SourceFile(name: "<\(setup.name) mcp>", text: code), prelude: setup.prelude, registry: setup.registry,
                               commandName: setup.name, session: .declaring(variables.map { ($0.name, $0.type) }), grants: setup.grants,
                               preludeBodies: .whenCalled)
    }

    /// How a find was split between the host and the engine, as `auto graph` labels it, with the values in place of
    /// the variables: `find books · host: author == "Jane Austen", limit 3`. Nil for a line that isn't a find.
    func plan(of program: Program) -> String? {
        let calls = program.main.allNodes.compactMap { node -> FindCall? in if case .find(let call) = node.kind { call } else { nil } }
        guard var plan = calls.first?.summary else { return nil }
        // The last variables first, so that `mcpArgument1` doesn't replace the start of `mcpArgument10`.
        for variable in variables.reversed() { plan = plan.replacingOccurrences(of: variable.name, with: ValueFormatter.inline(variable.value)) }
        return plan
    }

    /// The values of the variables, after `args`, in the slots the compiled line reads them from.
    var session: SessionState {
        SessionState(slots: [.list([])] + variables.map(\.value))
    }
}
