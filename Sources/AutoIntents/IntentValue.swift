import Foundation

/// A Swift type that can be an intent's parameter or result: it names its engine type and converts both ways.
///
/// Conversions are written once per type and captured in closures at registration, so a call converts
/// its arguments without looking anything up.
public protocol IntentValue: Sendable {
    static var valueType: ValueType { get }
    /// Nil when `value` is of another kind; the engine then reports a type error with the parameter's name.
    init?(autoValue value: Value)
    var autoValue: Value { get }
}

extension Int: IntentValue {
    public static var valueType: ValueType { .int }
    public init?(autoValue value: Value) {
        switch value {
        case .int(let i): self = i
        case .decimal(let d):
            guard let whole = DecimalDomain.int(d) else { return nil }
            self = whole
        default: return nil
        }
    }
    public var autoValue: Value { .int(self) }
}

/// A Double parameter takes a Decimal, rounded to the nearest Double; a Double result becomes the Decimal its
/// shortest form reads as (0.1 is 0.1). Infinity, NaN and magnitudes of 10^38 or more have no Decimal: such a
/// result is nil. Take `Decimal` instead where every digit counts, as for prices.
extension Double: IntentValue {
    public static var valueType: ValueType { .decimal }
    public init?(autoValue value: Value) {
        switch value {
        case .decimal(let d): self = DecimalDomain.double(d)
        case .int(let i): self = Double(i)
        default: return nil
        }
    }
    public var autoValue: Value { DecimalDomain.decimal(self).map(Value.decimal) ?? .null }
}

/// A base-10 number, exactly as the script wrote or computed it: prices, quantities.
extension Decimal: IntentValue {
    public static var valueType: ValueType { .decimal }
    public init?(autoValue value: Value) {
        switch value {
        case .decimal(let d): self = d
        case .int(let i): self = Decimal(i)
        default: return nil
        }
    }
    /// A Decimal out of the language's range (NaN, 10^38 or more) is nil; more than 38 places are rounded.
    public var autoValue: Value { DecimalDomain.normalized(self).map(Value.decimal) ?? .null }
}

extension String: IntentValue {
    public static var valueType: ValueType { .text }
    public init?(autoValue value: Value) {
        guard case .text(let text) = value else { return nil }
        self = text
    }
    public var autoValue: Value { .text(self) }
}

extension Bool: IntentValue {
    public static var valueType: ValueType { .bool }
    public init?(autoValue value: Value) {
        guard case .bool(let flag) = value else { return nil }
        self = flag
    }
    public var autoValue: Value { .bool(self) }
}

extension Date: IntentValue {
    public static var valueType: ValueType { .date }
    public init?(autoValue value: Value) {
        guard case .date(let date) = value else { return nil }
        self = date
    }
    public var autoValue: Value { .date(self) }
}

extension Duration: IntentValue {
    public static var valueType: ValueType { .duration }
    public init?(autoValue value: Value) {
        guard case .duration(let duration) = value else { return nil }
        self = duration
    }
    /// A Duration beyond `DurationDomain` (Int64.max seconds either way) is nil.
    public var autoValue: Value { DurationDomain.contains(self) ? .duration(self) : .null }
}

/// A byte count: `10 KB`, `file.size`.
public struct ByteCount: IntentValue, Hashable, Comparable {
    public var bytes: Int64
    public init(bytes: Int64) { self.bytes = bytes }
    public static func < (a: ByteCount, b: ByteCount) -> Bool { a.bytes < b.bytes }
    public static var valueType: ValueType { .size }
    public init?(autoValue value: Value) {
        guard case .size(let bytes) = value else { return nil }
        self.bytes = bytes
    }
    public var autoValue: Value { .size(bytes) }
}

extension FileRef: IntentValue {
    public static var valueType: ValueType { .file }
    public init?(autoValue value: Value) {
        switch value {
        case .file(let file): self = file
        case .text(let path): self.init(path: path)
        default: return nil
        }
    }
    public var autoValue: Value { .file(self) }
}

extension Array: IntentValue where Element: IntentValue {
    public static var valueType: ValueType { .list(Element.valueType) }
    public init?(autoValue value: Value) {
        guard case .list(let items) = value else { return nil }
        var result: [Element] = []
        result.reserveCapacity(items.count)
        for item in items {
            guard let element = Element(autoValue: item) else { return nil }
            result.append(element)
        }
        self = result
    }
    public var autoValue: Value { .list(map(\.autoValue)) }
}

/// Any engine value, unconverted: for parameters and results that take whatever comes.
public struct AnyValue: IntentValue {
    public var value: Value
    public init(_ value: Value) { self.value = value }
    public static var valueType: ValueType { .any }
    public init?(autoValue value: Value) { self.value = value }
    public var autoValue: Value { value }
}

/// The result type of an intent that returns nothing.
public struct NoValue: IntentValue {
    public init() {}
    public static var valueType: ValueType { .null }
    public init?(autoValue value: Value) {}
    public var autoValue: Value { .null }
}

extension Record: IntentValue {
    public static var valueType: ValueType { .record }
    public init?(autoValue value: Value) {
        guard case .record(let record) = value else { return nil }
        self = record
    }
    public var autoValue: Value { .record(self) }
}
