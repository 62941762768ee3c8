/// The static type of a value, as the checker knows it. `.any` is the type of what is only known at run time. A host
/// meets it only in an `IntentValue` conformance of its own: `static var valueType: ValueType { .text }`.
public indirect enum ValueType: Sendable, Hashable, CustomStringConvertible {
    /// Whatever comes, known only at run time.
    case any
    /// Nothing: the result of an intent that returns no value.
    case null
    /// `Bool`.
    case bool
    /// `Int`.
    case int
    /// `Decimal`, which `Double` converts to.
    case decimal
    /// `Text`, a Swift `String`.
    case text
    /// `Date`.
    case date
    /// `Duration`.
    case duration
    /// Calendar months and years (`CalendarPeriod`).
    case period
    /// A byte count (`ByteCount`).
    case size
    /// A file or folder (`FileRef`).
    case file
    /// A list of the element type.
    case list(ValueType)
    /// A record whose fields are known only at run time.
    case record
    /// A record whose fields are known before the run: a literal `{title: "Circe", year: 2018}`.
    case recordOf(RecordShape)
    /// A registered entity type: an `AppEntity`'s.
    case entity(AnyEntityType)
    /// A registered enum type: an `AppEnum`'s.
    case enumeration(AnyEnumType)

    /// The type as scripts name it: `Int`, `List of Book`.
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

    package var isNumeric: Bool { self == .int || self == .decimal }

    package var isRecord: Bool {
        switch self {
        case .record, .recordOf: return true
        default: return false
        }
    }

    package var elementType: ValueType? {
        if case .list(let element) = self { return element }
        return nil
    }

    /// Whether a value of type `self` may be passed where `target` is expected. Unknown types are accepted
    /// here and checked when the value exists; Int widens to Decimal; a text may name an enum case or a file.
    package func isAssignable(to target: ValueType) -> Bool {
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
    package func joined(with other: ValueType) -> ValueType {
        if self == other { return self }
        if isNumeric && other.isNumeric { return .decimal }
        if case .list(let a) = self, case .list(let b) = other { return .list(a.joined(with: b)) }
        if isRecord && other.isRecord { return .record }
        if self == .null { return other }
        if other == .null { return self }
        return .any
    }
}

/// The fields of a record known before the run, in order: what the checker knows of a record literal.
public struct RecordShape: Sendable, Hashable {
    package let names: [String]
    package let types: [ValueType]
    package init(names: [String], types: [ValueType]) {
        self.names = names
        self.types = types
    }
    package func type(of name: String) -> ValueType? {
        names.firstIndex(of: name).map { types[$0] }
    }
}
