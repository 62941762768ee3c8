import AutoIntents
import Foundation

/// Arithmetic on the language's Decimal: Foundation's `Decimal`, kept within `DecimalDomain`. `+ - *` are
/// exact within 38 digits; `/` keeps 38 significant digits (Foundation drops the rest); a result out of range
/// is an error, never infinity or NaN.
package enum DecimalArithmetic {
    package static func add(_ a: Decimal, _ b: Decimal) throws(EvaluationError) -> Decimal {
        try checked(try operand(a) + operand(b)) { "\(ValueFormatter.decimal(a)) + \(ValueFormatter.decimal(b))" }
    }

    package static func subtract(_ a: Decimal, _ b: Decimal) throws(EvaluationError) -> Decimal {
        try checked(try operand(a) - operand(b)) { "\(ValueFormatter.decimal(a)) - \(ValueFormatter.decimal(b))" }
    }

    package static func multiply(_ a: Decimal, _ b: Decimal) throws(EvaluationError) -> Decimal {
        try checked(try operand(a) * operand(b)) { "\(ValueFormatter.decimal(a)) * \(ValueFormatter.decimal(b))" }
    }

    package static func divide(_ a: Decimal, _ b: Decimal) throws(EvaluationError) -> Decimal {
        if b.isZero { throw EvaluationError("division by zero (\(ValueFormatter.decimal(a)) / 0)") }
        return try checked(try operand(a) / operand(b)) { "\(ValueFormatter.decimal(a)) / \(ValueFormatter.decimal(b))" }
    }

    /// The remainder of the division truncated toward zero, with the sign of `a`: `7.5 % 2` is `1.5`.
    package static func remainder(_ a: Decimal, _ b: Decimal) throws(EvaluationError) -> Decimal {
        if b.isZero { throw EvaluationError("remainder of division by zero (\(ValueFormatter.decimal(a)) % 0)") }
        let (x, y) = (try operand(a), try operand(b))
        var quotient = x / y
        // Beyond 38 digits the quotient is no longer exact in its units, and neither would the remainder be.
        guard !quotient.isNaN, quotient.magnitude < DecimalDomain.bound else {
            throw EvaluationError("the remainder of \(ValueFormatter.decimal(a)) % \(ValueFormatter.decimal(b)) can't be computed exactly: the quotient has more than 38 digits")
        }
        // Foundation rounds the magnitude: `.down` truncates a positive quotient, `.up` a negative one.
        var whole = Decimal()
        NSDecimalRound(&whole, &quotient, 0, quotient.isSignMinus ? .up : .down)
        return try checked(x - whole * y) { "\(ValueFormatter.decimal(a)) % \(ValueFormatter.decimal(b))" }
    }

    package static func negate(_ a: Decimal) throws(EvaluationError) -> Decimal {
        // The range is symmetric: only a value made outside the engine can fail here.
        var result = try operand(a)
        result.negate()
        return try checked(result) { "-\(ValueFormatter.decimal(a))" }
    }

    /// `x` rounded to `places` digits after the point, halves away from zero.
    package static func round(_ a: Decimal, places: Int) throws(EvaluationError) -> Decimal {
        var value = try operand(a)
        var result = Decimal()
        NSDecimalRound(&result, &value, places, .plain)
        return try checked(result) { "rounding \(ValueFormatter.decimal(a))" }
    }

    /// `round(x)`: the nearest Int, halves away from zero.
    package static func roundedInt(_ a: Decimal) throws(EvaluationError) -> Int {
        let rounded = try round(a, places: 0)
        guard let int = DecimalDomain.int(rounded) else {
            throw EvaluationError("\(ValueFormatter.decimal(rounded)) does not fit in a 64-bit integer (from -9223372036854775808 to 9223372036854775807)")
        }
        return int
    }

    /// `floor(x)` and `ceiling(x)`: the Int at or below `a`, or at or above it (toward minus or plus infinity).
    package static func wholeInt(_ a: Decimal, up: Bool) throws(EvaluationError) -> Int {
        var value = try operand(a)
        var result = Decimal()
        NSDecimalRound(&result, &value, 0, up ? .up : .down)
        guard let int = DecimalDomain.int(result) else {
            throw EvaluationError("\(ValueFormatter.decimal(result)) does not fit in a 64-bit integer (from -9223372036854775808 to 9223372036854775807)")
        }
        return int
    }

    /// A number as people and files write it: `42`, `-1.5`, `.5`, `1_000.25`, `1.5e3`. Nil when `text` is not
    /// a number; throws when it is one out of range.
    package static func parse(_ text: String) throws(EvaluationError) -> Decimal? {
        guard isNumeral(text.utf8) else { return nil }
        var digits = text.replacingOccurrences(of: "_", with: "")
        if digits.hasPrefix("+") { digits.removeFirst() }
        if digits.hasPrefix(".") || digits.hasPrefix("-.") { digits = digits.replacingOccurrences(of: ".", with: "0.") }
        // Without a locale, `Decimal(string:)` reads "." as the point whatever the machine's language.
        guard let parsed = Decimal(string: digits),
              let value = DecimalDomain.normalized(parsed)
        else { throw EvaluationError("'\(text)' is out of range: \(DecimalDomain.rangeDescription)") }
        return value
    }

    /// `[+-] (digits [. digits] | . digits) [e [+-] digits]`, with `_` between digits. Checked here because
    /// `Decimal(string:)` accepts a number followed by anything (`1.5abc` is 1.5).
    static func isNumeral(_ bytes: String.UTF8View) -> Bool {
        var iterator = bytes.makeIterator()
        var byte = iterator.next()
        func isDigit(_ b: UInt8?) -> Bool { b.map { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") } ?? false }
        func digits() -> Int {
            var count = 0
            while isDigit(byte) || (count > 0 && byte == UInt8(ascii: "_")) {
                if byte != UInt8(ascii: "_") { count += 1 }
                byte = iterator.next()
            }
            return count
        }
        if byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") { byte = iterator.next() }
        var count = digits()
        if byte == UInt8(ascii: ".") {
            byte = iterator.next()
            count += digits()
        }
        guard count > 0 else { return false }
        if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
            byte = iterator.next()
            if byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") { byte = iterator.next() }
            guard digits() > 0 else { return false }
        }
        return byte == nil
    }

    /// An operand brought into the range: a value the engine made already is; one a host built as
    /// `.decimal(…)` may have to be rounded, or is refused, before Foundation sees it.
    @inline(__always)
    static func operand(_ value: Decimal) throws(EvaluationError) -> Decimal {
        if value.exponent >= -DecimalDomain.maxFractionDigits, !value.isNaN { return value }
        guard let normalized = DecimalDomain.normalized(value) else {
            throw EvaluationError("\(ValueFormatter.decimal(value)) is not a number the language can compute with: \(DecimalDomain.rangeDescription)")
        }
        return normalized
    }

    static func checked(_ result: Decimal, _ operation: () -> String) throws(EvaluationError) -> Decimal {
        guard let value = DecimalDomain.normalized(result) else {
            throw EvaluationError("decimal overflow: \(operation()) is out of range (\(DecimalDomain.rangeDescription))")
        }
        return value
    }
}
