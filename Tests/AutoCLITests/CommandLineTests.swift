@testable import AutoCLI
import AutoTestSupport
import Foundation
import Testing

/// The `auto` binary, run as a user runs it.
@Suite struct CommandLineTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder("auto-cli")
    }

    func auto(_ arguments: String..., input: String = "", environment: [String: String] = [:]) async throws -> BinaryRunner.Result {
        try await auto(arguments, input: input, environment: environment)
    }

    func auto(_ arguments: [String], input: String = "", environment: [String: String] = [:]) async throws -> BinaryRunner.Result {
        try await BinaryRunner.runAwaiting(arguments, input: input, environment: environment)
    }

    /// `text` in a file named `name`, alone in a folder of its own in the test's: a test may write two of one name.
    func temporaryFile(_ text: String, name: String = "script.auto") throws -> String {
        let own = folder(UUID().uuidString)
        try FileManager.default.createDirectory(atPath: own, withIntermediateDirectories: true)
        let path = own + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// `auto` declares no App Shortcuts: `shortcuts` says so, and `say` is a usage error that says why.
    @Test func aHostWithoutAppShortcuts() async throws {
        let listed = try await auto("shortcuts")
        #expect(listed.exitCode == 0)
        #expect(listed.standardOutput == "auto has no App Shortcuts\n")
        #expect(try await auto("shortcuts", "--json").standardOutput == "[]\n")
        let said = try await auto("say", "open", "my", "shelf")
        #expect(said.exitCode == 2)
        #expect(said.standardError == "error: auto has no App Shortcuts\n")
        #expect(try await auto("say").exitCode == 2)
    }

    /// A script's shortcuts with `phrases` are said as App Shortcuts are, with the same matcher: typos, fillers and a
    /// number for an Int parameter; the script's own statements don't run.
    @Test func sayRunsAShortcutOfAScriptByItsPhrases() async throws {
        let path = try temporaryFile("""
            show "the script ran"
            shortcut "describe number" (n: Int)
                phrases ["describe \\(n)", "what is \\(n)"] {
              if n % 2 == 0 { return "even" }
              return "odd"
            }
            """)
        for (said, answer) in [("what is 7", "odd"), ("please descibe 10", "even"), ("describe 3 in auto", "odd")] {
            let result = try await auto("say", "--file", path, said)
            #expect(result.exitCode == 0, "\(said): \(result.standardError)")
            #expect(result.standardOutput == "\(answer)\n", "\(said)")
        }
        let none = try await auto("say", "-f", path, "what is seven")
        #expect(none.exitCode == 2)
        #expect(none.standardError.contains("closest: \"what is {n}\""), "\(none.standardError)")
        // Without the script its shortcut is unknown; with a phrase that can't be said, the script is refused.
        #expect(try await auto("say", "what is 7").exitCode == 2)
        let wrong = try temporaryFile("shortcut \"tell\" (t: Text) phrases [\"tell \\(t)\"] { return t }\n")
        let refused = try await auto("say", "-f", wrong, "tell me")
        #expect(refused.exitCode == 2)
        #expect(refused.standardError.contains("a phrase's parameter is an enum, an entity or an Int"), "\(refused.standardError)")
    }

    @Test func runsCode() async throws {
        let result = try await auto("-e", #"show "hi \(1 + 2)""#)
        #expect(result.exitCode == 0)
        #expect(result.standardOutput == "hi 3\n")
    }

    @Test func printsTheResultAsJSON() async throws {
        let result = try await auto("--json", "-e", #"{title: "Circe", year: 2018}"#)
        #expect(result.exitCode == 0)
        #expect(result.standardOutput == #"{"title":"Circe","year":2018}"# + "\n")
        let shown = try await auto("--json", "-e", "show 1\n[1.5, nil, true, 90 seconds, date(\"2024-05-01 07:30:00Z\").year]")
        #expect(shown.standardOutput == "[1.5,null,true,90,2024]\n", "only the result goes to standard output")
        #expect(shown.standardError == "1\n")
    }

    /// Options before the subcommand's name are the subcommand's, as git and nushell read them (`auto --json run f`
    /// was "run: no such file").
    @Test func optionsMayComeBeforeTheSubcommand() async throws {
        let script = folder("f.auto")
        try "show 1\n{a: 2}".write(toFile: script, atomically: true, encoding: .utf8)
        let before = try await auto("--json", "run", script)
        #expect(before.exitCode == 0, "\(before.standardError)")
        #expect(before.standardOutput == #"{"a":2}"# + "\n")
        #expect(try await auto("run", "--json", script).standardOutput == before.standardOutput)
        let timed = try await auto("--timeout", "30", "--json", "run", script)
        #expect(timed.standardOutput == before.standardOutput, "\(timed.standardError)")
        let checked = try await auto("--sandbox", "check", script)
        #expect(checked.exitCode == 0, "\(checked.standardError)")
        // An option the subcommand doesn't take is its error, naming the option.
        let wrong = try await auto("--max-steps", "5", "intents")
        #expect(wrong.exitCode == 2)
        #expect(wrong.standardError.contains("--max-steps"), "\(wrong.standardError)")
        // A value of an option is not taken for a subcommand's name.
        #expect(AutoCommandLine.subcommandFirst(["-e", "show 1", "--json", "say", "hi"]) == ["say", "-e", "show 1", "--json", "hi"])
        #expect(AutoCommandLine.subcommandFirst(["--timeout", "check", "f"]) == ["--timeout", "check", "f"])
        #expect(AutoCommandLine.subcommandFirst(["f.auto", "--json", "run"]) == ["f.auto", "--json", "run"])
    }

    /// Every option of `run` that takes its value as the next argument is known to `subcommandFirst`, as `run --help`
    /// lists them (`--timeout <timeout>`).
    @Test func theOptionsWithValuesAreRunsOwn() async throws {
        let help = try await auto("run", "--help").standardOutput
        let listed = help.split(separator: "\n").compactMap { line -> String? in
            let words = line.split(separator: " ")
            guard let first = words.first, first.hasPrefix("-"), words.count > 1, words[1].hasPrefix("<") else { return nil }
            return String(first)
        }
        let separate = Set(listed.filter { !$0.hasPrefix("--allow-") })  // --allow-read takes its paths after '='
        #expect(!separate.isEmpty)
        #expect(separate == Set(AutoCommandLine.optionsWithValues), "\(listed)")
    }

    /// One rule for the result in both modes: the last statement's value when it makes one, nothing (`null`) after
    /// `set`, `show` or a loop.
    @Test func theResultIsTheSameInBothModes() async throws {
        for (code, text, json) in [("set x = 5", "", "null\n"), ("set x = 5\nx * 2", "10\n", "10\n"),
                                   ("for i in [1, 2] { i }", "", "null\n"), ("show 3", "3\n", "null\n"),
                                   ("set r = {a: 1}\nr", "{a: 1}\n", #"{"a":1}"# + "\n")] {
            let plain = try await auto("-e", code)
            let written = try await auto("--json", "-e", code)
            #expect(plain.standardOutput == text, "auto -e '\(code)'")
            #expect(written.standardOutput == json, "auto --json -e '\(code)'")
        }
    }

    /// A question with standard input piped in (not a terminal) says why nobody can answer it, and so does
    /// `--no-input`.
    @Test func aQuestionNobodyCanAnswerSaysWhy() async throws {
        let piped = try await auto("-e", #"ask "Name?""#, input: "Ada\n")
        #expect(piped.exitCode == 1)
        #expect(piped.standardError.contains("nobody can answer 'Name?' (standard input is not a terminal)"), "\(piped.standardError)")
        let refused = try await auto("--no-input", "-e", #"ask "Name?""#)
        #expect(refused.standardError.contains("(--no-input was given)"), "\(refused.standardError)")
    }

    @Test func runsAFileAndStandardInputWithArguments() async throws {
        let path = try temporaryFile("show args\nshow count(args)")
        let file = try await auto("run", path, "a", "b")
        #expect(file.standardOutput == "[\"a\", \"b\"]\n2\n")
        let stdin = try await auto("run", "-", "x", input: "show args")
        #expect(stdin.standardOutput == "[\"x\"]\n")
        let code = try await auto("-e", "show args", "one")
        #expect(code.standardOutput == "[\"one\"]\n")
    }

    @Test func runsAnExecutableScriptThroughItsShebang() async throws {
        let path = folder("shebang.auto")
        try BinaryRunner.writeExecutable("#!/usr/bin/env auto\nshow \"from a shebang \\(args)\"\n", to: path)
        let result = try await BinaryRunner.runAwaiting(["arg"], executable: path)
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardOutput == "from a shebang [\"arg\"]\n")
    }

    @Test func checkReportsEveryErrorWithACaretAndAHint() async throws {
        let path = try temporaryFile("""
            set favourite = "Circe"
            show favourit
            show "a" + 1
            shuw favourite
            """, name: "broken.auto")
        let result = try await auto("check", path)
        #expect(result.exitCode == 2)
        let errors = result.standardError.components(separatedBy: "\n").filter { $0.contains(": error: ") }
        #expect(errors.count == 3, "\(result.standardError)")
        #expect(result.standardError.contains("broken.auto:2:6: error: unknown name 'favourit'\n  show favourit\n       ^~~~~~~~\n  hint: did you mean 'favourite'?"))
        #expect(result.standardError.contains("broken.auto:3:6: error: can't apply '+' to Text and Int"))
        #expect(result.standardError.contains("broken.auto:4:1: error: unknown action 'shuw'\n  shuw favourite\n  ^~~~\n  hint: did you mean 'show'?"))
        #expect(result.standardError.hasSuffix("3 errors\n"))
        let fine = try await auto("check", try temporaryFile("show 1"))
        #expect(fine.exitCode == 0)
    }

    @Test func exitCodes() async throws {
        #expect(try await auto("-e", "show 1 / 0").exitCode == 1)
        #expect(try await auto("-e", "show (").exitCode == 2)
        #expect(try await auto("run", "/nonexistent/script.auto").exitCode == 2)
        #expect(try await auto("--no-such-option").exitCode == 2)
        let missing = try await auto("run", "/nonexistent/script.auto")
        #expect(missing.standardError.contains("/nonexistent/script.auto: no such file"))
        let runtime = try await auto("-e", "show 1\nshow 1 / 0")
        #expect(runtime.standardOutput == "1\n")
        #expect(runtime.standardError.contains("-e:2:6: error: division by zero"))
    }

    @Test func graphPrintsDOT() async throws {
        let path = try temporaryFile("""
            shortcut "twice" (n: Int) { return n * 2 }
            set numbers = [1, 2, 3]
            numbers | twice -> doubled
            show "\\(doubled)"
            """)
        let result = try await auto("graph", path)
        #expect(result.exitCode == 0)
        #expect(result.standardOutput.hasPrefix("digraph"))
        #expect(result.standardOutput.contains("[label=\"numbers\"]"))
        #expect(result.standardOutput.contains("[label=\"doubled\"]"))
        #expect(result.standardOutput.contains("twice the piped value"))
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/dot") {
            let svgPath = path + ".dot"
            try result.standardOutput.write(toFile: svgPath, atomically: true, encoding: .utf8)
            let svg = try await BinaryRunner.runAwaiting(["-Tsvg", svgPath], executable: "/usr/bin/dot")
            #expect(svg.exitCode == 0, "\(svg.standardError)")
            #expect(svg.standardOutput.contains("<svg"))
        }
    }

    @Test func intentsListsAndDescribes() async throws {
        let list = try await auto("intents")
        #expect(list.exitCode == 0)
        #expect(list.standardOutput.contains("show "))
        #expect(list.standardOutput.contains("average "))
        #expect(list.standardOutput.contains("[shortcut, stdlib/numbers.auto:"))
        let describe = try await auto("intents", "describe", "show")
        #expect(describe.standardOutput.hasPrefix("Show\n  Show {value}\n"))
        #expect(describe.standardOutput.contains("value: Any, required, input"))
        let shortcut = try await auto("intents", "describe", "numbers", "from")
        #expect(shortcut.standardOutput.contains("step: Int, optional, default 1"))
        let unknown = try await auto("intents", "describe", "shwo")
        #expect(unknown.exitCode == 2)
        #expect(unknown.standardError.contains("did you mean 'show'?"))
    }

    /// A script of one shortcut, which also does something when run: `intents` must only compile it.
    static let pagesLeft = """
        # How far along a book is.
        shortcut "pages left" (total: Int, read: Int = 0)
            phrases ["pages left in \\(total)"] {
          return total - read
        }
        show pages left 300 read: 120
        """

    @Test func intentsListsTheShortcutsOfAScript() async throws {
        let path = try temporaryFile(Self.pagesLeft, name: "pages.auto")
        let list = try await auto("intents", path)
        #expect(list.exitCode == 0, "\(list.standardError)")
        let line = try #require(list.standardOutput.split(separator: "\n").first { $0.hasPrefix("pages left ") }, "\(list.standardOutput)")
        #expect(line.hasSuffix("  (Int) → Int  A shortcut from \(path).  [shortcut, \(path):2]"), "\(line)")
        #expect(list.standardOutput.contains("[shortcut, stdlib/numbers.auto:"), "the prelude's shortcuts are listed too")
        // A line of its own: the listing names the script's path, whose random folder names may hold "180".
        #expect(!list.standardOutput.split(separator: "\n").contains("180"), "listing doesn't run the script")
        #expect(list.standardError == "")
        let all = try await auto("intents", "--all", path)
        #expect(all.standardOutput.contains(String(line)))
        let without = try await auto("intents")
        #expect(!without.standardOutput.contains("pages left"), "only the script declares it")
    }

    @Test func intentsDescribesAShortcutOfAScript() async throws {
        let path = try temporaryFile(Self.pagesLeft, name: "pages.auto")
        let describe = try await auto("intents", "describe", "pages", "left", path)
        #expect(describe.exitCode == 0, "\(describe.standardError)")
        #expect(describe.standardOutput == """
            pages left
              pages left {total} read: {read}

              A shortcut from \(path).

            Parameters:
              total: Int, required, input
              read: Int, optional, default 0
            Result: Int
            Category: Shortcuts
            Phrases ('auto say …'): "pages left in {total}"
            Declared at: \(path):2

            """)
        // A script named anything, with --file; every word before it is the name.
        let noSuffix = try temporaryFile(Self.pagesLeft, name: "pages")
        let byOption = try await auto("intents", "describe", "pages", "left", "--file", noSuffix)
        #expect(byOption.exitCode == 0, "\(byOption.standardError)")
        #expect(byOption.standardOutput.hasSuffix("Declared at: \(noSuffix):2\n"), "\(byOption.standardOutput)")
        let short = try await auto("intents", "describe", "-f", noSuffix, "pages left")
        #expect(short.standardOutput == byOption.standardOutput)
        // The host's intents are still there beside the script's.
        let builtIn = try await auto("intents", "describe", "show", path)
        #expect(builtIn.standardOutput.hasPrefix("Show\n  Show {value}\n"), "\(builtIn.standardOutput)")
    }

    @Test func intentsOfAScriptThatIsMissingOrDoesNotCompileFail() async throws {
        let missing = try await auto("intents", "/nonexistent/pages.auto")
        #expect(missing.exitCode == 2)
        #expect(missing.standardError.contains("/nonexistent/pages.auto: no such file"), "\(missing.standardError)")
        #expect(missing.standardOutput == "")
        let missingDescribed = try await auto("intents", "describe", "pages", "left", "/nonexistent/pages.auto")
        #expect(missingDescribed.exitCode == 2)
        #expect(missingDescribed.standardError.contains("/nonexistent/pages.auto: no such file"), "\(missingDescribed.standardError)")
        let missingOption = try await auto("intents", "describe", "pages", "left", "--file", "/nonexistent/pages")
        #expect(missingOption.standardError.contains("/nonexistent/pages: no such file"), "\(missingOption.standardError)")
        let noName = try await auto("intents", "describe", "/nonexistent/pages.auto")
        #expect(noName.exitCode == 2)
        #expect(noName.standardError.contains("name what to describe before the script: 'auto intents describe NAME /nonexistent/pages.auto'"),
                "\(noName.standardError)")

        let broken = try temporaryFile("""
            shortcut "pages left" (total: Int, read: Int = 0) {
              return total - raed
            }
            show pages left "300"
            """, name: "broken.auto")
        let check = try await auto("check", broken)
        #expect(check.exitCode == 2)
        #expect(check.standardError.contains("broken.auto:2:18: error: unknown name 'raed'\n    return total - raed\n"), "\(check.standardError)")
        #expect(check.standardError.hasSuffix("2 errors\n"), "\(check.standardError)")
        for arguments in [["intents", broken], ["intents", "describe", "pages", "left", broken], ["intents", "describe", "show", "-f", broken]] {
            let result = try await auto(arguments)
            #expect(result.exitCode == 2, "\(arguments)")
            #expect(result.standardOutput == "", "\(arguments)")
            #expect(result.standardError == check.standardError, "\(arguments) reports the errors as check does")
        }
    }

    @Test func colourOnlyOnATerminalAndNeverWithNoColor() async throws {
        let plain = try await auto("check", "-e", "show x")
        #expect(!plain.standardError.contains("\u{1B}["), "no colour when standard error is a pipe")
        // `script` gives the binary a real pseudo-terminal.
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { return }
        let command = "\(BinaryRunner.binary) check -e 'show x'"
        let terminal = try await BinaryRunner.runAwaiting(["-qec", command, "/dev/null"], executable: "/usr/bin/script", environment: ["TERM": "xterm", "NO_COLOR": ""])
        #expect(terminal.standardOutput.contains("\u{1B}[1;31merror:"), "colour on a terminal: \(terminal.standardOutput)")
        let noColor = try await BinaryRunner.runAwaiting(["-qec", command, "/dev/null"], executable: "/usr/bin/script", environment: ["TERM": "xterm", "NO_COLOR": "1"])
        #expect(noColor.standardOutput.contains("error: unknown name 'x'"))
        #expect(!noColor.standardOutput.contains("\u{1B}["), "NO_COLOR turns colour off")
    }

    @Test func stepLimitFromTheCommandLine() async throws {
        let result = try await auto("--max-steps", "1000", "-e", "repeat 1_000_000 times { }")
        #expect(result.exitCode == 1)
        #expect(result.standardError.contains("more than 1000 steps"))
    }
}
