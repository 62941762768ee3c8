import Foundation

/// One lexical unit. Keywords are identifiers: the parser reserves a word only where the grammar needs it.
package struct Token: Sendable {
    package enum Kind: Sendable, Equatable {
        case identifier(String)
        case integer(Int)
        /// Exact, as written: `0.1` is one tenth.
        case decimal(Decimal)
        /// A text literal: literal pieces and the spans of `\( … )` interpolations, parsed later.
        case text([TextPiece])
        case symbol(Symbol)
        case newline
        case endOfInput
        /// Something the lexer could not read; it has already reported why.
        case invalid
    }

    package enum TextPiece: Sendable, Equatable {
        case literal(String)
        case interpolation(Span)
    }

    package enum Symbol: String, Sendable, CaseIterable {
        case leftParen = "(", rightParen = ")", leftBracket = "[", rightBracket = "]"
        case leftBrace = "{", rightBrace = "}"
        case comma = ",", colon = ":", semicolon = ";", dot = ".", pipe = "|", arrow = "->", question = "?"
        case assign = "=", equal = "==", notEqual = "!=", less = "<", lessEqual = "<=", greater = ">", greaterEqual = ">="
        case plus = "+", minus = "-", star = "*", slash = "/", percent = "%"
    }

    package let kind: Kind
    package let span: Span
    /// Whether whitespace comes right before this token: `count(x)` calls, `show (x)` passes an argument.
    package let spaceBefore: Bool

    package var identifier: String? {
        if case .identifier(let name) = kind { return name }
        return nil
    }

    /// A number or a text written out.
    package var isLiteral: Bool {
        switch kind {
        case .integer, .decimal, .text: return true
        default: return false
        }
    }

    package func isSymbol(_ symbol: Symbol) -> Bool { kind == .symbol(symbol) }
    package func isWord(_ word: String) -> Bool { kind == .identifier(word) }
}
