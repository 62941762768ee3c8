import AutoIntents
import AutoLanguage
import Foundation
import Testing

/// The checker's record of where a script's variables and shortcuts are declared and used, which an editor's
/// navigation reads: one variable per body, reads and writes told apart, shortcuts' calls found by their words.
@Suite struct SymbolIndexTests {
    let host = ScriptHost()

    /// The text of each occurrence of the symbol at the first `marker`, with whether it declares, and the symbol.
    func occurrences(of marker: String, in text: String) throws -> (symbol: SymbolIndex.Symbol, places: [(line: Int, text: String, declares: Bool)]) {
        let file = SourceFile(name: "t.auto", text: text)
        let index = host.index(file)
        let offset = try #require(text.range(of: marker)).lowerBound.utf16Offset(in: text)
        let occurrence = try #require(index.occurrence(at: offset), "nothing at \(marker)")
        let places = index.occurrences(of: occurrence.symbol).map { place in
            (file.location(of: place.span.start).line, file.text(of: place.span), place.isDeclaration)
        }
        return (index.symbols[occurrence.symbol], places)
    }

    @Test func aVariableIsOnePerBodyFromItsFirstSet() throws {
        let text = """
            set total = 1
            if total > 0 { set total = total + 2 }
            show total
            shortcut "double" (total: Int) {
              return total * 2
            }
            """
        let (symbol, places) = try occurrences(of: "total > 0", in: text)
        #expect(symbol.kind == .variable)
        #expect(places.map(\.line) == [1, 2, 2, 2, 3])
        #expect(places.map(\.declares) == [true, false, true, false, false])
        let file = SourceFile(name: "t.auto", text: text)
        #expect(symbol.declaration.map { file.location(of: $0.start).line } == 1)
        // The shortcut's parameter is another variable.
        let (parameter, inside) = try occurrences(of: "total * 2", in: text)
        #expect(inside.map(\.line) == [4, 5])
        #expect(parameter.declaration.map { file.location(of: $0.start).line } == 4)
    }

    @Test func aShortcutsCallsAreFoundByTheirWords() throws {
        let text = """
            shortcut "pages left" (n: Int) {
              return n - 1
            }
            show pages left 3
            pages left 5 -> rest
            for each in [rest] { show each }
            """
        let (symbol, places) = try occurrences(of: "left 3", in: text)
        #expect(symbol.kind == .shortcut && symbol.name == "pages left")
        #expect(places.map(\.line) == [1, 4, 5])
        #expect(places.map(\.text) == ["\"pages left\"", "pages left", "pages left"])
        let (loopVariable, loop) = try occurrences(of: "each }", in: text)
        #expect(loopVariable.name == "each" && loop.map(\.declares) == [true, false])
    }

    @Test func aTypeIsKeptAtEachPlaceAndAScriptWithErrorsIsIndexed() throws {
        let text = "set when = today\nshow when.year\nshow nosuchname\nset when = 3\n"
        let index = host.index(SourceFile(name: "t.auto", text: text))
        let types = index.occurrences.filter { index.symbols[$0.symbol].name == "when" }.map(\.type)
        #expect(types.count == 3)
        #expect(types.first == .date)
        #expect(types.last == .int)
    }

    @Test func thePreludesNamesAreNotTheScripts() {
        let index = host.index(SourceFile(name: "t.auto", text: "show args\n"))
        #expect(index.symbols.allSatisfy { $0.kind == .variable })
        #expect(index.occurrences.count == 1)
        #expect(index.symbols.first?.declaration == nil, "args is declared by nothing written")
    }
}
