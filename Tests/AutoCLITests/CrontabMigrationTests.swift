@testable import AutoAutomation
@testable import AutoCLI
import AutoIntents
import AutoLanguage
import AutoStdlib
import AutoTestSupport
import Foundation
import Testing

/// `auto migrate crontab`'s reading of a crontab (cronie's rules for variables, fields, `%` and the rest) and the
/// automations it makes, whose fires are cron's (issue 32, item 5).
@Suite struct CrontabMigrationTests {
    static let host: ScriptHost = {
        var registry = Registry.standard
        try? registry.registerStandardLibrary()
        return ScriptHost(registry: registry, prelude: [])
    }()

    static func migrate(_ text: String, system: Bool = false, user: String = "me") -> CrontabMigration {
        CrontabMigration(SourceFile(name: "crontab", text: text), system: system, user: user)
    }

    // MARK: Lines

    @Test func variableLinesAreReadAsCronsLoadEnvReadsThem() throws {
        func variable(_ line: String) -> [String]? { CrontabLine.variable(in: ArraySlice(line.utf8)).map { [$0.name, $0.value] } }
        #expect(variable("PATH=/usr/bin:/bin") == ["PATH", "/usr/bin:/bin"])
        #expect(variable(#"NAME = "two words"  "#) == ["NAME", "two words"])
        #expect(variable("X='a \"b\"'") == ["X", "a \"b\""])
        #expect(variable("EMPTY=") == ["EMPTY", ""])
        #expect(variable("TRIM = value with blanks   ") == ["TRIM", "value with blanks"])
        #expect(variable("HOME=$HOME/x") == ["HOME", "$HOME/x"], "cron expands nothing")
        #expect(variable(#""QUOTED NAME"=x"#) == ["QUOTED NAME", "x"])
        #expect(variable(#"X="a" b"#) == nil, "text after the closing quote: no variable")
        #expect(variable(#"X="open"#) == nil)
        #expect(variable("0 * * * * a=b cmd") == nil)
        #expect(try CrontabLine.parse("   # a comment", system: false) == .comment(" a comment"))
        #expect(try CrontabLine.parse(" \t ", system: false) == .blank)
    }

    @Test func jobLinesTakeFiveFieldsOrANameThenTheUserAndCommand() throws {
        guard case .job(let job) = try CrontabLine.parse("  0 9\t* * mon-fri  /usr/bin/report  --daily  ", system: false),
              case .fields(let fields, _) = job.time else { Issue.record("not a job"); return }
        #expect(fields == ["0", "9", "*", "*", "mon-fri"])
        #expect(job.command == "/usr/bin/report  --daily  ", "the rest of the line as cron keeps it")
        guard case .job(let system) = try CrontabLine.parse("@daily root run-parts /etc/cron.daily", system: true) else {
            Issue.record("not a job"); return
        }
        #expect(system.user == "root" && system.command == "run-parts /etc/cron.daily" && system.time != .reboot)
        guard case .job(let reboot) = try CrontabLine.parse("@reboot /usr/bin/boot", system: false) else { Issue.record("not a job"); return }
        #expect(reboot.time == .reboot)
    }

    @Test func aLineCronRefusesIsAMistakeAtItsPlace() {
        func mistake(_ line: String, system: Bool = false) -> CrontabLine.Mistake? {
            do { _ = try CrontabLine.parse(line, system: system); return nil } catch { return error }
        }
        #expect(mistake("0 25 * * * cmd")?.start == 2, "the hour field")
        #expect(mistake("0 25 * * * cmd")?.message.contains("hour 25") == true)
        #expect(mistake("0 9 * *")?.message.contains("day of week") == true)
        #expect(mistake("0 9 * * *")?.message.contains("needs a command") == true)
        #expect(mistake("0 9 * * * * cmd")?.message.contains("five time fields") == true, "a sixth field")
        #expect(mistake("@Daily cmd")?.message.contains("not a time cron knows") == true, "cron's names are lower case")
        #expect(mistake("5/15 * * * * cmd")?.message.contains("cronie refuses") == true)
        #expect(mistake("0 ~ * * * cmd")?.start == 2)
        #expect(mistake("0 9 * * * root", system: true)?.message.contains("after the user") == true)
        #expect(mistake("0 9 * * * -x cmd")?.message.contains("'-n'") == true)
    }

    @Test func percentSignsEndTheCommandAndMakeTheInputAsCronDoes() {
        let plain = CrontabShellCommand("echo hi")
        #expect(plain.command == "echo hi" && plain.input == nil && plain.quotedPercent == nil)
        let mail = CrontabShellCommand("mail -s hi me%line one%line two")
        #expect(mail.command == "mail -s hi me" && mail.input == "line one\nline two\n")
        let escaped = CrontabShellCommand(#"date +\%Y\%m > f"#)
        #expect(escaped.command == "date +%Y%m > f" && escaped.input == nil, "\\% is a percent sign")
        let other = CrontabShellCommand(#"printf 'a\tb' \\%x\%y\\z"#)
        #expect(other.command == #"printf 'a\tb' \\"#, "another backslash is the shell's; a backslash before it escapes it")
        #expect(other.input == "x%y\\\\z\n")
        #expect(CrontabShellCommand("cat%%").input == "\n", "ends with a line break already")
        #expect(CrontabShellCommand("cat%").input == nil)
        let quoted = CrontabShellCommand(#"date +"%Y" > f"#)
        #expect(quoted.command == "date +\"" && quoted.input == "Y\" > f\n" && quoted.quotedPercent == 7)
        #expect(CrontabShellCommand(#"echo "it's" 50%"#).quotedPercent == nil, "the quotes closed before it")
        #expect(CrontabShellCommand("echo '\\' %x").quotedPercent == nil, "a backslash in single quotes escapes nothing")
    }

    @Test func namesSayWhatRuns() {
        #expect(CrontabMigration.automationName(of: "/usr/local/bin/backup.sh --full", line: 1) == "backup")
        #expect(CrontabMigration.automationName(of: "cd /srv && ./deploy.sh", line: 1) == "deploy")
        #expect(CrontabMigration.automationName(of: "test -x /usr/sbin/anacron || ( cd / && run-parts --report /etc/cron.daily )", line: 1)
                == "cron.daily")
        #expect(CrontabMigration.automationName(of: "LANG=C nice -n 10 /usr/bin/php /srv/app/artisan schedule:run", line: 1) == "artisan")
        #expect(CrontabMigration.automationName(of: "  ", line: 7) == "crontab line 7")
    }

    // MARK: Migration

    @Test func aJobRunsItsCommandWithCronsEnvironmentShellAndInput() throws {
        let migration = Self.migrate("""
            # backups
            SHELL=/bin/bash
            GREETING = "hello there"
            MAILTO=ops@example.org
            30 2 * * * /usr/local/bin/backup.sh%first%second

            """)
        let job = try #require(migration.automations.first)
        #expect(job.name == "backup" && job.trigger == "every day at 02:30" && job.options == ["mode parallel"])
        #expect(job.program == "/bin/bash" && job.arguments == ["-c", "/usr/local/bin/backup.sh"] && job.input == "first\nsecond\n")
        #expect(job.environment.map(\.name) == ["SHELL", "PATH", "GREETING"])
        #expect(job.environment.map(\.value) == ["/bin/bash", "/usr/bin:/bin", "hello there"])
        #expect(job.folder == "~")
        #expect(job.comments.first == "backups" && job.comments.contains("crontab line 5: 30 2 * * * /usr/local/bin/backup.sh%first%second"))
        #expect(job.comments.contains { $0.hasPrefix("MAILTO=ops@example.org (crontab line 4) is not carried over") }, "\(job.comments)")
        let warning = try #require(migration.diagnostics.first)
        #expect(warning.severity == .warning && warning.description.hasPrefix("crontab:4:1: warning: MAILTO is not carried over"))
        #expect(!migration.hasErrors)
        #expect(Self.migrate("MAILTO=\"\"\n0 9 * * * /usr/bin/quiet\n").diagnostics.isEmpty, "an empty MAILTO turns mail off: nothing is lost")
    }

    @Test func triggersAreReadableWhereTheyFireAlike() throws {
        func trigger(_ fields: String, zone: String? = nil) throws -> String {
            CrontabMigration.trigger(fields, try CronExpression(parsing: fields), zone: zone)
        }
        #expect(try trigger("0 9 * * *") == "every day at 09:00")
        #expect(try trigger("5 7 * * 1-5") == "every weekday at 07:05")
        #expect(try trigger("0 9 * * sat,sun") == "every saturday, sunday at 09:00")
        #expect(try trigger("0 9 * * 0,mon") == "every monday, sunday at 09:00")
        #expect(try trigger("0 9 1-31 * mon") == "every day at 09:00", "both day fields restricted: either, and every day matches")
        #expect(try trigger("0 9 * * *", zone: "Asia/Tokyo") == #"cron "0 9 * * *" in "Asia/Tokyo""#)
        #expect(try trigger("*/60 9 * * *") == #"cron "*/60 9 * * *""#, "a wildcard job fires otherwise across a change")
        #expect(try trigger("0 9,17 * * *") == #"cron "0 9,17 * * *""#)
        #expect(try trigger("0 9 */2 * *") == #"cron "0 9 */2 * *""#)
    }

    @Test func whatCantBeCarriedOverIsAWarningAndAComment() throws {
        let migration = Self.migrate("""
            CRON_TZ=Europe/Paris
            0 6 * * * date +"%Y" > /tmp/year
            0 7 * * * root /usr/bin/system-job
            @reboot /usr/bin/at-boot
            CRON_TZ=Mars/Olympus
            0 0 31 2 * /usr/bin/never

            """, system: false)
        let lines = migration.diagnostics.map(\.description)
        #expect(lines.contains { $0.hasPrefix("crontab:2:18: warning: cron ends the command at this '%'") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("crontab:4:1: error: @reboot is not migrated") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("crontab:5:1: error: CRON_TZ names no time zone") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("crontab:6:1: warning: this job never runs") }, "\(lines)")
        #expect(migration.hasErrors)
        let date = try #require(migration.automations.first)
        #expect(date.trigger == #"cron "0 6 * * *" in "Europe/Paris""#)
        #expect(date.comments.contains { $0.hasPrefix("warning: cron ends the command at this '%'") && $0.contains("write '\\%'") })
        // In the user format, "root" is the command's first word.
        #expect(migration.automations.map(\.name) == ["date", "root"])
        let script = migration.script(from: "crontab")
        #expect(script.contains("# crontab line 4 was not migrated: @reboot /usr/bin/at-boot"), "\(script)")
        let system = Self.migrate("0 7 * * * root /usr/bin/system-job\n", system: true, user: "alice")
        #expect(system.automations.first?.name == "system-job")
        #expect(system.diagnostics.first?.description.contains("cron ran this job as root; the automation runs as the user of the daemon (alice)") == true)
    }

    // MARK: Thirty lines, a thousand fires each

    /// Thirty varied lines: variables, CRON_TZ, %, comments, every @name, @reboot, MAILTO.
    static let crontab = """
        # Backups and reports
        SHELL=/bin/bash
        PATH=/usr/local/bin:/usr/bin:/bin
        MAILTO=ops@example.org

        # nightly backup, in the gap of the spring change
        30 2 * * * /usr/local/bin/backup.sh --full
        0 9 * * 1-5 /usr/bin/report --daily
        0 9 * * sat,sun /usr/bin/report --weekend
        */15 * * * * /usr/bin/poll-queue
        5 */2 * * * /usr/bin/rotate
        0 0 */2 * mon /usr/bin/odd-mondays
        0 0 1-31/2 * mon /usr/bin/odd-days-or-mondays
        0 12 29 2 * /usr/bin/leap
        0 0 31 * * /usr/bin/month-end
        45 2 * * 7 /usr/bin/sunday-night
        0 8 * JAN-Mar Mon-Fri /usr/bin/winter
        10-50/15 3 * * * /usr/bin/steps
        @yearly /usr/bin/yearly
        @annually /usr/bin/annually
        @monthly /usr/bin/monthly
        @weekly /usr/bin/weekly
        @daily /usr/bin/daily
        @hourly /usr/bin/hourly
        @reboot /usr/bin/at-boot
        CRON_TZ=America/New_York
        15 1 * * * /usr/bin/ny-night
        30 * * * * echo "tick" | logger%input line%second
        0 6 * * * date +"%Y-%m-%d" > /tmp/today
        0 9 * * fri-sun printf '100\\% done'

        """

    @Test func thirtyLinesMigrateWithCronsFireTimes() throws {
        #expect(Self.crontab.split(separator: "\n", omittingEmptySubsequences: false).count == 31, "thirty lines and the last line break")
        let migration = Self.migrate(Self.crontab)
        #expect(migration.diagnostics.filter { $0.severity == .error }.map(\.description) == ["crontab:25:1: error: @reboot is not migrated: no automation fires when the machine starts"])
        let script = migration.script(from: "crontab")
        let compiled = try Self.host.compile(SourceFile(name: "jobs.auto", text: script)).get()
        #expect(compiled.warnings.isEmpty, "\(compiled.warnings)")
        #expect(compiled.automations.count == 22)
        #expect(compiled.automations.map(\.name).filter { $0.hasPrefix("report") } == ["report", "report 2"])
        let machineZone = try #require(TimeZone(identifier: "Europe/Paris"))
        // Four days before Paris springs forward: the frequent jobs cross the change too.
        let start = Date(timeIntervalSince1970: 1_774_569_600)  // 2026-03-27T00:00:00Z
        let lines = Self.crontab.split(separator: "\n", omittingEmptySubsequences: false)
        for (automation, migrated) in zip(compiled.automations, migration.automations) {
            // The job's line, by the comment that names it, and its schedule as the crontab wrote it.
            let origin = try #require(migrated.comments.last { $0.hasPrefix("crontab line ") && !$0.contains("not migrated") })
            let number = try #require(Int(origin.dropFirst(13).prefix { $0.isNumber }))
            let words = lines[number - 1].split(separator: " ")
            let written = words[0].hasPrefix("@") ? String(words[0]) : words.prefix(5).joined(separator: " ")
            let zone = number > 26 ? try #require(TimeZone(identifier: "America/New_York")) : machineZone
            let reference = try #require(CrontabReference(written)).fires(after: start, count: 1_000, in: zone)
            #expect(reference.count == 1_000, "line \(number)")
            let schedule = try #require(try Schedules.schedule(for: automation.trigger, zone: machineZone))
            let migratedFires = schedule.fires(after: start, count: 1_000)
            let original = CronSchedule(try CronExpression(parsing: written), timeZone: zone).fires(after: start, count: 1_000)
            Self.expectSame(migratedFires, reference, "line \(number) '\(written)', the automation (\(automation.trigger)) and the reference")
            Self.expectSame(reference, original, "line \(number) '\(written)', the reference and CronSchedule")
        }
    }

    static func expectSame(_ left: [Date], _ right: [Date], _ what: String) {
        guard left != right else { return }
        let index = (0..<min(left.count, right.count)).first { left[$0] != right[$0] } ?? min(left.count, right.count)
        Issue.record("\(what) differ at fire \(index): \(index < left.count ? "\(left[index])" : "none") and \(index < right.count ? "\(right[index])" : "none")")
    }
}
