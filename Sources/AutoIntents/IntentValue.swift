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
        case .decimal(let d) where d.rounded() == d && abs(d) < 9.2e18: self = Int(d)
        default: return nil
        }
    }
    public var autoValue: Value { .int(self) }
}

extension Double: IntentValue {
    public static var valueType: ValueType { .decimal }
    public init?(autoValue value: Value) {
        switch value {
        case .decimal(let d): self = d
        case .int(let i): self = Double(i)
        default: return nil
        }
    }
    public var autoValue: Value { .decimal(self) }
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
        guard case .duration(let seconds) = value else { return nil }
        self = .milliseconds(Int64((seconds * 1000).rounded()))
    }
    public var autoValue: Value {
        let (seconds, attoseconds) = components
        return .duration(Double(seconds) + Double(attoseconds) / 1e18)
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
