import AutoLanguage
import Foundation

/// A crontab turned into automations (`auto migrate crontab`): each job an automation that fires when cron would
/// have run it and runs the command as cron ran it, through `run command`. What can't be carried over is a warning
/// here and a comment in the script; a line cron would refuse is an error, and the other lines still convert.
struct CrontabMigration {
    /// The shell and `PATH` a cron job gets when the crontab sets none (Debian's cron; cronie takes its own PATH).
    static let defaultShell = "/bin/sh"
    static let defaultPath = "/usr/bin:/bin"
    /// Variables cron reads for itself (mail, cronie's random delay, SELinux): the daemon has no use for them.
    static let cronsOwnVariables: [String: String] = [
        "MAILTO": "cron mails a job's output there; the run history keeps it instead (auto automations history, trace)",
        "MAILFROM": "cron's mail is not sent; the run history keeps the output",
        "CONTENT_TYPE": "cron's mail is not sent; the run history keeps the output",
        "CONTENT_TRANSFER_ENCODING": "cron's mail is not sent; the run history keeps the output",
        "CRON_CORRECT_MAIL_HEADER": "cron's mail is not sent; the run history keeps the output",
        "RANDOM_DELAY": "cronie delays each job by a random time; the automation fires on time",
        "MLS_LEVEL": "an SELinux level cronie runs the job at; the daemon runs it in its own context",
    ]
    /// Set by cron to the job's user whatever the crontab says; the daemon's own are the user's too.
    static let userVariables: Set<String> = ["LOGNAME", "USER"]

    var automations: [MigratedAutomation] = []
    /// Errors (lines cron would refuse, jobs that can't become automations) and warnings, in line order.
    var diagnostics: [Diagnostic] = []
    /// Comments after the last job, kept at the end of the script.
    var trailingComments: [String] = []
    var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    /// A crontab variable: its value and the line that set it.
    struct Variable {
        var name: String
        var value: String
        var line: Int
    }

    /// `system`: /etc/crontab's format, a user before each command; `user`: who runs the daemon, to say when a job
    /// ran as someone else.
    init(_ file: SourceFile, system: Bool, user: String) {
        var variables: [Variable] = []
        var zone: String?
        var comments: [String] = []
        var lineStart = 0
        var sawCarriageReturn = false
        let lines = file.text.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, rawLine) in lines.enumerated() {
            let number = index + 1
            let start = lineStart
            lineStart += rawLine.utf8.count + 1
            // The split's last piece is what follows the last line break: nothing, in a file that ends as it should.
            if index == lines.count - 1, rawLine.isEmpty { break }
            var line = String(rawLine)
            if line.hasSuffix("\r") {
                line.removeLast()
                if !sawCarriageReturn {
                    sawCarriageReturn = true
                    warn(file, start, start + line.utf8.count, "the line ends in a carriage return (a file written on Windows): cron "
                         + "passes it to the shell as part of the command; migrated without it")
                }
            }
            func span(_ from: Int, _ to: Int) -> Span { Span(start + from, start + max(to, from + 1)) }
            let parsed: CrontabLine
            do {
                parsed = try CrontabLine.parse(line, system: system)
            } catch {
                diagnostics.append(Diagnostic(.error, error.message, at: span(error.start, error.end), in: file))
                comments.append("crontab line \(number) was not migrated (\(error.message)): \(line)")
                continue
            }
            if index == lines.count - 1, parsed != .blank {
                warn(file, start, start + line.utf8.count, "the last line has no line break after it, and cron ignores such a line "
                     + "('missing newline before EOF'); migrated anyway")
            }
            switch parsed {
            case .blank:
                if !comments.isEmpty, comments.last != "" { comments.append("") }
            case .comment(let text):
                comments.append(text.hasPrefix(" ") ? String(text.dropFirst()) : text)
            case .variable(let name, let value):
                let whole = span(0, line.utf8.count)
                if name == "CRON_TZ" {
                    if value.isEmpty {
                        zone = nil
                    } else if TimeZone(identifier: value) == nil {
                        diagnostics.append(Diagnostic(.error, "CRON_TZ names no time zone this machine knows: '\(value)'", at: whole, in: file,
                                                      hint: "write an IANA zone such as Europe/Paris; the jobs after it keep the zone before it"))
                    } else {
                        zone = value
                    }
                } else if let why = Self.cronsOwnVariables[name], !value.isEmpty {
                    warn(file, whole.start, whole.end, "\(name) is not carried over: \(why)")
                } else if Self.userVariables.contains(name) {
                    warn(file, whole.start, whole.end, "\(name) is not carried over: cron sets it to the job's user whatever the crontab says")
                } else if value.contains("$") {
                    warn(file, whole.start, whole.end, "cron does not expand '$' in a variable line: \(name) is the text '\(value)' as written, "
                         + "and so it is in the automations")
                }
                if let existing = variables.firstIndex(where: { $0.name == name }) {
                    variables[existing] = Variable(name: name, value: value, line: number)
                } else {
                    variables.append(Variable(name: name, value: value, line: number))
                }
            case .job(let job):
                while comments.last == "" { comments.removeLast() }
                if let automation = migrate(job, line: line, number: number, span: span, file: file, variables: variables, zone: zone,
                                            user: user, comments: comments) {
                    automations.append(automation)
                    comments = []
                } else {
                    comments.append("crontab line \(number) was not migrated: \(line)")
                }
            }
        }
        while comments.last == "" { comments.removeLast() }
        trailingComments = comments
    }

    mutating func warn(_ file: SourceFile, _ start: Int, _ end: Int, _ message: String, hint: String? = nil) {
        diagnostics.append(Diagnostic(.warning, message, at: Span(start, max(end, start + 1)), in: file, hint: hint))
    }

    /// The automation of one job, or nil for `@reboot`, which has none (an error says why), and for a job that never
    /// runs (a warning says so).
    mutating func migrate(_ job: CrontabJob, line: String, number: Int, span: (Int, Int) -> Span, file: SourceFile,
                          variables: [Variable], zone: String?, user: String, comments: [String]) -> MigratedAutomation? {
        let expression: CronExpression, written: String
        switch job.time {
        case .reboot:
            diagnostics.append(Diagnostic(.error, "@reboot is not migrated: no automation fires when the machine starts",
                                          at: span(job.timeStart, job.timeEnd), in: file,
                                          hint: "run it from a systemd unit (WantedBy=multi-user.target), or from the unit that starts auto daemon "
                                            + "(ExecStartPre=)"))
            return nil
        case .fields(let fields, let parsed):
            expression = parsed
            written = fields.joined(separator: " ")
        case .named(let name, let parsed):
            expression = parsed
            // The five fields it stands for: the language's shorthands are cron's.
            written = CronExpression.shorthands["@" + name] ?? "@" + name
        }
        var notes: [String] = []
        func note(_ start: Int, _ end: Int, _ message: String, hint: String? = nil) {
            warn(file, start, end, message, hint: hint)
            notes.append("warning: " + message + (hint.map { " (\($0))" } ?? ""))
        }
        let time = span(job.timeStart, job.timeEnd)
        guard expression.canFire else {
            // An automation that can never fire is a compile-time error; cron keeps the job and never runs it.
            warn(file, time.start, time.end, "this job never runs (no month has such a day): not migrated")
            return nil
        }
        if let runAs = job.user, runAs != user {
            let where_ = span(job.timeEnd, job.commandStart)
            note(where_.start, where_.end, "cron ran this job as \(runAs); the automation runs as the user of the daemon (\(user))",
                 hint: "run a daemon as \(runAs) for it, or move it to a script of that user")
        }
        if job.unlogged {
            note(span(0, 1).start, span(0, 1).end, "cronie's '-' (no syslog line for the job) is not carried over: every run is in the run history")
        }
        if job.mailOnlyOnError {
            let option = span(job.timeEnd, job.commandStart)
            note(option.start, option.end,
                 "cronie's '-n' (mail only on failure) is not carried over: a failed run is marked failed in the run history")
        }
        for variable in variables where Self.cronsOwnVariables[variable.name] != nil && !variable.value.isEmpty {
            notes.append("\(variable.name)=\(variable.value) (crontab line \(variable.line)) is not carried over: \(Self.cronsOwnVariables[variable.name] ?? "")")
        }
        let shellCommand = CrontabShellCommand(job.command)
        if let percent = shellCommand.quotedPercent {
            let at = span(job.commandStart + percent, job.commandStart + percent + 1)
            note(at.start, at.end, "cron ends the command at this '%', inside quotes though it is: what follows is the command's standard input",
                 hint: "it was probably meant as a percent sign: write '\\%' in the crontab and migrate again")
        }
        let shell = variables.first { $0.name == "SHELL" }?.value ?? Self.defaultShell
        let home = variables.first { $0.name == "HOME" }?.value
        var environment: [(name: String, value: String?)] = [("SHELL", shell), ("PATH", variables.first { $0.name == "PATH" }?.value ?? Self.defaultPath)]
        for variable in variables where !["SHELL", "PATH", "CRON_TZ"].contains(variable.name)
            && Self.cronsOwnVariables[variable.name] == nil && !Self.userVariables.contains(variable.name) {
            environment.append((variable.name, variable.value))
        }
        return MigratedAutomation(
            name: Self.automationName(of: shellCommand.command, line: number), trigger: Self.trigger(written, expression, zone: zone),
            options: ["mode parallel"], comments: comments + ["crontab line \(number): \(line)"] + notes,
            program: shell, arguments: ["-c", shellCommand.command], environment: environment, input: shellCommand.input,
            folder: home ?? "~")
    }

    /// The trigger, as readable as the language allows with the same fires: `every day at 07:30`, `every weekday at
    /// 09:00` for a fixed time on every day or some days of the week (the language's wall-clock rule across a
    /// change is cron's for a fixed time), else the cron expression, in the crontab's CRON_TZ.
    static func trigger(_ written: String, _ expression: CronExpression, zone: String?) -> String {
        let cron = Automation.Trigger.cron(expression: written, zone: zone).description
        let minutes = Array(expression.minutes), hours = Array(expression.hours)
        guard zone == nil, !expression.wildcard, minutes.count == 1, hours.count == 1, Array(expression.months) == Array(1...12),
              Array(expression.daysOfMonth) == Array(1...31) else { return cron }
        // Every day of the month: with both day fields restricted either may match, so every day does.
        let weekdays = expression.daysOfMonthRestricted && expression.daysOfWeekRestricted ? Set(0...6) : Set(expression.daysOfWeek)
        let days = weekdays.count == 7 ? nil : weekdays.map { $0 == 0 ? 7 : $0 }.sorted()
        return Automation.Trigger.weekly(days: days, hour: hours[0], minute: minutes[0]).description
    }

    /// Shells' words that run the command after them, and programs that run the script named after them: a name
    /// says what runs.
    static let wrappers: Set<String> = ["exec", "nice", "ionice", "nohup", "env", "time", "sudo", "chronic", "flock", "timeout", "setsid"]
    static let runners: Set<String> = ["sh", "bash", "dash", "zsh", "python", "python3", "perl", "php", "ruby", "node", "run-parts"]
    static let tests: Set<String> = ["cd", "test", "[", "[[", "true", ":", "sleep"]

    /// What the command runs, for the automation's name: the first program of it that isn't a `cd` or a test, by its
    /// file's name without a script's extension (`/usr/local/bin/backup.sh --full` is "backup"), or the script an interpreter
    /// runs (`php /srv/app/artisan schedule:run` is "artisan"). "crontab line N" when nothing is found.
    static func automationName(of command: String, line: Int) -> String {
        let separators: Set<Character> = [";", "&", "|", "(", ")", "{", "}"]
        var words: [[String]] = [[]]
        for part in command.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
            var current = ""
            for character in part {
                if separators.contains(character) {
                    if !current.isEmpty { words[words.count - 1].append(current) }
                    current = ""
                    if words.last?.isEmpty == false { words.append([]) }
                } else {
                    current.append(character)
                }
            }
            if !current.isEmpty { words[words.count - 1].append(current) }
        }
        for simple in words {
            var rest = simple[...]
            // Assignments, wrappers and their options (`nice -n 10`) go before the program.
            while let word = rest.first,
                  word.contains("=") && !word.hasPrefix("=") || wrappers.contains(word) || word.hasPrefix("-") || word.allSatisfy(\.isNumber) {
                rest = rest.dropFirst()
            }
            guard var program = rest.first.map(baseName), !tests.contains(program), !program.isEmpty else { continue }
            if runners.contains(program), let script = rest.dropFirst().first(where: { !$0.hasPrefix("-") }) {
                program = baseName(script)
            }
            let cleaned = program.trimmingCharacters(in: CharacterSet(charactersIn: "\"'`$"))
            if !cleaned.isEmpty { return cleaned }
        }
        return "crontab line \(line)"
    }

    /// Extensions of scripts, left out of a name: `backup.sh` is "backup", but `cron.daily` stays.
    static let scriptExtensions: Set<String> = ["sh", "bash", "py", "pl", "rb", "php", "js"]

    /// A path's last part, without a script's extension.
    static func baseName(_ path: String) -> String {
        let last = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = last.lastIndex(of: "."), dot != last.startIndex,
              scriptExtensions.contains(String(last[last.index(after: dot)...])) else { return last }
        return String(last[..<dot])
    }

    /// The `.auto` text: a header that says where it came from and how the jobs run, each automation, and the
    /// crontab's last comments.
    func script(from path: String) -> String {
        let header = [
            "Migrated from the crontab \(path) by `auto migrate crontab`.",
            "Each job runs as cron ran it: its SHELL (\(Self.defaultShell) unless the crontab set one) with -c and the command,",
            "with cron's PATH (\(Self.defaultPath) unless set) and the crontab's variables, in the home folder (HOME's if set),",
            "the text after an unescaped % as its standard input; it runs even while its last run goes on (mode parallel),",
            "and a run fails when the command exits with another status than 0.",
        ]
        var text = MigratedScript.source(header: header, automations: automations)
        if !trailingComments.isEmpty { text += "\n" + trailingComments.map(MigratedAutomation.comment).joined(separator: "\n") + "\n" }
        return text
    }
}
