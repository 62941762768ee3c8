import AutoTestSupport
import Foundation
import LibraryExample
import Testing

/// `move book`: a book goes to another shelf and keeps everything else, one book or every piped one.
@Suite struct MoveBookTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder("library-tests")
    }

    /// Every book of `database`, by id, as stored.
    func books(in database: LibraryDatabase) async throws -> [Int64: Book] {
        Dictionary(uniqueKeysWithValues: try await BookQuery(database: database).allEntities().map { ($0.id, $0) })
    }

    /// The books that are not as they were `before`, as they are now; a book added or removed counts too.
    func changes(since before: [Int64: Book], in database: LibraryDatabase) async throws -> [Int64: Book] {
        let now = try await books(in: database)
        let removed = before.filter { now[$0.key] == nil }
        return now.filter { before[$0.key] != $0.value }.merging(removed) { new, _ in new }
    }

    /// A book on the read shelf with a rating and a date read moves to want to read and keeps both.
    @Test func movingOneBookChangesOnlyItsShelf() async throws {
        let database = freshDatabase(in: folder)
        let host = try Library.host(database: database)
        let before = try await books(in: database)
        let book = try #require(before.values.filter { $0.shelf == .read && $0.rating != nil && $0.readDate != nil && !$0.title.contains("\"") && !$0.title.contains("\\") }
            .min { $0.id < $1.id })

        let outcome = await ScriptHarness.run("""
            first(find books where title == "\(book.title)" and author == "\(book.author)") | move book to: wantToRead -> moved
            show "\\(moved.title): \\(moved.shelf), \\(moved.rating) stars"
            """, host: host)
        #expect(outcome.exitCode == 0, "\(outcome.standardError)")
        #expect(outcome.output == ["Moved \(book.title) to Want to Read", "\(book.title): Want to Read, \(book.rating ?? 0) stars"])

        var moved = book
        moved.shelf = .wantToRead
        let changed = try await changes(since: before, in: database)
        #expect(changed == [book.id: moved], "only its shelf changed; its rating and date read stay")
    }

    /// 'Put every book rated 1 back on want-to-read' (issue 12, 18): each piped book is moved, and each keeps
    /// its rating and the day it was read.
    @Test func everyPipedBookIsMovedAndKeepsItsRatingAndReadDate() async throws {
        let database = freshDatabase(in: folder)
        let host = try Library.host(database: database)
        let before = try await books(in: database)
        let rated1 = before.values.filter { $0.rating == 1 }
        #expect(rated1.count > 1, "the seed has several books rated 1")
        #expect(rated1.contains { $0.readDate != nil && $0.shelf == .read }, "some of them read, with a date")

        let outcome = await ScriptHarness.run("""
            find books where rating == 1 | move book to: wantToRead -> moved
            show count(moved)
            """, host: host)
        #expect(outcome.exitCode == 0, "\(outcome.standardError)")
        #expect(outcome.output.last == "\(rated1.count)")
        #expect(outcome.output.filter { $0.hasPrefix("Moved ") }.count == rated1.count, "\(outcome.output)")

        // Read back with `find`, as a later script would.
        let readBack = await ScriptHarness.run("""
            for b in find books where rating == 1 { show "\\(b.title)|\\(b.shelf)|\\(b.rating)" }
            """, host: try Library.host(database: LibraryDatabase(path: database.path)))
        #expect(readBack.exitCode == 0, "\(readBack.standardError)")
        let lines = readBack.output.map { $0.split(separator: "|", omittingEmptySubsequences: false).map(String.init) }
        #expect(lines.map { $0[0] }.sorted() == rated1.map(\.title).sorted())
        #expect(lines.allSatisfy { $0[1] == "Want to Read" && $0[2] == "1" }, "\(readBack.output)")

        var expected: [Int64: Book] = [:]
        for var book in rated1 where book.shelf != .wantToRead {
            book.shelf = .wantToRead
            expected[book.id] = book
        }
        #expect(!expected.isEmpty)
        let changed = try await changes(since: before, in: database)
        #expect(changed == expected, "only the shelves of the books rated 1 changed; their ratings and dates read stay")
    }

    @Test func anUnknownShelfIsACompileErrorAtItsPlace() async throws {
        let database = freshDatabase(in: folder)
        let host = try Library.host(database: database)
        let before = try await books(in: database)
        let outcome = await ScriptHarness.run("""
            show 1
            move book "Emma" to: bookcase
            move book "Emma" to: "bookcase"
            """, name: "move.auto", host: host)
        #expect(outcome.exitCode == 2)
        #expect(outcome.output == [], "nothing runs")
        #expect(outcome.diagnostics.map(\.description) == [
            "move.auto:2:22: error: unknown name 'bookcase'", "move.auto:3:22: error: 'bookcase' is not a Shelf",
        ])
        #expect(outcome.diagnostics.map(\.hint) == [
            "a Shelf is one of: wantToRead, currentlyReading, read", "choose one of: Want to Read, Currently Reading, Read",
        ])
        #expect(outcome.standardError.contains("move.auto:2:22: error: unknown name 'bookcase'\n  move book \"Emma\" to: bookcase\n"),
                "\(outcome.standardError)")
        let changed = try await changes(since: before, in: database)
        #expect(changed == [:])
    }

    @Test func itIsDescribedAsItIsCalled() throws {
        let result = try LibraryBinary.run(["intents", "describe", "move", "book"])
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardOutput.hasPrefix("Move book\n  Move {book} to {to}\n"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("  book: Book, required, input\n      asks: Which book?\n  to: Shelf, required — Shelf\n      asks: To which shelf?\n"))
        #expect(result.standardOutput.contains("Result: Book\nSide effect: changes things\n"))
    }
}
