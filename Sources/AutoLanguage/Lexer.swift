import AutoIntents
import AutoRuntime
import Foundation

/// Turns source bytes into tokens. Newlines are tokens; the parser decides where a line continues.
/// Works on UTF-8 bytes: identifiers may hold any non-ASCII letters, everything else is ASCII.
package struct Lexer {
    let file: SourceFile
    let bytes: [UInt8]
    var position: Int
    let end: Int
    package private(set) var diagnostics: [Diagnostic] = []
    /// Whether to note where each comment is, in `comments`: the formatter keeps them; nothing else needs them, so by
    /// default they are skipped as spaces are.
    package var recordsComments = false
    /// The span of each comment, from its `#` to the end of its line (without the newline), in order; only when
    /// `recordsComments` is set. A shebang line is not among them.
    package private(set) var comments: [Span] = []

    /// Lexes `range` of the file (all of it by default; an interpolation's span when parsing one).
    package init(file: SourceFile, range: Range<Int>? = nil) {
        self.file = file
        self.bytes = file.bytes
        self.position = range?.lowerBound ?? 0
        self.end = range?.upperBound ?? file.bytes.count
        if range == nil, bytes.starts(with: Array("#!".utf8)) { skipToEndOfLine() }
    }

    package mutating func tokenize() -> [Token] {
        var tokens: [Token] = []
        while true {
            let token = next()
            tokens.append(token)
            if token.kind == .endOfInput { return tokens }
        }
    }

    mutating func next() -> Token {
        let before = position
        skipSpacesAndComments()
        let spaceBefore = position > before || position == 0
        guard position < end else { return Token(kind: .endOfInput, span: Span(end, end), spaceBefore: spaceBefore) }
        let start = position
        let byte = bytes[position]
        func token(_ kind: Token.Kind) -> Token { Token(kind: kind, span: Span(start, position), spaceBefore: spaceBefore) }

        if byte == UInt8(ascii: "\n") {
            position += 1
            return token(.newline)
        }
        if isIdentifierStart(byte) {
            while position < end, isIdentifierPart(bytes[position]) { position += 1 }
            return token(.identifier(String(decoding: bytes[start..<position], as: UTF8.self)))
        }
        if isDigit(byte) { return token(number()) }
        if byte == UInt8(ascii: "\"") { return token(text()) }
        position += 1
        let nextByte = position < end ? bytes[position] : 0
        let symbol: Token.Symbol?
        switch UnicodeScalar(byte) {
        case "(": symbol = .leftParen
        case ")": symbol = .rightParen
        case "[": symbol = .leftBracket
        case "]": symbol = .rightBracket
        case "{": symbol = .leftBrace
        case "}": symbol = .rightBrace
        case ",": symbol = .comma
        case ":": symbol = .colon
        case ";": symbol = .semicolon
        case ".": symbol = .dot
        case "|": symbol = .pipe
        case "?": symbol = .question
        case "+": symbol = .plus
        case "*": symbol = .star
        case "/": symbol = .slash
        case "%": symbol = .percent
        case "-": symbol = pair(nextByte, ">", .arrow, else: .minus)
        case "=": symbol = pair(nextByte, "=", .equal, else: .assign)
        case "<": symbol = pair(nextByte, "=", .lessEqual, else: .less)
        case ">": symbol = pair(nextByte, "=", .greaterEqual, else: .greater)
        case "!": symbol = pair(nextByte, "=", .notEqual, else: nil)
        default: symbol = nil
        }
        if let symbol { return token(.symbol(symbol)) }
        // Skip the rest of a multi-byte character so the message shows it whole.
        while position < end, bytes[position] & 0xC0 == 0x80 { position += 1 }
        // A control character is shown escaped, so the message can't drive the terminal.
        let character = ValueFormatter.escapingControlCharacters(file.text(of: Span(start, position)))
        let hint = character == "!" ? "write 'not' for negation and '!=' for 'not equal'" : nil
        report("unexpected character '\(character)'", Span(start, position), hint: hint)
        return token(.invalid)
    }

    mutating func pair(_ next: UInt8, _ second: Unicode.Scalar, _ both: Token.Symbol, else single: Token.Symbol?) -> Token.Symbol? {
        if next == UInt8(ascii: second) {
            position += 1
            return both
        }
        return single
    }

    mutating func skipSpacesAndComments() {
        while position < end {
            switch bytes[position] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                position += 1
            case UInt8(ascii: "#"):
                let start = position
                skipToEndOfLine()
                if recordsComments { comments.append(Span(start, position)) }
            default:
                return
            }
        }
    }

    mutating func skipToEndOfLine() {
        while position < end, bytes[position] != UInt8(ascii: "\n") { position += 1 }
    }

    // integer = digit { digit | "_" } ; decimal = integer "." digit { digit }
    mutating func number() -> Token.Kind {
        let start = position
        while position < end, isDigit(bytes[position]) || bytes[position] == UInt8(ascii: "_") { position += 1 }
        if let radix = radixPrefix(start) { return unsupportedRadix(radix, from: start) }
        var isDecimal = false
        if position + 1 < end, bytes[position] == UInt8(ascii: "."), isDigit(bytes[position + 1]) {
            isDecimal = true
            position += 1
            while position < end, isDigit(bytes[position]) || bytes[position] == UInt8(ascii: "_") { position += 1 }
        }
        if startsExponent() { return unsupportedExponent(from: start) }
        let digits = String(decoding: bytes[start..<position].filter { $0 != UInt8(ascii: "_") }, as: UTF8.self)
        if isDecimal {
            // Exactly as written, not through a Double: `0.1` is one tenth.
            if let value = try? DecimalArithmetic.parse(digits) { return .decimal(value) }
            report("the number \(digits) is too large for a Decimal", Span(start, position), hint: DecimalDomain.rangeDescription)
            return .invalid
        }
        if let value = Int(digits) { return .integer(value) }
        // 2^63 fits only as -9223372036854775808: the parser accepts it after a minus and rejects it alone.
        if digits.drop(while: { $0 == "0" }) == "9223372036854775808" { return .integer(.min) }
        let fitsDecimal = digits.drop(while: { $0 == "0" }).count <= 38
        report("the number \(digits) does not fit in a 64-bit integer", Span(start, position),
               hint: fitsDecimal ? "write it as a decimal (\(digits).0), which holds up to 38 digits exactly" : DecimalDomain.rangeDescription)
        return .invalid
    }

    /// `0x`, `0b` or `0o` right after a lone `0`: the base it names.
    func radixPrefix(_ start: Int) -> (name: String, radix: Int)? {
        guard position == start + 1, bytes[start] == UInt8(ascii: "0"), position + 1 < end,
              isIdentifierPart(bytes[position + 1]) else { return nil }
        switch UnicodeScalar(bytes[position]) {
        case "x", "X": return ("hexadecimal", 16)
        case "b", "B": return ("binary", 2)
        case "o", "O": return ("octal", 8)
        default: return nil
        }
    }

    /// `0x1F`: the language writes numbers in decimal only; the message says what the literal is worth.
    mutating func unsupportedRadix(_ base: (name: String, radix: Int), from start: Int) -> Token.Kind {
        position += 1
        let digitsStart = position
        while position < end, isIdentifierPart(bytes[position]) { position += 1 }
        let digits = String(decoding: bytes[digitsStart..<position].filter { $0 != UInt8(ascii: "_") }, as: UTF8.self)
        let hint = Int(digits, radix: base.radix).map { "write it in decimal: \($0)" } ?? "write the number in decimal"
        report("\(base.name) literals aren't supported", Span(start, position), hint: hint)
        return .invalid
    }

    /// `e5`, `E-3`, `e+2` right after a number.
    func startsExponent() -> Bool {
        guard position + 1 < end, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") else { return false }
        if isDigit(bytes[position + 1]) { return true }
        let sign = bytes[position + 1]
        return (sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-")) && position + 2 < end && isDigit(bytes[position + 2])
    }

    /// `1e5`: reported as what it is, with the number written out when that is short enough to read.
    mutating func unsupportedExponent(from start: Int) -> Token.Kind {
        position += 2
        while position < end, isDigit(bytes[position]) { position += 1 }
        let literal = String(decoding: bytes[start..<position].filter { $0 != UInt8(ascii: "_") }, as: UTF8.self)
        var hint = "write the number out in full"
        if let value = (try? DecimalArithmetic.parse(literal)) ?? nil,
           value.exponent >= -20, value.magnitude < Decimal(sign: .plus, exponent: 20, significand: 1) {
            var plain = value.description
            if literal.contains(".") || plain.contains(".") {
                if !plain.contains(".") { plain += ".0" }
                hint = "write \(plain)"
            } else if plain.count > 4 {
                hint = "write \(plain) or \(Self.grouped(plain))"
            } else {
                hint = "write \(plain)"
            }
        }
        report("exponent notation isn't supported", Span(start, position), hint: hint)
        return .invalid
    }

    /// `100000` as `100_000`.
    static func grouped(_ digits: String) -> String {
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out += "_" }
            out.append(digit)
        }
        return out
    }

    // text = '"' { character | escape | "\(" expression ")" } '"'
    mutating func text() -> Token.Kind {
        let start = position
        position += 1
        var pieces: [Token.TextPiece] = []
        var literal: [UInt8] = []
        while position < end {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                if !literal.isEmpty || pieces.isEmpty { pieces.append(.literal(String(decoding: literal, as: UTF8.self))) }
                return .text(pieces)
            }
            if byte == UInt8(ascii: "\n") { break }
            if byte == UInt8(ascii: "\\"), position + 1 < end {
                let escape = bytes[position + 1]
                position += 2
                switch UnicodeScalar(escape) {
                case "n": literal.append(UInt8(ascii: "\n"))
                case "t": literal.append(UInt8(ascii: "\t"))
                case "\"": literal.append(UInt8(ascii: "\""))
                case "\\": literal.append(UInt8(ascii: "\\"))
                case "x":
                    // `\xHH`: a byte. Below 0x80 the ASCII character; from 0x80 the code point that stands for that
                    // byte in a file name that isn't UTF-8 (`FileNameBytes`), which is how such a name is shown.
                    guard position + 1 < end, let high = Self.hexValue(bytes[position]), let low = Self.hexValue(bytes[position + 1]) else {
                        report("'\\x' takes two hex digits, such as \\x41 or \\xFF", Span(position - 2, min(position + 2, end)))
                        continue
                    }
                    position += 2
                    let byte = high << 4 | low
                    if byte < 0x80 {
                        literal.append(byte)
                    } else {
                        literal.append(contentsOf: String(FileNameBytes.scalar(standingFor: byte)).utf8)
                    }
                case "(":
                    if !literal.isEmpty { pieces.append(.literal(String(decoding: literal, as: UTF8.self))) }
                    literal = []
                    let inner = position
                    guard skipInterpolation() else {
                        report("unterminated interpolation: '\\(' has no matching ')'", Span(inner - 2, position))
                        skipToEndOfLine()
                        return .invalid
                    }
                    pieces.append(.interpolation(Span(inner, position - 1)))
                default:
                    report("unknown escape '\\\(UnicodeScalar(escape))' in text", Span(position - 2, position),
                           hint: "the escapes are \\n \\t \\\" \\\\, \\xHH for a byte and \\( … ) for interpolation")
                }
                continue
            }
            literal.append(byte)
            position += 1
        }
        report("unterminated text: a '\"' is missing", Span(start, position), hint: "close the text on the same line")
        return .invalid
    }

    /// The value of a hex digit, either case.
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Moves past the `)` that closes an interpolation, stepping over nested parentheses and texts.
    /// Returns false at the end of the line.
    mutating func skipInterpolation() -> Bool {
        var depth = 1
        while position < end {
            let byte = bytes[position]
            switch UnicodeScalar(byte) {
            case "\n":
                return false
            case "(":
                depth += 1
            case ")":
                depth -= 1
                if depth == 0 {
                    position += 1
                    return true
                }
            case "\"":
                var nested = self
                nested.diagnostics = []
                if case .invalid = nested.text() { return false }
                position = nested.position
                continue
            default:
                break
            }
            position += 1
        }
        return false
    }

    mutating func report(_ message: String, _ span: Span, hint: String? = nil) {
        diagnostics.append(Diagnostic(.error, message, at: span, in: file, hint: hint))
    }

    func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    func isIdentifierStart(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || byte == UInt8(ascii: "_") || byte >= 0x80
    }
    func isIdentifierPart(_ byte: UInt8) -> Bool { isIdentifierStart(byte) || isDigit(byte) }
}
