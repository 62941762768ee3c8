import AutoIntents
import Foundation

/// Arithmetic on sizes: a byte count in 64 bits, exact; a result beyond them is an error, never a wrapped
/// negative size.
package enum SizeArithmetic {
    package static let rangeDescription = "a Size is at most 9223372036854775807 bytes (about 9.2 million TB) either way"

    /// `amount unit`, as a literal writes it: `10 KB`, `1.5 MB` (rounded to a whole byte).
    package static func size(_ amount: Value, _ unit: Units.SizeUnit) throws(EvaluationError) -> Int64 {
        switch amount {
        case .int(let count):
            let (bytes, overflow) = Int64(count).multipliedReportingOverflow(by: unit.bytes)
            if overflow { throw outOfRange("\(count) \(unit.name)") }
            return bytes
        case .decimal(let count):
            return try bytes(try DecimalArithmetic.operand(count) * Decimal(unit.bytes)) { "\(ValueFormatter.decimal(count)) \(unit.name)" }
        default:
            throw EvaluationError("a size needs a number before '\(unit.name)', not \(amount.type)")
        }
    }

    package static func add(_ a: Int64, _ b: Int64) throws(EvaluationError) -> Int64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        if overflow { throw outOfRange("\(ValueFormatter.size(a)) + \(ValueFormatter.size(b))") }
        return sum
    }

    package static func subtract(_ a: Int64, _ b: Int64) throws(EvaluationError) -> Int64 {
        let (difference, overflow) = a.subtractingReportingOverflow(b)
        if overflow { throw outOfRange("\(ValueFormatter.size(a)) - \(ValueFormatter.size(b))") }
        return difference
    }

    /// `size * n`: exact for an Int, rounded to a whole byte for a Decimal.
    package static func multiply(_ a: Int64, by factor: Value) throws(EvaluationError) -> Int64 {
        let description = { "\(ValueFormatter.size(a)) * \(ValueFormatter.inline(factor))" }
        switch factor {
        case .int(let n):
            let (product, overflow) = a.multipliedReportingOverflow(by: Int64(n))
            if overflow { throw outOfRange(description()) }
            return product
        case .decimal(let n):
            return try bytes(Decimal(a) * DecimalArithmetic.operand(n), description)
        default:
            throw EvaluationError("can't multiply a Size by \(factor.type)")
        }
    }

    /// `size / n`, rounded to a whole byte.
    package static func divide(_ a: Int64, by divisor: Value) throws(EvaluationError) -> Int64 {
        let description = { "\(ValueFormatter.size(a)) / \(ValueFormatter.inline(divisor))" }
        guard let n = Operations.number(divisor) else { throw EvaluationError("can't divide a Size by \(divisor.type)") }
        if n.isZero { throw EvaluationError("division by zero (\(description()))") }
        return try bytes(Decimal(a) / DecimalArithmetic.operand(n), description)
    }

    /// A computed number of bytes, rounded to a whole one, or an error out of range.
    static func bytes(_ value: Decimal, _ description: () -> String) throws(EvaluationError) -> Int64 {
        guard !value.isNaN, value.magnitude < DecimalDomain.bound else { throw outOfRange(description()) }
        var exact = value
        var whole = Decimal()
        NSDecimalRound(&whole, &exact, 0, .plain)
        guard let bytes = DecimalDomain.int(whole) else { throw outOfRange(description()) }
        return Int64(bytes)
    }

    static func outOfRange(_ operation: String) -> EvaluationError {
        EvaluationError("size overflow: \(operation) is out of range (\(rangeDescription))")
    }
}
