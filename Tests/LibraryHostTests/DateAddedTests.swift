import AutoIntents
import AutoLanguage
import AutoRuntime
import AutoStdlib
import AutoTestSupport
import Foundation
import GRDB
@testable import LibraryExample
import Synchronization
import Testing

/// Books have the date they were added (issue 31, item 12): an import's books its one instant, `add book`'s its
/// own, a new library's books its creation, and an older library's books none. `added` is found and sorted in SQL.
@Suite final class DateAddedTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder("library-added")
    }

    /// Local time, as scripts' `date("…")` and `today` read it.
    static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        return calendar
    }()

    static func time(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0) -> Date {
        calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute))!
    }

    func write(_ text: String, to name: String) throws -> String {
        let path = folder(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Imports `titles` (by Ann) from a file of their own, as a script does.
    func importBooks(_ titles: [String], into database: LibraryDatabase) async throws {
        let csv = try write("title,author\n" + titles.map { "\($0),Ann\n" }.joined(), to: "\(UUID().uuidString).csv")
        let outcome = await ScriptHarness.run("import books from \"\(csv)\"", host: try Library.host(database: database), confirmations: [true])
        #expect(outcome.exitCode == 0, "\(outcome.standardError)")
    }

    func books(_ database: LibraryDatabase) async throws -> [Book] {
        try await BookQuery(database: database).allEntities()
    }

    /// The titles a script's `find books …` gives, and how it was split between SQL and the engine.
    func find(_ query: String, in registry: Registry, database: LibraryDatabase) async throws -> (titles: [String], summary: String) {
        let (ids, summary) = try await DifferentialTests().run("find books " + query, registry)
        let books = try await BookQuery(database: database).entities(for: ids)
        return (ids.compactMap { id in books.first { $0.id == id }?.title }, summary)
    }

    // MARK: When a book is added

    /// Every book of an import has the same date added, read once: this clock is a second later at each reading.
    @Test func anImportsBooksAreAddedAtOneInstant() async throws {
        let start = Self.time(2026, 11, 20, 10, 0)
        let clock = TickingClock(start)
        let database = freshDatabase(in: folder, clock: clock.read)
        try await importBooks(["One", "Two", "Three", "Four"], into: database)
        let all = try await books(database)
        let imported = all.filter { $0.author == "Ann" }
        #expect(imported.count == 4)
        let instants = Set(imported.map(\.added))
        #expect(instants.count == 1, "\(instants)")
        let instant = try #require(instants.first ?? nil)
        #expect(instant > start && instant <= clock.read(), "read from the clock, after the library was made")
        // The books the library was made with came at its making, before the import.
        #expect(all.filter { $0.author != "Ann" }.allSatisfy { $0.added == start })
    }

    @Test func addBookAddsAtItsOwnTime() async throws {
        let clock = SetClock(Self.time(2026, 11, 20, 10, 0))
        let database = freshDatabase(in: folder, clock: clock.read)
        #expect(try await books(database).count == 680)
        // Kept to the second, as SQLite keeps it (to the millisecond), so the book added is the book stored.
        clock.set(Self.time(2026, 11, 24, 18, 30).addingTimeInterval(12.75))
        let outcome = await ScriptHarness.run("""
            add book "A New Book" author: "Ann" -> b
            show b.added == date("2026-11-24 18:30:12")
            show count(find books where added == b.added)
            """, host: try Library.host(database: database))
        #expect(outcome.output == ["Added A New Book by Ann", "true", "1"], "\(outcome.standardError)")
        let stored = try await books(database).first { $0.title == "A New Book" }
        #expect(stored?.added == Self.time(2026, 11, 24, 18, 30).addingTimeInterval(12))
    }

    /// The file's own `added` is kept (a library's export brings its dates); a row without one gets the import's.
    @Test func aFilesAddedColumnIsKept() async throws {
        let clock = SetClock(Self.time(2026, 11, 20, 10, 0))
        let database = freshDatabase(in: folder, clock: clock.read)
        #expect(try await books(database).count == 680)
        let csv = try write("title,author,added\nOld One,Ann,2019-05-01\nNew One,Ann,\n", to: "added.csv")
        clock.set(Self.time(2026, 11, 21, 8, 15))
        let outcome = await ScriptHarness.run("import books from \"\(csv)\"", host: try Library.host(database: database), confirmations: [true])
        #expect(outcome.output == ["Imported 2 books from added.csv"], "\(outcome.standardError)")
        let added = Dictionary(uniqueKeysWithValues: try await books(database).filter { $0.author == "Ann" }.map { ($0.title, $0.added) })
        #expect(added == ["Old One": Self.time(2019, 5, 1), "New One": Self.time(2026, 11, 21, 8, 15)])
    }

    // MARK: Finding by it

    /// "The books added yesterday", with the engine's `today`: imports yesterday and three days ago, on a
    /// library made ten days ago.
    @Test func theBooksAddedYesterday() async throws {
        let today = Self.calendar.startOfDay(for: Date())
        let day: TimeInterval = 24 * 3600
        let clock = SetClock(today - 10 * day)
        let database = freshDatabase(in: folder, clock: clock.read)
        #expect(try await books(database).count == 680, "made (and seeded) on its first use, ten days ago")
        clock.set(today - 3 * day + 9 * 3600)
        try await importBooks(["Three Days Ago"], into: database)
        clock.set(today - day + 9 * 3600)
        try await importBooks(["Yesterday One", "Yesterday Two"], into: database)
        let registry = try Library.registry(database: database)
        let yesterday = try await find("where added >= today - 1 day and added < today sort by title", in: registry, database: database)
        #expect(yesterday.titles == ["Yesterday One", "Yesterday Two"])
        #expect(!yesterday.summary.contains("engine"), "all of it in SQL: \(yesterday.summary)")
        let week = try await find("where added >= today - 7 days sort by added desc, title", in: registry, database: database)
        #expect(week.titles == ["Yesterday One", "Yesterday Two", "Three Days Ago"])
    }

    /// `where added > date(…) sort by added desc limit 3` is all SQL: the query is handed the comparison, the
    /// sort and the limit, and its SQL compares the `added` column; the engine alone finds the same books.
    @Test func addedIsFoundSortedAndLimitedInSQL() async throws {
        let clock = SetClock(Self.time(2026, 10, 1))
        let database = freshDatabase(in: folder, clock: clock.read)
        #expect(try await books(database).count == 680, "made on October 1st")
        for (title, time) in [("October", Self.time(2026, 10, 30, 12)), ("November 2", Self.time(2026, 11, 2, 9)),
                              ("November 5", Self.time(2026, 11, 5, 20)), ("November 9", Self.time(2026, 11, 9, 7))] {
            clock.set(time)
            try await importBooks([title], into: database)
        }
        let script = #"where added > date("2026-11-01") sort by added desc limit 3"#
        let recording = RecordingBookQuery(books: BookQuery(database: database))
        var recorded = Registry.standard
        try recorded.register(query: recording)
        let found = try await find(script, in: recorded, database: database)
        #expect(found.titles == ["November 9", "November 5", "November 2"])
        #expect(found.summary == "find books · host: added > 2026-11-01, sort by added desc, limit 3", "\(found.summary)")

        let asked = try #require(recording.asked.first)
        #expect(recording.asked.count == 1)
        #expect(asked.sort == [QuerySort(property: "added", descending: true)] && asked.limit == 3)
        let sql = try await database.read { db in
            try BookRecord.filter(asked.predicates.joined(operator: .and)).makePreparedRequest(db).statement.sql
        }
        #expect(sql.contains(#"WHERE "added" > ?"#), "\(sql)")

        var engineOnly = Registry.standard
        try engineOnly.register(query: EngineOnlyBookQuery(books: BookQuery(database: database)))
        #expect(try await find(script, in: engineOnly, database: database).titles == found.titles)
    }

    // MARK: A library made before books had a date added

    /// A library as the Library made it before `added`: its books get none (nil, not the migration's time),
    /// the column and its index are added, and books added from then on have their date.
    @Test func anOlderLibraryIsMigratedAndItsBooksHaveNoDateAdded() async throws {
        let path = folder("old.sqlite")
        let old = try DatabaseQueue(path: path)
        try await old.write { db in
            try db.execute(sql: """
                CREATE TABLE book (id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT NOT NULL, author TEXT NOT NULL,
                    published DATETIME NOT NULL, pages INTEGER NOT NULL, genre TEXT NOT NULL, rating INTEGER, readDate DATETIME,
                    shelf TEXT NOT NULL, recommendedBy TEXT);
                CREATE INDEX book_author ON book(author);
                CREATE UNIQUE INDEX book_title_author ON book(title, author);
                CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
                INSERT INTO grdb_migrations VALUES ('books');
                INSERT INTO book (title, author, published, pages, genre, shelf) VALUES
                    ('Old Book', 'Ann', '2001-02-03 00:00:00.000', 100, 'Fiction', 'read'),
                    ('Older Book', 'Bo', '1999-01-01 00:00:00.000', 200, 'Poetry', 'wantToRead');
                """)
        }
        try old.close()

        let clock = SetClock(Self.time(2026, 11, 25, 16, 0))
        let database = LibraryDatabase(path: path, clock: clock.read)
        let before = try await books(database)
        #expect(before.map(\.title) == ["Old Book", "Older Book"], "not seeded again")
        #expect(before.allSatisfy { $0.added == nil })
        let indexes = try await database.read { db in try db.indexes(on: "book").map(\.name) }
        #expect(indexes.contains("book_added"))

        let host = try Library.host(database: database)
        let outcome = await ScriptHarness.run("""
            add book "New Book" author: "Cy"
            show count(find books where added == nil)
            for book in find books where added >= date("2026-11-25") { show book.title }
            """, host: host)
        #expect(outcome.output == ["Added New Book by Cy", "2", "New Book"], "\(outcome.standardError)")
        // Opened again, nothing is left to migrate.
        let again = LibraryDatabase(path: path)
        #expect(try await books(again).count == 3)
    }
}

/// A clock that tells the time the test sets.
final class SetClock: Sendable {
    let time: Mutex<Date>
    init(_ time: Date) { self.time = Mutex(time) }
    func set(_ time: Date) { self.time.withLock { $0 = time } }
    @Sendable func read() -> Date { time.withLock { $0 } }
}

/// A clock a second later at each reading, from `start`: what reads it twice sees two times.
final class TickingClock: Sendable {
    let readings = Mutex(0)
    let start: Date
    init(_ start: Date) { self.start = start }
    @Sendable func read() -> Date {
        start.addingTimeInterval(TimeInterval(readings.withLock { count in
            defer { count += 1 }
            return count
        }))
    }
}

/// The Library's book query, keeping what the engine hands it: the predicates (GRDB expressions), the sort and
/// the limit of each `entities(matching:…)`.
final class RecordingBookQuery: EntityPropertyQuery, Sendable {
    struct Asked: Sendable {
        let predicates: [SQLExpression]
        let sort: [QuerySort]
        let limit: Int?
    }

    let books: BookQuery
    let seen = Mutex<[Asked]>([])
    init(books: BookQuery) { self.books = books }

    var asked: [Asked] { seen.withLock { $0 } }
    var properties: [QueryProperty<Book, SQLExpression>] { books.properties }
    var sortableProperties: [String] { books.sortableProperties }

    func entities(matching predicates: [SQLExpression], mode: ComparatorMode, sortedBy: [QuerySort], limit: Int?) async throws -> [Book] {
        seen.withLock { $0.append(Asked(predicates: predicates, sort: sortedBy, limit: limit)) }
        return try await books.entities(matching: predicates, mode: mode, sortedBy: sortedBy, limit: limit)
    }

    func entities(for identifiers: [Int64]) async throws -> [Book] { try await books.entities(for: identifiers) }
}
