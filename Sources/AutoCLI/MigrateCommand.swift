import AutoTerminal
import ArgumentParser
import AutoLanguage
import AutoStdlib
import Foundation

/// `auto migrate`: brings what people wrote up to date with the host.
struct MigrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate", abstract: "Bring scripts up to date with the host's intents.",
        subcommands: [MigrateScripts.self], defaultSubcommand: MigrateScripts.self)
}

/// `auto migrate --write FILES|FOLDERS`: every former name a script uses (an intent's former title, a parameter's
/// former name) replaced by the current one, in place.
struct MigrateScripts: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scripts", abstract: "Rewrite the former names scripts use with the current ones (the default command).",
        discussion: """
            Each script is compiled against the host; where a warning says a name is now called otherwise, the name is \
            replaced. Comments and layout are kept, each file is replaced whole (never half written), and a script \
            already up to date is left untouched, so running it twice changes nothing. A script with errors is \
            reported and left alone (exit 2).
            """)

    @Flag(name: .long, help: "Rewrite the scripts in place.")
    var write = false

    @Flag(name: .long, help: "Print what would change, as a unified diff, and change nothing.")
    var dryRun = false

    @Argument(help: "Scripts, and folders whose .auto files (in subfolders too) are migrated.")
    var paths: [String] = []

    func validate() throws {
        guard write != dryRun else {
            throw ValidationError(write ? "--write and --dry-run: choose one" : "say --write to rewrite the scripts, or --dry-run to see what would change")
        }
        guard !paths.isEmpty else { throw ValidationError("give the scripts or folders to migrate") }
    }

    func run() throws {
        let console = Console.standard
        let runner = ScriptRunner(host: AutoCommandLine.host, console: console)
        var failed = false
        for path in try Self.scripts(in: paths) {
            let script: SourceFile
            do {
                script = try ScriptFile.load(path)
            } catch {
                console.writeError("error: \(error)\n")
                failed = true
                continue
            }
            let migrated: String
            switch runner.host.compile(script) {
            case .failure(let failure):
                runner.report(failure.diagnostics)
                console.writeError("\(path): not migrated: it has errors\n")
                failed = true
                continue
            case .success(let compiled):
                let fixes = ScriptMigration.fixes(in: compiled.warnings, of: script)
                migrated = ScriptMigration.applying(fixes, to: script.text)
            }
            guard migrated != script.text else { continue }
            // What is written must compile, and without a warning left to fix: a rewrite never makes a script worse.
            if case .failure(let failure) = runner.host.compile(SourceFile(name: path, text: migrated)) {
                runner.report(failure.diagnostics)
                console.writeError("\(path): not migrated: the rewritten script would not compile\n")
                failed = true
                continue
            }
            if dryRun {
                console.writeOut(UnifiedDiff.render(old: script.text, new: migrated, path: path))
                continue
            }
            do {
                // The file a link points to is rewritten; the link stays.
                try AtomicFile.replaceContents(of: URL(fileURLWithPath: path).resolvingSymlinksInPath().path, with: migrated)
                console.writeOut("\(path): migrated\n")
            } catch {
                console.writeError("error: \(error)\n")
                failed = true
            }
        }
        if failed { throw CommandExit(code: ExitCode.usageError) }
    }

    /// The scripts `paths` name: each file as given, and the `.auto` files under each folder, in order.
    static func scripts(in paths: [String]) throws -> [String] {
        var scripts: [String] = []
        for path in paths {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                throw ValidationError("\(path): no such file or folder")
            }
            guard isFolder.boolValue else {
                scripts.append(path)
                continue
            }
            let found = FileManager.default.enumerator(atPath: path)?.compactMap { $0 as? String } ?? []
            scripts += found.filter { $0.hasSuffix(".auto") && !$0.split(separator: "/").contains { $0.hasPrefix(".") } }
                .sorted().map { (path as NSString).appendingPathComponent($0) }
        }
        return scripts
    }
}
