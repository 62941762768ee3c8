@testable import AutoTerminal
import AutoCLI
import AutoIntents
import AutoTestSupport
import Foundation
import LibraryExample
import Testing

/// The Library example as its users drive it: scripts, intents, the database, the `library` binary.
@Suite struct LibraryTests {
    /// The Library's examples, and the everyday tasks written on the Library (examples/everyday/library).
    static let scripts: [Fixture] = Fixture.all(under: Fixture.repositoryRoot + "/examples/library")
        + Fixture.all(under: Fixture.repositoryRoot + "/examples/everyday/library")

    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder("library-tests")
    }

    @Test func thereAreExampleScripts() {
        #expect(Self.scripts.count >= 5)
        #expect(Self.scripts.contains { $0.text.contains("find books where author == \"Jane Austen\" sort by published desc limit 3 | open") })
    }

    /// Every examples/library script, on a fresh database, prints what its `# expect:` lines say.
    @Test(arguments: scripts)
    func exampleScript(_ script: Fixture) async throws {
        let outcome = await ScriptHarness.run(script.text, name: script.path, host: try Library.host(database: freshDatabase(in: folder)))
        #expect(outcome.exitCode == 0, "\(script.path): \(outcome.standardError)")
        #expect(outcome.output == script.output)
    }

    @Test func seedHoldsTheWholeCSV() async throws {
        let books = try await BookQuery(database: freshDatabase(in: folder)).allEntities()
        #expect(books.count == 680)
        let feynman = try #require(books.first { $0.title.hasPrefix("\"Surely You're Joking, Mr. Feynman!\"") })
        #expect(feynman.author == "Richard P. Feynman")
        #expect(books.filter { $0.shelf == .read }.allSatisfy { $0.readDate != nil })
    }

    @Test func changesAreKeptInTheDatabase() async throws {
        let database = freshDatabase(in: folder)
        let host = try Library.host(database: database)
        let first = await ScriptHarness.run("""
            add book "A Book Nobody Wrote" author: "Ann Onymous" -> b
            b | rate book rating: 4
            mark as read b
            """, host: host)
        #expect(first.exitCode == 0, "\(first.standardError)")
        // A new process on the same file sees the book, rated and read.
        let reopened = try Library.host(database: LibraryDatabase(path: database.path))
        let second = await ScriptHarness.run(
            "set b = first(find books where title == \"A Book Nobody Wrote\")\nshow \"\\(b.rating) \\(b.shelf) \\(b.readDate == today)\"",
            host: reopened)
        #expect(second.output == ["4 Read true"], "\(second.standardError)")
    }

    @Test func aDuplicateIsAClearError() async throws {
        let outcome = await ScriptHarness.run("add book \"Emma\" author: \"Jane Austen\"", name: "dup.auto", host: try Library.host(database: freshDatabase(in: folder)))
        #expect(outcome.exitCode == 1)
        #expect(outcome.standardError.contains("dup.auto:1:1: error: add book: 'Emma' by Jane Austen is already in the library"))
    }

    @Test func deletingNeedsAConfirmationAndADeclineKeepsTheBook() async throws {
        let host = try Library.host(database: freshDatabase(in: folder))
        let declined = await ScriptHarness.run("delete book \"Persuasion\"", host: host, confirmations: [false])
        #expect(declined.exitCode == 130)
        let still = await ScriptHarness.run("show count(find books where title == \"Persuasion\")", host: host)
        #expect(still.output == ["1"])
        let approved = await ScriptHarness.run("delete book \"Persuasion\"", host: host, confirmations: [true])
        #expect(approved.output == ["Deleted Persuasion"])
        let gone = await ScriptHarness.run("show count(find books where title == \"Persuasion\")", host: host)
        #expect(gone.output == ["0"])
    }

    @Test func ratingsOutOfRangeAreRefusedBeforeAnythingChanges() async throws {
        let outcome = await ScriptHarness.run("rate book \"Emma\" rating: 9", host: try Library.host(database: freshDatabase(in: folder)))
        #expect(outcome.exitCode == 2)
        #expect(outcome.diagnostics.first?.message == "'rating' of 'rate book' must be between 1 and 5")
    }

    @Test func theGraphShowsWhatIsPushedDown() async throws {
        let compiled = try Library.host(database: freshDatabase(in: folder)).compile(.init(name: "g.auto", text: """
            find books where author == "Jane Austen" and readDate.year > 2016 sort by published desc limit 3 | open
            """)).get()
        let dot = compiled.graph.dot()
        #expect(dot.contains(#"find books · host: author == \"Jane Austen\" · engine: where readDate.year > 2016, sort by published desc, limit 3"#), "\(dot)")
    }

    @Test func theBinaryPrintsTheThreeNewestAustensAsJSON() async throws {
        let path = folder("books.sqlite")
        let binary = BinaryRunner.productsFolder.appendingPathComponent("library").path
        let json = try await BinaryRunner.runAwaiting(["--db", path, "--json", "-e", #"find books where author == "Jane Austen" sort by published desc limit 3"#], executable: binary)
        #expect(json.exitCode == 0, "\(json.standardError)")
        let books = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]])
        #expect(books.map { $0["title"] as? String } == ["Lady Susan", "Persuasion", "Northanger Abbey"])
        #expect(books.allSatisfy { $0["type"] as? String == "book" && $0["id"] != nil && $0["published"] is String })
        #expect(Set(books[0].keys) == ["id", "type", "title", "author", "published", "pages", "genre", "rating", "readDate", "shelf", "recommendedBy", "added"])
        let opened = try await BinaryRunner.runAwaiting(["--db", path, "-e", #"find books where author == "Jane Austen" sort by published desc limit 3 | open"#], executable: binary)
        #expect(opened.standardOutput == "Opening Lady Susan by Jane Austen\nOpening Persuasion by Jane Austen\nOpening Northanger Abbey by Jane Austen\n")
    }
}

/// `library` as `scripts/install` leaves it: alone in a folder, seeding a new database from the books it carries.
@Suite struct InstalledLibraryTests {
    @Test func anInstalledLibrarySeedsItsDatabase() async throws {
        let library = try InstalledBinary(copying: "library")
        defer { withExtendedLifetime(library) {} }
        let result = try library.run(["-e", "show count(find books)"])
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardOutput == "680\n")
    }
}
