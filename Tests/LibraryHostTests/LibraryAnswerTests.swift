import AutoTestSupport
import Foundation
import Testing

/// The Library's questions answered before the run, without a terminal: `import books`'s file and confirmation, and
/// `say`'s parameters.
@Suite struct LibraryAnswerTests {
    let folder: TemporaryFolder
    var database: String { folder("library.sqlite") }

    init() throws {
        folder = try TemporaryFolder("library-answers")
    }

    func library(_ arguments: String...) async throws -> BinaryRunner.Result {
        try await LibraryBinary.runAwaiting(["--db", database] + arguments, directory: folder.path)
    }

    @Test func anImportsFileAndConfirmationAreAnsweredBeforeTheRun() async throws {
        try "title,author\nThe Answer Given,Ann Swer\nA Second Answer,Ann Swer\n".write(to: folder.url.appendingPathComponent("two.csv"), atomically: true, encoding: .utf8)
        let unanswered = try await library("--no-input", "-e", "import books")
        #expect(unanswered.exitCode == 1)
        #expect(unanswered.standardError.contains("hint: answer it with --answer 'from=VALUE'"), "\(unanswered.standardError)")
        let unconfirmed = try await library("--no-input", "--answer", "from=two.csv", "-e", "import books")
        #expect(unconfirmed.exitCode == 1)
        #expect(unconfirmed.standardError.contains("hint: approve it with --yes, or this one alone with --answer 'Import 2 books from two.csv?=yes'"),
                "\(unconfirmed.standardError)")
        let imported = try await library("--no-input", "--answer", "from=two.csv", "--answer", "Import 2 books from two.csv?=yes",
                                   "-e", "import books\nshow count(find books where author == \"Ann Swer\")")
        #expect(imported.exitCode == 0, "\(imported.standardError)")
        #expect(imported.standardOutput.hasSuffix("2\n"), "\(imported.standardOutput)")
        let refused = try await library("--no-input", "--yes", "--answer", "from=missing.csv", "-e", "import books")
        #expect(refused.exitCode == 1)
        #expect(refused.standardError.contains("the answer given with --answer 'from=missing.csv' can't be used"), "\(refused.standardError)")
    }

    @Test func saysParametersAreAnsweredBeforeTheRun() async throws {
        let unanswered = try await library("say", "add a book to library")
        #expect(unanswered.exitCode == 1)
        #expect(unanswered.standardError.contains("hint: answer it with --answer 'title=VALUE'"), "\(unanswered.standardError)")
        let added = try await library("say", "add a book to library", "--answer", "title=A Book Said Aloud")
        #expect(added.exitCode == 0, "\(added.standardError)")
        #expect(try await library("-e", #"show count(find books where title == "A Book Said Aloud")"#).standardOutput == "1\n")
    }
}
