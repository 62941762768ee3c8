/// The static type of a value, as the checker knows it. `.any` is the type of what is only known at run time.
public indirect enum ValueType: Sendable, Hashable, CustomStringConvertible {
    case any
    case null
    case bool
    case int
    case decimal
    case text
    case date
    case duration
    /// Calendar months and years (`CalendarPeriod`).
    case period
    case size
    case file
    case list(ValueType)
    case record
    /// A record whose fields are known before the run: a literal `{title: "Circe", year: 2018}`.
    case recordOf(RecordShape)
    case entity(AnyEntityType)
    case enumeration(AnyEnumType)

    public var description: String {
        switch self {
        case .any: return "Any"
        case .null: return "Nil"
        case .bool: return "Bool"
        case .int: return "Int"
        case .decimal: return "Decimal"
        case .text: return "Text"
        case .date: return "Date"
        case .duration: return "Duration"
        case .period: return "Period"
        case .size: return "Size"
        case .file: return "File"
        case .list(.any): return "List"
        case .list(let element): return "List of \(element)"
        case .record, .recordOf: return "Record"
        case .entity(let type): return type.typeName
        case .enumeration(let type): return type.typeName
        }
    }

    public var isNumeric: Bool { self == .int || self == .decimal }

    public var isRecord: Bool {
        switch self {
        case .record, .recordOf: return true
        default: return false
        }
    }

    public var elementType: ValueType? {
        if case .list(let element) = self { return element }
        return nil
    }

    /// Whether a value of type `self` may be passed where `target` is expected. Unknown types are accepted
    /// here and checked when the value exists; Int widens to Decimal; a text may name an enum case or a file.
    public func isAssignable(to target: ValueType) -> Bool {
        switch (self, target) {
        case (.any, _), (_, .any): return true
        case (.int, .decimal): return true
        case (.text, .enumeration), (.text, .file): return true
        case (.list(let a), .list(let b)): return a.isAssignable(to: b)
        case (.recordOf, .record), (.record, .recordOf): return true
        case (.recordOf(let a), .recordOf(let b)):
            return zip(b.names, b.types).allSatisfy { name, type in a.type(of: name)?.isAssignable(to: type) ?? false }
        default: return self == target
        }
    }

    /// The type both `self` and `other` fit in: the same type, Decimal for mixed numbers, else Any.
    public func joined(with other: ValueType) -> ValueType {
        if self == other { return self }
        if isNumeric && other.isNumeric { return .decimal }
        if case .list(let a) = self, case .list(let b) = other { return .list(a.joined(with: b)) }
        if isRecord && other.isRecord { return .record }
        if self == .null { return other }
        if other == .null { return self }
        return .any
    }
}

/// The fields of a record known before the run, in order.
public struct RecordShape: Sendable, Hashable {
    public let names: [String]
    public let types: [ValueType]
    public init(names: [String], types: [ValueType]) {
        self.names = names
        self.types = types
    }
    public func type(of name: String) -> ValueType? {
        names.firstIndex(of: name).map { types[$0] }
    }
}
