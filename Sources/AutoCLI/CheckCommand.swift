import AutoTerminal
import ArgumentParser
import AutoIntents
import AutoLanguage

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check", abstract: "Report every error in scripts without running them; exit 2 if there is one.",
        discussion: "With --sandbox or --allow-…, each call that needs more than those flags grant is an error naming the flag to add.")

    @OptionGroup var source: ScriptSourceOptions

    @OptionGroup(title: "Capabilities") var capabilities: CapabilityOptions

    @Argument(help: "Script files.")
    var files: [String] = []

    func run() throws {
        let runner = ScriptRunner(host: AutoCommandLine.host, console: .standard)
        let scripts = source.expression != nil ? [try source.load(path: nil)] : try files.map { try source.load(path: $0) }
        if scripts.isEmpty { throw ValidationError("give one or more script files, or -e CODE") }
        let grants = try capabilities.grants()
        var failed = false
        for script in scripts {
            switch runner.host.compile(script, grants: grants) {
            case .success(let compiled):
                runner.report(compiled.warnings)
                runner.console.writeOut("\(script.name): ok\n")
            case .failure(let failure):
                runner.report(failure.diagnostics)
                failed = true
            }
        }
        if failed { throw CommandExit(code: ExitCode.usageError) }
    }
}
