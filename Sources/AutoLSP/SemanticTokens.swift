import AutoIntents
import AutoLanguage

/// Highlighting from what the parser and the checker know, which a grammar of the tokens alone can't: the language
/// reserves no words, so `sort`, `limit` or `every` is a keyword only where the parser reads it as one, and a name is
/// a variable, an action or a property by what the checker resolved it to.
enum SemanticTokens {
    /// The legend the server announces: a token's type is its index here.
    enum Kind: Int, CaseIterable {
        case keyword, variable, function, parameter, property, string, number, comment, `operator`, type, enumMember
        var name: String { self == .operator ? "operator" : "\(self)" }
    }

    /// Modifier bits: `declaration` where a name is given its value, `readonly` for what the language gives (`it`).
    static let modifiers = ["declaration", "readonly"]

    struct Token: Equatable {
        let span: Span
        let kind: Kind
        let modifiers: Int
    }

    /// The document's tokens, in order, one line each.
    static func tokens(of file: SourceFile, index: SymbolIndex, registry: Registry) -> [Token] {
        let cases = Set(registry.enumTypes.flatMap { $0.cases.map(\.identifier) })
        var result: [Token] = []

        func classify(_ tokens: [AutoLanguage.Token]) {
            for (position, token) in tokens.enumerated() {
                let previous = position > 0 ? tokens[position - 1] : nil
                let next = position + 1 < tokens.count ? tokens[position + 1] : nil
                switch token.kind {
                case .integer, .decimal:
                    result.append(Token(span: token.span, kind: .number, modifiers: 0))
                case .text(let pieces):
                    text(token.span, pieces: pieces)
                case .symbol(let symbol):
                    if Self.operators.contains(symbol) { result.append(Token(span: token.span, kind: .operator, modifiers: 0)) }
                case .identifier(let word):
                    if let occurrence = index.occurrence(startingAt: token.span.start) {
                        let kind: Kind = index.symbols[occurrence.symbol].kind == .shortcut ? .function : .variable
                        result.append(Token(span: token.span, kind: kind, modifiers: occurrence.isDeclaration ? 1 : 0))
                    } else if index.isInCall(token.span) {
                        result.append(Token(span: token.span, kind: .function, modifiers: 0))
                    } else if !index.nameStarts.contains(token.span.start) {
                        result.append(Token(span: token.span, kind: .keyword, modifiers: 0))
                    } else if previous?.isSymbol(.dot) == true {
                        result.append(Token(span: token.span, kind: .property, modifiers: 0))
                    } else if next?.isSymbol(.colon) == true {
                        result.append(Token(span: token.span, kind: .parameter, modifiers: 0))
                    } else if Self.readOnlyNames.contains(word) {
                        result.append(Token(span: token.span, kind: .variable, modifiers: 2))
                    } else if word.first?.isUppercase == true, previous.map({ $0.isSymbol(.colon) || $0.isSymbol(.leftBracket) }) ?? false {
                        result.append(Token(span: token.span, kind: .type, modifiers: 0))
                    } else if cases.contains(word) {
                        result.append(Token(span: token.span, kind: .enumMember, modifiers: 0))
                    } else {
                        // A name the checker resolved to nothing of the script's: a property in a query's condition.
                        result.append(Token(span: token.span, kind: .property, modifiers: 0))
                    }
                case .newline, .endOfInput, .invalid:
                    break
                }
            }
        }

        /// A text is a string but for its interpolations, whose code is highlighted as code.
        func text(_ span: Span, pieces: [AutoLanguage.Token.TextPiece]) {
            var start = span.start
            for case .interpolation(let inner) in pieces {
                result.append(Token(span: Span(start, inner.start), kind: .string, modifiers: 0))
                var lexer = Lexer(file: file, range: inner.start..<inner.end)
                classify(lexer.tokenize())
                start = inner.end
            }
            result.append(Token(span: Span(start, span.end), kind: .string, modifiers: 0))
        }

        var lexer = Lexer(file: file)
        lexer.recordsComments = true
        classify(lexer.tokenize())
        result += lexer.comments.map { Token(span: $0, kind: .comment, modifiers: 0) }
        return result.sorted { $0.span.start < $1.span.start }.flatMap { splitAtLines($0, in: file) }
    }

    static let operators: Set<AutoLanguage.Token.Symbol> = [.pipe, .arrow, .question, .assign, .equal, .notEqual, .less, .lessEqual, .greater,
                                                            .greaterEqual, .plus, .minus, .star, .slash, .percent]
    static let readOnlyNames: Set<String> = ["it", "now", "today", "yesterday", "tomorrow", "args", "error"]

    /// A token on several lines (a text with a line break) as one token a line: clients need not support more.
    static func splitAtLines(_ token: Token, in file: SourceFile) -> [Token] {
        var pieces: [Token] = []
        var start = token.span.start
        while let newline = file.bytes[start..<token.span.end].firstIndex(of: UInt8(ascii: "\n")) {
            if newline > start { pieces.append(Token(span: Span(start, newline), kind: token.kind, modifiers: token.modifiers)) }
            start = newline + 1
        }
        if token.span.end > start { pieces.append(Token(span: Span(start, token.span.end), kind: token.kind, modifiers: token.modifiers)) }
        return pieces
    }

    /// The protocol's encoding: five numbers a token, its line and start relative to the token before.
    static func encode(_ tokens: [Token], in file: SourceFile, encoding: PositionEncoding) -> [Int] {
        var data: [Int] = []
        data.reserveCapacity(tokens.count * 5)
        var line = 0, character = 0
        for token in tokens {
            let range = encoding.range(of: token.span, in: file)
            let deltaLine = range.start.line - line
            let deltaStart = deltaLine == 0 ? range.start.character - character : range.start.character
            data += [deltaLine, deltaStart, range.end.character - range.start.character, token.kind.rawValue, token.modifiers]
            line = range.start.line
            character = range.start.character
        }
        return data
    }
}
