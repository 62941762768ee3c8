import AutoTerminal
import Testing

/// Ctrl-R's search through the history, without a terminal: what each key makes of the prompt and the line.
@Suite struct ReverseSearchTests {
    let entries = ["show \"alpha\"", "show 40 + 2", "show \"alphabet\""]

    @Test func typingNarrowsCtrlRGoesOlderBackspaceWidens() {
        var search = ReverseSearch(entries: entries, original: "draft")
        #expect(search.prompt == "(reverse-i-search)`': " && search.text == "draft")
        for character in "alph" { search.type(character) }
        #expect(search.prompt == "(reverse-i-search)`alph': " && search.text == "show \"alphabet\"")
        #expect(search.cursor == 6)
        search.older()
        #expect(search.text == "show \"alpha\"" && !search.failed)
        search.older()
        #expect(search.failed && search.text == "show \"alpha\"", "nothing older: the last match stays")
        #expect(search.prompt == "(failed reverse-i-search)`alph': ")
        for _ in 0..<4 { search.erase() }
        #expect(search.text == "draft" && !search.failed)
        search.type("4")
        #expect(search.text == "show 40 + 2")
        search.accept()
        #expect(search.isDone && search.text == "show 40 + 2")
    }

    @Test func ctrlGGivesTheLineBackAndAnEmptyHistoryFindsNothing() {
        var search = ReverseSearch(entries: entries, original: "draft")
        search.type("4")
        search.cancel()
        #expect(search.isDone && search.text == "draft")
        var empty = ReverseSearch(entries: [], original: "")
        empty.type("x")
        empty.older()
        empty.erase()
        empty.erase()
        #expect(empty.text == "" && !empty.failed)
    }
}
