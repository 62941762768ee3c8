import AutoTerminal
import ArgumentParser
import AutoLanguage
import AutoRuntime

struct GraphCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "graph", abstract: "Print a script's action graph (and its shortcuts' and automations') as Graphviz DOT.")

    @OptionGroup var source: ScriptSourceOptions

    @Argument(help: "The script.")
    var file: String?

    func run() throws {
        let runner = ScriptRunner(host: AutoCommandLine.host, console: .standard)
        let script = try source.load(path: file)
        switch runner.host.compile(script) {
        case .success(let compiled):
            let own = compiled.shortcuts.filter { shortcut in
                compiled.registry.intent(named: shortcut.name)?.origin?.hasPrefix(script.name + ":") ?? false
            }
            var automations: [(name: String, trigger: String, graph: ActionGraph)] = []
            for automation in compiled.automations {
                do {
                    automations.append((automation.name, automation.trigger.description, try automation.graph()))
                } catch {
                    runner.report(error.diagnostics)
                    throw CommandExit(code: ExitCode.usageError)
                }
            }
            runner.console.writeOut(compiled.graph.dot(shortcuts: own, automations: automations))
        case .failure(let failure):
            runner.report(failure.diagnostics)
            throw CommandExit(code: ExitCode.usageError)
        }
    }
}
