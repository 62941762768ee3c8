import AutoTerminal
import ArgumentParser
import AutoIntents
import AutoLanguage
import AutoLSP
import Foundation

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check", abstract: "Report every error in scripts without running them; exit 2 if there is one.",
        discussion: "With --sandbox or --allow-…, each call that needs more than those flags grant is an error naming the flag to add.")

    @OptionGroup var source: ScriptSourceOptions

    @OptionGroup(title: "Capabilities") var capabilities: CapabilityOptions

    @Argument(help: "Script files.")
    var files: [String] = []

    @Flag(help: "Print the problems as JSON: file, line and column (from 1, in characters), the range as an editor's language server gives it (from 0, in UTF-16 units), severity, message and hints.")
    var json = false

    func run() throws {
        let runner = ScriptRunner(host: AutoCommandLine.host, console: .standard)
        let scripts = source.expression != nil ? [try source.load(path: nil)] : try files.map { try source.load(path: $0) }
        if scripts.isEmpty { throw ValidationError("give one or more script files, or -e CODE") }
        let grants = try capabilities.grants()
        var failed = false
        var found: [Diagnostic] = []
        for script in scripts {
            switch runner.host.compile(script, grants: grants) {
            case .success(let compiled):
                if json { found += compiled.warnings; continue }
                runner.report(compiled.warnings)
                runner.console.writeOut("\(script.name): ok\n")
            case .failure(let failure):
                failed = true
                if json { found += failure.diagnostics; continue }
                runner.report(failure.diagnostics)
            }
        }
        if json { runner.console.writeOut(Self.json(found) + "\n") }
        if failed { throw CommandExit(code: ExitCode.usageError) }
    }

    /// The problems as JSON, in the order `check` prints them.
    static func json(_ diagnostics: [Diagnostic]) -> String {
        let objects: [[String: Any]] = diagnostics.map { diagnostic in
            let start = diagnostic.location, end = diagnostic.file.location(of: diagnostic.span.end)
            let range = PositionEncoding.utf16.range(of: diagnostic.span, in: diagnostic.file)
            return ["file": diagnostic.file.name, "line": start.line, "column": start.column, "endLine": end.line, "endColumn": end.column,
                    "range": ["start": ["line": range.start.line, "character": range.start.character],
                              "end": ["line": range.end.line, "character": range.end.character]],
                    "severity": diagnostic.severity.rawValue, "message": diagnostic.message, "hints": diagnostic.hint.map { [$0] } ?? []]
        }
        let data = (try? JSONSerialization.data(withJSONObject: objects, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
