@testable import AutoTerminal
@testable import AutoCLI
import AutoIntents
import AutoLanguage
import AutoTestSupport
import Foundation
import LibraryExample
import Testing

/// The Library's App Shortcuts: what sentences find, over the seeded books, and the real `library` binary's
/// `say` and `shortcuts --json`.
@Suite final class ShortcutPhraseTests {
    let folder: TemporaryFolder
    var database: String { folder("library.sqlite") }

    init() throws {
        folder = try TemporaryFolder("library-shortcuts")
    }

    enum Expected: Sendable, CustomStringConvertible {
        /// One match: the intent, and the value as the sentence shows it (nil: left out, the intent asks).
        case runs(String, String?)
        /// Several equally good matches, by their intents.
        case choice([String])
        /// Nothing; the closest phrase first.
        case none(closest: String)

        var description: String {
            switch self {
            case .runs(let intent, let value): "runs \(intent) \(value ?? "-")"
            case .choice(let intents): "choice \(intents)"
            case .none(let closest): "none, closest \(closest)"
            }
        }
    }

    static let utterances: [(said: String, expected: Expected)] = [
        // Exact, in the phrase's words, with and without the app's name.
        ("Open Currently Reading in library", .runs("open shelf", "Currently Reading")),
        ("open currently reading", .runs("open shelf", "Currently Reading")),
        ("open want to read", .runs("open shelf", "Want to Read")),
        ("Add a book to library", .runs("add book", nil)),
        ("add a book", .runs("add book", nil)),
        // Case, punctuation, accents and fillers.
        ("OPEN, my currently-reading shelf in library, please!", .runs("open shelf", "Currently Reading")),
        ("Could you open the Want to Read shelf?", .runs("open shelf", "Want to Read")),
        ("opén réad", .runs("open shelf", "Read")),
        // Reordered.
        ("currently reading open", .runs("open shelf", "Currently Reading")),
        ("in library open my read shelf", .runs("open shelf", "Read")),
        // Typos: one in a word of four letters or more, two from eight.
        ("opne currently raeding", .runs("open shelf", "Currently Reading")),
        ("open curently readin", .runs("open shelf", "Currently Reading")),
        ("mark dune as read in libary", .runs("mark as read", "dune")),
        // Any preposition before the app's name, not only the phrase's own.
        ("open currently reading with library", .runs("open shelf", "Currently Reading")),
        ("mark dune as read using library", .runs("mark as read", "dune")),
        // Synonyms the library gives: for a phrase's word and for a shelf.
        ("show me what I'm reading now", .none(closest: "What's on {shelf} in library")),
        ("show reading now", .runs("open shelf", "Currently Reading")),
        ("list my wishlist", .runs("open shelf", "Want to Read")),
        ("I completed Dune", .runs("mark as read", "Dune")),
        // Entities through the book query: an exact title wins over a shelf's fuzzy name.
        ("open dune", .runs("open book", "dune")),
        ("open the book the hobbit", .runs("open book", "hobbit")),
        ("Open a good girl’s guide to murder", .runs("open book", "good girl's guide to murder")),
        ("what's on read", .runs("open shelf", "Read")),
        // Ambiguous: a phrase whose value was left out matches a shelf and a book alike.
        ("open", .choice(["open shelf", "open book"])),
        ("open in library", .choice(["open shelf", "open book"])),
        // None.
        ("delete everything", .none(closest: "Open {shelf} in library")),
        ("open no such shelf or book", .none(closest: "Open my {shelf} shelf in library")),
        ("mark as read", .runs("mark as read", nil)),
        ("", .none(closest: "Open {shelf} in library")),
    ]

    @Test(arguments: utterances)
    func phraseMatching(_ said: String, _ expected: Expected) async throws {
        let registry = try Library.registry(database: LibraryDatabase(path: database))
        let found = try await PhraseMatcher(registry: registry).match(said)
        switch (found, expected) {
        case (.found(let matches), .runs(let intent, let value)):
            #expect(matches.count == 1, "\(said): \(matches.map(\.sentence))")
            #expect(matches.first?.shortcut.intent.name == intent, "\(said)")
            #expect(matches.first?.valueText == value, "\(said)")
        case (.found(let matches), .choice(let intents)):
            #expect(Set(matches.map(\.shortcut.intent.name)) == Set(intents), "\(said): \(matches.map(\.sentence))")
            #expect(matches.count == intents.count, "\(said): \(matches.map(\.sentence))")
        case (.none(let closest), .none(let first)):
            #expect(closest.count == 3, "\(said): \(closest)")
            #expect(closest.first == first, "\(said): \(closest)")
        default:
            Issue.record("\(said): \(found), expected \(expected)")
        }
    }

    @Test func sayRunsTheShortcutAsTheCallWouldRun() async throws {
        let said = try await LibraryBinary.runAwaiting(["--db", database, "say", "open currently reading"])
        let called = try await LibraryBinary.runAwaiting(["--db", database, "-e", "open shelf currentlyReading"])
        #expect(said.exitCode == 0, "\(said.standardError)")
        #expect(said.standardOutput == called.standardOutput)
        #expect(said.standardOutput.split(separator: "\n").count > 3)
    }

    /// Several equally good matches are a choice through the run's interaction; the chosen intent then asks for
    /// what the sentence left out, as its call would.
    @Test func severalMatchesAreAChoiceAndTheIntentAsksTheRest() async throws {
        let host = try Library.host(database: LibraryDatabase(path: database))
        let capture = OutputCapture()
        let interaction = ScriptedInteraction(answers: ["Currently Reading"], choices: [0])
        let code = await SpokenShortcut(host: host, console: capture.console).run("open", options: RunOptions(), interaction: interaction)
        #expect(code == 0, "\(capture.standardError)")
        #expect(interaction.questions == ["Which did you mean by 'open'? Open {shelf} in library | Open {book} in library", "Which shelf?"])
        let called = OutputCapture()
        _ = await ScriptRunner(host: host, console: called.console).run(SourceFile(name: "-e", text: "open shelf currentlyReading"),
                                                                         options: RunOptions(), interaction: ScriptedInteraction())
        #expect(capture.standardOutput == called.standardOutput)
        #expect(!capture.standardOutput.isEmpty)
    }

    @Test func sayAsksForWhatTheSentenceLeftOutAndFailsWithoutATerminal() async throws {
        let result = try await LibraryBinary.runAwaiting(["--db", database, "say", "mark", "as", "read"])
        #expect(result.exitCode == 1)
        #expect(result.standardError.contains("'mark as read' needs 'book'"), "\(result.standardError)")
    }

    /// An error in the call quotes the call as a person would write it, the value in it, not a variable of the engine's.
    @Test func sayQuotesTheCallItMade() async throws {
        let result = try await LibraryBinary.runAwaiting(["--db", database, "say", "mark e as read in library"])
        #expect(result.exitCode == 1)
        #expect(result.standardError.contains("say:1:20: error: several books match 'e'"), "\(result.standardError)")
        #expect(result.standardError.contains("\n  mark as read book: \"e\"\n"), "\(result.standardError)")
    }

    @Test func sayWithNoMatchSuggestsTheClosestPhrases() async throws {
        let result = try await LibraryBinary.runAwaiting(["--db", database, "say", "frobnicate the shelves"])
        #expect(result.exitCode == 2)
        #expect(result.standardOutput == "")
        #expect(result.standardError.contains("no shortcut matches 'frobnicate the shelves'"), "\(result.standardError)")
        #expect(result.standardError.contains("closest: \"Open {shelf} in library\", \"Open {book} in library\", \"Open my {shelf} shelf in library\""), "\(result.standardError)")
    }

    @Test func sayWithSeveralMatchesAndNobodyToChooseListsThem() async throws {
        let result = try await LibraryBinary.runAwaiting(["--db", database, "say", "open"])
        #expect(result.exitCode == 2)
        #expect(result.standardError.contains("'open' matches several shortcuts: \"Open {shelf} in library\", \"Open {book} in library\""),
                "\(result.standardError)")
    }

    @Test func sayAtTheReplRunsTheShortcutAndTheSessionGoesOn() async throws {
        let result = try await BinaryRunner.runAwaiting(["--db", database, "repl"], executable: LibraryBinary.path,
                                                        input: "say open my Read shelf\nsay nothing like it\nshow 1 + 1\n")
        let called = try await BinaryRunner.runAwaiting(["--db", database, "-e", "open shelf read"], executable: LibraryBinary.path)
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardOutput == called.standardOutput + "2\n")
        #expect(result.standardError.contains("no shortcut matches 'nothing like it'"), "\(result.standardError)")
    }

    /// `intents describe` tells which sentences run an intent, as `shortcuts` lists them.
    @Test func describeListsTheIntentsAppShortcutPhrases() async throws {
        let result = try await BinaryRunner.runAwaiting(["--db", database, "intents", "describe", "open shelf"], executable: LibraryBinary.path)
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains(#"App Shortcut ('library say …'): "Open {shelf} in library", "#), "\(result.standardOutput)")
        let other = try await BinaryRunner.runAwaiting(["--db", database, "intents", "describe", "import books"], executable: LibraryBinary.path)
        #expect(other.exitCode == 0 && !other.standardOutput.contains("App Shortcut"), "\(other.standardOutput)")
    }

    @Test func sayWithJSON() async throws {
        let result = try await LibraryBinary.runAwaiting(["--db", database, "say", "--json", "open the book dune"])
        #expect(result.exitCode == 0, "\(result.standardError)")
        let book = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
        #expect(book?["title"] as? String == "Dune", "\(result.standardOutput)")
    }

    @Test func shortcutsListsEveryPhraseWithAnExampleThatSayFinds() async throws {
        let result = try await BinaryRunner.runAwaiting(["--db", database, "shortcuts", "--json"], executable: LibraryBinary.path)
        #expect(result.exitCode == 0, "\(result.standardError)")
        let shortcuts = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]])
        #expect(shortcuts.map { $0["intent"] as? String } == ["open shelf", "open book", "mark as read", "add book"])
        let shelf = try #require(shortcuts.first?["phrases"] as? [[String: Any]])
        #expect(shelf.first?["phrase"] as? String == "Open {shelf} in library")
        #expect(shelf.first?["example"] as? String == "Open Want to Read in library")
        #expect(shelf.first?["parameter"] as? String == "shelf")
        // Each example, said, runs the shortcut it is listed under.
        let matcher = PhraseMatcher(registry: try Library.registry(database: LibraryDatabase(path: database)))
        for shortcut in shortcuts {
            for phrase in shortcut["phrases"] as? [[String: Any]] ?? [] {
                let example = try #require(phrase["example"] as? String)
                guard case .found(let matches) = try await matcher.match(example) else {
                    Issue.record("\(example) matches nothing")
                    continue
                }
                #expect(matches.map(\.shortcut.intent.name) == [shortcut["intent"] as? String], "\(example)")
            }
        }
    }
}
