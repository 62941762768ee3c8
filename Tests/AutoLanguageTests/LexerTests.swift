@testable import AutoLanguage
import Testing

@Suite struct LexerTests {
    func kinds(_ text: String) -> [Token.Kind] {
        var lexer = Lexer(file: SourceFile(name: "t", text: text))
        return lexer.tokenize().map(\.kind)
    }

    func errors(_ text: String) -> [String] {
        var lexer = Lexer(file: SourceFile(name: "t", text: text))
        _ = lexer.tokenize()
        return lexer.diagnostics.map(\.message)
    }

    @Test func numbersIdentifiersAndSymbols() {
        #expect(kinds("set x = 1_000 + 2.5 -> y") == [
            .identifier("set"), .identifier("x"), .symbol(.assign), .integer(1000), .symbol(.plus), .decimal(2.5),
            .symbol(.arrow), .identifier("y"), .endOfInput,
        ])
        #expect(kinds("a == b != c <= d >= e < f > g") == [
            .identifier("a"), .symbol(.equal), .identifier("b"), .symbol(.notEqual), .identifier("c"), .symbol(.lessEqual),
            .identifier("d"), .symbol(.greaterEqual), .identifier("e"), .symbol(.less), .identifier("f"), .symbol(.greater),
            .identifier("g"), .endOfInput,
        ])
    }

    @Test func commentsNewlinesAndShebang() {
        #expect(kinds("#!/usr/bin/env auto\nshow 1 # a comment\n\nshow 2") == [
            .newline, .identifier("show"), .integer(1), .newline, .newline, .identifier("show"), .integer(2), .endOfInput,
        ])
    }

    @Test func textEscapesAndInterpolation() {
        guard case .text(let pieces) = kinds(#""a\n\t\"\\ \(x + (1)) b""#)[0] else {
            Issue.record("expected a text token")
            return
        }
        #expect(pieces.count == 3)
        #expect(pieces[0] == .literal("a\n\t\"\\ "))
        #expect(pieces[2] == .literal(" b"))
        guard case .interpolation(let span) = pieces[1] else {
            Issue.record("expected an interpolation")
            return
        }
        #expect(span.end - span.start == "x + (1)".utf8.count)
    }

    /// `\xHH` is a byte: ASCII below 0x80, and from 0x80 the code point that stands for that byte in a file name
    /// that isn't UTF-8, U+EF80 + (byte - 0x80), which is how such a name is shown.
    @Test func aHexEscapeIsAByte() {
        #expect(kinds(#""\x41\x7e""#).first == .text([.literal("A~")]))
        #expect(kinds(#""f\x80\xfF.txt""#).first == .text([.literal("f\u{EF80}\u{EFFF}.txt")]))
        #expect(errors(#"show "\x4""#) == ["'\\x' takes two hex digits, such as \\x41 or \\xFF"])
        #expect(errors(#"show "\xg0""#) == ["'\\x' takes two hex digits, such as \\x41 or \\xFF"])
    }

    @Test func nestedTextInsideInterpolation() {
        guard case .text(let pieces) = kinds(#""a \(join(["x", ")"], "-")) b""#)[0] else {
            Issue.record("expected a text token")
            return
        }
        #expect(pieces.count == 3)
    }

    @Test func errorsAreReportedNotTrapped() {
        #expect(errors("show \"open") == ["unterminated text: a '\"' is missing"])
        #expect(errors("show \"\\q\"") == ["unknown escape '\\q' in text"])
        #expect(errors("show 99999999999999999999").first?.contains("does not fit in a 64-bit integer") == true)
        #expect(errors("show 1 ! 2") == ["unexpected character '!'"])
        #expect(errors("show \"\\(1\"").first?.contains("unterminated interpolation") == true)
    }

    @Test func identifiersMayHoldNonASCIILetters() {
        #expect(kinds("set café = 1") == [.identifier("set"), .identifier("café"), .symbol(.assign), .integer(1), .endOfInput])
    }
}
