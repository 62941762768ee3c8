import AutoIntents
import AutoLanguage
import AutoRuntime
import AutoTestSupport
import Foundation
import Testing

/// Completion from the language: the candidates and the range they replace, for cursors in valid, unfinished
/// and broken entries. `‸` in a case marks the cursor.
@Suite struct CompletionTests {
    let registry: Registry

    init() throws {
        registry = try SampleLibrary.registry()
    }

    func complete(_ marked: String, scope: SessionScope = SessionScope(), commands: [String] = []) -> (CompletionResult, String) {
        let cursor = marked.range(of: "‸").map { marked[..<$0.lowerBound].utf8.count } ?? marked.utf8.count
        let text = marked.replacingOccurrences(of: "‸", with: "")
        return (Completer(registry: registry, scope: scope, commands: commands).complete(text, cursor: cursor), text)
    }

    func texts(_ marked: String, scope: SessionScope = SessionScope(), commands: [String] = []) -> [String] {
        complete(marked, scope: scope, commands: commands).0.candidates.map(\.text)
    }

    /// The text after Tab with the only candidate, or the common prefix.
    func applied(_ marked: String, scope: SessionScope = SessionScope()) -> String {
        let (result, text) = complete(marked, scope: scope)
        let bytes = Array(text.utf8)
        let replacement = result.candidates.count == 1 ? result.candidates[0].text : result.commonPrefix
        return String(decoding: bytes[..<result.range.lowerBound], as: UTF8.self) + replacement
            + String(decoding: bytes[result.range.upperBound...], as: UTF8.self)
    }

    @Test func propertiesAfterWhereAndOrAndSortBy() {
        #expect(applied("find books where au‸") == "find books where author")
        #expect(texts("find books where rating > 3 and sh‸") == ["shelf"])
        #expect(texts("find books sort by pu‸") == ["published"])
        #expect(texts("find books where ‸").contains("readDate"))
        #expect(texts("find books where title == \"x\" or not r‸") == ["rating", "readDate"])
        #expect(texts("find books | count by pa‸") == ["pages"])
    }

    @Test func intentNamesOfSeveralWords() {
        #expect(texts("ope‸") == ["open book", "open shelf"])
        #expect(applied("open s‸") == "open shelf")
        #expect(applied("show 1\nrate b‸") == "show 1\nrate book")
        // `open shelf` takes a shelf, not the books piped in: the checker refuses it there.
        #expect(texts("list books | op‸") == ["open book"])
    }

    @Test func parameterLabelsWithTheirTypesAndEnumCases() {
        let (result, _) = complete("rate book b ra‸")
        #expect(result.candidates.first { $0.text == "rating: " }?.detail == "Int (1…5)")
        #expect(texts("open shelf ‸") == ["currentlyReading", "read", "wantToRead"])
        #expect(texts("open shelf cu‸") == ["currentlyReading"])
        #expect(texts("find books where shelf == ‸") == ["currentlyReading", "read", "wantToRead"])
        #expect(texts("find books where shelf in [read, ‸") == ["currentlyReading", "read", "wantToRead"])
    }

    @Test func membersAfterADotOnAKnownType() throws {
        let book = try #require(registry.entityType(named: "book"))
        let scope = SessionScope(variables: [("args", .list(.text)), ("b", .entity(book)), ("xs", .list(.entity(book)))], itType: .date)
        #expect(applied("show b.ti‸", scope: scope) == "show b.title")
        #expect(texts("xs.pa‸", scope: scope) == ["pages"])
        #expect(texts("xs | filter where ti‸", scope: scope) == ["title"])
        #expect(texts("it.month‸", scope: scope) == ["month", "monthName"])
        #expect(texts("today.startOfW‸") == ["startOfWeek"])
        #expect(texts("b.published.ye‸", scope: scope) == ["year"])
        #expect(texts("nobody.ti‸", scope: scope).isEmpty)
    }

    /// Any other expression before the `.` is typed by the checker, without running it.
    @Test func membersAfterADotOnAnyExpressionTheCheckerTypes() throws {
        let book = try #require(registry.entityType(named: "book"))
        let scope = SessionScope(variables: [("args", .list(.text)), ("xs", .list(.entity(book)))], itType: .null)
        #expect(texts("show first(xs).ti‸", scope: scope) == ["title"])
        #expect(texts("show xs[0].pu‸", scope: scope) == ["published"])
        #expect(texts("(find books where rating > 3 limit 1).au‸", scope: scope) == ["author"])
        #expect(texts("set d = date(\"2024-05-01\").ye‸") == ["year"])
        #expect(texts("show (open book \"Emma\").sh‸") == ["shelf"], "an action is typed, never run")
        #expect(texts("show max(xs.published).mo‸", scope: scope) == ["month", "monthName"])
        #expect(texts("show first(nothing).ti‸", scope: scope).isEmpty, "an expression with errors offers nothing")
        #expect(texts("show (1 +).x‸").isEmpty)
        #expect(texts(").‸").isEmpty)
    }

    @Test func variablesKeywordsAndCommands() {
        let scope = SessionScope(variables: [("args", .list(.text)), ("total", .int)], itType: .null)
        #expect(texts("to‸", scope: scope) == ["total"])
        #expect(texts("show tot‸", scope: scope).contains("total"))
        #expect(texts("se‸").contains("set"))
        #expect(texts("count(x) + cou‸").contains("count("))
        #expect(texts(":he‸", commands: [":help", ":history", ":vars"]) == [":help"])
        #expect(texts(":h‸", commands: [":help", ":history", ":vars"]) == [":help", ":history"])
    }

    /// Inside a text the values come from the host's query: the completer says what to ask for.
    @Test func insideATextTheHostsValuesAreAskedFor() throws {
        let book = try #require(registry.entityType(named: "book"))
        let (given, text) = complete("open book \"Em‸")
        #expect(given.values == ValuesWanted(wanted: .entities(book), typed: "Em"))
        #expect(given.range == 11..<text.utf8.count, "the text inside the quote is replaced")
        let (compared, _) = complete("find books where author == \"Jane‸")
        #expect(compared.values == ValuesWanted(wanted: .property(book, index: book.propertyIndex["author"]!), typed: "Jane"))
        #expect(complete("find books where pages == \"1‸").0.values == nil, "pages is not a text")
        #expect(complete("show \"hi ‸").0.values == nil)
        #expect(complete("show \"a \\(b) c‸").0.values == nil)
        #expect(complete("show \"done\" + x‸").0.values == nil, "after a closed text the cursor is in code")
    }

    /// Every cursor position of every fixture, valid or broken: no crash, and a range that ends at the cursor
    /// and starts within the text. The first 300 bytes of each: every Tab checks its offers with the checker, and
    /// the text before the cursor once, so longer texts only make the test slower (600 bytes took 100 s).
    @Test func anyCursorInAnyFixtureGivesASaneRange() throws {
        let fixtures = Fixture.all(under: Fixture.repositoryRoot + "/Tests/Fixtures").prefix(60)
        let completer = Completer(registry: registry, commands: [":help"])
        var checked = 0
        for fixture in fixtures {
            let bytes = Array(fixture.text.utf8.prefix(300))
            for cursor in 0...bytes.count where cursor == bytes.count || bytes[cursor] & 0xC0 != 0x80 {
                let result = completer.complete(fixture.text, cursor: cursor)
                #expect(result.range.upperBound <= cursor && result.range.lowerBound >= 0, "\(fixture.path) at \(cursor): \(result.range)")
                checked += 1
            }
        }
        #expect(checked > 5_000)
    }
}

extension CompletionTests {
    @Test func aTextForAFileParameterAsksForPaths() throws {
        var registry = self.registry
        try registry.add(IntentDescriptor(title: "Import list", parameters: [ParameterInfo(name: "from", type: .file, isRequired: true)],
                                          outputType: .null, implementation: .immediate { _, _ in IntentOutput(value: .null) }))
        let result = Completer(registry: registry).complete("import list \"examp", cursor: 18)
        #expect(result.values == ValuesWanted(wanted: .files, typed: "examp"))
    }

    /// An editor's kept scope gives what checking the statements before the cursor each time gives, and follows an edit
    /// of those statements (a variable that was a Book becomes an Int).
    @Test func aKeptScopeFollowsTheStatementsBeforeTheCursor() {
        let scopes = CompletionScopes()
        let sequence = ["set b = find books limit 1\nshow b.au‸", "set b = find books limit 1\nshow b.ti‸", "set b = 5\nshow b.au‸",
                        "set b = find books limit 1\nshow b.au‸", "set n = 1\nset b = n\nshow ‸"]
        for marked in sequence {
            let cursor = marked.range(of: "‸").map { marked[..<$0.lowerBound].utf8.count } ?? marked.utf8.count
            let text = marked.replacingOccurrences(of: "‸", with: "")
            let kept = Completer(registry: registry, scopes: scopes).complete(text, cursor: cursor).candidates.map(\.text)
            #expect(kept == texts(marked), "\(marked)")
        }
        #expect(texts("set b = find books limit 1\nshow b.au‸") == ["author"])
        #expect(texts("set b = 5\nshow b.au‸").isEmpty)
    }
}
