import AutoTestSupport
import Foundation
import Testing

/// The Library's next version renamed `finish book` to `mark as read` and `recommender` to `recommendedBy`, and
/// retired `list shelf` for `open shelf`: a script of the first version still runs with warnings, and `library migrate`
/// rewrites it, keeping its comments and layout, and the second time changes nothing.
@Suite struct LibraryMigrationTests {
    let folder: TemporaryFolder
    var database: String { folder("library.sqlite") }

    init() throws {
        folder = try TemporaryFolder("library-migration")
    }

    func library(_ arguments: String...) async throws -> BinaryRunner.Result {
        try await LibraryBinary.runAwaiting(["--db", database] + arguments, directory: folder.path)
    }

    static let firstVersion = """
        # the weekly review, written for the first version
        finish book "Emma"   # keeps its comment
        add book "The Migrated Book" author: "Ann Other" recommender: "Ann"
        list shelf read
        show count(find books where recommender == "Ann")

        """

    @Test func aScriptOfTheFirstVersionRunsWithWarningsThatSayWhatToWrite() async throws {
        try Self.firstVersion.write(to: folder.url.appendingPathComponent("review.auto"), atomically: true, encoding: .utf8)
        let checked = try await library("check", "review.auto")
        #expect(checked.exitCode == 0, "\(checked.standardError)")
        #expect(checked.standardError.contains("review.auto:2:1: warning: 'finish book' is now called 'mark as read'"), "\(checked.standardError)")
        #expect(checked.standardError.contains("review.auto:3:50: warning: 'recommender' of 'add book' is now called 'recommendedBy'"),
                "\(checked.standardError)")
        #expect(checked.standardError.contains("warning: 'list shelf' is deprecated: a shelf's books are listed by 'open shelf'\n  list shelf read\n  ^"
                                              + String(repeating: "~", count: 9) + "\n  hint: use 'open shelf' instead"),
                "\(checked.standardError)")
        #expect(checked.standardError.contains("review.auto:5:29: warning: 'recommender' of Book is now called 'recommendedBy'"),
                "\(checked.standardError)")
        let run = try await library("run", "review.auto")
        #expect(run.exitCode == 0, "\(run.standardError)")
        #expect(run.standardOutput.hasSuffix("\n1\n"), "the former property name is asked of the query by its current one: \(run.standardOutput)")
        #expect(run.standardOutput.contains("Marked Emma as read"), "\(run.standardOutput)")
        #expect(try await library("-e", #"show first(find books where title == "The Migrated Book").recommendedBy"#).standardOutput == "Ann\n")
        // Left out of what lists offer, and said to be deprecated where asked.
        #expect(!(try await library("intents", "list").standardOutput.contains("list shelf")))
        #expect(try await library("intents", "list", "--all").standardOutput.contains("[deprecated: use 'open shelf']"))
        #expect(try await library("intents", "describe", "finish", "book").standardOutput.contains("Formerly: 'finish book'"))
    }

    @Test func migrateRewritesFormerNamesInPlaceAndOnlyOnce() async throws {
        let scripts = folder.url.appendingPathComponent("scripts")
        try FileManager.default.createDirectory(at: scripts.appendingPathComponent("more"), withIntermediateDirectories: true)
        let review = scripts.appendingPathComponent("more/review.auto")
        try Self.firstVersion.write(to: review, atomically: true, encoding: .utf8)
        try "show 1\n".write(to: scripts.appendingPathComponent("current.auto"), atomically: true, encoding: .utf8)
        #expect(chmod(review.path, 0o750) == 0)

        let dry = try await library("migrate", "--dry-run", "scripts")
        #expect(dry.exitCode == 0, "\(dry.standardError)")
        #expect(dry.standardOutput == """
            --- a/scripts/more/review.auto
            +++ b/scripts/more/review.auto
            @@ -1,5 +1,5 @@
             # the weekly review, written for the first version
            -finish book "Emma"   # keeps its comment
            -add book "The Migrated Book" author: "Ann Other" recommender: "Ann"
            +mark as read "Emma"   # keeps its comment
            +add book "The Migrated Book" author: "Ann Other" recommendedBy: "Ann"
             list shelf read
            -show count(find books where recommender == "Ann")
            +show count(find books where recommendedBy == "Ann")

            """)
        #expect(try String(contentsOf: review, encoding: .utf8) == Self.firstVersion, "--dry-run changes nothing")

        let written = try await library("migrate", "--write", "scripts")
        #expect(written.exitCode == 0, "\(written.standardError)")
        #expect(written.standardOutput == "scripts/more/review.auto: migrated\n")
        #expect(try String(contentsOf: review, encoding: .utf8) == Self.firstVersion
            .replacingOccurrences(of: "finish book", with: "mark as read").replacingOccurrences(of: "recommender", with: "recommendedBy"))
        let mode = try FileManager.default.attributesOfItem(atPath: review.path)[.posixPermissions] as? Int
        #expect(mode == 0o750, "the file keeps its mode")
        let again = try await library("migrate", "--write", "scripts")
        #expect(again.exitCode == 0 && again.standardOutput == "", "\(again.standardOutput)")
    }

    /// `--check` lists, at their places, what the host breaks (an intent the old schema had and this one hasn't, named
    /// from the schema) and what it warns about, and fails when something breaks; it writes nothing.
    @Test func checkListsWhatBreaksAndWhatWarnsAgainstAnOldSchema() async throws {
        var old = try String(contentsOfFile: Fixture.repositoryRoot + "/examples/library/schema/v1.json", encoding: .utf8)
        let intents = try #require(old.range(of: #""intents"\s*:\s*\["#, options: .regularExpression))
        old.replaceSubrange(intents, with: """
            "intents" : [{"id": "LendBook", "title": "Lend book", "formerTitles": [], "parameters": [], "result": "nothing", "sideEffect": "changes"},
            """)
        try old.write(to: folder.url.appendingPathComponent("old.json"), atomically: true, encoding: .utf8)
        let script = "finish book \"Emma\"\nlend book \"Emma\"\n"
        try script.write(to: folder.url.appendingPathComponent("c.auto"), atomically: true, encoding: .utf8)
        let checked = try await library("migrate", "--check", "--against", "old.json", "c.auto")
        #expect(checked.exitCode == 1, "\(checked.standardError)")
        #expect(checked.standardOutput == """
            c.auto:1:1: warns: 'finish book' is now called 'mark as read' (write 'mark as read')
            c.auto:2:1: breaks: unknown action 'lend book' (removed since old.json, where it was 'lend book' (LendBook))
            1 script: 1 break, 1 warning

            """)
        #expect(try String(contentsOf: folder.url.appendingPathComponent("c.auto"), encoding: .utf8) == script)
        try "mark as read \"Emma\"\n".write(to: folder.url.appendingPathComponent("c.auto"), atomically: true, encoding: .utf8)
        let clean = try await library("migrate", "--check", "c.auto")
        #expect(clean.exitCode == 0 && clean.standardOutput == "1 script: 0 breaks, 0 warnings\n", "\(clean.standardOutput)")
    }

    @Test func aScriptWithErrorsIsLeftAlone() async throws {
        let broken = "finish book \"Emma\"\nshow nosuchname\n"
        try broken.write(to: folder.url.appendingPathComponent("broken.auto"), atomically: true, encoding: .utf8)
        let result = try await library("migrate", "--write", "broken.auto")
        #expect(result.exitCode == 2)
        #expect(result.standardError.contains("broken.auto: not migrated: it has errors"), "\(result.standardError)")
        #expect(try String(contentsOf: folder.url.appendingPathComponent("broken.auto"), encoding: .utf8) == broken)
        #expect(try await library("migrate", "scripts").exitCode == 2, "neither --write nor --dry-run")
    }
}

/// The Library's schema: written in a stable order, and compared with the first version's (examples/library/schema/
/// v1.json) every change is compatible; a change that breaks is found and fails the command, as a host's CI runs it.
@Suite struct LibrarySchemaTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder("library-schema")
    }

    func library(_ arguments: String...) async throws -> BinaryRunner.Result {
        try await LibraryBinary.runAwaiting(["--db", folder("library.sqlite")] + arguments, directory: Fixture.repositoryRoot)
    }

    @Test func theNextVersionBreaksNothingOfTheFirst() async throws {
        let diff = try await library("intents", "diff", "examples/library/schema/v1.json")
        #expect(diff.exitCode == 0, "\(diff.standardOutput)\(diff.standardError)")
        #expect(diff.standardOutput.split(separator: "\n").sorted() == [
            "compatible: Book has a new property 'added'",
            "compatible: intent 'add book' has a new optional parameter 'rating'",
            "compatible: intent 'add book' has a new optional parameter 'shelf'",
            "compatible: intent 'finish book' is now 'mark as read', with the old title kept as a former one",
            "compatible: intent 'list shelf' is deprecated: a shelf's books are listed by 'open shelf'",
            "compatible: intent 'run command' has a new optional parameter 'environment'",
            "compatible: parameter 'recommender' of 'add book' is now 'recommendedBy', with the old name kept as a former one",
            "compatible: property 'recommender' of Book is now 'recommendedBy', with the old name kept as a former one",
        ], "\(diff.standardOutput)")
    }

    @Test func theSchemaIsStableAndABreakingChangeFailsTheDiff() async throws {
        let first = try await library("intents", "schema", "--json")
        #expect(first.exitCode == 0, "\(first.standardError)")
        #expect(try await library("intents", "schema").standardOutput == first.standardOutput, "the same schema, byte for byte")
        // The next version as a file: 'rate book' gone, and 'move book' taking a text for its shelf.
        var edited = first.standardOutput
        let rate = try #require(edited.range(of: "\"id\" : \"RateBook\""))
        edited.replaceSubrange(rate, with: "\"id\" : \"RateTheBook\"")
        let path = folder("next.json")
        try edited.write(toFile: path, atomically: true, encoding: .utf8)
        let old = folder("old.json")
        try first.standardOutput.write(toFile: old, atomically: true, encoding: .utf8)
        let diff = try await library("intents", "diff", old, path)
        #expect(diff.exitCode == 1, "\(diff.standardOutput)")
        #expect(diff.standardOutput.contains("breaking: intent 'rate book' was removed"), "\(diff.standardOutput)")
        let unreadable = try await library("intents", "diff", "no-such.json")
        #expect(unreadable.exitCode == 2 && unreadable.standardError.contains("no-such.json: no such file"), "\(unreadable.standardError)")
    }
}
