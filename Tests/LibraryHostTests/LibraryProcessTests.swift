import AutoTestSupport
import Foundation
import GRDB
import Testing

/// Real `library` processes on one database file: several at once, and one stopped in the middle of an
/// import by Ctrl-C or by kill -9. Every wait is for something the processes say or do, with a generous
/// deadline; none is a fixed sleep.
@Suite final class LibraryProcessTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder("library-processes")
    }

    var database: String { folder("library.sqlite") }

    /// The number of books and what `PRAGMA integrity_check` says, read directly from the file.
    func inspect(_ path: String) throws -> (books: Int, integrity: String) {
        let queue = try DatabaseQueue(path: path)
        return try queue.read { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM book") ?? -1, try String.fetchOne(db, sql: "PRAGMA integrity_check") ?? "")
        }
    }

    func script(_ name: String, _ text: String) throws -> String {
        let path = folder(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    // MARK: Two processes at once

    /// Two processes add 100 books each while a third counts them, on a library none of them has created
    /// yet (all three race to create and seed it) or on one that exists. Before WAL and a busy timeout,
    /// 123 of 400 such adds failed with "database is locked", and readers failed too.
    @Test(arguments: [false, true])
    func twoWritersAndAReaderShareOneLibrary(libraryExists: Bool) throws {
        if libraryExists {
            let seeded = try LibraryBinary.run(["--db", database, "-e", "show count(find books)"])
            #expect(seeded.standardOutput == "680\n", "\(seeded.standardError)")
        }
        let writers = try (1...2).map { writer in
            try script("writer\(writer).auto", """
                set i = 0
                repeat 100 times {
                  set i = i + 1
                  add book "Book \\(i) of writer \(writer)" author: "Writer \(writer)"
                }
                """)
        }
        let reader = try script("reader.auto", "repeat 150 times { show count(find books) }\n")
        let processes = try (writers + [reader]).map { try LibraryBinary.start(["--db", database, $0], directory: folder.path) }
        for (process, name) in zip(processes, ["writer 1", "writer 2", "reader"]) {
            let code = process.waitForExit(timeout: .seconds(300))
            #expect(code == 0, "\(name): \(process.standardError)")
            #expect(!process.standardError.contains("locked"), "\(name): \(process.standardError)")
        }
        for (index, writer) in processes.prefix(2).enumerated() {
            let lines = writer.standardOutput.split(separator: "\n")
            #expect(lines.count == 100)
            #expect(lines.last == "Added Book 100 of writer \(index + 1) by Writer \(index + 1)")
        }
        // Each count the reader saw is a whole state of the library: from the seed to every book added.
        let counts = processes[2].standardOutput.split(separator: "\n").compactMap { Int($0) }
        #expect(counts.count == 150, "\(processes[2].standardOutput)")
        #expect(counts.allSatisfy { (680...880).contains($0) }, "\(counts)")
        #expect(counts == counts.sorted(), "a reader never sees books disappear: \(counts)")
        let (books, integrity) = try inspect(database)
        #expect(books == 880)
        #expect(integrity == "ok")
    }

    /// A script that only reads starts and finishes while another process holds an exclusive lock: opening
    /// the library takes no write lock when there is nothing to migrate, and WAL readers don't wait for
    /// writers. (With a 30-second busy timeout, a start that needed the lock would still be waiting at the
    /// deadline; before WAL it failed at once with "database is locked".)
    @Test func aReaderStartsWhileAnotherProcessHoldsTheWriteLock() throws {
        let seeded = try LibraryBinary.run(["--db", database, "-e", "show count(find books)"])
        #expect(seeded.standardOutput == "680\n", "\(seeded.standardError)")
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true
        let holder = try DatabaseQueue(path: database, configuration: configuration)
        try holder.writeWithoutTransaction { db in
            try db.execute(sql: "BEGIN EXCLUSIVE")
            try db.execute(sql: "INSERT INTO book (title, author, published, pages, genre, shelf) VALUES ('Held', 'Lock', '2001-01-01', 1, 'x', 'read')")
        }
        let reader = try LibraryBinary.start(["--db", database, "-e", "show count(find books)"], directory: folder.path)
        let code = reader.waitForExit(timeout: .seconds(20))
        try holder.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") }
        #expect(code == 0, "\(reader.standardError)")
        #expect(reader.standardOutput == "680\n", "the reader sees what is committed: \(reader.standardError)")
    }

    // MARK: An import stopped halfway

    /// A CSV of `count` books none of which the Library has: large enough that the import's transaction is
    /// still open when the test sees its first progress line.
    func booksCSV(count: Int = 4000) throws -> String {
        var text = "title,author,published,pages,genre\n"
        for index in 0..<count {
            text += "Unwritten Book \(index + 1),Author \(index % 37),1999-12-\(String(format: "%02d", index % 31 + 1)),\(50 + index % 900),Fiction\n"
        }
        return try script("big.csv", text)
    }

    /// Starts `library --yes -e 'import books from "big.csv"'` and returns once a row is written inside the
    /// import's transaction: the first progress step (`Importing big.csv: 1/4000 (0%)`) is reported while
    /// the transaction waits for it.
    func startImport(of csv: String) throws -> ChildProcess {
        let seeded = try LibraryBinary.run(["--db", database, "-e", "show count(find books)"])
        #expect(seeded.standardOutput == "680\n", "\(seeded.standardError)")
        let importing = try LibraryBinary.start(["--db", database, "--yes", "-e", "import books from \"\(csv)\""], directory: folder.path)
        let started = importing.waitForError(timeout: .seconds(120)) { $0.contains("Importing big.csv: 1/4000") }
        try #require(started, "no progress: \(importing.standardError)")
        return importing
    }

    @Test func ctrlCInTheMiddleOfAnImportImportsNothing() throws {
        let csv = try booksCSV()
        let importing = try startImport(of: csv)
        importing.signal(SIGINT)
        #expect(importing.waitForExit() == 130, "\(importing.standardError)")
        #expect(importing.standardError.hasSuffix("cancelled: interrupted; nothing was imported from big.csv\n"), "\(importing.standardError)")
        let (books, integrity) = try inspect(database)
        #expect(books == 680)
        #expect(integrity == "ok")
        // The whole import then goes through, without anyone to ask.
        let again = try LibraryBinary.run(["--db", database, "--yes", "--no-input", "-e", "import books from \"\(csv)\""], directory: folder.path)
        #expect(again.exitCode == 0, "\(again.standardError)")
        #expect(again.standardOutput == "Imported 4000 books from big.csv\n")
        #expect(try inspect(database).books == 4680)
    }

    @Test func killedInTheMiddleOfAnImportImportsNothing() throws {
        let csv = try booksCSV()
        let importing = try startImport(of: csv)
        importing.signal(SIGKILL)
        #expect(importing.waitForExit() == 128 + SIGKILL)
        let (books, integrity) = try inspect(database)
        #expect(books == 680, "all rows or none, and the transaction was still open")
        #expect(integrity == "ok")
        // A re-run told to skip books already there goes through without anyone to ask, and skips none.
        let again = try LibraryBinary.run(["--db", database, "--yes", "--no-input", "-e", "import books from \"\(csv)\" duplicates: skip"],
                                          directory: folder.path)
        #expect(again.exitCode == 0, "\(again.standardError)")
        #expect(again.standardOutput == "Imported 4000 books from big.csv\n")
        let twice = try LibraryBinary.run(["--db", database, "--yes", "--no-input", "-e", "import books from \"\(csv)\" duplicates: skip"],
                                          directory: folder.path)
        #expect(twice.standardOutput == "Imported 0 books from big.csv, 4000 skipped\n", "\(twice.standardError)")
        let (after, integrityAfter) = try inspect(database)
        #expect(after == 4680)
        #expect(integrityAfter == "ok")
    }
}
