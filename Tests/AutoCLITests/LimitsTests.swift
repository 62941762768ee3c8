import AutoTestSupport
import Foundation
import Testing

/// The command line's limits and options hold, and bad values of them are usage errors, never a trap.
@Suite struct LimitsTests {
    func auto(_ arguments: String...) async throws -> BinaryRunner.Result {
        try await BinaryRunner.runAwaiting(arguments)
    }

    @Test(arguments: ["inf", "1e300", "nan", "0", "-1", "0.0000001"])
    func aTimeoutOutOfRangeIsAUsageError(_ value: String) async throws {
        let result = try await auto("--timeout", value, "-e", "show 1")
        #expect(result.exitCode == 2, "--timeout \(value): \(result.standardError)")
        #expect(result.standardError.contains("--timeout must be a number of seconds"), "\(result.standardError)")
    }

    @Test(arguments: ["0", "-1"])
    func aStepLimitBelowOneIsAUsageError(_ value: String) async throws {
        let result = try await auto("--max-steps", value, "-e", "show 1")
        #expect(result.exitCode == 2)
        #expect(result.standardError.contains("--max-steps must be at least 1, not \(value)"), "\(result.standardError)")
    }

    /// The step limit is exact: it was checked only every 1,024 steps, so `--max-steps 1` ran 100 iterations.
    @Test func theStepLimitIsExact() async throws {
        let one = try await auto("--max-steps", "1", "-e", "show 1")
        #expect(one.exitCode == 0, "one statement is one step: \(one.standardError)")
        let loop = try await auto("--max-steps", "5", "-e", "repeat 100 times { show 1 }")
        #expect(loop.exitCode == 1)
        #expect(loop.standardOutput == "1\n1\n", "the repeat, then two iterations of two steps: \(loop.standardOutput)")
        #expect(loop.standardError.contains("more than 5 steps"))
        #expect(loop.standardError.contains("hint: raise the limit with --max-steps"))
        let forever = try await auto("--max-steps", "50", "-e", "while true { }")
        #expect(forever.exitCode == 1 && forever.standardError.contains("more than 50 steps"), "\(forever.standardError)")
        // The largest limit there is: the step after it overflowed (found by auto-fuzz, seed 1, case 746).
        let largest = try await auto("--max-steps", "9223372036854775807", "-e", "repeat 3000 times { }\nshow 1")
        #expect(largest.exitCode == 0, "\(largest.standardError)")
        #expect(largest.standardOutput == "1\n")
    }

    @Test func severalDashERunInOrderAsOneScript() async throws {
        let result = try await auto("-e", "set x = 2", "-e", "show x * 21")
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardOutput == "42\n")
    }

    /// Compiling is inside the time limit too: it can't be interrupted, so the command line ends at the deadline.
    @Test func theTimeLimitCoversCompiling() async throws {
        let folder = try TemporaryFolder("auto-limits")
        defer { withExtendedLifetime(folder) {} }
        let path = folder("big.auto")
        try String(repeating: "set x = [1, 2, 3] + [4]\n", count: 400_000).write(toFile: path, atomically: true, encoding: .utf8)
        let result = try await auto("--timeout", "0.001", path)
        #expect(result.exitCode == 1, "\(result.standardError)")
        #expect(result.standardError.contains("compiling took longer than the time limit"), "\(result.standardError)")
    }

    /// Writing the result is inside the time limit too: a 128 MB text made in a moment takes seconds to write as
    /// JSON, which ran past `--timeout` (found by auto-fuzz, seed 77, case 3565). Nothing of it is written. (On a
    /// loaded machine the run itself may meet the limit first; either way nothing reaches standard output.)
    @Test func theTimeLimitCoversWritingTheResult() async throws {
        let result = try await auto("--json", "--timeout", "2", "-e", "set t = \"ab\"\nrepeat 26 times { set t = t + t }\nt")
        #expect(result.exitCode == 1, "\(result.standardError)")
        #expect(result.standardError.contains("writing the result took longer than the time limit")
                || result.standardError.contains("the run took longer than its time limit"), "\(result.standardError)")
        #expect(result.standardOutput.isEmpty, "\(result.standardOutput.count) bytes written")
        let inTime = try await auto("--json", "--timeout", "30", "-e", "set t = \"ab\"\nrepeat 3 times { set t = t + t }\nt")
        #expect(inTime.exitCode == 0 && inTime.standardOutput == "\"abababababababab\"\n", "\(inTime.standardOutput)")
    }

    /// Output that can't be written ends the command with exit 1, and says so where it still can.
    @Test func outputThatCantBeWrittenIsAnErrorNotATrap() async throws {
        let auto = BinaryRunner.binary
        let full = try await BinaryRunner.runAwaiting(["-c", "'\(auto)' -e 'show 1' > /dev/full"], executable: "/bin/sh")
        #expect(full.exitCode == 1)
        #expect(full.standardError.contains("can't write to standard output: No space left on device"), "\(full.standardError)")
        let closed = try await BinaryRunner.runAwaiting(["-c", "'\(auto)' -e 'show 1' >&-"], executable: "/bin/sh")
        #expect(closed.exitCode == 1)
        #expect(closed.standardError.contains("can't write to standard output"), "\(closed.standardError)")
        let closedError = try await BinaryRunner.runAwaiting(["-c", "'\(auto)' -e 'show x' 2>&-"], executable: "/bin/sh")
        #expect(closedError.exitCode == 2, "a compile error with nowhere to say it: \(closedError.standardError)")
        let pipe = try await BinaryRunner.runAwaiting(["-c", "trap '' PIPE; '\(auto)' -e 'repeat 100000 times { show 1 }' | head -c 1 >/dev/null; echo ${PIPESTATUS[0]}"],
                                        executable: "/bin/bash")
        #expect(pipe.standardOutput.hasSuffix("1\n"), "a reader that left, with SIGPIPE ignored: \(pipe.standardOutput) \(pipe.standardError)")
    }
}

extension LimitsTests {
    /// Under an address-space limit (`ulimit -v`) the default size of a value shrinks to what is left, so a list
    /// doubled in a loop is an error before it is built, not an allocation that aborts (found by auto-fuzz, which
    /// runs `auto` under a 2 GiB limit); with too little left to compile, that is an error too, not a hang.
    @Test func anAddressSpaceLimitBoundsValuesAndCompiling() async throws {
        let auto = BinaryRunner.binary
        let doubling = "set l = [1]\nrepeat 64 times { set l = l + l }\nshow count(l)"
        let limited = try await BinaryRunner.runAwaiting(["-c", "ulimit -v 1048576; exec '\(auto)' -e \"$(printf '\(doubling)')\""], executable: "/bin/sh")
        #expect(limited.exitCode == 1, "\(limited.standardError)")
        #expect(limited.standardError.contains("more than a value may"), "\(limited.standardError)")
        // A script over 1 KB compiles on a thread with a 512 MB stack, which this limit leaves no room for; a smaller
        // one compiles on the caller's own thread (`LargeStack.smallInput`), so it still runs.
        let long = "show 1 # " + String(repeating: "x", count: 1100)
        let tight = try await BinaryRunner.runAwaiting(["-c", "ulimit -v 524288; exec '\(auto)' -e '\(long)'"], executable: "/bin/sh")
        #expect(tight.exitCode == 2, "\(tight.standardError)")
        #expect(tight.standardError.contains("not enough memory to compile"), "\(tight.standardError)")
        let small = try await BinaryRunner.runAwaiting(["-c", "ulimit -v 524288; exec '\(auto)' -e 'show 1'"], executable: "/bin/sh")
        #expect(small.exitCode == 0 && small.standardOutput == "1\n", "\(small.standardError)")
    }

    /// Control characters from a script (a raw ESC) never reach the terminal through a message or a quoted line.
    @Test func controlCharactersInMessagesAreEscaped() async throws {
        let compile = try await auto("check", "-e", "show x\u{1B}[2J")
        #expect(compile.exitCode == 2)
        #expect(!compile.standardError.contains("\u{1B}"), "\(compile.standardError.debugDescription)")
        #expect(compile.standardError.contains("show x?[2J"))
        let runtime = try await auto("-e", "number(\"a\u{1B}[2Jb\")")
        #expect(runtime.exitCode == 1)
        #expect(!runtime.standardError.contains("\u{1B}"), "\(runtime.standardError.debugDescription)")
        #expect(runtime.standardError.contains("'a\\u{1B}[2Jb' is not a number"), "\(runtime.standardError)")
    }

    /// `--max-memory` bounds all the run's values together, not only each one: 400 texts of 1 MB in one list held
    /// 429 MB under a limit of 10 MB. Texts built and dropped one after another stay within it.
    @Test func theMemoryLimitBoundsTheWholeRun() async throws {
        let big = "set big = padLeft(\"\", 1000000, \"x\")\n"
        let kept = try await auto("--max-memory", "10MB", "-e", big + "set l = []\nrepeat 400 times { set l = l + [big + \"y\"] }\nshow count(l)")
        #expect(kept.exitCode == 1, "\(kept.standardOutput) \(kept.standardError)")
        #expect(kept.standardError.contains("more than all its values together may take (10 MB)"), "\(kept.standardError)")
        #expect(kept.standardError.contains("hint: raise it with --max-memory"), "\(kept.standardError)")
        let dropped = try await auto("--max-memory", "10MB", "-e", big + "set n = 0\nrepeat 400 times { set t = big + \"y\"\nset n = n + count(t) }\nshow n")
        #expect(dropped.exitCode == 0, "\(dropped.standardError)")
        #expect(dropped.standardOutput == "400000400\n")
    }

    /// A date pattern Foundation can't honour (one of more than 1,024 characters) gave an empty text; it is an error
    /// that names the pattern.
    @Test func aDatePatternThatCantBeHonouredIsAnError() async throws {
        let long = try await auto("-e", #"show format(date("2024-05-01"), replace(padLeft("", 1000, "x"), "x", "EEEE "))"#)
        #expect(long.exitCode == 1, "\(long.standardOutput)")
        #expect(long.standardError.contains("the date pattern 'EEEE EEEE EEEE EEEE EEEE EEEE EEEE EEEE …' has 5000 characters, more than a pattern may (1024)"),
                "\(long.standardError)")
        let short = try await auto("-e", #"show format(date("2024-05-01"), "EEEE d MMMM")"#)
        #expect(short.standardOutput == "Wednesday 1 May\n", "\(short.standardError)")
    }
}
