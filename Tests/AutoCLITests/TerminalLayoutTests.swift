@testable import AutoTerminal
@testable import AutoCLI
import AutoIntents
import AutoTestSupport
import Testing

/// Values as they are laid out on a terminal: entities and records as tables, lists one element per line.
@Suite struct TerminalLayoutTests {
    let books = Value.list(SampleLibrary.books.map(\.autoValue))

    @Test func aListOfEntitiesIsATableThatFitsTheWidth() {
        for width in [40, 80, 120] {
            let text = TerminalLayout.render(books, width: width)
            let lines = text.split(separator: "\n")
            #expect(lines.allSatisfy { $0.count <= width }, "width \(width):\n\(text)")
            #expect(lines.first?.hasPrefix("Book") == true)
            #expect(lines.last?.hasPrefix("(\(SampleLibrary.books.count) books") == true)
            #expect(lines.count == SampleLibrary.books.count + 3, "a header, a rule, a row per book, the count")
            // The title is the first column, and the `title` property is not repeated.
            #expect(!lines[0].contains("title"))
        }
        let narrow = TerminalLayout.render(books, width: 40)
        #expect(narrow.contains("properties not shown"), "columns that don't fit are counted below: \(narrow)")
    }

    @Test func longCellsAreCutWithAnEllipsis() {
        #expect(TerminalLayout.fitted("Where the Crawdads Sing", to: 10) == "Where the…")
        #expect(TerminalLayout.fitted("Emma", to: 6) == "Emma  ")
    }

    @Test func oneEntityIsItsTitleSubtitleAndProperties() throws {
        let book = try #require(SampleLibrary.books.first)
        let text = TerminalLayout.render(book.autoValue, width: 80)
        #expect(text.hasPrefix(book.title))
        #expect(text.contains("  author"))
        #expect(text.contains(book.author))
    }

    @Test func aListIsOneElementPerLineAsShowShowsEach() {
        #expect(TerminalLayout.render(.list([.text("a b"), .int(2), .list([.int(1), .int(2)])]), width: 80) == "a b\n2\n[1, 2]\n")
        #expect(TerminalLayout.render(.list([]), width: 80) == "[]\n")
        #expect(TerminalLayout.render(.text("hi"), width: 80) == "hi\n")
        #expect(TerminalLayout.render(.int(3), width: 80) == "3\n")
    }

    @Test func recordsWithTheSameFieldsAreATable() {
        let rows = Value.list([.record(Record(["name": .text("Emma"), "n": .int(1)])), .record(Record(["name": .text("Persuasion"), "n": .int(22)]))])
        #expect(TerminalLayout.render(rows, width: 80) == """
            name        n
            ──────────  ──
            Emma        1
            Persuasion  22
            (2 records)

            """)
        #expect(TerminalLayout.render(rows, width: 12).hasSuffix("(2 records, 1 field not shown)\n"))
        // Fields that differ: each record on its line.
        let mixed = Value.list([.record(Record(["a": .int(1)])), .record(Record(["b": .int(2)]))])
        #expect(TerminalLayout.render(mixed, width: 80) == "{a: 1}\n{b: 2}\n")
    }

    /// `show` of a list on a terminal goes one element per line; beside `--json` (shown on standard error) and without
    /// a terminal it stays the one line a script's output has.
    @Test func showLaysOutAListOnlyOnATerminal() async {
        let dialog = { () -> Dialog in
            var dialog = Dialog(#"["a", "b"]"#)
            dialog.value = .list([.text("a"), .text("b")])
            return dialog
        }()
        for (columns, json, out, error) in [(80, false, "a\nb\n", ""), (nil, false, "[\"a\", \"b\"]\n", ""), (80, true, "", "[\"a\", \"b\"]\n")] as [(Int?, Bool, String, String)] {
            let capture = OutputCapture()
            let console = Console(writeOut: capture.console.writeOut, writeError: capture.console.writeError, outputColumns: { columns })
            let interaction = TerminalInteraction(console: console, showsOnStandardError: json, canAsk: false, approvesConfirmations: false,
                                                  drawsInPlace: false)
            await interaction.show(dialog)
            #expect(capture.standardOutput == out && capture.standardError == error, "columns \(String(describing: columns)), json \(json)")
        }
    }
}
