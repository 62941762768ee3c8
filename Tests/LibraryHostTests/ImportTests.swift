@testable import AutoTerminal
import AutoCLI
import AutoIntents
import AutoLanguage
import AutoRuntime
import AutoTestSupport
import Foundation
import GRDB
@testable import LibraryExample
import Synchronization
import Testing

/// `import books`: all the rows or none, whatever stops it; books already there skipped when told to.
@Suite final class ImportTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder("library-import")
    }

    /// A CSV of `count` invented books, none of which the Library has, at `name` in this test's folder.
    func booksCSV(count: Int, name: String = "more.csv") throws -> String {
        var text = "title,author,published,pages\n"
        for index in 0..<count {
            text += "Invented Book \(index + 1),Author \(index % 7),2001-02-\(String(format: "%02d", index % 28 + 1)),\(100 + index)\n"
        }
        return try write(text, to: name)
    }

    func write(_ text: String, to name: String) throws -> String {
        let path = folder(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func count(_ database: LibraryDatabase) async throws -> Int {
        try await database.read { db in try BookRecord.fetchCount(db) }
    }

    /// Runs `code` the way the CLI does, with `interaction` and `cancellation` of the test's own.
    func run(_ code: String, database: LibraryDatabase, interaction: any Interaction,
             cancellation: CancellationFlag = CancellationFlag()) async throws -> (code: Int32, output: OutputCapture) {
        let output = OutputCapture()
        let exit = await ScriptRunner(host: try Library.host(database: database), console: output.console)
            .run(SourceFile(name: "import.auto", text: code), options: RunOptions(), interaction: interaction, cancellation: cancellation)
        return (exit, output)
    }

    // MARK: All or none

    /// Ctrl-C at the 100th row: the transaction stops there (it waits for each row's progress step to be
    /// reported, so it can't have run ahead) and rolls back.
    @Test func anImportCancelledHalfwayImportsNothing() async throws {
        let database = freshDatabase(in: folder)
        let csv = try booksCSV(count: 300)
        let cancellation = CancellationFlag()
        let interaction = ProgressWatcher { event in
            if case .advanced(_, 100) = event { cancellation.cancel() }
        }
        let (code, output) = try await run("import books from \"\(csv)\"", database: database, interaction: interaction, cancellation: cancellation)
        #expect(code == 130)
        #expect(output.standardError == "cancelled: interrupted; nothing was imported from more.csv\n")
        #expect(try await count(database) == 680)
        let advanced = interaction.events.compactMap { if case .advanced(_, let done) = $0 { done } else { nil } }
        #expect(advanced.max() == 100, "no row was written after the Ctrl-C: \(advanced.suffix(3))")
        #expect(interaction.events.last.map { if case .stopped = $0 { true } else { false } } == true, "the import's task ends stopped, not done")
        // Nothing stays locked or half done: the same import then goes through.
        let again = try await run("import books from \"\(csv)\"", database: database, interaction: ProgressWatcher())
        #expect(again.code == 0, "\(again.output.standardError)")
        #expect(try await count(database) == 980)
    }

    /// Another program adds one of the file's books between the questions and the transaction, so nobody
    /// was asked about it: with `duplicates: ask` the import stops at that row, and the rows before it are
    /// not kept; told to skip or add again, it does that in the transaction.
    @Test(arguments: [(Duplicates.ask, 681), (.skip, 980), (.addAgain, 981)])
    func aBookAddedByAnotherProgramDuringTheImport(_ duplicates: Duplicates, books: Int) async throws {
        let database = freshDatabase(in: folder)
        let csv = try booksCSV(count: 300)
        let other = LibraryDatabase(path: database.path)
        let intruder = ProgressWatcher { event in
            guard case .started = event else { return }
            // Row 151 of the file, with other capitals: the same book all the same.
            _ = try? await other.write { db in
                var record = BookRecord(Book(id: 0, title: "invented book 150", author: "AUTHOR 2", published: Date(), pages: 1,
                                             genre: "x", rating: nil, readDate: nil, shelf: .read, recommendedBy: nil))
                try record.insert(db)
            }
        }
        let (code, output) = try await run("import books from \"\(csv)\" duplicates: \(duplicates.rawValue)", database: database, interaction: intruder)
        #expect(try await count(database) == books)
        switch duplicates {
        case .ask:
            #expect(code == 1)
            #expect(output.standardError.contains(
                "error: import books: \(csv):151: 'Invented Book 150' by Author 2 was added to the library by another program during this import; run it again; no book was imported"),
                "\(output.standardError)")
        case .skip:
            #expect(code == 0, "\(output.standardError)")
            #expect(intruder.shown == ["Imported 299 books from more.csv, 1 skipped"])
        case .addAgain:
            #expect(code == 0, "\(output.standardError)")
            #expect(intruder.shown == ["Imported 300 books from more.csv"])
        }
    }

    @Test func aMissingAuthorNobodyCanGiveLeavesNothing() async throws {
        let database = freshDatabase(in: folder)
        let csv = try write("title,author\nOne,Ann\nTwo,Bo\nThree,\nFour,Di\n", to: "authors.csv")
        let outcome = await ScriptHarness.run("import books from \"\(csv)\"", host: try Library.host(database: database), confirmations: [true])
        #expect(outcome.exitCode == 1)
        #expect(outcome.standardError.contains("import books: \(csv):4: 'Three' has no author and nobody can answer"), "\(outcome.standardError)")
        #expect(outcome.standardError.contains("fill in its author column; no book was imported"), "\(outcome.standardError)")
        #expect(try await count(database) == 680)
        let answered = await ScriptHarness.run("import books from \"\(csv)\"", host: try Library.host(database: database),
                                               answers: ["Cy"], confirmations: [true])
        #expect(answered.output == ["Imported 4 books from authors.csv"], "\(answered.standardError)")
        #expect(answered.questions.contains("Who wrote 'Three' (\(csv):4)?"))
    }

    // MARK: Books already there

    @Test func duplicatesSkipLetsARerunFinishWithoutAnyone() async throws {
        let database = freshDatabase(in: folder)
        let host = try Library.host(database: database)
        let csv = try write("title,author\nA New Book,Ann\nemma,JANE AUSTEN\nAnother New Book,Bo\n", to: "more.csv")
        let nobody = await ScriptHarness.run("import books from \"\(csv)\"", host: host, confirmations: [true])
        #expect(nobody.exitCode == 1)
        #expect(nobody.standardError.contains(
            "\(csv):3: 'emma' by JANE AUSTEN is already in the library and nobody can answer"), "\(nobody.standardError)")
        #expect(nobody.standardError.contains("give duplicates: skip or duplicates: addAgain; no book was imported"))
        #expect(try await count(database) == 680)

        let skipping = await ScriptHarness.run("import books from \"\(csv)\" duplicates: skip", host: host, confirmations: [true])
        #expect(skipping.output == ["Imported 2 books from more.csv, 1 skipped"], "\(skipping.standardError)")
        let again = await ScriptHarness.run("import books from \"\(csv)\" duplicates: skip", host: host, confirmations: [true])
        #expect(again.output == ["Imported 0 books from more.csv, 3 skipped"], "\(again.standardError)")
        #expect(try await count(database) == 682)
    }

    @Test func duplicatesAddAgainAddsNumberedCopies() async throws {
        let database = freshDatabase(in: folder)
        let host = try Library.host(database: database)
        let csv = try write("title,author\nEmma,Jane Austen\n", to: "emma.csv")
        let year = Calendar.current.component(.year, from: Date())
        for _ in 0..<2 {
            let outcome = await ScriptHarness.run("import books from \"\(csv)\" duplicates: addAgain", host: host, confirmations: [true])
            #expect(outcome.exitCode == 0, "\(outcome.standardError)")
        }
        let titles = try await database.read { db in
            try String.fetchSet(db, sql: "SELECT title FROM book WHERE author = 'Jane Austen' AND title LIKE 'Emma%'")
        }
        #expect(titles == ["Emma", "Emma (\(year) copy)", "Emma (\(year) copy 2)"])
    }

    @Test func whatToDoWithABookAlreadyThereIsAskedWithTheLine() async throws {
        let database = freshDatabase(in: folder)
        let host = try Library.host(database: database)
        let csv = try write("title,author\nEmma,Jane Austen\nNew One,Ann\nnew one,ann\nPersuasion,Jane Austen\n", to: "dups.csv")
        // 3 is "Skip every book already here": asked once, for Emma; the second New One and Persuasion are skipped.
        let outcome = await ScriptHarness.run("import books from \"\(csv)\"", host: host, choices: [2], confirmations: [true])
        #expect(outcome.output == ["Imported 1 book from dups.csv, 3 skipped"], "\(outcome.standardError)")
        #expect(outcome.questions.contains("'Emma' by Jane Austen (\(csv):2) is already in the library. Skip it | Add it again | Skip every book already here"),
                "\(outcome.questions)")
        let twice = try write("title,author\nNew Two,Ann\nNew Two,Ann\n", to: "twice.csv")
        let asked = await ScriptHarness.run("import books from \"\(twice)\"", host: host, choices: [0], confirmations: [true])
        #expect(asked.output == ["Imported 1 book from twice.csv, 1 skipped"], "\(asked.standardError)")
        #expect(asked.questions.last == "'New Two' by Ann (\(twice):3) is also on line 2 of twice.csv. Skip it | Add it again | Skip every book already here")
    }

    @Test func aDeclinedImportWritesNothing() async throws {
        let database = freshDatabase(in: folder)
        let csv = try booksCSV(count: 5)
        let outcome = await ScriptHarness.run("import books from \"\(csv)\"", host: try Library.host(database: database), confirmations: [false])
        #expect(outcome.exitCode == 130)
        #expect(try await count(database) == 680)
    }

    // MARK: What is wrong with the file

    /// Each bad value is an error at its line and column, naming the column as the first line does (issue 31,
    /// item 10): the file was the right one, so it is not asked for again.
    static let badFiles: [(csv: String, error: String)] = [
        ("title,author,published,pages\nEmma 2,Jane Austen,1815-12-23,1\nDune 2,Frank Herbert,2024-13-45,412\n",
         "3:22: published: '2024-13-45' is not a date: there is no month 13"),
        ("title,published\nA,2023-02-29\n", "2:3: published: '2023-02-29' is not a date: February 2023 has 28 days"),
        ("title,published\nA,yesterday\n", "2:3: published: 'yesterday' is not a date: write it as YYYY-MM-DD"),
        ("title,read_date\nA,2024-04-31\n", "2:3: read_date: '2024-04-31' is not a date: April 2024 has 30 days"),
        ("Title,Read Date\nA,2024-04-31\n", "2:3: Read Date: '2024-04-31' is not a date: April 2024 has 30 days"),
        ("title,added\nA,2026-02-30\n", "2:3: added: '2026-02-30' is not a date: February 2026 has 28 days"),
        ("title,author,published,pages\nA,B,2001-01-01,1\nB,B,2001-01-01,2\nC,B,2001-01-01,3\nD,B,2001-01-01,4\nE,B,2001-01-01,5\nIt,S. King,1986-09-15,abc\n",
         "7:23: pages: 'abc' is not a page count"),
        ("title,pages\nA,-12\n", "2:3: pages: '-12' is not a page count: it must be from 0 to 100000"),
        ("title,pages\nA,1000000\n", "2:3: pages: '1000000' is not a page count: it must be from 0 to 100000"),
        ("title,pages\nA,12.5\n", "2:3: pages: '12.5' is not a page count"),
        ("title,rating\nA,7\n", "2:3: rating: '7' is not a rating: it must be from 1 to 5"),
        ("title,shelf\nA,read\nB,favourites\n", "3:3: shelf: 'favourites' is not a shelf: it must be want_to_read, currently_reading or read"),
        ("title,author,pages\nA,B,1\n\"Unclosed,B,10\nC,D,20\nE,F,30\n",
         "3:1: title: the quote opened here is never closed: the field runs on to the end of the file"),
        ("title,author,pages\nA,B,\"12\n", "2:5: pages: the quote opened here is never closed: the field runs on to the end of the file"),
        ("title,author,pages\n\"Unclosed,B,10\nC,D,20\n\"Quoted\",F,30\n",
         "2:1: title: the quote opened here runs on to line 4, where 'Q' follows a quote; is its closing quote missing?"),
        ("title,author\n\"Emma\" 2,Jane Austen\n", "2:7: title: ' ' after the closing quote at column 6; a quote inside a quoted field is written twice (\"\")"),
        ("\u{FEFF}title,author,pages\r\nA,\"B\"x,1\r\n", "2:6: author: 'x' after the closing quote at column 5; a quote inside a quoted field is written twice (\"\")"),
        ("title,author\nA,B,C\n", "2:5: this line has 3 fields and the first line names 2 (title, author); is a value with a comma in it not in quotes?"),
        ("title,author,pages\nA,B\n", "2:4: this line has 2 fields and the first line names 3: no value for 'pages'"),
        ("title,author,pages,genre\nA\n", "2:2: this line has 1 field and the first line names 4: no value for 'author', 'pages' and 'genre'"),
        ("title,author,pubished\nA,B,2001-01-01\n", "1:14: unknown column 'pubished'; the columns are title, author, published, pages, genre, rating, read_date, shelf, recommended_by, added"),
        ("author,pages\nB,1\n", "1:1: the first line must name the columns, with at least 'title'"),
        ("title,author,Title\nA,B,C\n", "1:14: 'title' is named twice in the first line (first at column 1)"),
        ("title,author\n  ,B\n", "2:1: title: it is empty, and a book needs a title"),
    ]

    @Test(arguments: badFiles)
    func aBadValueIsAnErrorAtItsLineAndColumn(_ bad: (csv: String, error: String)) async throws {
        let csv = try write(bad.csv, to: "bad.csv")
        let database = freshDatabase(in: folder)
        let error = await #expect(throws: IntentError.self, "not asked for another file") { _ = try await importBooks(from: csv, into: database) }
        #expect(error?.message == "\(csv):\(bad.error); no book was imported")
        #expect(try await count(database) == 680)
    }

    /// Run as people run it, without a terminal and with `--no-input`: a bad value ends the run with its file,
    /// line, column and what is wrong, not with "nobody can answer 'Which CSV file?'" (issue 31, item 10).
    /// A file that isn't there still is asked for, which nobody can answer here.
    @Test func withoutATerminalABadValueIsAnErrorThatSaysWhere() throws {
        let database = folder("library.sqlite")
        let script = try write("import books from \"bad.csv\"\n", to: "import.auto")
        for bad in Self.badFiles where bad.error.hasPrefix("3:22") || bad.error.contains("never closed") || bad.error.contains("fields") {
            _ = try write(bad.csv, to: "bad.csv")
            for arguments in [["-e", "import books from \"bad.csv\""], ["run", script]] {
                let result = try LibraryBinary.run(["--db", database, "--no-input"] + arguments, directory: folder.path)
                #expect(result.exitCode == 1, "\(arguments): \(result.standardError)")
                #expect(result.standardError.contains("error: import books: \(folder.path)/bad.csv:\(bad.error); no book was imported\n"),
                        "\(result.standardError)")
                #expect(!result.standardError.contains("Which CSV file?"), "\(result.standardError)")
            }
        }
        let missing = try LibraryBinary.run(["--db", database, "--no-input", "-e", "import books from \"missing.csv\""], directory: folder.path)
        #expect(missing.exitCode != 0)
        #expect(missing.standardError.contains("missing.csv: no such file"), "\(missing.standardError)")
        #expect(missing.standardError.contains("Which CSV file?"), "\(missing.standardError)")
    }

    /// `import books`' own `perform`, as registered (its database filled in), without the engine: what it throws
    /// is seen as it is, before the engine asks again or reports it.
    func importBooks(from path: String, into database: LibraryDatabase) async throws -> IntentOutput {
        let registry = try Library.registry(database: database)
        guard let intent = registry.intent(named: "import books"), case .native(let perform) = intent.implementation else {
            throw IntentError("'import books' is not registered as a native intent")
        }
        var arguments = [Value?](repeating: nil, count: intent.parameters.count)
        arguments[0] = .file(FileRef(path: path))
        let context = IntentContext(interaction: ScriptedInteraction(confirmations: [true]), cancellation: CancellationFlag(),
                                    dependencies: registry.dependencies)
        return try await perform(arguments, context)
    }

    /// What `import books` says of a file it can't use, as the reason it asks for another (item 20).
    @Test func aFileThatCantBeUsedSaysWhy() async throws {
        let empty = try write("", to: "empty.csv")
        let blank = try write("\n  \n", to: "blank.csv")
        let latin1 = folder("latin1.csv")
        try Data([0x74, 0x69, 0x74, 0x6C, 0x65, 0x0A, 0x43, 0x61, 0x66, 0xE9, 0x0A]).write(to: URL(fileURLWithPath: latin1))  // title, Café in Latin-1
        let loop = folder("loop.csv")
        try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: loop)
        var cases: [(String, String)] = [
            (folder("missing.csv"), "\(folder.path)/missing.csv: no such file"),
            (empty, "\(empty) is empty"),
            (blank, "\(blank) is empty"),
            (latin1, "\(latin1) is not UTF-8 text"),
            (folder.path, "\(folder.path) is a folder, not a CSV file"),
            (loop, "'\(loop)' can't be followed: too many levels of symbolic links"),
        ]
        if geteuid() != 0 {
            let locked = try write("title\nA\n", to: "locked.csv")
            try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: locked)
            cases.append((locked, "\(locked) can't be read: permission denied"))
        }
        for (path, reason) in cases {
            let needed = await #expect(throws: NeedsValueError.self) { _ = try await importBooks(from: path, into: freshDatabase(in: folder)) }
            #expect(needed?.reason == reason)
        }
        // A header and nothing else is no error: there is nothing to import.
        let headerOnly = try write("title,author\n", to: "header.csv")
        let outcome = await ScriptHarness.run("import books from \"\(headerOnly)\"", host: try Library.host(database: freshDatabase(in: folder)))
        #expect(outcome.output == ["header.csv has no books to import"], "\(outcome.standardError)")
    }

    // MARK: The reading itself

    @Test func quotedFieldsDoubledQuotesAndLineBreaksAreRead() throws {
        let text = "\u{FEFF}title,author,pages\r\n\"Surely, \"\"Mr\"\" Feynman\",Richard P. Feynman,350\r\n\"Two\nLines\",,\r\n\n,,\n5\" Floppy,Ann,1"
        let rows = try BooksCSV(file: "x.csv").read(text)
        #expect(rows.map(\.book.title) == ["Surely, \"Mr\" Feynman", "Two\nLines", "5\" Floppy"])
        #expect(rows.map(\.line) == [2, 3, 7])
        #expect(rows.map(\.book.author) == ["Richard P. Feynman", "", "Ann"])
        #expect(rows.map(\.book.pages) == [350, 0, 1])
    }

    @Test func shelvesAreReadAsBooksCsvOrPeopleWriteThem() throws {
        let rows = try BooksCSV(file: "x.csv", shelf: .read).read("title,shelf\nA,want_to_read\nB,Currently Reading\nC,wantToRead\nD,\n")
        #expect(rows.map(\.book.shelf) == [.wantToRead, .currentlyReading, .wantToRead, .read])
    }

    @Test func theSeedIsReadWithTheSameChecks() throws {
        let seed = try #require(LibraryDatabase.bundledSeed)
        let rows = try BooksCSV(file: "books.csv").read(seed)
        #expect(rows.count == 680)
        #expect(rows.allSatisfy { !$0.book.author.isEmpty })
    }
}

/// An interaction that approves, answers nothing, keeps what is shown, and hands each progress event to
/// `onProgress`.
final class ProgressWatcher: Interaction, Sendable {
    let onProgress: @Sendable (ProgressEvent) async -> Void
    let seen = Mutex<[ProgressEvent]>([])
    let dialogs = Mutex<[String]>([])

    init(_ onProgress: @escaping @Sendable (ProgressEvent) async -> Void = { _ in }) {
        self.onProgress = onProgress
    }

    var events: [ProgressEvent] { seen.withLock { $0 } }
    var shown: [String] { dialogs.withLock { $0 } }

    func show(_ dialog: Dialog) async { dialogs.withLock { $0.append(dialog.full) } }
    func requestValue(_ request: ValueRequest) async throws -> Value { throw NoAnswerError(question: request.prompt) }
    func choose(_ request: ChoiceRequest) async throws -> Int { throw NoAnswerError(question: request.prompt) }
    func confirm(_ request: ConfirmationRequest) async throws -> Bool { true }
    func progress(_ event: ProgressEvent) async {
        seen.withLock { $0.append(event) }
        await onProgress(event)
    }
}
