import AutoIntents
import Foundation

/// Reads JSON text into a value for `parseJson(t)`: objects become records with their keys in the order written
/// (Foundation's parser loses it), numbers Ints when they are whole and fit, else exact Decimals (Foundation's
/// go through Double), and nesting deeper than a value may is an error, not a deep recursion. An error says what
/// was expected and where, by line and column.
struct JSONReader {
    let bytes: [UInt8]
    let limits: ValueLimits
    var position = 0

    static func read(_ text: String, limits: ValueLimits) throws(EvaluationError) -> Value {
        var reader = JSONReader(bytes: Array(text.utf8), limits: limits)
        reader.skipSpace()
        let value = try reader.value(depth: 0)
        reader.skipSpace()
        guard reader.position == reader.bytes.count else { throw reader.failure("the end of the JSON text") }
        return value
    }

    mutating func value(depth: Int) throws(EvaluationError) -> Value {
        guard position < bytes.count else { throw failure("a value") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .text(try string())
        case UInt8(ascii: "t"): return try word("true", .bool(true))
        case UInt8(ascii: "f"): return try word("false", .bool(false))
        case UInt8(ascii: "n"): return try word("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw failure("a value")
        }
    }

    mutating func object(depth: Int) throws(EvaluationError) -> Value {
        try checkDepth(depth)
        position += 1
        // A key written twice keeps its first place and its last value, as JavaScript reads it.
        var keys: [String] = [], values: [Value] = [], places: [String: Int] = [:]
        skipSpace()
        if accept("}") { return .record(Record()) }
        while true {
            skipSpace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw failure("a key in quotes") }
            let key = try string()
            skipSpace()
            guard accept(":") else { throw failure("':' after the key") }
            skipSpace()
            let item = try value(depth: depth)
            if let place = places[key] {
                values[place] = item
            } else {
                places[key] = keys.count
                keys.append(key)
                values.append(item)
            }
            skipSpace()
            if accept("}") { return .record(Record(keys: keys, values: values)) }
            guard accept(",") else { throw failure("',' or '}'") }
        }
    }

    mutating func array(depth: Int) throws(EvaluationError) -> Value {
        try checkDepth(depth)
        position += 1
        var items: [Value] = []
        skipSpace()
        if accept("]") { return .list(items) }
        while true {
            skipSpace()
            if items.count % Interruption.stride == 0 { try Interruption.check() }
            items.append(try value(depth: depth))
            skipSpace()
            if accept("]") { return .list(items) }
            guard accept(",") else { throw failure("',' or ']'") }
        }
    }

    mutating func string() throws(EvaluationError) -> String {
        position += 1
        var run = position
        var text = ""
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "\""):
                text += String(decoding: bytes[run..<position], as: UTF8.self)
                position += 1
                return text
            case UInt8(ascii: "\\"):
                text += String(decoding: bytes[run..<position], as: UTF8.self)
                position += 1
                text.unicodeScalars.append(try escaped())
                run = position
            case 0..<0x20:
                throw failure("a character other than a control character in a text (write \\n, \\t or \\u…)")
            default:
                position += 1
            }
        }
        throw failure("'\"' to end the text")
    }

    /// After a `\`: one escaped character; `\uD83D\uDE00` pairs make one.
    mutating func escaped() throws(EvaluationError) -> Unicode.Scalar {
        guard position < bytes.count else { throw failure("an escape") }
        let letter = bytes[position]
        position += 1
        switch letter {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{8}"
        case UInt8(ascii: "f"): return "\u{C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let high = try hex4()
            if (0xD800..<0xDC00).contains(high) {
                guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
                    throw failure("the second half of a surrogate pair (\\uDC00 to \\uDFFF)")
                }
                position += 2
                let low = try hex4()
                guard (0xDC00..<0xE000).contains(low) else { throw failure("the second half of a surrogate pair (\\uDC00 to \\uDFFF)") }
                return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
            }
            guard let scalar = Unicode.Scalar(high) else { throw failure("a character, not half of a surrogate pair") }
            return scalar
        default:
            position -= 1
            throw failure("one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u after '\\'")
        }
    }

    mutating func hex4() throws(EvaluationError) -> UInt32 {
        guard position + 4 <= bytes.count, let value = UInt32(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16)
        else { throw failure("four hexadecimal digits after \\u") }
        position += 4
        return value
    }

    mutating func number() throws(EvaluationError) -> Value {
        let start = position
        while position < bytes.count, "-+.eE0123456789".utf8.contains(bytes[position]) { position += 1 }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        // JSON's grammar: no leading zeros, no '+' sign, digits on both sides of the point.
        guard text.wholeMatch(of: /-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/) != nil else {
            position = start
            throw failure("a number")
        }
        if let int = Int(text) { return .int(int) }
        guard let decimal = try DecimalArithmetic.parse(text) else {
            position = start
            throw failure("a number")
        }
        return .decimal(decimal)
    }

    mutating func word(_ word: String, _ value: Value) throws(EvaluationError) -> Value {
        let utf8 = Array(word.utf8)
        guard position + utf8.count <= bytes.count, Array(bytes[position..<position + utf8.count]) == utf8 else { throw failure("a value") }
        position += utf8.count
        return value
    }

    mutating func accept(_ character: Unicode.Scalar) -> Bool {
        guard position < bytes.count, bytes[position] == UInt8(character.value) else { return false }
        position += 1
        return true
    }

    mutating func skipSpace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    func checkDepth(_ depth: Int) throws(EvaluationError) {
        if depth > limits.maxDepth {
            throw EvaluationError("this JSON nests more than \(limits.maxDepth) levels deep, more than a value may")
        }
    }

    /// What was expected at the current position, with its line and column (counted in characters).
    func failure(_ expected: String) -> EvaluationError {
        let before = bytes[..<min(position, bytes.count)]
        let line = before.lazy.filter { $0 == 0x0A }.count + 1
        let lineStart = before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        let column = String(decoding: bytes[lineStart..<min(position, bytes.count)], as: UTF8.self).count + 1
        let found = position < bytes.count ? "'\(ValueFormatter.escapingControlCharacters(String(decoding: [bytes[position]], as: UTF8.self)))'" : "the end"
        return EvaluationError("not valid JSON: expected \(expected) at line \(line), column \(column), found \(found)")
    }
}
