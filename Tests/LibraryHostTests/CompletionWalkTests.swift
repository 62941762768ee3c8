import AutoIntents
import AutoLanguage
import AutoRuntime
import AutoTerminal
import AutoTestSupport
import Foundation
import LibraryExample
import Testing

/// Tab at every prefix of entries a person types at the Library's REPL, character by character: every offer must
/// complete the line into one the checker may still accept. The rule, for the line made of the text before the
/// range an offer replaces followed by the offer:
/// 1. it compiles in the session (warnings are fine); or
/// 2. the parser stops at its end wanting more, which is what makes the REPL ask for the next line, and finds
///    nothing else wrong (`count(`, `… where`, `rating: `, `not (author == "Jane Austen"`): the checker judges
///    whole statements only, so the last word can't be judged yet; or
/// 3. the checker's only errors are about what ends at the end of the line, and they go once that last operand is
///    compared: ` == nil` follows (`find books where author` is no condition yet, but it is on its way to one;
///    `find books where it` is not, as `it` is no book); or
/// 4. the offer is a statement's keyword (`find`, `try`, `shortcut`) where a statement starts: alone, it reads as an
///    unknown name until what follows it is typed, so the checker can't judge it.
/// The test judges through the REPL's own compilation (`ReplSession.compile`, prelude and session included), and
/// offers come from `ReplSession.complete`, the host's values included.
@Suite struct CompletionWalkTests {
    /// The README's REPL examples, then `find … where … sort by … limit` on books, pipelines and intents. They run one
    /// after another, so later ones see the variables and `it` earlier ones left.
    static let entries = [
        "find books where author == \"Jane Austen\" sort by published limit 2",
        "set favourite = it[0]",
        "if favourite.rating == 5 {\n  show \"top: \\(favourite.title)\"\n}",
        "delete book \"Emma\"",
        "find books where rating >= 4 and shelf == read sort by published desc limit 5",
        "find books where genre == \"Fantasy\" or pages > 300 sort by title limit 3",
        "find books where title starts with \"The\" and not (author == \"Jane Austen\") sort by title desc ignoring case limit 10",
        "find books where published.year < 1900 sort by published, title limit 4",
        "find books where pages between 300 and 400 | sort by rating desc | limit 3",
        "set readCount = count(find books where shelf == read)",
        "count(find books where author contains \"Austen\" | filter where pages > 400)",
        "[3, 1, 2] | sort by it | filter where it > 1",
        "open genre \"Fantasy\" shelf: read",
    ]

    /// The language's statement keywords (rule 4).
    static let statementKeywords: Set = ["set", "if", "for", "repeat", "while", "try", "return", "stop", "shortcut", "find"]

    let session: ReplSession
    /// The folder of the session's database.
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder("library-tests")
        let console = Console(writeOut: { _ in }, writeError: { _ in })
        session = ReplSession(host: try Library.host(database: freshDatabase(in: folder)), console: console)
    }

    /// Rule 1 to 3 above.
    func acceptable(_ line: String) -> Bool {
        let end = line.utf8.count
        let (_, parsed) = Parser.parse(SourceFile(name: "walk", text: line))
        if !parsed.isEmpty { return Parser.isUnfinished(line) && parsed.count == 1 }
        guard case .failure(let failure) = session.compile(line) else { return true }
        let errors = failure.diagnostics.filter { $0.severity == .error }
        guard errors.allSatisfy({ $0.span.end >= end }) else { return false }
        if case .success = session.compile(line + " == nil") { return true }
        return false
    }

    @Test func everyOfferAtEveryPrefixOfTheExamplesIsOneTheCheckerAccepts() async throws {
        let interaction = TerminalInteraction(console: session.console, showsOnStandardError: false, canAsk: false, approvesConfirmations: false)
        var refused: [String] = []
        var offers = 0
        for entry in Self.entries {
            // An example that doesn't compile would make the walk say nothing about its prefixes.
            guard case .success = session.compile(entry) else {
                Issue.record("the example doesn't compile: \(entry)")
                continue
            }
            for index in entry.indices + [entry.endIndex] {
                let cursor = entry.utf8.distance(from: entry.startIndex, to: index)
                let result = session.complete(entry, cursor: cursor)
                let before = String(decoding: Array(entry.utf8).prefix(result.range.lowerBound), as: UTF8.self)
                let startsStatement = before.last { $0 != " " }.map { "\n;{}".contains($0) } ?? true
                for candidate in result.candidates where candidate.kind != .command {
                    offers += 1
                    if startsStatement, candidate.kind == .keyword, Self.statementKeywords.contains(candidate.text) { continue }
                    if !acceptable(before + candidate.text) { refused.append("\(entry[..<index])‸  offers  \(candidate.text)") }
                }
            }
            await session.run(entry, interaction: interaction, cancellation: CancellationFlag(), limits: RunLimits())
        }
        #expect(refused.isEmpty, "\(refused.count) offers the checker refuses:\n\(refused.prefix(40).joined(separator: "\n"))")
        // The walk did see offers: properties, clauses, intents, labels, cases, values.
        #expect(offers > 500, "\(offers) offers")
    }

    /// The issue's case: after `where` on books, their properties, and no `it`, which the checker refuses on entities.
    @Test func afterWhereOnBooksThePropertiesAndNotIt() {
        let offered = session.complete("find books where ", cursor: 17).candidates.map(\.text)
        #expect(offered.contains("author") && offered.contains("rating"), "\(offered)")
        #expect(!offered.contains("it"), "\(offered)")
        #expect(session.complete("[1, 2] | filter where ", cursor: 22).candidates.map(\.text).contains("it"))
    }

    /// After a `find` that is complete so far, the clauses that may follow, in their order; none after a condition
    /// that is not one yet.
    @Test func theClausesThatMayFollowAFind() {
        func offered(_ line: String) -> [String] { session.complete(line, cursor: line.utf8.count).candidates.map(\.text) }
        #expect(offered("find ").contains("books"))
        #expect(offered("find books ") == ["limit", "matching", "sort by", "where"])
        #expect(offered("find books where rating > 3 ") == ["and", "limit", "or", "sort by"])
        #expect(offered("find books where author ") == [])
        #expect(offered("find books sort by title ") == ["limit"])
    }
}
