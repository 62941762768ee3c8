import Foundation

/// A Swift type that can be an intent's parameter or result, an entity's property or an option: it names its engine
/// type and converts both ways. `Int`, `Double`, `Decimal`, `String`, `Bool`, `Date`, `Duration`, `FileRef`, `ByteCount`,
/// `Record`, arrays and optionals of them are; an `AppEntity` or an `AppEnum` is one by conforming.
///
/// Conversions are written once per type and captured in closures at registration, so a call converts
/// its arguments without looking anything up.
public protocol IntentValue: Sendable {
    /// The type scripts see: `.int`, `.text`, `.list(.text)`.
    static var valueType: ValueType { get }
    /// Nil when `value` is of another kind; the engine then reports a type error with the parameter's name.
    init?(autoValue value: Value)
    /// The value as the engine holds it.
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
    /// The engine type of these values.
    public static var valueType: ValueType { .int }
    /// The value an engine value holds; nil when it holds another kind.
    public init?(autoValue value: Value) {
        switch value {
        case .int(let i): self = i
        case .decimal(let d):
            guard let whole = DecimalDomain.int(d) else { return nil }
            self = whole
        default: return nil
        }
    }
    /// The value as the engine holds it.
    public var autoValue: Value { .int(self) }
}

/// A Double parameter takes a Decimal, rounded to the nearest Double; a Double result becomes the Decimal its
/// shortest form reads as (0.1 is 0.1). Infinity, NaN and magnitudes of 10^38 or more have no Decimal: such a
/// result is an error naming the intent (`autoValue` gives nil). Take `Decimal` instead where every digit counts,
/// as for prices.
extension Double: IntentValue {
    /// The engine type of these values.
    public static var valueType: ValueType { .decimal }
    /// The value an engine value holds; nil when it holds another kind.
    public init?(autoValue value: Value) {
        switch value {
        case .decimal(let d): self = DecimalDomain.double(d)
        case .int(let i): self = Double(i)
        default: return nil
        }
    }
    /// The value as the engine holds it.
    public var autoValue: Value { DecimalDomain.decimal(self).map(Value.decimal) ?? .null }
    /// `autoValue`, or an error saying why this value has none.
    public func checkedAutoValue() throws(IntentError) -> Value {
        guard let decimal = DecimalDomain.decimal(self) else { throw DecimalDomain.unrepresentable(self) }
        return .decimal(decimal)
    }
}

/// A base-10 number, exactly as the script wrote or computed it: prices, quantities.
extension Decimal: IntentValue {
    /// The engine type of these values.
    public static var valueType: ValueType { .decimal }
    /// The value an engine value holds; nil when it holds another kind.
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
    /// `autoValue`, or an error saying why this value has none.
    public func checkedAutoValue() throws(IntentError) -> Value {
        guard let decimal = DecimalDomain.normalized(self) else { throw DecimalDomain.unrepresentable(self) }
        return .decimal(decimal)
    }
}

extension String: IntentValue {
    /// The engine type of these values.
    public static var valueType: ValueType { .text }
    /// The value an engine value holds; nil when it holds another kind.
    public init?(autoValue value: Value) {
        guard case .text(let text) = value else { return nil }
        self = text
    }
    /// The value as the engine holds it.
    public var autoValue: Value { .text(self) }
}

extension Bool: IntentValue {
    /// The engine type of these values.
    public static var valueType: ValueType { .bool }
    /// The value an engine value holds; nil when it holds another kind.
    public init?(autoValue value: Value) {
        guard case .bool(let flag) = value else { return nil }
        self = flag
    }
    /// The value as the engine holds it.
    public var autoValue: Value { .bool(self) }
}

extension Date: IntentValue {
    /// The engine type of these values.
    public static var valueType: ValueType { .date }
    /// The value an engine value holds; nil when it holds another kind.
    public init?(autoValue value: Value) {
        guard case .date(let date) = value else { return nil }
        self = date
    }
    /// The value as the engine holds it.
    public var autoValue: Value { .date(self) }
}

extension Duration: IntentValue {
    /// The engine type of these values.
    public static var valueType: ValueType { .duration }
    /// The value an engine value holds; nil when it holds another kind.
    public init?(autoValue value: Value) {
        guard case .duration(let duration) = value else { return nil }
        self = duration
    }
    /// A Duration beyond `DurationDomain` (Int64.max seconds either way) is nil, and an error as a result.
    public var autoValue: Value { DurationDomain.contains(self) ? .duration(self) : .null }
    /// `autoValue`, or an error saying why this value has none.
    public func checkedAutoValue() throws(IntentError) -> Value {
        guard DurationDomain.contains(self) else {
            throw IntentError("the result \(self) is out of range: \(DurationDomain.rangeDescription)")
        }
        return .duration(self)
    }
}

/// A byte count: `10 KB`, `file.size`; `Size` in scripts.
public struct ByteCount: IntentValue, Hashable, Comparable {
    /// How many bytes.
    public var bytes: Int64
    /// A count of `bytes`.
    public init(bytes: Int64) { self.bytes = bytes }
    /// The smaller count first.
    public static func < (a: ByteCount, b: ByteCount) -> Bool { a.bytes < b.bytes }
    /// The engine type of these values.
    public static var valueType: ValueType { .size }
    /// The value an engine value holds; nil when it holds another kind.
    public init?(autoValue value: Value) {
        guard case .size(let bytes) = value else { return nil }
        self.bytes = bytes
    }
    /// The value as the engine holds it.
    public var autoValue: Value { .size(bytes) }
}

extension FileRef: IntentValue {
    /// The engine type of these values.
    public static var valueType: ValueType { .file }
    /// The value an engine value holds; nil when it holds another kind.
    public init?(autoValue value: Value) {
        switch value {
        case .file(let file): self = file
        case .text(let path): self.init(path: path)
        default: return nil
        }
    }
    /// The value as the engine holds it.
    public var autoValue: Value { .file(self) }
}

extension Array: IntentValue where Element: IntentValue {
    /// The engine type of these values.
    public static var valueType: ValueType { .list(Element.valueType) }
    /// The value an engine value holds; nil when it holds another kind.
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
    /// The value as the engine holds it.
    public var autoValue: Value { .list(map(\.autoValue)) }
    /// An error for the first element that has no engine value.
    public func checkedAutoValue() throws(IntentError) -> Value {
        .list(try map { element throws(IntentError) in try element.checkedAutoValue() })
    }
}

/// An optional parameter (`@Parameter var note: String?`), property or result (`IntentResult<Int?>`, an intent that
/// returns a value or nothing): nil is `nil`, and the type is the wrapped one's, as every value may be nil in scripts.
extension Optional: IntentValue where Wrapped: IntentValue {
    /// The engine type of these values.
    public static var valueType: ValueType { Wrapped.valueType }
    /// The value an engine value holds; nil when it holds another kind.
    public init?(autoValue value: Value) {
        if value.isNull {
            self = .none
            return
        }
        guard let wrapped = Wrapped(autoValue: value) else { return nil }
        self = .some(wrapped)
    }
    /// The value as the engine holds it.
    public var autoValue: Value { self?.autoValue ?? .null }
    /// A value that is there and has no engine value is an error, never `nil`.
    public func checkedAutoValue() throws(IntentError) -> Value {
        guard let self else { return .null }
        return try self.checkedAutoValue()
    }
}

/// Any engine value, unconverted: for parameters and results that take whatever comes.
package struct AnyValue: IntentValue {
    package var value: Value
    package init(_ value: Value) { self.value = value }
    package static var valueType: ValueType { .any }
    package init?(autoValue value: Value) { self.value = value }
    package var autoValue: Value { value }
}

/// The result type of an intent that returns nothing: `IntentResult<NoValue>`, returned as `.result()` or
/// `.result(dialog:)`.
public struct NoValue: IntentValue {
    /// Nothing.
    public init() {}
    /// The engine type of these values.
    public static var valueType: ValueType { .null }
    /// The value an engine value holds; nil when it holds another kind.
    public init?(autoValue value: Value) {}
    /// The value as the engine holds it.
    public var autoValue: Value { .null }
}

extension Record: IntentValue {
    /// The engine type of these values.
    public static var valueType: ValueType { .record }
    /// The value an engine value holds; nil when it holds another kind.
    public init?(autoValue value: Value) {
        guard case .record(let record) = value else { return nil }
        self = record
    }
    /// The value as the engine holds it.
    public var autoValue: Value { .record(self) }
}
