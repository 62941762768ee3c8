/// The types the generator tracks for variables and expressions: the kinds of value plain `auto` has
/// (entities, enums and files need a host, so they are left out).
///
/// It mirrors the checker's types only as far as the generator needs: an expression is generated for a
/// wanted type, so a program type-checks as long as every production below yields the type it claims.
public indirect enum FuzzType: Hashable, Sendable, CustomStringConvertible {
    case int, decimal, text, bool, date, duration, size, null
    case list(FuzzType)
    case record(RecordShape)

    /// A record's fields in order, with their types.
    public struct RecordShape: Hashable, Sendable {
        public var names: [String]
        public var types: [FuzzType]
    }

    /// Types that `<`, `min`, `max`, `between` and `sort by` accept.
    public var isOrderable: Bool {
        switch self {
        case .int, .decimal, .text, .date, .duration, .size, .bool: return true
        default: return false
        }
    }

    public var isNumeric: Bool { self == .int || self == .decimal }

    /// The kinds `sum` adds, and the type of their sum.
    public var isSummable: Bool {
        switch self {
        case .int, .decimal, .duration, .size: return true
        default: return false
        }
    }

    public var element: FuzzType? {
        if case .list(let element) = self { return element }
        return nil
    }

    /// How the type is written in a shortcut's parameter list.
    public var declaration: String {
        switch self {
        case .int: return "Int"
        case .decimal: return "Decimal"
        case .text: return "Text"
        case .bool: return "Bool"
        case .date: return "Date"
        case .duration: return "Duration"
        case .size: return "Size"
        case .null: return "Any"
        case .list(let element): return "[\(element.declaration)]"
        case .record: return "Record"
        }
    }

    public var description: String { declaration }

    /// The scalar kinds, each a leaf of the generator.
    public static let scalars: [FuzzType] = [.int, .decimal, .text, .bool, .date, .duration, .size]
}
