import AutoTestSupport
import Foundation
import Testing

/// The REPL in a real pseudo-terminal, through libedit: what a person sees typing, editing, recalling history
/// and pressing Ctrl-C. Each test has its own history folder (`XDG_STATE_HOME`). Serialized, and every wait is
/// for something on the screen, with a generous deadline. Keys are sent only once the prompt they are for is on
/// the screen: libedit switches the terminal's mode when it starts reading, and what was typed ahead is lost
/// then, as it is for a person typing ahead.
@Suite(.serialized) final class ReplTerminalTests {
    let state: TemporaryFolder

    init() throws {
        state = try TemporaryFolder("auto-repl-state")
    }

    func repl(_ arguments: [String] = []) throws -> TerminalSession {
        try TerminalSession(arguments, environment: ["XDG_STATE_HOME": state.path])
    }

    static let up = "\u{1B}[A"
    static let left = "\u{1B}[D"

    @Test func aloneOnATerminalAutoOpensTheREPLAndKeepsVariables() throws {
        let session = try repl()
        #expect(session.waitFor("auto> ", timeout: .seconds(20)) && session.waitForKeys(), "\(session.visibleOutput)")
        session.send("set x = 20\r")
        #expect(session.waitFor("auto> ", count: 2) && session.waitForKeys())
        session.send("x + 22\r")
        #expect(session.waitFor("42"), "\(session.visibleOutput)")
        #expect(session.waitFor("auto> ", count: 3) && session.waitForKeys())
        session.send("\u{4}")
        #expect(session.waitForExit(timeout: .seconds(20)) == 0)
    }

    @Test func anUnfinishedEntryGoesOnAtTheContinuationPrompt() throws {
        let session = try repl(["repl"])
        #expect(session.waitFor("auto> ", timeout: .seconds(20)) && session.waitForKeys())
        session.send("if 1 < 2 {\r")
        #expect(session.waitFor("...> ") && session.waitForKeys(), "\(session.visibleOutput)")
        session.send("show \"inside\"\r")
        #expect(session.waitFor("...> ", count: 2) && session.waitForKeys())
        session.send("}\r")
        #expect(session.waitFor("inside\n"), "\(session.visibleOutput)")
        #expect(session.waitFor("auto> ", count: 2) && session.waitForKeys())
        session.send("\u{4}")
        #expect(session.waitForExit(timeout: .seconds(20)) == 0)
    }

    @Test func editingKeysAndCtrlCAtThePromptClearsTheLine() throws {
        let session = try repl(["repl"])
        #expect(session.waitFor("auto> ", timeout: .seconds(20)) && session.waitForKeys())
        // Ctrl-A goes to the start of the line: "show 1" becomes "show 21"... typed as "1", Ctrl-A, "show 2".
        session.send("1\u{1}show 2\r")
        #expect(session.waitFor("21\n"), "\(session.visibleOutput)")
        #expect(session.waitFor("auto> ", count: 2) && session.waitForKeys())
        session.send("show \"never\"\u{3}")
        #expect(session.waitFor("auto> ", count: 3) && session.waitForKeys(), "\(session.visibleOutput)")
        session.send("show \"after\"\r")
        #expect(session.waitFor("after\n"), "\(session.visibleOutput)")
        #expect(!session.visibleOutput.contains("never\n"), "Ctrl-C abandons the line: \(session.visibleOutput)")
        #expect(session.waitFor("auto> ", count: 4) && session.waitForKeys())
        session.send("\u{4}")
        #expect(session.waitForExit(timeout: .seconds(20)) == 0)
    }

    /// Ctrl-C on an empty line is no way out (people press it out of habit): the line is cleared, the first time with
    /// a word on how to leave, and the session goes on; on an empty continuation line it abandons the entry.
    @Test func ctrlCOnAnEmptyLineClearsItAndSaysOnceHowToLeave() throws {
        let session = try repl(["repl"])
        #expect(session.waitFor("auto> ", timeout: .seconds(20)) && session.waitForKeys())
        session.send("\u{3}")
        #expect(session.waitFor("(Ctrl-D on an empty line leaves, as :quit does)"), "\(session.visibleOutput)")
        #expect(session.waitFor("auto> ", count: 2) && session.waitForKeys(), "\(session.visibleOutput)")
        session.send("\u{3}")
        #expect(session.waitFor("auto> ", count: 3) && session.waitForKeys(), "\(session.visibleOutput)")
        session.send("if 1 < 2 {\r")
        #expect(session.waitFor("...> ") && session.waitForKeys(), "\(session.visibleOutput)")
        session.send("\u{3}")
        #expect(session.waitFor("auto> ", count: 4) && session.waitForKeys(), "\(session.visibleOutput)")
        session.send("show \"still here\"\r")
        #expect(session.waitFor("still here\n"), "\(session.visibleOutput)")
        #expect(session.visibleOutput.components(separatedBy: "Ctrl-D on an empty line leaves").count == 2, "said once: \(session.visibleOutput)")
        #expect(session.waitFor("auto> ", count: 5) && session.waitForKeys())
        session.send("\u{4}")
        #expect(session.waitForExit(timeout: .seconds(20)) == 0)
    }

    /// Ctrl-C at a question (ask, choose, confirm) stops the entry as cancelled; the prompt comes back and the
    /// session keeps what it had.
    @Test(arguments: ["ask \"Which name?\"", "choose \"Which name?\" from [\"a\", \"b\", \"c\"]", "confirm \"Which name?\""])
    func ctrlCAtAQuestionCancelsTheEntry(question: String) throws {
        let session = try repl(["repl"])
        #expect(session.waitFor("auto> ", timeout: .seconds(20)) && session.waitForKeys())
        session.send("set kept = 7\r")
        #expect(session.waitFor("auto> ", count: 2) && session.waitForKeys())
        session.send("\(question); show \"answered\"\r")
        // The question as drawn (`? `, not the entry's echo) comes right before its answer is read: a Ctrl-C then
        // finds the entry waiting, or about to.
        #expect(session.waitFor("? Which name?"), "\(session.visibleOutput)")
        session.interrupt()
        #expect(session.waitFor("cancelled: interrupted", timeout: .seconds(20)), "\(session.visibleOutput)")
        #expect(session.waitFor("auto> ", count: 3) && session.waitForKeys(), "\(session.visibleOutput)")
        session.send("show kept\r")
        #expect(session.waitFor("7\n"), "\(session.visibleOutput)")
        #expect(!session.visibleOutput.contains("\nanswered\n"), "\(session.visibleOutput)")
        #expect(session.waitFor("auto> ", count: 4) && session.waitForKeys())
        session.send("\u{4}")
        #expect(session.waitForExit(timeout: .seconds(20)) == 0)
    }

    /// Ctrl-C typed at a real terminal (tmux's), where the terminal makes it SIGINT while a question reads a line.
    @Test func ctrlCTypedAtAQuestionInARealTerminalCancelsTheEntry() throws {
        let session = try TmuxSession(["repl"], environment: ["XDG_STATE_HOME": state.path])
        #expect(session.waitFor("auto>", timeout: .seconds(20)), "\(session.screen)")
        session.send("choose \"Which one?\" from [\"a\", \"b\"]")
        session.press("Enter")
        #expect(session.waitFor("Choose 1–2:"), "\(session.screen)")
        session.press("C-c")
        #expect(session.waitFor("cancelled: interrupted", timeout: .seconds(20)), "\(session.screen)")
        #expect(session.waitFor("auto>", count: 2), "\(session.screen)")
        session.send("show 40 + 2")
        session.press("Enter")
        #expect(session.waitForScreen { $0.contains("42") }, "\(session.screen)")
        #expect(session.waitFor("auto>", count: 3))
        session.press("C-d")
        #expect(session.waitForEnd(timeout: .seconds(20)), "Ctrl-D leaves: \(session.screen)")
    }

    /// Ctrl-R as bash has it, read off the screen tmux draws: the prompt says what it is, each character narrows the
    /// search, Ctrl-R again goes on to an older entry, Return runs the one found, Ctrl-G gives the line back, and any
    /// other key leaves the entry found on the line to edit.
    @Test func ctrlRSearchesTheHistoryBackwardsAndSaysSo() throws {
        let session = try TmuxSession(["repl"], environment: ["XDG_STATE_HOME": state.path])
        #expect(session.waitFor("auto>", timeout: .seconds(20)), "\(session.screen)")
        for (number, entry) in ["show \"alpha\"", "show 40 + 2", "show \"alphabet\""].enumerated() {
            session.send(entry)
            session.press("Enter")
            #expect(session.waitFor("auto>", count: number + 2), "\(session.screen)")
        }
        session.press("C-r")
        #expect(session.waitForScreen { $0.last { !$0.isEmpty } == "(reverse-i-search)`':" }, "\(session.screen)")
        session.send("alph")
        #expect(session.waitForScreen { $0.contains("(reverse-i-search)`alph': show \"alphabet\"") }, "\(session.screen)")
        session.press("C-r")
        #expect(session.waitForScreen { $0.contains("(reverse-i-search)`alph': show \"alpha\"") }, "\(session.screen)")
        session.press("Enter")
        #expect(session.waitForScreen { $0.filter { $0 == "alpha" }.count == 2 }, "runs the older entry: \(session.screen)")
        #expect(session.waitFor("auto>", count: 5), "\(session.screen)")
        session.press("C-r")
        session.send("zzz")
        #expect(session.waitForScreen { $0.contains("(failed reverse-i-search)`zzz':") }, "\(session.screen)")
        session.press("C-g")
        #expect(session.waitForScreen { $0.last { !$0.isEmpty } == "auto>" }, "Ctrl-G gives the empty line back: \(session.screen)")
        session.press("C-r")
        session.send("40")
        #expect(session.waitForScreen { $0.contains("(reverse-i-search)`40': show 40 + 2") }, "\(session.screen)")
        // Ctrl-E ends the search and goes to the end of the line, where the entry is edited: `show 40 + 20`.
        session.press("C-e")
        #expect(session.waitForScreen { $0.last { !$0.isEmpty } == "auto> show 40 + 2" }, "\(session.screen)")
        session.send("0")
        session.press("Enter")
        #expect(session.waitForScreen { $0.contains("60") }, "\(session.screen)")
        #expect(session.waitFor("auto>", count: 6), "\(session.screen)")
        session.press("C-d")
        #expect(session.waitForEnd(timeout: .seconds(20)), "Ctrl-D leaves: \(session.screen)")
    }

    @Test func altBAndAltFMoveByWords() throws {
        let session = try repl(["repl"])
        #expect(session.waitFor("auto> ", timeout: .seconds(20)) && session.waitForKeys())
        // "show 3", Alt-B to the start of "3", "4" before it, Alt-F past "43", "5": `show 435`.
        session.send("show 3\u{1B}b4\u{1B}f5\r")
        #expect(session.waitFor("435\n"), "\(session.visibleOutput)")
        #expect(session.waitFor("auto> ", count: 2) && session.waitForKeys())
        session.send("\u{4}")
        #expect(session.waitForExit(timeout: .seconds(20)) == 0)
    }

    /// Characters beyond ASCII whatever the locale, invalid UTF-8 as U+FFFD, and a pasted line of several kilobytes.
    @Test func unicodeInvalidBytesAndALongPastedLine() throws {
        let session = try TerminalSession(["repl"], environment: ["XDG_STATE_HOME": state.path, "LANG": "", "LC_ALL": "", "LC_CTYPE": ""])
        #expect(session.waitFor("auto> ", timeout: .seconds(20)) && session.waitForKeys())
        session.send("show \"café 漢字\"\r")
        #expect(session.waitFor("café 漢字\n"), "\(session.visibleOutput)")
        #expect(session.waitFor("auto> ", count: 2) && session.waitForKeys())
        session.send(bytes: Array("show \"a".utf8) + [0xFF, 0xC3] + Array("b\"\r".utf8))
        #expect(session.waitFor("a\u{FFFD}\u{FFFD}b\n"), "\(session.visibleOutput)")
        #expect(session.waitFor("auto> ", count: 3) && session.waitForKeys())
        let long = String(repeating: "0123456789", count: 600)
        session.send("show count(characters(\"\(long)\"))\r")
        #expect(session.waitFor("6000\n", timeout: .seconds(20)), "\(session.visibleOutput.suffix(300))")
        #expect(session.waitFor("auto> ", count: 4) && session.waitForKeys())
        session.send("\u{4}")
        #expect(session.waitForExit(timeout: .seconds(20)) == 0)
    }

    @Test func historyIsRecalledAfterARestartAndSearchedWithCtrlR() throws {
        let first = try repl(["repl"])
        #expect(first.waitFor("auto> ", timeout: .seconds(20)) && first.waitForKeys())
        first.send("show 40 + 2\r")
        #expect(first.waitFor("auto> ", count: 2) && first.waitForKeys())
        first.send("show \"alpha\"\r")
        #expect(first.waitFor("auto> ", count: 3) && first.waitForKeys())
        first.send("\u{4}")
        #expect(first.waitForExit(timeout: .seconds(20)) == 0)
        let saved = try String(contentsOfFile: state("auto/history"), encoding: .utf8)
        #expect(saved == "show 40 + 2\nshow \"alpha\"\n")

        let second = try repl(["repl"])
        #expect(second.waitFor("auto> ", timeout: .seconds(20)) && second.waitForKeys())
        second.send(Self.up + Self.up + "\r")
        #expect(second.waitFor("42"), "Up twice brings back the first entry: \(second.visibleOutput)")
        #expect(second.waitFor("auto> ", count: 2) && second.waitForKeys())
        second.send("\u{12}alph")
        second.send("\r")
        #expect(second.waitFor("alpha\n"), "Ctrl-R finds the entry: \(second.visibleOutput)")
        #expect(second.waitFor("auto> ", count: 3) && second.waitForKeys())
        second.send("\u{4}")
        #expect(second.waitForExit(timeout: .seconds(20)) == 0)
    }

    @Test func ctrlCCancelsTheEntryRunningAndTheSessionGoesOn() throws {
        let session = try repl(["repl"])
        #expect(session.waitFor("auto> ", timeout: .seconds(20)) && session.waitForKeys())
        session.send("set kept = 7\r")
        #expect(session.waitFor("auto> ", count: 2) && session.waitForKeys())
        session.send("show \"started\"; repeat 1000000000 times { set n = 1 }\r")
        // The entry is running once it has shown something; then Ctrl-C.
        #expect(session.waitFor("started\n"))
        session.interrupt()
        #expect(session.waitFor("cancelled: interrupted", timeout: .seconds(20)), "\(session.visibleOutput)")
        #expect(session.waitFor("auto> ", count: 3) && session.waitForKeys())
        session.send("show kept\r")
        #expect(session.waitFor("7\n"), "\(session.visibleOutput)")
        #expect(session.waitFor("auto> ", count: 4) && session.waitForKeys())
        session.send("\u{4}")
        #expect(session.waitForExit(timeout: .seconds(20)) == 0)
    }

    @Test func aHistoryThatCantBeSavedGivesOneWarningAndTheSessionGoesOn() throws {
        let session = try TerminalSession(["repl"], environment: ["XDG_STATE_HOME": "/dev/null/state"])
        #expect(session.waitFor("auto> ", timeout: .seconds(20)) && session.waitForKeys())
        session.send("show 1\r")
        #expect(session.waitFor("auto> ", count: 2) && session.waitForKeys())
        session.send("show 2\r")
        #expect(session.waitFor("auto> ", count: 3) && session.waitForKeys())
        #expect(session.visibleOutput.components(separatedBy: "warning: history:").count == 2, "one warning: \(session.visibleOutput)")
        #expect(session.visibleOutput.contains("2\n"))
        session.send("\u{4}")
        #expect(session.waitForExit(timeout: .seconds(20)) == 0)
    }

    /// The Library's REPL: Tab completes a property after `where` and an intent's name of several words, books
    /// are a table fitted to the terminal, and a destructive intent asks at the prompt before it runs.
    @Test func libraryCompletesAndConfirmsAtThePrompt() throws {
        let library = BinaryRunner.productsFolder.appendingPathComponent("library").path
        try #require(FileManager.default.isExecutableFile(atPath: library), "build the library product first: swift build")
        let database = state("lib.sqlite")
        let session = try TerminalSession(["--db", database], executable: library, environment: ["XDG_STATE_HOME": state.path], columns: 80)
        #expect(session.waitFor("library> ", timeout: .seconds(30)) && session.waitForKeys(), "\(session.visibleOutput)")
        session.send("find books where au\t")
        #expect(session.waitFor("author"), "Tab completes the property: \(session.visibleOutput)")
        session.send(" == \"Jane Austen\" sort by published limit 2\r")
        // The books are a table fitted to the 80 columns: the title first, properties while they fit, the count.
        #expect(session.waitFor("(2 books"), "\(session.visibleOutput)")
        let table = session.screenLines.drop { !$0.hasPrefix("Book ") }.prefix { !$0.hasPrefix("(2 books") }
        #expect(table.count == 4 && table.allSatisfy { $0.count <= 80 }, "\(session.visibleOutput)")
        #expect(table.contains { $0.hasPrefix("Sense and Sensibility") && $0.contains("Jane Austen") })
        #expect(session.waitFor("library> ", count: 2) && session.waitForKeys())
        session.send("find books where author == \"Jane\t")
        #expect(session.waitFor("\"Jane Austen\""), "Tab offers the authors the host knows: \(session.visibleOutput)")
        session.send("\u{3}")
        #expect(session.waitFor("library> ", count: 3) && session.waitForKeys())
        session.send("mark as r\t")
        #expect(session.waitFor("mark as read"), "Tab completes a name of three words: \(session.visibleOutput)")
        session.send("\u{3}")
        #expect(session.waitFor("library> ", count: 4) && session.waitForKeys())
        session.send("delete book \"Emma\"\r")
        #expect(session.waitFor("[y/N]"), "a destructive intent asks first: \(session.visibleOutput)")
        session.send("y\r")
        #expect(session.waitFor("library> ", count: 5) && session.waitForKeys(), "\(session.visibleOutput)")
        session.send("count(find books where title == \"Emma\")\r")
        #expect(session.waitFor("0\n"), "Emma was deleted: \(session.visibleOutput)")
        #expect(session.waitFor("library> ", count: 6) && session.waitForKeys())
        session.send("\u{4}")
        #expect(session.waitForExit(timeout: .seconds(20)) == 0)
    }

    func library(columns: UInt16 = 80) throws -> TerminalSession {
        let library = BinaryRunner.productsFolder.appendingPathComponent("library").path
        try #require(FileManager.default.isExecutableFile(atPath: library), "build the library product first: swift build")
        let database = state("lib.sqlite")
        return try TerminalSession(["--db", database], executable: library, environment: ["XDG_STATE_HOME": state.path], columns: columns)
    }

    /// A parameter with options from the host: Tab offers them inside its text, and a question for it is a
    /// choice among them, answered at the prompt.
    @Test func libraryOffersTheGenresItHasAndAsksForOneWithAChoice() throws {
        let session = try library()
        #expect(session.waitFor("library> ", timeout: .seconds(30)) && session.waitForKeys(), "\(session.visibleOutput)")
        // First the question, which opens (and seeds) the database: Tab waits for the host at most 100 ms.
        session.send("open genre\r")
        #expect(session.waitFor("Which genre?", timeout: .seconds(30)), "\(session.visibleOutput)")
        #expect(session.waitFor("Choose 1–22"), "one option per genre: \(session.visibleOutput)")
        #expect(session.visibleOutput.contains(") Poetry"))
        session.send("poetry\r")
        #expect(session.waitFor("(20 books"), "\(session.visibleOutput)")
        #expect(session.waitFor("library> ", count: 2) && session.waitForKeys())
        session.send("open genre \"Fan\t")
        #expect(session.waitFor("\"Fantasy\""), "Tab completes the genre from the host's options: \(session.visibleOutput)")
        session.send(" shelf: read\r")
        #expect(session.waitFor("(23 books"), "\(session.visibleOutput)")
        #expect(session.waitFor("library> ", count: 3) && session.waitForKeys())
        session.send("\u{4}")
        #expect(session.waitForExit(timeout: .seconds(20)) == 0)
    }

    /// A progress bar drawn during an entry is gone when the entry ends: its last line says it is done, and the
    /// prompt comes back on a line of its own.
    @Test func aProgressBarInsideTheREPLLeavesThePromptIntact() throws {
        let csv = state.url.appendingPathComponent("new.csv")
        try "title,author\nFirst Invented Book,A. Writer\nSecond Invented Book,A. Writer\n".write(to: csv, atomically: true, encoding: .utf8)
        let session = try library()
        #expect(session.waitFor("library> ", timeout: .seconds(30)) && session.waitForKeys(), "\(session.visibleOutput)")
        session.send("import books from \"\(csv.path)\"\r")
        #expect(session.waitFor("[y/N]"), "an import is confirmed first: \(session.visibleOutput)")
        session.send("y\r")
        #expect(session.waitFor("Importing new.csv: done, 2/2"), "\(session.visibleOutput)")
        #expect(session.waitFor("library> ", count: 2) && session.waitForKeys(), "\(session.visibleOutput)")
        let screen = session.screenLines
        #expect(screen.last == "library> ", "the prompt alone on its line: \(screen.suffix(4))")
        #expect(!screen.contains { $0.contains("[#") || $0.contains("[-") }, "no bar is left on the screen: \(screen)")
        session.send("\u{4}")
        #expect(session.waitForExit(timeout: .seconds(20)) == 0)
    }

    /// When the window changes size while a line is edited, the line goes on, and what the entry prints is fitted
    /// to the new width.
    @Test func aResizedWindowKeepsTheLineAndFitsTheTableToTheNewWidth() throws {
        let session = try library(columns: 120)
        #expect(session.waitFor("library> ", timeout: .seconds(30)) && session.waitForKeys(), "\(session.visibleOutput)")
        session.send("find books where author == \"Jane Austen\"")
        #expect(session.waitFor("Austen\""))
        #expect(session.resize(columns: 50))
        session.send(" sort by published limit 2\r")
        #expect(session.waitFor("(2 books"), "\(session.visibleOutput)")
        let table = session.screenLines.drop { !$0.hasPrefix("Book ") }.prefix { !$0.hasPrefix("(2 books") }
        #expect(table.count == 4 && table.allSatisfy { $0.count <= 50 }, "fitted to 50 columns: \(table)")
        #expect(session.waitFor("library> ", count: 2) && session.waitForKeys())
        session.send("\u{4}")
        #expect(session.waitForExit(timeout: .seconds(20)) == 0)
    }
}
