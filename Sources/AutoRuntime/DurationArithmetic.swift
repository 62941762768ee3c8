import AutoIntents
import Foundation

/// Arithmetic on durations and dates. A duration is Swift's `Duration`: exact to the attosecond, so
/// `1 day * 1000000` is exactly a million days and `0.1 seconds * 3` exactly 0.3 seconds, where a Double of
/// seconds rounds at about 15 digits. A result outside `DurationDomain` or `DateRange` is an error.
package enum DurationArithmetic {
    /// `DurationDomain.maxAttoseconds`, for comparing computed decimals with it.
    static let maxAttoseconds = Decimal(exactly: DurationDomain.maxAttoseconds) ?? 0

    /// `amount unit`, as a literal writes it: `90 seconds`, `1.5 hours`.
    package static func duration(_ amount: Value, _ unit: Units.DurationUnit) throws(EvaluationError) -> Duration {
        switch amount {
        case .int(let count):
            let (attoseconds, overflow) = Int128(count).multipliedReportingOverflow(by: unit.attoseconds)
            if !overflow, let duration = DurationDomain.duration(attoseconds: attoseconds) { return duration }
            throw outOfRange("\(count) \(unit.plural)")
        case .decimal(let count):
            let exact = Decimal(exactly: unit.attoseconds) ?? 0
            return try duration(attoseconds: try DecimalArithmetic.operand(count) * exact) {
                "\(ValueFormatter.decimal(count)) \(unit.plural)"
            }
        default:
            throw EvaluationError("a duration needs a number before '\(unit.plural)', not \(amount.type)")
        }
    }

    package static func add(_ a: Duration, _ b: Duration) throws(EvaluationError) -> Duration {
        let (sum, overflow) = a.attoseconds.addingReportingOverflow(b.attoseconds)
        guard !overflow, let result = DurationDomain.duration(attoseconds: sum) else {
            throw outOfRange("\(ValueFormatter.duration(a)) + \(ValueFormatter.duration(b))")
        }
        return result
    }

    package static func subtract(_ a: Duration, _ b: Duration) throws(EvaluationError) -> Duration {
        let (difference, overflow) = a.attoseconds.subtractingReportingOverflow(b.attoseconds)
        guard !overflow, let result = DurationDomain.duration(attoseconds: difference) else {
            throw outOfRange("\(ValueFormatter.duration(a)) - \(ValueFormatter.duration(b))")
        }
        return result
    }

    package static func negate(_ a: Duration) throws(EvaluationError) -> Duration {
        let (negated, overflow) = Int128(0).subtractingReportingOverflow(a.attoseconds)
        guard !overflow, let result = DurationDomain.duration(attoseconds: negated) else { throw outOfRange("-\(ValueFormatter.duration(a))") }
        return result
    }

    /// `d * n`, `n * d`: an Int factor is exact; a Decimal one rounds to the attosecond.
    package static func multiply(_ a: Duration, by factor: Value) throws(EvaluationError) -> Duration {
        let description = { "\(ValueFormatter.duration(a)) * \(ValueFormatter.inline(factor))" }
        switch factor {
        case .int(let n):
            let (product, overflow) = a.attoseconds.multipliedReportingOverflow(by: Int128(n))
            guard !overflow, let result = DurationDomain.duration(attoseconds: product) else { throw outOfRange(description()) }
            return result
        case .decimal(let n):
            return try duration(attoseconds: exactAttoseconds(a) * DecimalArithmetic.operand(n), description)
        default:
            throw EvaluationError("can't multiply a Duration by \(factor.type)")
        }
    }

    /// `d / n`, rounded to the attosecond, halves away from zero.
    package static func divide(_ a: Duration, by divisor: Value) throws(EvaluationError) -> Duration {
        let description = { "\(ValueFormatter.duration(a)) / \(ValueFormatter.inline(divisor))" }
        switch divisor {
        case .int(0), .decimal(0):
            throw EvaluationError("division by zero (\(description()))")
        case .int(let n):
            // Int128.min / -1 is the one overflow: only a host's Duration beyond the range comes near it.
            guard DurationDomain.contains(a) else { throw outOfRange(description()) }
            let (quotient, remainder) = a.attoseconds.quotientAndRemainder(dividingBy: Int128(n))
            let roundsAway = remainder.magnitude * 2 >= UInt128(n.magnitude)
            let sign: Int128 = (a.attoseconds < 0) == (n < 0) ? 1 : -1
            // A rounded quotient by 2 or more is no larger than `a`; by ±1 there is nothing to round.
            guard let result = DurationDomain.duration(attoseconds: roundsAway ? quotient + sign : quotient) else { throw outOfRange(description()) }
            return result
        case .decimal(let n):
            return try duration(attoseconds: exactAttoseconds(a) / DecimalArithmetic.operand(n), description)
        default:
            throw EvaluationError("can't divide a Duration by \(divisor.type)")
        }
    }

    /// The length of `a` in `unit`, for `d.minutes`: exact when the unit divides it, else 38 digits.
    package static func length(_ a: Duration, in unit: Units.DurationUnit) throws(EvaluationError) -> Decimal {
        let unitLength = Decimal(exactly: unit.attoseconds) ?? 1
        return try DecimalArithmetic.divide(exactAttoseconds(a), unitLength)
    }

    /// The seconds of `a`, exactly: what `--json` writes and `number(d)` gives.
    package static func seconds(_ a: Duration) -> Decimal {
        let attoseconds = exactAttoseconds(a)
        return Decimal(sign: .plus, exponent: -18, significand: attoseconds)
    }

    /// `a` in attoseconds: at most 37 digits within `DurationDomain`, so a Decimal holds it exactly.
    static func exactAttoseconds(_ a: Duration) -> Decimal {
        let magnitude = Decimal(exactly: a.attoseconds.magnitude) ?? .nan
        return a.attoseconds < 0 ? -magnitude : magnitude
    }

    /// The duration of a computed number of attoseconds, rounded, or an error out of range.
    static func duration(attoseconds: Decimal, _ description: () -> String) throws(EvaluationError) -> Duration {
        guard !attoseconds.isNaN, attoseconds.magnitude <= maxAttoseconds else {
            throw outOfRange(description())
        }
        var value = attoseconds
        var whole = Decimal()
        NSDecimalRound(&whole, &value, 0, .plain)
        // The description of a whole Decimal is its digits.
        guard let count = Int128(whole.description), let result = DurationDomain.duration(attoseconds: count) else {
            throw outOfRange(description())
        }
        return result
    }

    static func outOfRange(_ operation: String) -> EvaluationError {
        EvaluationError("duration overflow: \(operation) is out of range (\(DurationDomain.rangeDescription))")
    }

    // MARK: Dates

    /// `date + duration`; `date - duration` adds the negated duration.
    package static func date(_ date: Date, plus duration: Duration, _ operation: @autoclosure () -> String) throws(EvaluationError) -> Date {
        // Through the attoseconds, not `components`, which traps on a host's Duration beyond Int64 seconds.
        let moved = date.timeIntervalSinceReferenceDate + Double(duration.attoseconds) / 1e18
        guard DateRange.contains(moved) else {
            throw EvaluationError("\(operation()) is out of range: \(DateRange.description)")
        }
        return Date(timeIntervalSinceReferenceDate: moved)
    }

    /// `date + period`, by the calendar: the same day of a later month, or that month's last day when it is
    /// shorter (2024-01-31 + 1 month is 2024-02-29), as Foundation's `Calendar` and Shortcuts' "Adjust Date" do.
    package static func date(_ date: Date, plus period: CalendarPeriod, _ operation: @autoclosure () -> String) throws(EvaluationError) -> Date {
        guard let moved = Calendars.local.date(byAdding: .month, value: period.months, to: date), DateRange.contains(moved) else {
            throw EvaluationError("\(operation()) is out of range: \(DateRange.description)")
        }
        return moved
    }

    /// A period from `amount unit` (`3 months`, `2 years`) or `a ± b`, `p * n`: whole months, within range.
    package static func period(months: Int?, _ operation: @autoclosure () -> String) throws(EvaluationError) -> CalendarPeriod {
        guard let months, let period = CalendarPeriod(months: months) else {
            throw EvaluationError("\(operation()) is out of range: a period is at most 9999 years either way")
        }
        return period
    }

    /// `a - b`, as precise as the two dates (a Date is a Double of seconds: microseconds in our era).
    package static func between(_ a: Date, _ b: Date) throws(EvaluationError) -> Duration {
        let seconds = a.timeIntervalSince(b)
        // Dates in range are at most 10,000 years apart; a host's date may be anywhere.
        guard seconds.isFinite, seconds.magnitude < 9.2e18 else {
            throw EvaluationError("the time between \(ValueFormatter.date(a)) and \(ValueFormatter.date(b)) is out of range (\(DurationDomain.rangeDescription))")
        }
        let whole = seconds.rounded(.towardZero)
        let fraction = ((seconds - whole) * 1e18).rounded()
        return Duration(secondsComponent: Int64(whole), attosecondsComponent: Int64(fraction))
    }
}

/// The dates the language handles: the years 0001 to 9999 of the machine's calendar, as ISO 8601 writes them
/// with four digits. Beyond them Foundation's calendar gives wrong years without a word (`0000-01-01` reads
/// as year 1, and any date past year 506713 as that year).
package enum DateRange {
    /// Seconds since 2001-01-01 (Foundation's reference date) of 0001-01-01 00:00 and 10000-01-01 00:00, local.
    static let bounds: (lower: Double, upper: Double) = {
        func start(ofYear year: Int) -> Double? {
            Calendars.local.date(from: DateComponents(year: year, month: 1, day: 1))?.timeIntervalSinceReferenceDate
        }
        // The fallback is the same range in UTC, should the calendar ever refuse.
        return (start(ofYear: 1) ?? -63_113_904_000, start(ofYear: 10_000) ?? 252_423_993_600)
    }()

    package static let description = "dates go from 0001-01-01 to 9999-12-31"

    package static func contains(_ seconds: Double) -> Bool {
        seconds >= bounds.lower && seconds < bounds.upper
    }

    package static func contains(_ date: Date) -> Bool {
        contains(date.timeIntervalSinceReferenceDate)
    }
}
