import ArgumentParser
import AutoLanguage
import AutoStdlib
import AutoTerminal
import Foundation

/// `auto migrate crontab [FILE|-]`: a crontab's jobs as a script of automations for `auto daemon`.
struct MigrateCrontab: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crontab", abstract: "Turn a crontab into automations that run its jobs when and as cron ran them.",
        discussion: """
            Each job becomes an automation that fires when cron would have run it (every day at 07:30, every weekday \
            at 09:00, or its cron expression, in CRON_TZ's zone when the crontab set one; @hourly … @yearly as the \
            fields they stand for; across a daylight-saving change as cron fires it) and runs the command as cron \
            ran it: SHELL (/bin/sh unless set) with -c and the command, with cron's PATH (/usr/bin:/bin unless set), \
            SHELL and the crontab's variables as the job saw them, in HOME (the home folder unless set), the text \
            after an unescaped % as standard input (each further % a line break; \\% is a percent sign), even while \
            its last run goes on (mode parallel); a run fails when the command exits with another status than 0. \
            TZ is a variable of the command, as under cron; CRON_TZ sets the zone of the schedules after it.

            The script goes to standard output, or with --output to a file (replaced whole). What can't be carried \
            over is a warning on standard error (FILE:LINE:COLUMN: warning: …) and a comment above the automation: \
            MAILTO and cron's other mail variables (the run history keeps the output), cronie's RANDOM_DELAY, a \
            system crontab's user other than the one migrating, a % inside quotes (cron ends the command there all \
            the same: write \\% for a percent sign). A line cron would refuse is an error at its place \
            (FILE:LINE:COLUMN: error: …), and so is @reboot, since no automation fires when the machine starts; the \
            other lines are still migrated, the refused ones left as comments, and the exit code is 2.

            The system format (/etc/crontab, /etc/cron.d/*), with a user before each command, is read with --system \
            and for those paths; otherwise the user format (crontab -l).
            """)

    @Flag(name: .long, help: "Read the system format (/etc/crontab, /etc/cron.d/*): a user between the time and the command. The default for those paths.")
    var system = false

    @Option(name: .long, help: ArgumentHelp("Write the script to FILE, replacing it whole, instead of to standard output.", valueName: "FILE"))
    var output: String?

    @Argument(help: "The crontab; '-' or nothing for standard input (crontab -l | auto migrate crontab).")
    var file: String?

    func run() throws {
        let console = Console.standard
        let path = file ?? "-"
        let data: Data
        do {
            data = path == "-" ? FileHandle.standardInput.readDataToEndOfFile() : Data(try ScriptFile.read(path))
        } catch {
            console.writeError("error: \(error)\n")
            throw CommandExit(code: ExitCode.usageError)
        }
        // cron reads bytes, but the script is UTF-8 text, and a command must reach it unchanged.
        guard let text = String(data: data, encoding: .utf8) else {
            console.writeError("error: \(path): the crontab is not UTF-8 text\n")
            throw CommandExit(code: ExitCode.usageError)
        }
        let source = SourceFile(name: path == "-" ? "<stdin>" : path, text: text)
        let migration = CrontabMigration(source, system: system || Self.isSystemCrontab(path), user: Self.currentUser)
        for diagnostic in migration.diagnostics { console.writeError(diagnostic.rendered(colour: console.colourError)) }
        let script = migration.script(from: source.name)
        // What is written must compile: a job that reads back otherwise would be a bug of this command, not the crontab's.
        if case .failure(let failure) = AutoCommandLine.host.compile(SourceFile(name: output ?? "<migrated>", text: script)) {
            for diagnostic in failure.diagnostics { console.writeError(diagnostic.rendered(colour: console.colourError)) }
            console.writeError("error: the migrated script would not compile; nothing was written\n")
            throw CommandExit(code: ExitCode.runtimeError)
        }
        if let output {
            do {
                try AtomicFile.replaceContents(of: output, with: script)
            } catch {
                console.writeError("error: \(error)\n")
                throw CommandExit(code: ExitCode.runtimeError)
            }
        } else {
            console.writeOut(script)
        }
        let errors = migration.diagnostics.filter { $0.severity == .error }.count
        let warnings = migration.diagnostics.count - errors
        console.writeError("\(source.name): \(migration.automations.count) \(migration.automations.count == 1 ? "job" : "jobs") migrated, "
                           + "\(errors) \(errors == 1 ? "error" : "errors"), \(warnings) \(warnings == 1 ? "warning" : "warnings")\n")
        if errors > 0 { throw CommandExit(code: ExitCode.usageError) }
    }

    /// /etc/crontab and the files of /etc/cron.d are in the system format.
    static func isSystemCrontab(_ path: String) -> Bool {
        let standard = URL(fileURLWithPath: path).standardizedFileURL.path
        return standard == "/etc/crontab" || standard.hasPrefix("/etc/cron.d/")
    }

    /// Who runs the migration, and so the daemon: a system crontab's job of another user is said to change hands.
    static var currentUser: String {
        if let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name { return String(cString: name) }
        return ProcessInfo.processInfo.environment["USER"] ?? "uid \(geteuid())"
    }
}
