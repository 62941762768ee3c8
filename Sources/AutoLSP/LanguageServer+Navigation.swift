import AutoLanguage
import Foundation

// Hover, go to definition, references, rename and the outline: what an editor asks about the names of a document,
// answered from the checker's index of them (`SymbolIndex`), errors or not.
extension LanguageServer {
    /// What the position is about, described; nil (the protocol's null) where there is nothing to say: a variable's
    /// type there, an intent's or shortcut's description, an automation's next fires.
    func hover(in uri: String, at position: LSPPosition) -> Hover? {
        guard let source = source(of: uri) else { return nil }
        let offset = encoding.offset(of: position, in: source)
        let index = services.index(source)
        if let occurrence = index.occurrence(at: offset), index.symbols[occurrence.symbol].kind == .variable {
            let symbol = index.symbols[occurrence.symbol]
            var text = "\(symbol.name): \(occurrence.type)"
            if let declaration = symbol.declaration {
                text += "\n\nfirst set on line \(source.location(of: declaration.start).line)"
            } else {
                text += "\n\ngiven by the language, not set in the script"
            }
            return Hover(contents: .init(value: text), range: encoding.range(of: occurrence.span, in: source))
        }
        guard let (text, span) = services.describe(source, at: offset) else { return nil }
        return Hover(contents: .init(value: text), range: encoding.range(of: span, in: source))
    }

    /// The open document, its index, and the variable or shortcut named at the position; nil when there is none.
    func named(in uri: String, at position: LSPPosition) -> (source: SourceFile, index: SymbolIndex, occurrence: SymbolIndex.Occurrence)? {
        guard let source = source(of: uri) else { return nil }
        let index = services.index(source)
        return index.occurrence(at: encoding.offset(of: position, in: source)).map { (source, index, $0) }
    }

    /// Where the variable or shortcut at the position is declared; nil (null) for a name declared by nothing written.
    func definition(in uri: String, at position: LSPPosition) -> Location? {
        guard let (source, index, occurrence) = named(in: uri, at: position),
              let declaration = index.symbols[occurrence.symbol].declaration else { return nil }
        return Location(uri: uri, range: encoding.range(of: declaration, in: source))
    }

    /// Every place the variable or shortcut at the position is named, in the order of the text.
    func references(in uri: String, at position: LSPPosition, includingDeclaration: Bool) -> [Location] {
        guard let (source, index, occurrence) = named(in: uri, at: position) else { return [] }
        let declaration = index.symbols[occurrence.symbol].declaration
        return index.occurrences(of: occurrence.symbol).filter { includingDeclaration || $0.span != declaration }.map {
            Location(uri: uri, range: encoding.range(of: $0.span, in: source))
        }
    }

    /// The range a rename at the position would change, with the name as it is; nil (null) where nothing can be
    /// renamed.
    func renameRange(in uri: String, at position: LSPPosition) -> PrepareRenameResult? {
        guard let (source, index, occurrence) = named(in: uri, at: position), index.symbols[occurrence.symbol].declaration != nil else { return nil }
        let span = Self.nameSpan(of: occurrence, in: source)
        return PrepareRenameResult(range: encoding.range(of: span, in: source), placeholder: index.symbols[occurrence.symbol].name)
    }

    /// Every place of the variable or shortcut at the position, renamed; refused when the new name isn't one, or
    /// would change what the script means (another variable's name, a word the checker reads otherwise).
    func rename(in uri: String, at position: LSPPosition, to newName: String) -> Result<WorkspaceEdit, RequestRefusal> {
        guard let source = source(of: uri) else { return .failure(RequestRefusal(message: "the document is not open")) }
        let index = services.index(source)
        guard let occurrence = index.occurrence(at: encoding.offset(of: position, in: source)) else {
            return .failure(RequestRefusal(message: "there is no variable or shortcut here to rename"))
        }
        let symbol = index.symbols[occurrence.symbol]
        guard symbol.declaration != nil else {
            return .failure(RequestRefusal(message: "'\(symbol.name)' is given by the language and can't be renamed"))
        }
        guard let name = Self.validName(newName, severalWords: symbol.kind == .shortcut) else {
            let what = symbol.kind == .shortcut ? "a shortcut's name is words of letters, digits and _" : "a variable's name is one word of letters, digits and _"
            return .failure(RequestRefusal(message: "'\(newName)' can't be a name: \(what)"))
        }
        let spans = index.occurrences(of: occurrence.symbol).map { Self.nameSpan(of: $0, in: source) }
        var bytes = source.bytes
        for span in spans.sorted(by: { $0.start > $1.start }) { bytes.replaceSubrange(span.start..<span.end, with: Array(name.utf8)) }
        // The script renamed must mean what it meant: as many names, this one named as often, no new problem.
        let renamed = SourceFile(name: source.name, text: String(decoding: bytes, as: UTF8.self))
        let after = services.index(renamed)
        // The first place keeps its offset, the others being after it.
        let renamedCount = spans.map(\.start).min().flatMap { after.occurrence(at: $0) }.map { after.occurrences(of: $0.symbol).count } ?? 0
        let errorsBefore = services.check(source).filter { $0.severity == .error }.count
        let errorsAfter = services.check(renamed).filter { $0.severity == .error }
        guard after.symbols.count == index.symbols.count, renamedCount == spans.count, errorsAfter.count <= errorsBefore else {
            let reason = errorsAfter.count > errorsBefore ? errorsAfter.first.map { ": \($0.message)" } ?? "" : ": '\(name)' is taken"
            return .failure(RequestRefusal(message: "renaming '\(symbol.name)' to '\(name)' would change what the script means\(reason)"))
        }
        let edits = spans.map { TextEdit(range: encoding.range(of: $0, in: source), newText: name) }
        return .success(WorkspaceEdit(changes: [uri: edits]))
    }

    /// The name itself: a shortcut's declaration is a text, whose quotes stay.
    static func nameSpan(of occurrence: SymbolIndex.Occurrence, in source: SourceFile) -> Span {
        let span = occurrence.span
        guard span.end - span.start >= 2, source.bytes[span.start] == UInt8(ascii: "\""), source.bytes[span.end - 1] == UInt8(ascii: "\"") else { return span }
        return Span(span.start + 1, span.end - 1)
    }

    /// `name` as the script would write it: one word, or words with one space between them; nil if it isn't.
    static func validName(_ name: String, severalWords: Bool) -> String? {
        var lexer = Lexer(file: SourceFile(name: "<rename>", text: name))
        let words = lexer.tokenize().dropLast()
        guard !words.isEmpty, lexer.diagnostics.isEmpty, words.allSatisfy({ $0.identifier != nil }), severalWords || words.count == 1 else { return nil }
        return words.compactMap(\.identifier).joined(separator: " ")
    }

    /// The document's outline: its shortcuts, automations and the variables its top level sets.
    func symbols(in uri: String) -> [DocumentSymbol] {
        guard let source = source(of: uri) else { return [] }
        return DocumentOutline.symbols(of: source).map { symbol in
            DocumentSymbol(name: symbol.name, detail: symbol.detail, kind: symbol.kind.rawValue, range: encoding.range(of: symbol.span, in: source),
                           selectionRange: encoding.range(of: symbol.nameSpan, in: source))
        }
    }
}
