import Foundation

/// A value as the engine sees it: what a variable holds, what flows through a pipe, what an intent returns.
///
/// Hosts rarely build these by hand: `IntentValue` converts their Swift types both ways.
public enum Value: Sendable {
    case null
    case bool(Bool)
    case int(Int)
    /// Decimals are binary doubles: they print in shortest round-trip form (`0.1`, `3.0`).
    case decimal(Double)
    case text(String)
    case date(Date)
    /// Elapsed time in seconds.
    case duration(Double)
    /// A byte count.
    case size(Int64)
    case file(FileRef)
    case list([Value])
    case record(Record)
    /// Boxed: an entity (a type and an existential payload) is three times the size of any other case,
    /// and every copy of a value would otherwise move that much.
    indirect case entity(EntityValue)
    case enumCase(EnumCaseValue)

    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// Whether this is a Bool, Int, Decimal, Text, Date, Duration, Size or File of exactly `type`: the common
    /// case of an argument, checked without building the value's type.
    @inlinable
    public func hasScalarType(_ type: ValueType) -> Bool {
        switch self {
        case .bool: if case .bool = type { return true }
        case .int: if case .int = type { return true }
        case .decimal: if case .decimal = type { return true }
        case .text: if case .text = type { return true }
        case .date: if case .date = type { return true }
        case .duration: if case .duration = type { return true }
        case .size: if case .size = type { return true }
        case .file: if case .file = type { return true }
        default: break
        }
        return false
    }

    /// The dynamic type of this value, as precise as the value itself tells.
    public var type: ValueType {
        switch self {
        case .null: return .null
        case .bool: return .bool
        case .int: return .int
        case .decimal: return .decimal
        case .text: return .text
        case .date: return .date
        case .duration: return .duration
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
public struct Record: Sendable {
    public private(set) var keys: [String]
    public private(set) var values: [Value]

    public init(keys: [String] = [], values: [Value] = []) {
        precondition(keys.count == values.count, "a record needs one value per key")
        self.keys = keys
        self.values = values
    }

    public init(_ fields: KeyValuePairs<String, Value>) {
        self.init(keys: fields.map(\.key), values: fields.map(\.value))
    }

    public subscript(key: String) -> Value? {
        guard let index = keys.firstIndex(of: key) else { return nil }
        return values[index]
    }

    public mutating func set(_ key: String, _ value: Value) {
        if let index = keys.firstIndex(of: key) {
            values[index] = value
        } else {
            keys.append(key)
            values.append(value)
        }
    }
}

/// A file or folder by path. Its properties (`name`, `size`, …) are read from the file system when asked.
public struct FileRef: Sendable, Hashable {
    public var path: String
    public init(path: String) { self.path = path }
    public var name: String { (path as NSString).lastPathComponent }
    public var pathExtension: String { (path as NSString).pathExtension }
}

/// One case of a registered enum.
public struct EnumCaseValue: Sendable {
    public let type: AnyEnumType
    public let index: Int
    public init(type: AnyEnumType, index: Int) {
        self.type = type
        self.index = index
    }
    public var identifier: String { type.cases[index].identifier }
    public var displayName: String { type.cases[index].displayName }
}

/// One host entity with its type. The payload is the host's own Swift value; properties are read through
/// the getters the type built at registration.
public struct EntityValue: Sendable {
    public let type: AnyEntityType
    public let payload: any Sendable

    public init(type: AnyEntityType, payload: any Sendable) {
        self.type = type
        self.payload = payload
    }

    public var id: String { type.identifier(of: payload) }
    public var display: DisplayRepresentation { type.display(of: payload) }
    public func property(_ index: Int) -> Value { type.properties[index].get(payload) }
}
