import AutoTestSupport
import Foundation
import Testing

/// Scripts come from wherever a shell can name them: a pipe (`<(…)`, `/dev/fd/N`), a FIFO; a device or a folder
/// is refused with a message that says what it is, never read for ever.
@Suite struct ScriptFileTests {
    /// Runs `command` in bash, with `$1` the `auto` binary and `$2` … the other arguments.
    func shell(_ command: String, _ arguments: String...) async throws -> BinaryRunner.Result {
        try await BinaryRunner.runAwaiting(["-c", command, "bash", BinaryRunner.binary] + arguments, executable: "/bin/bash")
    }

    @Test func aScriptIsReadFromAProcessSubstitution() async throws {
        let result = try await shell(#"timeout 60 "$1" run <(echo 'show 1 + 1')"#)
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardOutput == "2\n")
    }

    @Test func aScriptIsReadFromAFIFO() async throws {
        let folder = try TemporaryFolder("auto-fifo")
        defer { withExtendedLifetime(folder) {} }
        let fifo = folder("script.auto")
        #expect(mkfifo(fifo, 0o600) == 0)
        let result = try await shell(#"(echo 'show "from a fifo"' > "$2") & timeout 60 "$1" run "$2"; wait"#, fifo)
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardOutput == "from a fifo\n")
    }

    @Test(arguments: [("/dev/zero", "/dev/zero: is a device (a character device), not a script"),
                      ("/tmp", "/tmp: is a folder, not a script")])
    func aDeviceOrAFolderIsRefusedWithWhatItIs(_ path: String, _ message: String) async throws {
        let run = try await shell("timeout 60 \"$1\" run \(path)")
        #expect(run.exitCode == 2, "\(run.standardError)")
        #expect(run.standardError.contains(message), "\(run.standardError)")
        let load = try await BinaryRunner.runAwaiting(["60", BinaryRunner.binary, "repl"], executable: "/usr/bin/timeout", input: ":load \(path)\nshow 3\n")
        #expect(load.standardError.contains(message), "\(load.standardError)")
        #expect(load.standardOutput.contains("3"), "the session goes on: \(load.standardOutput)")
    }
}
