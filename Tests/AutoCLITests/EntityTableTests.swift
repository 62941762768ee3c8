@testable import AutoTerminal
@testable import AutoCLI
import AutoIntents
import AutoTestSupport
import Testing

/// Entities as the REPL shows them on a terminal.
@Suite struct EntityTableTests {
    let books = Value.list(SampleLibrary.books.map(\.autoValue))

    @Test func aListOfEntitiesIsATableThatFitsTheWidth() {
        for width in [40, 80, 120] {
            let text = EntityTable.render(books, width: width)
            let lines = text.split(separator: "\n")
            #expect(lines.allSatisfy { $0.count <= width }, "width \(width):\n\(text)")
            #expect(lines.first?.hasPrefix("Book") == true)
            #expect(lines.last?.hasPrefix("(\(SampleLibrary.books.count) books") == true)
            #expect(lines.count == SampleLibrary.books.count + 3, "a header, a rule, a row per book, the count")
            // The title is the first column, and the `title` property is not repeated.
            #expect(!lines[0].contains("title"))
        }
        let narrow = EntityTable.render(books, width: 40)
        #expect(narrow.contains("properties not shown"), "columns that don't fit are counted below: \(narrow)")
    }

    @Test func longCellsAreCutWithAnEllipsis() {
        #expect(EntityTable.fitted("Where the Crawdads Sing", to: 10) == "Where the…")
        #expect(EntityTable.fitted("Emma", to: 6) == "Emma  ")
    }

    @Test func oneEntityIsItsTitleSubtitleAndProperties() throws {
        let book = try #require(SampleLibrary.books.first)
        let text = EntityTable.render(book.autoValue, width: 80)
        #expect(text.hasPrefix(book.title))
        #expect(text.contains("  author"))
        #expect(text.contains(book.author))
    }

    @Test func otherValuesAreShownAsAScriptShowsThem() {
        #expect(EntityTable.render(.list([.int(1), .int(2)]), width: 80) == "[1, 2]\n")
        #expect(EntityTable.render(.text("hi"), width: 80) == "hi\n")
    }
}
