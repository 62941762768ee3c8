@testable import AutoCLI
import AutoLanguage
import AutoTestSupport
import Foundation
import Testing

/// `auto migrate timer`: a timer and its service in a folder become a script that compiles with the host; what
/// can't be carried over is refused at its line, and what runs differently is a warning.
@Suite struct TimerMigrationTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder("auto-timer")
    }

    func write(_ name: String, _ text: String) throws -> String {
        let path = folder(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static let environment = ["HOME": "/home/ann", "USER": "ann", "XDG_RUNTIME_DIR": "/run/user/1000"]

    @Test func aServiceBecomesABodyWithItsCommandsEnvironmentAndFolder() throws {
        let envFile = try write("backup.env", "TARGET=/mnt/backup\nDEST='two words'\n")
        let timer = try write("backup.timer", """
            [Unit]
            Description=Nightly backup

            [Timer]
            OnCalendar=*-*-* 02:30:00 UTC
            Persistent=yes
            AccuracySec=1h
            """)
        _ = try write("backup.service", """
            [Service]
            Type=oneshot
            Environment="GREETING=hello world" MODE=full
            EnvironmentFile=\(envFile)
            EnvironmentFile=-/nonexistent/optional.env
            WorkingDirectory=~/work
            ExecStartPre=-/bin/mkdir -p ${TARGET}
            ExecStart=/usr/bin/rsync -a $DEST ${TARGET}/%N
            ExecStart=/bin/echo done %u
            User=backup
            """)
        let migration = TimerMigration(timerPath: timer, machineZone: TimeZone(identifier: "Europe/Paris") ?? .current,
                                       now: Date(timeIntervalSince1970: 1_735_689_600), environment: Self.environment)
        #expect(migration.errors.isEmpty, "\(migration.errors)")
        let automation = try #require(migration.automations.first)
        #expect(automation.name == "backup")
        #expect(automation.trigger == #"cron "30 2 * * *" in "UTC""#)
        #expect(automation.options == ["catch up"])
        #expect(automation.program == "/bin/mkdir")
        #expect(automation.arguments == ["-p", "/mnt/backup"])
        #expect(automation.ignoresFailure)
        #expect(automation.then == [MigratedAutomation.Step(program: "/usr/bin/rsync", arguments: ["-a", "two", "words", "/mnt/backup/backup"]),
                                    MigratedAutomation.Step(program: "/bin/echo", arguments: ["done", "ann"])])
        #expect(automation.environment.map(\.name) == ["GREETING", "MODE", "TARGET", "DEST"])
        #expect(automation.environment.map(\.value) == ["hello world", "full", "/mnt/backup", "two words"])
        #expect(automation.folder == "/home/ann/work")
        let warnings = migration.warnings.map(\.description)
        #expect(warnings.contains { $0.hasPrefix("\(timer):7: warning: AccuracySec=1h is not carried over: the daemon fires on time") }, "\(warnings)")
        #expect(warnings.contains { $0.contains("backup.service:10: warning: User=backup can't be carried over") }, "\(warnings)")
        #expect(automation.comments.contains("Nightly backup"))
        #expect(automation.comments.contains { $0.contains("AccuracySec=1h") })
        let text = MigratedScript.source(header: [], automations: migration.automations)
        let compiled = try MigratedAutomationTests.host.compile(SourceFile(name: "m.auto", text: text)).get()
        #expect(compiled.automations.count == 1)
        #expect(compiled.warnings.isEmpty, "\(compiled.warnings)")
        // The first command may fail and the run go on; the others end it.
        #expect(text.components(separatedBy: "if result.status != 0").count == 3, "\(text)")
    }

    @Test func theBinaryPrintsAScriptThatCompilesAndWarnsOnStandardError() async throws {
        let timer = try write("report.timer", """
            [Timer]
            OnCalendar=Mon..Fri 09:00
            OnCalendar=Sat,Sun 10:00 Europe/Paris
            RandomizedDelaySec=5min
            Unit=mail-report.service
            """)
        _ = try write("mail-report.service", "[Service]\nExecStart=/bin/echo report \"for %N\"\n")
        let result = try await BinaryRunner.runAwaiting(["migrate", "timer", timer])
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardError.contains("report.timer:4: warning: RandomizedDelaySec=5min is not carried over"), "\(result.standardError)")
        #expect(result.standardOutput.contains(#"automation "report" every weekday at 09:00 {"#), "\(result.standardOutput)")
        #expect(result.standardOutput.contains(#"automation "report 2" cron "0 10 * * sun,sat" in "Europe/Paris" {"#), "\(result.standardOutput)")
        #expect(result.standardOutput.contains(#"run command "/bin/echo" arguments: ["report", "for mail-report"]"#), "\(result.standardOutput)")
        let compiled = try MigratedAutomationTests.host.compile(SourceFile(name: "m.auto", text: result.standardOutput)).get()
        #expect(compiled.automations.map(\.name) == ["report", "report 2"])
        let output = folder("out.auto")
        let written = try await BinaryRunner.runAwaiting(["migrate", "timer", "--output", output, timer])
        #expect(written.exitCode == 0)
        #expect(written.standardOutput.isEmpty)
        #expect(try String(contentsOfFile: output, encoding: .utf8) == result.standardOutput)
    }

    @Test func aTimerRelativeToBootIsRefusedAtItsLine() async throws {
        let timer = try write("boot.timer", "[Timer]\nOnBootSec=15min\nOnUnitActiveSec=1h\n")
        _ = try write("boot.service", "[Service]\nExecStart=/bin/true\n")
        let result = try await BinaryRunner.runAwaiting(["migrate", "timer", timer])
        #expect(result.exitCode == 2)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.contains("boot.timer:2: error: OnBootSec=15min fires relative to boot; nothing in auto fires relative to boot"),
                "\(result.standardError)")
        #expect(result.standardError.contains("boot.timer:3: error: OnUnitActiveSec=1h") && result.standardError.contains("every <duration>"),
                "\(result.standardError)")
    }

    @Test func aMissingServiceIsAnErrorNamingThePathLookedAt() async throws {
        let timer = try write("lonely.timer", "[Timer]\nOnCalendar=daily\n")
        let result = try await BinaryRunner.runAwaiting(["migrate", "timer", timer])
        #expect(result.exitCode == 2)
        #expect(result.standardError.contains("lonely.timer: error: the service it starts is missing: there is no \(folder.path)/lonely.service"),
                "\(result.standardError)")
    }

    @Test func aCalendarExpressionNoTriggerMatchesIsAnErrorAtItsLine() async throws {
        let timer = try write("odd.timer", "[Timer]\nOnCalendar=daily\nOnCalendar=*-*-* 10:00:30\nOnCalendar=*:*/5\n")
        _ = try write("odd.service", "[Service]\nExecStart=/bin/true\n")
        let result = try await BinaryRunner.runAwaiting(["migrate", "timer", timer])
        #expect(result.exitCode == 2)
        #expect(result.standardError.contains("odd.timer:3: error: OnCalendar=*-*-* 10:00:30 can't be carried over: it fires at seconds other than :00"),
                "\(result.standardError)")
        #expect(result.standardError.contains("odd.timer:4: error: OnCalendar=*:*/5: '*/N' is not systemd's repetition"), "\(result.standardError)")
    }

    @Test func anEmptyOnCalendarResetsTheListAndADropInIsRead() throws {
        let timer = try write("reset.timer", "[Timer]\nOnCalendar=hourly\n")
        try FileManager.default.createDirectory(atPath: timer + ".d", withIntermediateDirectories: true)
        _ = try write("reset.timer.d/override.conf", "[Timer]\nOnCalendar=\nOnCalendar=Mon 08:00\n")
        _ = try write("reset.service", "[Service]\nExecStart=/bin/true\nExecStart=/bin/false\n")
        let migration = TimerMigration(timerPath: timer, environment: Self.environment)
        #expect(migration.automations.map(\.trigger) == [])
        // Two ExecStart= without Type=oneshot: systemd refuses the service, at the second line.
        #expect(migration.errors.map(\.description) == ["\(folder.path)/reset.service:3: error: a service runs several ExecStart= commands only with Type=oneshot; systemd refuses this one"])
        _ = try write("reset.service", "[Service]\nType=oneshot\nExecStart=/bin/true\nExecStart=/bin/false\n")
        let fixed = TimerMigration(timerPath: timer, environment: Self.environment)
        #expect(fixed.errors.isEmpty, "\(fixed.errors)")
        #expect(fixed.automations.map(\.trigger) == ["every monday at 08:00"])
        #expect(fixed.automations.first?.comments.contains { $0.contains("reset.timer.d/override.conf:3") } == true)
    }
}
