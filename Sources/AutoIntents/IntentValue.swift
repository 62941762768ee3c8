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
    /// `autoValue`, or an error saying why there is none: how the engine converts an intent's result, so that a
    /// result it can't hold (a Double that is NaN) is an error naming the intent, where `autoValue` gives `nil`.
    /// The default is `autoValue`; a type implements it only when some of its values have no engine value.
    func checkedAutoValue() throws(IntentError) -> Value
}

extension IntentValue {
    /// `autoValue`, for a type every value of which converts. Inlinable, so that a call's result costs what it did.
    @inlinable
    public func checkedAutoValue() throws(IntentError) -> Value { autoValue }
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
/// result is an error naming the intent (`autoValue` gives nil). Take `Decimal` instead where every digit counts,
/// as for prices.
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
    public func checkedAutoValue() throws(IntentError) -> Value {
        guard let decimal = DecimalDomain.decimal(self) else { throw DecimalDomain.unrepresentable(self) }
        return .decimal(decimal)
    }
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
    /// A Decimal out of the language's range (NaN, 10^38 or more) is nil, and an error as a result; more than 38
    /// places are rounded.
    public var autoValue: Value { DecimalDomain.normalized(self).map(Value.decimal) ?? .null }
    public func checkedAutoValue() throws(IntentError) -> Value {
        guard let decimal = DecimalDomain.normalized(self) else { throw DecimalDomain.unrepresentable(self) }
        return .decimal(decimal)
    }
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
    /// A Duration beyond `DurationDomain` (Int64.max seconds either way) is nil, and an error as a result.
    public var autoValue: Value { DurationDomain.contains(self) ? .duration(self) : .null }
    public func checkedAutoValue() throws(IntentError) -> Value {
        guard DurationDomain.contains(self) else {
            throw IntentError("the result \(self) is out of range: \(DurationDomain.rangeDescription)")
        }
        return .duration(self)
    }
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
    /// An error for the first element that has no engine value.
    public func checkedAutoValue() throws(IntentError) -> Value {
        .list(try map { element throws(IntentError) in try element.checkedAutoValue() })
    }
}

/// An optional parameter (`@Parameter var note: String?`), property or result (`IntentResult<Int?>`, an intent that
/// returns a value or nothing): nil is `nil`, and the type is the wrapped one's, as every value may be nil in scripts.
extension Optional: IntentValue where Wrapped: IntentValue {
    public static var valueType: ValueType { Wrapped.valueType }
    public init?(autoValue value: Value) {
        if value.isNull {
            self = .none
            return
        }
        guard let wrapped = Wrapped(autoValue: value) else { return nil }
        self = .some(wrapped)
    }
    public var autoValue: Value { self?.autoValue ?? .null }
    /// A value that is there and has no engine value is an error, never `nil`.
    public func checkedAutoValue() throws(IntentError) -> Value {
        guard let self else { return .null }
        return try self.checkedAutoValue()
    }
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
