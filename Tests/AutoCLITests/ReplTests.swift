import AutoTestSupport
import Foundation
import Testing

/// The REPL without a terminal (`auto repl < entries`): the same session rules as on a terminal, read line by
/// line. What it prints is what the entries would print as a script, plus errors on standard error.
@Suite struct ReplTests {
    func repl(_ lines: String...) throws -> BinaryRunner.Result {
        try BinaryRunner.run(["repl"], input: lines.joined(separator: "\n") + "\n")
    }

    @Test func variablesShortcutsAndItStayFromOneEntryToTheNext() throws {
        let result = try repl("set x = 5", "x * 2", "shortcut \"sq\" (n: Int) { return n * n }", "sq x", "it + 1")
        #expect(result.exitCode == 0)
        #expect(result.standardOutput == "10\n25\n26\n", "\(result.standardError)")
        #expect(result.standardError.isEmpty)
    }

    /// `say` matches the phrases of the shortcuts declared at the prompt, and a shortcut declared again says its new
    /// phrases.
    @Test func sayRunsAShortcutDeclaredAtThePromptByItsPhrases() throws {
        let result = try repl("shortcut \"half\" (n: Int) phrases [\"half of \\(n)\"] { return n / 2 }", "say half of 9",
                              "shortcut \"half\" (n: Int) phrases [\"split \\(n)\"] { return n / 2 }", "say split 5", "say half of 9")
        #expect(result.standardOutput == "4.5\n2.5\n", "\(result.standardError)")
        #expect(result.standardError.contains("no shortcut matches 'half of 9'"), "\(result.standardError)")
        #expect(result.exitCode == 0)
    }

    @Test func anUnfinishedEntryGoesOnAndABlankLineAbandonsIt() throws {
        let result = try repl("set xs = [", "  1,", "  2]", "if count(xs) > 1 {", "  show \"two\"", "}", "1 +", "", "xs")
        #expect(result.standardOutput == "two\n[1, 2]\n", "\(result.standardError)")
        #expect(result.standardError.isEmpty, "the abandoned '1 +' is never run")
    }

    @Test func anEntryThatDoesNotCompileChangesNothing() throws {
        let result = try repl("set x = 1", "set x = nope + 1", "set y = 2", "x + y")
        #expect(result.standardOutput == "3\n")
        #expect(result.standardError.contains("entry 2:1:9: error: unknown name 'nope'"), "\(result.standardError)")
    }

    @Test func anEntryThatFailsKeepsWhatItSetBeforeTheError() throws {
        let result = try repl("set a = 1", "set a = 2; set b = 1 / 0; set a = 3", "a")
        #expect(result.standardOutput == "2\n", "\(result.standardError)")
        #expect(result.standardError.contains("entry 2:1:"), "\(result.standardError)")
        #expect(result.standardError.contains("division by zero"))
        #expect(result.exitCode == 0, "an error in an entry doesn't end the session")
    }

    @Test func aShortcutDeclaredAgainReplacesTheFirst() throws {
        let result = try repl("shortcut \"f\" (n: Int) { return n + 1 }", "f 1", "shortcut \"f\" (n: Int) { return n * 10 }", "f 1")
        #expect(result.standardOutput == "2\n10\n", "\(result.standardError)")
    }

    @Test func anErrorInAKeptShortcutPointsAtItsOwnEntry() throws {
        let result = try repl("shortcut \"half\" (n: Int) {", "  return n / 0", "}", "half 4")
        #expect(result.standardError.contains("entry 1:2:3: error: division by zero"), "\(result.standardError)")
        #expect(result.standardError.contains("  return n / 0"))
    }

    @Test func commandsListDescribeResetAndQuit() throws {
        let result = try repl("set n = 3", ":vars", ":intents shou", ":help shout", ":reset", ":vars", ":quit", "show \"never\"")
        #expect(result.exitCode == 0)
        let out = result.standardOutput
        #expect(out.contains("n: Int = 3\n"))
        #expect(out.contains("shout  (Text) → Text\n"))
        #expect(out.contains("Parameters:"))
        #expect(out.contains("no variables yet\n"))
        #expect(!out.contains("never"), ":quit ends the session")
        let unknown = try repl(":frobnicate")
        #expect(unknown.standardError == "unknown command ':frobnicate'; ':help' lists the commands\n")
    }

    @Test func loadRunsAScriptIntoTheSession() throws {
        let folder = try TemporaryFolder("auto-repl")
        defer { withExtendedLifetime(folder) {} }
        let path = folder("setup.auto")
        try "set greeting = \"hi\"\nshortcut \"twice\" (t: Text) { return t + t }\n".write(toFile: path, atomically: true, encoding: .utf8)
        let result = try repl(":load \(path)", "twice greeting", ":load \(path).missing")
        #expect(result.standardOutput == "hihi\n", "\(result.standardError)")
        #expect(result.standardError.contains("setup.auto.missing: no such file"))
    }

    @Test func theInputEndingInsideAnEntryRunsWhatThereIsSoItsErrorIsSaid() throws {
        let result = try BinaryRunner.run(["repl"], input: "show [1,")
        #expect(result.exitCode == 0)
        #expect(result.standardError.contains("entry 1:1:8: error: expected a value after ',', found the end of the input"), "\(result.standardError)")
    }

    @Test func aQuestionSaysThatStandardInputIsTheEntries() throws {
        let result = try repl("ask \"Name?\"", "show \"goes on\"")
        #expect(result.standardError.contains("standard input is the session's entries, not a terminal"), "\(result.standardError)")
        #expect(result.standardOutput == "goes on\n")
    }

    /// Control characters, bytes that are not UTF-8 and a long pasted line are an entry like any other: an error
    /// with its place, and the session goes on.
    @Test func badInputIsAnErrorAndTheSessionGoesOn() throws {
        var input = Data("show \"a\u{7}b\"\n".utf8)
        input.append(contentsOf: [0x73, 0x68, 0x6F, 0x77, 0x20, 0xFF, 0xFE, 0x0A])
        input.append(Data(("set long = \"" + String(repeating: "x", count: 20_000) + "\"\ncount(long)\n").utf8))
        input.append(Data("show \"still here\"\n".utf8))
        let result = try BinaryRunner.run(["repl"], input: String(decoding: input, as: UTF8.self))
        #expect(result.exitCode == 0)
        #expect(result.standardOutput.hasSuffix("20000\nstill here\n"), "\(result.standardOutput.suffix(200))")
        #expect(result.standardError.contains("entry 2:1:"), "\(result.standardError)")
    }
}
