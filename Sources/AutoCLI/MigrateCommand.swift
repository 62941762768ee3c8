import AutoTerminal
import ArgumentParser
import AutoIntents
import AutoLanguage
import AutoStdlib
import Foundation

/// `auto migrate`: brings what people wrote up to date with the host.
struct MigrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate", abstract: "Bring scripts up to date with the host's intents, or turn a crontab or systemd timers into automations.",
        subcommands: [MigrateScripts.self, MigrateCrontab.self, MigrateTimer.self], defaultSubcommand: MigrateScripts.self)
}

/// `auto migrate --write FILES|FOLDERS`: every former name a script uses (an intent's former title, a parameter's
/// former name) replaced by the current one, in place.
struct MigrateScripts: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scripts", abstract: "Check scripts against the host, or rewrite the former names they use (the default command).",
        discussion: """
            Each script is compiled against the host; where a warning says a name is now called otherwise, the name is \
            replaced. Comments and layout are kept, each file is replaced whole (never half written), and a script \
            already up to date is left untouched, so running it twice changes nothing. A script with errors is \
            reported and left alone (exit 2). With --check, nothing is written: every place the host breaks a script \
            (an error) or warns about it is listed, and the exit code is 1 if one breaks.
            """)

    @Flag(name: .long, help: "Rewrite the scripts in place.")
    var write = false

    @Flag(name: .long, help: "Print what would change, as a unified diff, and change nothing.")
    var dryRun = false

    @Flag(name: .long, help: "List every place the host breaks or warns about the scripts; exit 1 if one breaks.")
    var check = false

    @Option(name: .long, help: ArgumentHelp("With --check: the schema of the version the scripts were written for ('intents schema'), to say what was removed since.", valueName: "OLD.json"))
    var against: String?

    @Argument(help: "Scripts, and folders whose .auto files (in subfolders too) are migrated.")
    var paths: [String] = []

    func validate() throws {
        let modes = [write, dryRun, check].filter { $0 }.count
        guard modes == 1 else {
            throw ValidationError(modes > 1 ? "--write, --dry-run and --check: choose one"
                                  : "say --write to rewrite the scripts, --dry-run to see what would change, or --check to list what breaks")
        }
        if against != nil, !check { throw ValidationError("--against goes with --check") }
        guard !paths.isEmpty else { throw ValidationError("give the scripts or folders to migrate") }
    }

    func run() throws {
        if check { return try runCheck() }
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

    /// `--check`: each error of each script a break, each warning a warning, at its place; then a count.
    func runCheck() throws {
        let console = Console.standard
        let old = try against.map(IntentSchemaDiff.schema(at:))
        var breaks = 0, warnings = 0, scripts = 0
        for path in try Self.scripts(in: paths) {
            scripts += 1
            let diagnostics: [Diagnostic]
            do {
                let script = try ScriptFile.load(path)
                switch AutoCommandLine.host.compile(script) {
                case .success(let compiled): diagnostics = compiled.warnings
                case .failure(let failure): diagnostics = failure.diagnostics
                }
            } catch {
                console.writeOut("\(path): breaks: \(error)\n")
                breaks += 1
                continue
            }
            for diagnostic in diagnostics where diagnostic.file.name == path {
                let breaking = diagnostic.severity == .error
                if breaking { breaks += 1 } else { warnings += 1 }
                var line = "\(diagnostic.location): \(breaking ? "breaks" : "warns"): \(diagnostic.message)"
                if let removed = old.flatMap({ Self.removedIntent(named: diagnostic.message, in: $0) }) {
                    line += " (removed since \(against ?? ""), where it was \(removed))"
                } else if let hint = diagnostic.hint {
                    line += " (\(hint))"
                }
                console.writeOut(line + "\n")
            }
        }
        console.writeOut("\(scripts) \(scripts == 1 ? "script" : "scripts"): \(breaks) \(breaks == 1 ? "break" : "breaks"), "
                         + "\(warnings) \(warnings == 1 ? "warning" : "warnings")\n")
        if breaks > 0 { throw CommandExit(code: ExitCode.runtimeError) }
    }

    /// The old version's intent an "unknown action 'NAME'" names, as "TITLE (SwiftType)"; nil when it had none.
    static func removedIntent(named message: String, in old: HostSchema) -> String? {
        guard message.hasPrefix("unknown action '"), let end = message.dropFirst(16).firstIndex(of: "'") else { return nil }
        let name = message[message.index(message.startIndex, offsetBy: 16)..<end].lowercased()
        return old.intents.first { $0.title.lowercased() == name }.map { "'\($0.title.lowercased())' (\($0.id))" }
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

/// `auto migrate timer UNIT.timer…`: systemd timers as automations, printed (or written with --output).
struct MigrateTimer: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timer", abstract: "Write the automations that do what systemd timers do.",
        discussion: """
            Each timer's OnCalendar= expressions become triggers (`every day at 09:00`, or `cron "…" [in "zone"]`), \
            Persistent=true becomes `catch up`, and the service it starts (Unit=, or the timer's name with .service, \
            beside it) becomes the body: its ExecStartPre=, ExecStart= and ExecStartPost= commands run in order with \
            `run command`, never through a shell, with Environment=, EnvironmentFile= and WorkingDirectory=, the first \
            that fails ending the run (unless its line starts with '-'). Drop-ins (NAME.timer.d/*.conf) are read too. \
            What fires or runs differently (AccuracySec=, RandomizedDelaySec=, User=, a daylight-saving gap the time \
            falls in, where systemd skips the run and the automation runs when the clock resumes) is a warning on \
            standard error and a comment in the script. A timer that fires relative to boot or to a unit \
            (OnBootSec=, OnUnitActiveSec=…), a calendar expression no trigger fires the same way (seconds, years, \
            '~', a weekday and a date both), or a missing service is an error at its line, and nothing is written \
            (exit 2). The script goes to standard output, or to --output, replaced whole.
            """)

    @Option(name: .long, help: ArgumentHelp("Write the script to this file (replaced whole) instead of standard output.", valueName: "FILE"))
    var output: String?

    @Argument(help: "The .timer unit files.")
    var timers: [String] = []

    func validate() throws {
        guard !timers.isEmpty else { throw ValidationError("give the .timer files to migrate") }
    }

    func run() throws {
        let console = Console.standard
        var automations: [MigratedAutomation] = []
        var failed = false
        for path in timers {
            let migration = TimerMigration(timerPath: path)
            for warning in migration.warnings { console.writeError("\(warning)\n") }
            for error in migration.errors { console.writeError("\(error)\n") }
            failed = failed || !migration.errors.isEmpty
            automations += migration.automations
        }
        if failed { throw CommandExit(code: ExitCode.usageError) }
        let header = ["Migrated by `auto migrate timer` from " + timers.joined(separator: ", ") + ".",
                      "Each automation runs what the timer's service ran; `auto automations next` shows when it fires."]
        let script = MigratedScript.source(header: header, automations: automations)
        guard let output else { return console.writeOut(script) }
        do {
            try AtomicFile.replaceContents(of: output, with: script)
        } catch {
            console.writeError("error: can't write \(output): \(error)\n")
            throw CommandExit(code: ExitCode.usageError)
        }
    }
}
