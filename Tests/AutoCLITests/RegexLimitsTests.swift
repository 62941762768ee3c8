import AutoTestSupport
import Foundation
import Testing

/// A regular expression of catastrophic shape stops at the run's limits like a loop does: the time limit, the step
/// limit and Ctrl-C. `(x+x+)+y` on seventy `x`s backtracks more than 2^70 times; Swift's `Regex` ran such patterns
/// past every limit (`^(a+)+$` on 22 `a`s and a `!` over 100 s with `--timeout 1`). Each command runs under `timeout 120`, so a match that doesn't stop
/// fails the test instead of hanging the suite.
@Suite struct RegexLimitsTests {
    static let catastrophic = "matches(\"\(String(repeating: "x", count: 70))\", \"(x+x+)+y\")"

    func auto(_ arguments: String...) async throws -> BinaryRunner.Result {
        try await BinaryRunner.runAwaiting(["120", BinaryRunner.binary] + arguments, executable: "/usr/bin/timeout")
    }

    @Test func aCatastrophicPatternStopsAtTheTimeLimit() async throws {
        let result = try await auto("--timeout", "1", "-e", "show \(Self.catastrophic)")
        #expect(result.exitCode == 1, "\(result.standardError)")
        #expect(result.standardError.contains("the run took longer than its time limit"), "\(result.standardError)")
        let replaced = try await auto("--timeout", "1", "-e", "show replaceMatches(\"\(String(repeating: "a", count: 70))!\", \"(a|aa)+$\", \"x\")")
        #expect(replaced.exitCode == 1, "\(replaced.standardError)")
        #expect(replaced.standardError.contains("the run took longer than its time limit"), "\(replaced.standardError)")
    }

    /// Without a time limit, the engine's backtracking counts against the step limit, so no pattern holds the
    /// thread for ever; `otherwise` can't catch it, as it can't catch a loop's.
    @Test func aCatastrophicPatternCountsAgainstTheStepLimit() async throws {
        let result = try await auto("--max-steps", "1000000", "-e", "show \(Self.catastrophic) otherwise \"caught\"")
        #expect(result.exitCode == 1, "\(result.standardError)")
        #expect(result.standardError.contains("matching the regular expression '(x+x+)+y' took more than 1000000 steps"), "\(result.standardError)")
        #expect(result.standardError.contains("hint: raise the limit with --max-steps"), "\(result.standardError)")
        #expect(!result.standardOutput.contains("caught"))
    }

    @Test func ctrlCStopsACatastrophicPattern() throws {
        // The child is killed when the test ends, so a match that doesn't stop can't hang the suite.
        let child = try ChildProcess(BinaryRunner.binary, ["-e", "show \"matching\"", "-e", "show \(Self.catastrophic)"])
        #expect(child.waitForOutput(timeout: .seconds(60)) { $0.contains("matching") })
        child.signal(SIGINT)
        #expect(child.waitForExit(timeout: .seconds(100)) == 130, "\(child.standardError)")
    }

    /// Searching a long text is no backtracking: it doesn't count against the step limit, however small.
    @Test func searchingALongTextTakesNoSteps() async throws {
        let result = try await auto("--max-steps", "100", "-e", #"set t = replace(padLeft("", 200000, "x"), "x", "ab1 ")"#,
                                    "-e", #"show count(allMatches(t, "[a-z]+\\d")) + count(allMatches(t, "zzz"))"#)
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardOutput == "200000\n")
    }

    /// What the switch of engine keeps: matches on a long text, groups, replacements and a pattern's mistakes.
    @Test func ordinaryPatternsStillMatch() async throws {
        let result = try await auto("-e", #"show count(allMatches(replace(padLeft("", 50000, "x"), "x", "ab"), "ab"))"#,
                                    "-e", #"show captures("2024-05-01", "(\\d+)-(\\d+)-(\\d+)")"#,
                                    "-e", #"show replaceMatches("naïve café", "(\\w+) (\\w+)", "$2 $1")"#)
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardOutput == "50000\n[\"2024\", \"05\", \"01\"]\ncafé naïve\n", "\(result.standardOutput)")
    }
}
