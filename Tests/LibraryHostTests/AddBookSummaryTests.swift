import AutoTestSupport
import Foundation
import Testing

/// `add book`'s summary follows its shelf: a rating is for a book added as read. `intents describe`, `--what-if` and
/// the run itself say so, through the real binary.
@Suite struct AddBookSummaryTests {
    let folder: TemporaryFolder
    var database: String { folder("library.sqlite") }

    init() throws {
        folder = try TemporaryFolder("library-add-summary")
    }

    func library(_ arguments: String...) async throws -> BinaryRunner.Result {
        try await LibraryBinary.runAwaiting(["--db", database] + arguments, directory: folder.path)
    }

    @Test func describeSaysEachSentenceAndWhenARatingApplies() async throws {
        let whole = try await library("intents", "describe", "add", "book")
        #expect(whole.standardOutput.contains("""
              When shelf is read: Add {title} by {author} to {shelf}, rated {rating}
              When shelf is not read: Add {title} by {author} to {shelf}
            """), "\(whole.standardOutput)")
        #expect(whole.standardOutput.contains("  rating: Int, optional, between 1 and 5\n      only when shelf is read\n"), "\(whole.standardOutput)")
        // With a value, only what applies to it.
        let unread = try await library("intents", "describe", "add", "book", "shelf:", "wantToRead")
        #expect(unread.exitCode == 0, "\(unread.standardError)")
        #expect(unread.standardOutput.contains("  Add {title} by {author} to {shelf}\n  (for shelf: wantToRead)\n"), "\(unread.standardOutput)")
        #expect(!unread.standardOutput.contains("rating"), "\(unread.standardOutput)")
        let read = try await library("intents", "describe", "add", "book", "shelf:", "read")
        #expect(read.standardOutput.contains("rated {rating}") && read.standardOutput.contains("  rating: Int"), "\(read.standardOutput)")
    }

    @Test func theReplsHelpDescribesWhatAppliesToTheValuesWritten() async throws {
        let help = try await BinaryRunner.runAwaiting(["--db", database, "repl"], executable: LibraryBinary.path, input: ":help add book shelf: read\n:quit\n",
                                        directory: folder.path)
        #expect(help.standardOutput.contains("  Add {title} by {author} to {shelf}, rated {rating}\n  (for shelf: read)\n"), "\(help.standardOutput)")
        #expect(help.standardOutput.contains("  rating: Int, optional, between 1 and 5\n"), "\(help.standardOutput)")
    }

    @Test func whatIfFillsTheSentenceTheValuesChoose() async throws {
        let plain = try await library("--what-if", "-e", #"add book "Emma" author: "Jane Austen""#)
        #expect(plain.standardOutput == "What if: Add \"Emma\" by \"Jane Austen\" to Want to Read\n", "\(plain.standardOutput)\(plain.standardError)")
        let rated = try await library("--what-if", "-e", #"add book "Emma" author: "Jane Austen" shelf: read rating: 5"#)
        #expect(rated.standardOutput == "What if: Add \"Emma\" by \"Jane Austen\" to Read, rated 5\n", "\(rated.standardOutput)\(rated.standardError)")
    }

    @Test func aBookAddedAsReadKeepsItsRatingAndAnotherIsRefusedOne() async throws {
        let added = try await library("-e", #"add book "A Rated Novel" author: "Ann Rater" shelf: read rating: 5 -> b"# + "\nshow \"\\(b.shelf) \\(b.rating) \\(b.readDate != nil)\"")
        #expect(added.exitCode == 0, "\(added.standardError)")
        #expect(added.standardOutput.hasSuffix("Read 5 true\n"), "\(added.standardOutput)")
        let refused = try await library("-e", #"add book "Persuasion" rating: 4"#)
        #expect(refused.exitCode == 1)
        #expect(refused.standardError.contains("only a book added as read is rated"), "\(refused.standardError)")
    }
}
