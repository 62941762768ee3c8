import Foundation

/// A value as the engine sees it: what a variable holds, what flows through a pipe, what an intent returns.
///
/// Hosts rarely build these by hand: `IntentValue` converts their Swift types both ways. A host meets one in a
/// `Record`'s fields and in an `IntentValue` conformance of its own.
public enum Value: Sendable {
    /// Nothing: `nil` in scripts, a missing optional.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A whole number.
    case int(Int)
    /// A base-10 number within `DecimalDomain`: `0.1 + 0.2` is `0.3`. Boxed: a `Decimal` is 20 bytes, and
    /// unboxed it would make every value (an Int in a loop included) larger to copy.
    indirect case decimal(Decimal)
    /// A text.
    case text(String)
    /// A moment in time.
    case date(Date)
    /// Elapsed time, exact to the attosecond, within `DurationDomain`.
    case duration(Duration)
    /// Months on the calendar (`1 month`, `2 years`): how far a date moves depends on the date, so it is not a
    /// Duration. Within `CalendarPeriod.maxMonths` either way.
    case period(CalendarPeriod)
    /// A byte count.
    case size(Int64)
    /// A file or folder by path.
    case file(FileRef)
    /// A list of values.
    case list([Value])
    /// Named fields: `{title: "Circe", year: 2018}`.
    case record(Record)
    /// Boxed: an entity (a type and an existential payload) is three times the size of any other case,
    /// and every copy of a value would otherwise move that much.
    indirect case entity(EntityValue)
    /// A case of a registered enum.
    case enumCase(EnumCaseValue)

    @usableFromInline
    package var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// Whether this is a value of the scalar kind, as it is: the common case of an argument, checked without building
    /// the value's type.
    @inlinable
    package func isScalar(_ kind: ScalarKind) -> Bool {
        switch self {
        case .bool: kind == .bool
        case .int: kind == .int
        case .decimal: kind == .decimal
        case .text: kind == .text
        case .date: kind == .date
        case .duration: kind == .duration
        case .period: kind == .period
        case .size: kind == .size
        case .file: kind == .file
        default: false
        }
    }

    /// The dynamic type of this value, as precise as the value itself tells.
    @usableFromInline
    package var type: ValueType {
        switch self {
        case .null: return .null
        case .bool: return .bool
        case .int: return .int
        case .decimal: return .decimal
        case .text: return .text
        case .date: return .date
        case .duration: return .duration
        case .period: return .period
        case .size: return .size
        case .file: return .file
        case .list(let items): return .list(items.first?.type ?? .any)
        case .record: return .record
        case .entity(let e): return .entity(e.type)
        case .enumCase(let c): return .enumeration(c.type)
        }
    }
}

/// An ordered set of named fields: `{title: "Circe", year: 2018}`.
///
/// ```swift
/// var row = Record(["title": .text("Circe"), "year": .int(2018)])
/// row.set("pages", .int(393))
/// ```
public struct Record: Sendable {
    /// The field names, in order.
    public private(set) var keys: [String]
    /// The values, in the order of `keys`.
    public private(set) var values: [Value]

    /// One value per key: the engine's own records, built in order.
    package init(keys: [String] = [], values: [Value] = []) {
        precondition(keys.count == values.count, "a record needs one value per key")
        self.keys = keys
        self.values = values
    }

    /// A record of these fields, in order.
    public init(_ fields: KeyValuePairs<String, Value>) {
        self.init(keys: fields.map(\.key), values: fields.map(\.value))
    }

    /// The value of the field `key`; nil when there is no such field.
    public subscript(key: String) -> Value? {
        guard let index = keys.firstIndex(of: key) else { return nil }
        return values[index]
    }

    /// Sets the field `key`, added last when there is none.
    public mutating func set(_ key: String, _ value: Value) {
        if let index = keys.firstIndex(of: key) {
            values[index] = value
        } else {
            keys.append(key)
            values.append(value)
        }
    }
}

/// A number of calendar months: `1 year` is 12 of them. Added to a date by the calendar, which keeps the day
/// of the month where the month has it and takes the month's last day where it hasn't (Jan 31 + 1 month is
/// Feb 28 or 29).
public struct CalendarPeriod: Sendable, Hashable, Comparable {
    /// How many months; negative for a period back in time.
    public let months: Int
    /// Dates span 9999 years, so no period that moves a date and stays in range is longer.
    public static let maxMonths = 9_999 * 12

    /// A period of `months`; nil beyond `maxMonths` either way.
    public init?(months: Int) {
        guard months.magnitude <= Self.maxMonths else { return nil }
        self.months = months
    }

    /// The shorter period first.
    public static func < (a: CalendarPeriod, b: CalendarPeriod) -> Bool { a.months < b.months }
}

/// A file or folder by path. Its properties (`name`, `size`, …) are read from the file system when asked.
/// A parameter of this type takes a text too, as a path: `import books from "more.csv"`. Before touching the file,
/// an intent asks `IntentContext.authorize(_:path:)` for the path to use.
public struct FileRef: Sendable, Hashable {
    /// The path as given: absolute, relative to the current folder, or starting with `~`.
    public var path: String
    /// The file or folder at `path`.
    public init(path: String) { self.path = path }
    /// The last part of the path, trailing slashes aside: `notes.txt`, `Downloads` for `~/Downloads/`, `/` for `/`.
    public var name: String {
        let bytes = path.utf8, end = nameEnd
        if end == bytes.startIndex { return path.isEmpty ? "" : "/" }
        let start = bytes[..<end].lastIndex(of: UInt8(ascii: "/")).map { bytes.index(after: $0) } ?? bytes.startIndex
        return String(path[start..<end])
    }

    /// What follows the name's last dot: `gz` for `a.tar.gz`; empty for `README`, for `.bashrc` (a dot first starts
    /// a hidden name, not an extension) and for `a.` (a byte scan, not NSString's: a folder's listing reads it per file,
    /// and `find files … where extension == …` per name, so one scan goes back from the name's end without making the
    /// name first).
    public var pathExtension: String {
        let bytes = path.utf8, end = nameEnd
        var index = end
        while index > bytes.startIndex {
            let before = bytes.index(before: index)
            switch bytes[before] {
            case UInt8(ascii: "/"):
                return ""
            case UInt8(ascii: "."):
                guard before > bytes.startIndex, bytes[bytes.index(before: before)] != UInt8(ascii: "/") else { return "" }
                return String(Substring(bytes[index..<end]))
            default:
                index = before
            }
        }
        return ""
    }

    /// Where the path's last part ends: before its trailing slashes (at the start when it is empty or only slashes).
    private var nameEnd: String.Index {
        let bytes = path.utf8
        var end = bytes.endIndex
        while end > bytes.startIndex, bytes[bytes.index(before: end)] == UInt8(ascii: "/") { end = bytes.index(before: end) }
        return end
    }
}

/// One case of a registered enum, as the engine holds it: an `AppEnum`'s `autoValue` makes it.
public struct EnumCaseValue: Sendable {
    package let type: AnyEnumType
    package let index: Int
    package init(type: AnyEnumType, index: Int) {
        self.type = type
        self.index = index
    }
    package var identifier: String { type.cases[index].identifier }
    package var displayName: String { type.cases[index].displayName }
}

/// One host entity with its type. The payload is the host's own Swift value; properties are read through
/// the getters the type built at registration. An `AppEntity`'s `autoValue` makes it.
public struct EntityValue: Sendable {
    package let type: AnyEntityType
    package let payload: EntityPayload

    package init(type: AnyEntityType, payload: EntityPayload) {
        self.type = type
        self.payload = payload
    }

    package var id: String { type.identifier(of: payload) }
    package var display: DisplayRepresentation { type.display(of: payload) }
    package func property(_ index: Int) -> Value { type.properties[index].get(payload) }
}

/// The host's Swift value of an entity, in a box of its own Swift type (`TypedEntityPayload<E>`): the entity type that
/// reads it knows that type, since `autoValue` pairs them, so reading a property is no dynamic cast. An `any Sendable`
/// here cost a cast (and a metadata lookup) per property read: 60% of `count by` over a million entities.
package class EntityPayload: @unchecked Sendable {}

/// An `E`, boxed: what `EntityType<E>` reads.
///
/// Its entity type keeps this class's metatype and goes through the static functions below: generic code that names
/// `TypedEntityPayload<E>` looks its metadata up each time (a hash lookup, per entity made and per property read),
/// where a static function finds it in its `self`.
package final class TypedEntityPayload<E: AppEntity>: EntityPayload, @unchecked Sendable {
    package let entity: E
    required init(_ entity: E) {
        self.entity = entity
    }

    static func boxing(_ entity: E) -> EntityPayload {
        self.init(entity)
    }

    /// `body` applied to the E of a payload of this class, lent rather than copied: a copy retains and releases each
    /// of its references. An EntityValue whose type is `E.entityType` always holds one: `autoValue` alone makes
    /// EntityValues and pairs the two, and there is one entity type per E (the protocol's `EntityType<Self>` rules out
    /// sharing it with a subclass).
    static func read<R>(_ payload: EntityPayload, _ body: (E) -> R) -> R {
        body(unsafeDowncast(payload, to: self).entity)
    }
}

/// The range of the language's Decimal. Owned here, below the engine, because hosts convert into it too.
///
/// Foundation's `Decimal` holds 38 significant digits with exponents from -128 to 127, but near the bottom of
/// that range some of its operations trap instead of reporting underflow (swift-foundation 6.3 traps on a
/// product whose exponents add up below -128). So every decimal the engine makes is less than 10^38 in
/// magnitude and has at most 38 digits after the point: sums, products and quotients of two such numbers
/// stay far from the edges, and the result is brought back into the range, or refused, before it is kept.
package enum DecimalDomain {
    /// Digits after the point; results with more are rounded (half away from zero).
    package static let maxFractionDigits = 38
    /// 10^38, the smallest magnitude out of range.
    package static let bound = Decimal(sign: .plus, exponent: 38, significand: 1)
    /// How a message names the range.
    package static let rangeDescription = "a Decimal holds up to 38 digits and is less than 10^38 in magnitude"

    /// `value` rounded to `maxFractionDigits` places, or nil when it is NaN or out of range.
    package static func normalized(_ value: Decimal) -> Decimal? {
        guard !value.isNaN else { return nil }
        var result = value
        if result.exponent < -maxFractionDigits {
            var rounded = Decimal()
            NSDecimalRound(&rounded, &result, maxFractionDigits, .plain)
            result = rounded
        }
        // A negative exponent bounds the magnitude below 2^128 / 10, under 10^38, without comparing: a
        // comparison of Decimals costs as much as an addition.
        guard !result.isNaN, result.exponent < 0 || result.magnitude < bound else { return nil }
        return result
    }

    /// The Decimal a Double reads as in its shortest form: `0.1` is 0.1, not 0.1000000000000000055…; nil for
    /// infinity, NaN and magnitudes of 10^38 or more.
    package static func decimal(_ double: Double) -> Decimal? {
        guard double.isFinite, let parsed = Decimal(string: "\(double)") else { return nil }
        return normalized(parsed)
    }

    /// The error for an intent's result that has no Decimal (NaN, infinity, 10^38 or more): `value` is a Double or
    /// a Decimal.
    static func unrepresentable(_ value: some CustomStringConvertible) -> IntentError {
        IntentError("the result \(value) is not a number a script can hold: \(rangeDescription)")
    }

    /// The nearest Double.
    package static func double(_ value: Decimal) -> Double {
        // Exact in one multiplication or division when the significand has at most 15 digits and the power of
        // ten is exact in a Double (Clinger's fast path): the common case, without text.
        if let (isNegative, significand, exponent) = parts(value), significand < 1 << 53, (-22...22).contains(exponent) {
            let power = powersOfTen[abs(exponent)]
            let magnitude = exponent < 0 ? Double(significand) / power : Double(significand) * power
            return isNegative ? -magnitude : magnitude
        }
        return Double(value.description) ?? .nan
    }

    /// 10^0 to 10^22, each exact in a Double.
    static let powersOfTen: [Double] = (0...22).map { exponent in (0..<exponent).reduce(1.0) { value, _ in value * 10 } }
    /// 10^0 to 10^19, the powers of ten a UInt64 holds.
    static let wholePowersOfTen: [UInt64] = (0...19).map { exponent in (0..<exponent).reduce(1) { value, _ in value * 10 } }

    /// `value` as an Int when it is whole and fits in 64 bits.
    package static func int(_ value: Decimal) -> Int? {
        guard !value.isNaN else { return nil }
        if let (isNegative, significand, exponent) = parts(value) {
            var magnitude = significand
            if exponent >= 0 {
                for _ in 0..<exponent {
                    let (product, overflow) = magnitude.multipliedReportingOverflow(by: 10)
                    if overflow { return nil }
                    magnitude = product
                }
            } else if exponent >= -19 {
                let (quotient, remainder) = magnitude.quotientAndRemainder(dividingBy: wholePowersOfTen[-exponent])
                guard remainder == 0 else { return nil }
                magnitude = quotient
            } else if magnitude != 0 {
                return nil
            } else {
                return 0
            }
            if isNegative { return magnitude <= Int.min.magnitude ? Int(truncatingIfNeeded: 0 &- magnitude) : nil }
            return magnitude <= UInt64(Int.max) ? Int(magnitude) : nil
        }
        // A significand of 20 digits or more: whole and in range only with trailing zeros after the point.
        var whole = value
        var rounded = Decimal()
        NSDecimalRound(&rounded, &whole, 0, .plain)
        guard rounded == value else { return nil }
        return Int(rounded.description)
    }

    /// The sign, significand and exponent of `value` when the significand fits in 64 bits (19 digits), read
    /// without `description`, which costs microseconds: the exact value is significand × 10^exponent.
    package static func parts(_ value: Decimal) -> (isNegative: Bool, significand: UInt64, exponent: Int)? {
        guard !value.isNaN else { return nil }
        let significand = value.significand
        guard significand <= maxSignificand else { return nil }
        // Exact: a whole Decimal below 2^64 with exponent 0 is its low 64 bits.
        return (value.isSignMinus, NSDecimalNumber(decimal: significand).uint64Value, value.exponent)
    }

    static let maxSignificand = Decimal(UInt64.max)
}

/// The range of the language's Duration: Int64.max seconds (about 292 billion years) either way, so that
/// `Duration.components`, which a host may read, always holds it.
package enum DurationDomain {
    static let attosecondsPerSecond: Int128 = 1_000_000_000_000_000_000
    /// The largest magnitude, in attoseconds.
    package static let maxAttoseconds: Int128 = Int128(Int64.max) * attosecondsPerSecond
    /// How a message names the range.
    package static let rangeDescription = "a Duration is at most 9223372036854775807 seconds (about 292 billion years) either way"

    package static func contains(_ duration: Duration) -> Bool {
        duration.attoseconds.magnitude <= maxAttoseconds.magnitude
    }

    /// The duration of `attoseconds`, or nil out of range.
    package static func duration(attoseconds: Int128) -> Duration? {
        guard attoseconds.magnitude <= maxAttoseconds.magnitude else { return nil }
        return Duration(attoseconds: attoseconds)
    }
}

/// The types whose values are one case of `Value`, with nothing to convert: a parameter of one of them takes a value
/// of its case as it is. A plain enum, tested on every argument of a call, where `ValueType` is indirect (reading it
/// counts a reference).
@usableFromInline
package enum ScalarKind: Sendable, Equatable {
    case bool, int, decimal, text, date, duration, period, size, file

    package init?(_ type: ValueType) {
        switch type {
        case .bool: self = .bool
        case .int: self = .int
        case .decimal: self = .decimal
        case .text: self = .text
        case .date: self = .date
        case .duration: self = .duration
        case .period: self = .period
        case .size: self = .size
        case .file: self = .file
        default: return nil
        }
    }
}
