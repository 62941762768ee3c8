@testable import AutoTerminal
@testable import AutoCLI
import AutoTestSupport
import Foundation
import Testing

/// `auto -e CODE` and `auto SCRIPT ARGS…` skip ArgumentParser; everything else goes through it. Both paths must
/// give the same output, errors and exit codes.
@Suite struct DirectRunTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder("auto-direct")
    }

    func script(_ text: String) throws -> String {
        let path = folder("\(UUID().uuidString).auto")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func onlyCodeOrAScriptWithItsArgumentsTakesTheDirectPath() throws {
        let path = try script("show 1")
        #expect(DirectRun.plain(["-e", "show 1"])?.script.text == "show 1")
        #expect(DirectRun.plain(["-e", "show args", "a", "b"])?.arguments == ["a", "b"])
        #expect(DirectRun.plain(["run", "-e", "show 1"]) != nil)
        #expect(DirectRun.plain(["run", path, "x"])?.arguments == ["x"])
        #expect(DirectRun.plain(["run", path, "x"])?.script.name == path)
        // An option anywhere, several -e, standard input, a missing file or another command: the parser's.
        for arguments in [["--json", "-e", "1"], ["-e", "1", "--json"], ["-e", "1", "-e", "2"], ["-e", "--help"],
                          ["run", "-"], ["run", path, "--yes"], ["run", "/nonexistent/x.auto"], ["check", path], [path], []] {
            #expect(DirectRun.plain(arguments) == nil, "\(arguments)")
        }
    }

    /// `--timeout 1000` changes nothing for these scripts but sends them through the parser.
    @Test func bothPathsGiveTheSameResults() async throws {
        let file = try script("show args\nshow count(args) * 2")
        let cases: [[String]] = [
            ["-e", #"show "hi \(1 + 2)""#], ["-e", "show args", "one", "two"], ["-e", "show 1\nshow 1 / 0"], ["-e", "show ("],
            ["-e", #"ask "Name?""#], ["run", file, "a", "b"], ["-e", #"read file "/nonexistent/file.txt""#],
        ]
        for arguments in cases {
            let direct = try await BinaryRunner.runAwaiting(arguments)
            let parsed = try await BinaryRunner.runAwaiting(arguments.first == "run"
                ? ["run", "--timeout", "1000"] + arguments.dropFirst() : ["--timeout", "1000"] + arguments)
            #expect(direct.exitCode == parsed.exitCode, "\(arguments)")
            #expect(direct.standardOutput == parsed.standardOutput, "\(arguments)")
            #expect(direct.standardError == parsed.standardError, "\(arguments)")
        }
    }

    /// A script of immediate calls runs on the main thread, which starts with the mask of the thread that spawned the
    /// process. Signals that thread blocked must still reach the run: Ctrl-C cancels it, SIGTERM ends it.
    @Test func signalsTheParentBlockedStillReachTheRun() throws {
        let code = "show \"counting\"\nrepeat 1_000_000_000 times { set x = 1 }"
        for (signal, status) in [(SIGINT, Int32(130)), (SIGTERM, 128 + SIGTERM)] {
            var blocked = sigset_t(), previous = sigset_t()
            sigemptyset(&blocked)
            sigaddset(&blocked, SIGINT)
            sigaddset(&blocked, SIGTERM)
            pthread_sigmask(SIG_BLOCK, &blocked, &previous)
            let child = Result { try ChildProcess(BinaryRunner.binary, ["-e", code]) }
            pthread_sigmask(SIG_SETMASK, &previous, nil)
            let run = try child.get()
            #expect(run.waitForOutput { $0.contains("counting") }, "\(run.standardError)")
            run.signal(signal)
            #expect(run.waitForExit(timeout: .seconds(30)) == status, "signal \(signal): \(run.standardError)")
        }
    }
}
