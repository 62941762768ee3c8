import AutoTestSupport
import Foundation
import Testing

/// The real `auto` and `library` binaries in a real pseudo-terminal: what a person sees when they answer
/// prompts, watch a progress bar and press Ctrl-C. Serialized: the assertions about time (a bar drawn, a
/// prompt exit after Ctrl-C) should not compete with each other for the machine.
@Suite(.serialized) final class TerminalTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder("auto-terminal")
    }

    // MARK: Helpers

    var library: String { BinaryRunner.productsFolder.appendingPathComponent("library").path }

    /// A fresh database path in this test's own folder (created, and seeded, by the first run).
    func database(_ name: String = "lib") -> String {
        folder("\(name).sqlite")
    }

    /// `library --db DATABASE ARGUMENTS…` in a pseudo-terminal.
    func librarySession(_ database: String, _ arguments: String..., pipes: Set<TerminalSession.Stream> = [],
                        environment: [String: String] = [:]) throws -> TerminalSession {
        try #require(FileManager.default.isExecutableFile(atPath: library), "build the library product first: swift build")
        return try TerminalSession(["--db", database] + arguments, executable: library, environment: environment, pipes: pipes)
    }

    /// `library --db DATABASE ARGUMENTS…` with pipes, no terminal.
    func runLibrary(_ database: String, _ arguments: String...) throws -> BinaryRunner.Result {
        try #require(FileManager.default.isExecutableFile(atPath: library), "build the library product first: swift build")
        return try BinaryRunner.run(["--db", database] + arguments, executable: library)
    }

    /// How many books titled `title` the library at `database` holds, asked in a separate run.
    func count(_ title: String, in database: String) throws -> String {
        let result = try runLibrary(database, "-e", "show count(find books where title == \"\(title)\")")
        #expect(result.exitCode == 0, "\(result.standardError)")
        return result.standardOutput
    }

    /// The screen lines, without trailing blanks, for readable failure messages and exact comparisons.
    func screen(_ session: TerminalSession) -> [String] {
        session.screenLines.map { String($0.reversed().drop { $0 == " " }.reversed()) }
    }

    /// A CSV of `count` invented books, none of which the Library has.
    func booksCSV(count: Int) throws -> String {
        let adjectives = ["Silent", "Amber", "Hollow", "Northern", "Paper", "Crimson", "Quiet", "Distant", "Salt", "Winter"]
        let nouns = ["Harbour", "Lantern", "Orchard", "Cartographer", "Meridian", "Tide", "Archive", "Garden", "Bellfounder", "Station"]
        let authors = ["Margaret Atwood", "Kazuo Ishiguro", "Hilary Mantel", "Colson Whitehead", "Ann Patchett",
                       "Ian McEwan", "Zadie Smith", "Chimamanda Ngozi Adichie"]
        var text = "title,author,published,pages\n"
        for index in 0..<count {
            let title = "The \(adjectives[index % 10]) \(nouns[index / 10 % 10])" + (index < 100 ? "" : index < 200 ? " Returns" : " \(index / 100)")
            let published = String(format: "20%02d-%02d-%02d", index % 20, index % 12 + 1, index % 28 + 1)
            text += "\(title),\(authors[index % authors.count]),\(published),\(150 + index)\n"
        }
        let path = folder("new-books.csv")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    // MARK: Confirmations

    @Test func decliningADeleteKeepsTheBook() throws {
        let db = database()
        let session = try librarySession(db, "-e", #"delete book "Emma""#)
        #expect(session.waitFor("[y/N] "), "no confirmation prompt: \(session.output.debugDescription)")
        let prompt = try #require(screen(session).last)
        #expect(prompt == "? Delete 'Emma'? This can't be undone. [y/N]", "\(session.output.debugDescription)")
        #expect(session.output.contains("\u{1B}["), "a terminal with TERM=xterm and an empty NO_COLOR gets colour")
        session.send("n\r")
        #expect(session.waitForExit() == 130)
        let visible = session.visibleOutput
        #expect(visible.contains("[y/N] n\n"), "the answer is echoed: \(visible.debugDescription)")
        #expect(visible.contains("cancelled"), "\(visible.debugDescription)")
        #expect(!visible.contains("Deleted"), "\(visible.debugDescription)")
        #expect(try count("Emma", in: db) == "1\n")
    }

    @Test func approvingADeleteDeletesTheBook() throws {
        let db = database()
        let session = try librarySession(db, "-e", #"delete book "Emma""#)
        #expect(session.waitFor("[y/N] "), "no confirmation prompt: \(session.output.debugDescription)")
        session.send("y\r")
        #expect(session.waitForExit() == 0)
        #expect(screen(session).suffix(3) == ["? Delete 'Emma'? This can't be undone. [y/N] y", "Deleted Emma", ""],
                "\(session.output.debugDescription)")
        #expect(try count("Emma", in: db) == "0\n")
    }

    @Test func colourIsOffWithNoColour() throws {
        let session = try librarySession(database(), "-e", #"delete book "Emma""#, environment: ["NO_COLOR": "1"])
        #expect(session.waitFor("[y/N] "), "no confirmation prompt: \(session.output.debugDescription)")
        #expect(!session.output.contains("\u{1B}"), "\(session.output.debugDescription)")
        session.send("n\r")
        #expect(session.waitForExit() == 130)
    }

    // MARK: Policies

    @Test func noInputRefusesToAskEvenOnATerminal() throws {
        let db = database()
        let session = try librarySession(db, "--no-input", "-e", #"delete book "Emma""#)
        #expect(session.waitForExit() == 1, "\(session.output.debugDescription)")
        let visible = session.visibleOutput
        #expect(!visible.contains("[y/N]"), "\(visible.debugDescription)")
        #expect(visible.contains("-e:1:1: error:"), "\(visible.debugDescription)")
        #expect(visible.contains("'delete book'"), "\(visible.debugDescription)")
        #expect(visible.contains("--yes"), "the error says how to approve it: \(visible.debugDescription)")

        // The error is on standard error: with `2> file` at a terminal, standard output stays empty.
        let piped = try librarySession(db, "--no-input", "-e", #"delete book "Emma""#, pipes: [.standardError])
        #expect(piped.waitForExit() == 1)
        #expect(piped.output.isEmpty, "\(piped.output.debugDescription)")
        #expect(piped.pipedError.contains("-e:1:1: error:"), "\(piped.pipedError.debugDescription)")
        #expect(piped.pipedError.contains("'delete book'"), "\(piped.pipedError.debugDescription)")
        #expect(!piped.pipedError.contains("\u{1B}"), "no colour on a standard error that is not a terminal")
        #expect(try count("Emma", in: db) == "1\n")
    }

    @Test func yesDeletesWithoutAsking() throws {
        let db = database()
        let session = try librarySession(db, "--yes", "-e", #"delete book "Emma""#)
        #expect(session.waitForExit() == 0, "\(session.output.debugDescription)")
        let visible = session.visibleOutput
        #expect(!visible.contains("[y/N]"), "\(visible.debugDescription)")
        #expect(!visible.contains("?"), "nothing is asked: \(visible.debugDescription)")
        #expect(visible == "Deleted Emma\n")
        #expect(try count("Emma", in: db) == "0\n")
    }

    // MARK: Questions

    @Test func aMissingTitleIsAskedFor() throws {
        let db = database()
        let session = try librarySession(db, "-e", "add book -> b\nshow b.title")
        #expect(session.waitFor("What is the book's title? "), "\(session.output.debugDescription)")
        #expect(screen(session).last == "? What is the book's title?")
        session.send("The Glass Orchard\r")
        #expect(session.waitForExit() == 0, "\(session.output.debugDescription)")
        #expect(screen(session).suffix(4) == [
            "? What is the book's title? The Glass Orchard", "Added The Glass Orchard by Unknown", "The Glass Orchard", "",
        ], "\(session.output.debugDescription)")
        #expect(try count("The Glass Orchard", in: db) == "1\n")
    }

    @Test func aNumberedChoiceList() throws {
        let session = try TerminalSession(["-e", "choose \"Pick one\" from [\"red\", \"green\", \"blue\"] -> c\nshow \"you chose \\(c)\""])
        #expect(session.waitFor("Choose 1–3: "), "\(session.output.debugDescription)")
        #expect(screen(session) == ["? Pick one", "  1) red", "  2) green", "  3) blue", "? Choose 1–3:"],
                "\(session.output.debugDescription)")
        session.send("2\r")
        #expect(session.waitForExit() == 0)
        #expect(screen(session).suffix(3) == ["? Choose 1–3: 2", "you chose green", ""], "\(session.output.debugDescription)")
    }

    @Test func aChoiceOutOfRangeIsAskedAgain() throws {
        let session = try TerminalSession(["-e", "choose \"Pick one\" from [\"red\", \"green\", \"blue\"] -> c\nshow \"you chose \\(c)\""])
        #expect(session.waitFor("Choose 1–3: "), "\(session.output.debugDescription)")
        session.send("9\r")
        #expect(session.waitFor("Choose 1–3: ", count: 2), "asked again: \(session.output.debugDescription)")
        #expect(screen(session).suffix(3) == ["? Choose 1–3: 9", "Type a number from 1 to 3.", "? Choose 1–3:"],
                "\(session.output.debugDescription)")
        session.send("3\r")
        #expect(session.waitForExit() == 0)
        #expect(screen(session).suffix(3) == ["? Choose 1–3: 3", "you chose blue", ""], "\(session.output.debugDescription)")
    }

    // MARK: Progress

    /// The bar is drawn at most every 80 ms, and an import writes its rows in one transaction, so the file
    /// is large enough for the writing to take some of those intervals.
    @Test func anImportDrawsABarOnATerminal() throws {
        let csv = try booksCSV(count: 5000)
        let db = database()
        let session = try librarySession(db, "-e", "import books from \"\(csv)\"")
        #expect(session.waitFor("[y/N] ", timeout: .seconds(10)), "\(session.output.debugDescription)")
        #expect(screen(session).last == "? Import 5000 books from new-books.csv? [y/N]", "\(session.output.debugDescription)")
        session.send("y\r")
        #expect(session.waitForExit(timeout: .seconds(20)) == 0, "\(session.output.debugDescription)")
        let output = session.output
        #expect(output.contains("\r\u{1B}[2KImporting new-books.csv ["), "the bar is redrawn in place: \(output.debugDescription)")
        #expect(output.contains("[#"), "a bar with progress was drawn: \(output.debugDescription)")
        #expect(output.contains("%"))
        #expect(output.contains("5000/5000"))
        // Once done, the bar is gone from the screen: the done line and the dialog are all that remain.
        let lines = screen(session)
        #expect(lines.count == 4, "\(lines)")
        let done = try #require(lines.dropLast(2).last)
        #expect(done.hasPrefix("Importing new-books.csv: done, 5000/5000 in 0:"), "\(lines)")
        #expect(!done.contains("["), "no remains of the bar: \(lines)")
        #expect(lines.suffix(2) == ["Imported 5000 books from new-books.csv", ""], "\(lines)")
        #expect(try count("The Amber Harbour Returns", in: db) == "1\n")
    }

    @Test func anImportWritesPlainProgressLinesWithoutATerminal() throws {
        let csv = try booksCSV(count: 200)
        let result = try runLibrary(database(), "--yes", "-e", "import books from \"\(csv)\"")
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardOutput == "Imported 200 books from new-books.csv\n")
        let errors = result.standardError
        #expect(!errors.contains("\r"), "\(errors.debugDescription)")
        #expect(!errors.contains("\u{1B}"), "\(errors.debugDescription)")
        let lines = errors.split(separator: "\n").map(String.init)
        #expect(lines.first == "Importing new-books.csv…", "\(lines)")
        #expect(lines.last?.hasPrefix("Importing new-books.csv: done, 200/200 in 0:") == true, "\(lines)")
        let steps = lines.dropFirst().dropLast()
        #expect((5...30).contains(steps.count), "a line now and then, not one per book: \(lines)")
        var previous = -1
        for line in steps {
            let match = line.wholeMatch(of: /Importing new-books\.csv: (\d+)\/200 \((\d+)%\)/)
            guard let match, let done = Int(match.1), let percent = Int(match.2) else {
                Issue.record("not a progress line: \(line.debugDescription)")
                continue
            }
            #expect(done > previous, "\(lines)")
            #expect(percent == done * 100 / 200, "\(line)")
            previous = done
        }
        #expect(steps.last == "Importing new-books.csv: 200/200 (100%)", "\(lines)")
    }

    // MARK: JSON

    @Test func jsonOutputIsOnlyTheResult() throws {
        let db = database()
        let code = "show \"x\"\nfind books where author == \"Jane Austen\" sort by published desc limit 3"
        let result = try runLibrary(db, "--json", "-e", code)
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardError == "x\n")
        let books = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]],
                                 "\(result.standardOutput)")
        #expect(books.count == 3)
        #expect(books.allSatisfy { $0["author"] as? String == "Jane Austen" }, "\(result.standardOutput)")
        #expect(result.standardOutput.hasSuffix("]\n"))
        #expect(result.standardOutput.split(separator: "\n").count == 1, "one line of JSON and nothing else")

        // `library --json … | jq` typed at a terminal: the person sees "x", the pipe gets only JSON.
        let session = try librarySession(db, "--json", "-e", code, pipes: [.standardOutput])
        #expect(session.waitForExit() == 0, "\(session.output.debugDescription)")
        #expect(session.visibleOutput == "x\n", "\(session.output.debugDescription)")
        #expect(session.pipedOutput == result.standardOutput)
        #expect(!session.pipedOutput.contains("\u{1B}"), "no colour in a pipe")
    }

    // MARK: What if

    @Test func whatIfStopsBeforeTheFirstChange() throws {
        let db = database()
        let session = try librarySession(db, "--what-if", "-e", "show \"before\"\ndelete book \"Emma\"\nshow \"after\"")
        #expect(session.waitForExit() == 0, "\(session.output.debugDescription)")
        let visible = session.visibleOutput
        #expect(visible.contains("before\n"), "\(visible.debugDescription)")
        #expect(visible.contains("What if: Delete 'Emma'"), "\(visible.debugDescription)")
        #expect(!visible.contains("after"), "\(visible.debugDescription)")
        #expect(!visible.contains("[y/N]"), "nothing to confirm when nothing is done: \(visible.debugDescription)")
        #expect(try count("Emma", in: db) == "1\n")
    }

    // MARK: Ctrl-C

    @Test func ctrlCCancelsALongRun() throws {
        let session = try TerminalSession(["-e", "set x = 0\nshow \"counting\"\nrepeat 1_000_000_000 times { set x = x + 1 }"])
        #expect(session.waitFor("counting"), "\(session.output.debugDescription)")
        Thread.sleep(forTimeInterval: 0.5)  // the person watches it run for a moment, then presses Ctrl-C
        #expect(session.waitForExit(timeout: .zero) == nil, "still counting before Ctrl-C")
        let pressed = ContinuousClock.now
        session.interrupt()
        #expect(session.waitForExit(timeout: .seconds(30)) == 130, "\(session.output.debugDescription)")
        #expect(ContinuousClock.now - pressed < .seconds(3), "Ctrl-C stops the run promptly")
        #expect(session.visibleOutput.contains("cancelled"), "\(session.output.debugDescription)")
    }

    @Test func ctrlCAtAPromptExitsAtOnce() throws {
        let session = try TerminalSession(["-e", "ask \"Name?\" -> n\nshow \"hi \\(n)\""])
        #expect(session.waitFor("Name? "), "\(session.output.debugDescription)")
        let pressed = ContinuousClock.now
        session.interrupt()
        let status = session.waitForExit(timeout: .seconds(30))
        #expect(status == 130, "\(session.output.debugDescription)")
        #expect(ContinuousClock.now - pressed < .seconds(3), "a question waiting for its answer does not hold Ctrl-C back")
        #expect(session.visibleOutput.contains("cancelled: interrupted"))
        #expect(!session.visibleOutput.contains("hi "))
    }

    @Test func aSecondCtrlCExitsAtOnceWhileAnIntentIgnoresTheFirst() throws {
        // `repeat` checks the flag only every 1024 steps; a host intent may check it rarely or never.
        // Whatever the script does, a second Ctrl-C ends the process.
        let session = try TerminalSession(["-e", "show \"counting\"\nset x = 0\nrepeat 1_000_000_000 times { set x = x + 1 }"])
        #expect(session.waitFor("counting"), "\(session.output.debugDescription)")
        session.interrupt()
        session.interrupt()
        #expect(session.waitForExit(timeout: .seconds(30)) == 130, "\(session.output.debugDescription)")
    }
}

/// `show` and a script's result in a real terminal and piped: a list one element per line on the terminal, the one
/// line a script's output has in a pipe.
@Suite struct ShownListTerminalTests {
    @Test func aListIsOneElementPerLineOnATerminalAndOneLineInAPipe() throws {
        let code = "show [\"Emma\", \"Persuasion\"]\n[1, 2]"
        let session = try TerminalSession(["-e", code])
        #expect(session.waitForExit(timeout: .seconds(30)) == 0)
        #expect(session.screenLines.filter { !$0.isEmpty } == ["Emma", "Persuasion", "1", "2"], "\(session.screenLines)")
        let piped = try TerminalSession(["-e", code], pipes: [.standardOutput])
        #expect(piped.waitForExit(timeout: .seconds(30)) == 0)
        #expect(piped.pipedOutput == "[\"Emma\", \"Persuasion\"]\n[1, 2]\n")
    }
}
