@testable import AutoCLI
import AutoTestSupport
import Foundation
import Testing

/// `auto migrate crontab` through the built binary: a crontab from a file or standard input, the script on standard
/// output or in a file, warnings and errors at their place on standard error, exit codes; and a migrated job run for
/// real, seeing the environment, folder and input cron would have given it.
@Suite struct CrontabCommandTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder("crontab-command")
    }

    func write(_ name: String, _ text: String) throws -> String {
        let path = folder(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func standardInputGivesTheScriptOnStandardOutput() async throws {
        for arguments in [["migrate", "crontab", "-"], ["migrate", "crontab"]] {
            let result = try await BinaryRunner.runAwaiting(arguments, input: "0 9 * * 1-5 /usr/bin/report --daily\n")
            #expect(result.exitCode == 0, "\(result.standardError)")
            #expect(result.standardOutput.contains("automation \"report\" every weekday at 09:00 mode parallel {\n"), "\(result.standardOutput)")
            #expect(result.standardOutput.contains(#"run command "/bin/sh" arguments: ["-c", "/usr/bin/report --daily"]"#))
            #expect(result.standardError == "<stdin>: 1 job migrated, 0 errors, 0 warnings\n")
        }
    }

    @Test func aBadLineIsAnErrorAtItsPlaceAndTheOthersStillConvert() async throws {
        let path = try write("bad", "MAILTO=me@example.org\n0 25 * * * /usr/bin/late\n0 9 * * * /usr/bin/ok\n@reboot /usr/bin/boot\n")
        let result = try await BinaryRunner.runAwaiting(["migrate", "crontab", path])
        #expect(result.exitCode == 2)
        #expect(result.standardError.contains("\(path):1:1: warning: MAILTO is not carried over"), "\(result.standardError)")
        #expect(result.standardError.contains("\(path):2:3: error: hour 25 is out of range 0–23\n  0 25 * * * /usr/bin/late\n    ^~"),
                "\(result.standardError)")
        #expect(result.standardError.contains("\(path):4:1: error: @reboot is not migrated: no automation fires when the machine starts"))
        #expect(result.standardError.contains("hint: run it from a systemd unit"))
        #expect(result.standardError.hasSuffix("\(path): 1 job migrated, 2 errors, 1 warning\n"))
        #expect(result.standardOutput.contains("automation \"ok\" every day at 09:00"))
        #expect(result.standardOutput.contains("# crontab line 2 was not migrated (hour 25 is out of range 0–23): 0 25 * * * /usr/bin/late"))
        #expect(result.standardOutput.contains("# MAILTO=me@example.org (crontab line 1) is not carried over"))
    }

    @Test func theSystemFormatHasAUserBeforeTheCommand() async throws {
        let path = try write("system", "0 7 * * * someone-else /usr/bin/job\n")
        let system = try await BinaryRunner.runAwaiting(["migrate", "crontab", "--system", path])
        #expect(system.exitCode == 0, "\(system.standardError)")
        #expect(system.standardOutput.contains("automation \"job\" every day at 07:00"), "\(system.standardOutput)")
        #expect(system.standardError.contains("\(path):1:10: warning: cron ran this job as someone-else"), "\(system.standardError)")
        let user = try await BinaryRunner.runAwaiting(["migrate", "crontab", path])
        #expect(user.standardOutput.contains(#"arguments: ["-c", "someone-else /usr/bin/job"]"#), "the user format: all of it is the command")
        #expect(MigrateCrontab.isSystemCrontab("/etc/crontab") && MigrateCrontab.isSystemCrontab("/etc/cron.d/php"))
        #expect(MigrateCrontab.isSystemCrontab("/etc/../etc/cron.d/php") && !MigrateCrontab.isSystemCrontab("/etc/crontab.bak"))
        #expect(!MigrateCrontab.isSystemCrontab("crontab"))
    }

    @Test func outputGoesToAFileThatCompiles() async throws {
        let path = try write("tab", "*/10 * * * * /usr/bin/poll\n")
        let output = folder("jobs.auto")
        let result = try await BinaryRunner.runAwaiting(["migrate", "crontab", path, "--output", output])
        #expect(result.exitCode == 0 && result.standardOutput.isEmpty, "\(result.standardError)")
        let script = try String(contentsOfFile: output, encoding: .utf8)
        #expect(script.contains(#"automation "poll" cron "*/10 * * * *" mode parallel {"#), "\(script)")
        let check = try await BinaryRunner.runAwaiting(["check", output])
        #expect(check.exitCode == 0, "\(check.standardError)")
        let missing = try await BinaryRunner.runAwaiting(["migrate", "crontab", folder("none")])
        #expect(missing.exitCode == 2 && missing.standardError.contains("no such file"))
    }

    @Test func aMigratedJobRunsWithCronsEnvironmentFolderAndInput() async throws {
        let crontab = try write("run", """
            GREETING = "hello from cron"
            MAILTO=me@example.org
            * * * * * cat > out.txt; echo "$GREETING|$PATH|$SHELL|$(pwd -P)|$MAILTO" >> out.txt%line one%line two

            """)
        let jobs = folder("jobs.auto")
        let home = ["HOME": folder.path]
        let migrated = try await BinaryRunner.runAwaiting(["migrate", "crontab", crontab, "--output", jobs], environment: home)
        #expect(migrated.exitCode == 0, "\(migrated.standardError)")
        let store = folder("runs.sqlite")
        let run = try await BinaryRunner.runAwaiting(["automations", "run", jobs, "cat", "--store", store], environment: home)
        #expect(run.exitCode == 0, "\(run.standardError)")
        let written = try String(contentsOfFile: folder("out.txt"), encoding: .utf8)
        let physical = folder.url.resolvingSymlinksInPath().path
        #expect(written == "line one\nline two\nhello from cron|/usr/bin:/bin|/bin/sh|\(physical)|\n", "\(written)")
    }
}
