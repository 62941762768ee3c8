/// A fixed set of named choices: a shelf, a priority. Scripts write a case as its identifier or its display
/// name (`currentlyReading` or `"Currently Reading"`).
///
/// ```swift
/// enum Shelf: String, AppEnum {
///     case wantToRead, currentlyReading, read
///     static let enumType = EnumType<Shelf>("shelf", displayNames: [
///         .wantToRead: "Want to Read", .currentlyReading: "Currently Reading", .read: "Read"])
/// }
/// ```
public protocol AppEnum: IntentValue, CaseIterable, Hashable, RawRepresentable where RawValue == String, AllCases: RandomAccessCollection, AllCases.Index == Int {
    /// The type's name in scripts and its cases' display names: `EnumType<Shelf>("shelf")`. A `static let`, so that
    /// it is made once: the engine tells enum types apart by it.
    static var enumType: EnumType<Self> { get }
}

extension AppEnum {
    /// The enum type, as the engine knows it.
    public static var valueType: ValueType { .enumeration(enumType) }
    /// The case an engine value holds: a case of this type, or a text naming one by identifier or display name.
    public init?(autoValue value: Value) {
        switch value {
        case .enumCase(let c) where c.type === Self.enumType:
            self = Self.allCases[c.index]
        case .text(let text):
            guard let index = Self.enumType.caseIndex(named: text) else { return nil }
            self = Self.allCases[index]
        default:
            return nil
        }
    }
    /// The case as an engine value.
    public var autoValue: Value {
        .enumCase(EnumCaseValue(type: Self.enumType, index: Self.allCases.firstIndex(of: self) ?? 0))
    }

    /// The case as people read it, as its type declares: `"Currently Reading"`.
    public var displayName: String {
        guard let index = Self.allCases.firstIndex(of: self) else { return rawValue }
        return Self.enumType.cases[index].displayName
    }
}

/// An enum type as the engine knows it, without its Swift type: its name and its cases in declaration order; what a
/// `ValueType` or an engine value names. A host makes its `EnumType<E>`, and never names this class.
public class AnyEnumType: @unchecked Sendable, Hashable, CustomStringConvertible {
    package struct Case: Sendable {
        package let identifier: String
        package let displayName: String
        /// What the case was called in earlier versions of its host: still read, with a warning in scripts.
        package var formerNames: [String] = []
    }
    package let name: String
    package let cases: [Case]

    init(name: String, cases: [Case]) {
        self.name = name.lowercased()
        self.cases = cases
    }

    package var typeName: String { name.split(separator: " ").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined() }
    /// The type's name as scripts write it in a type annotation: `Shelf`.
    public var description: String { typeName }

    /// A case by identifier or display name, ignoring case and spaces: `currentlyReading`, `"Currently Reading"`; else
    /// by a name it had before (`formerNames`), so that a script, an automation's stored value or an answer given in an
    /// older version's words still names it.
    package func caseIndex(named text: String) -> Int? {
        let wanted = Self.normalized(text)
        return cases.firstIndex { Self.normalized($0.identifier) == wanted || Self.normalized($0.displayName) == wanted }
            ?? cases.firstIndex { $0.formerNames.contains { Self.normalized($0) == wanted } }
    }

    /// Whether `text` names a case only by a former name: what a script should now write differently.
    package func namesFormerCase(_ text: String) -> Bool {
        let wanted = Self.normalized(text)
        return !cases.contains { Self.normalized($0.identifier) == wanted || Self.normalized($0.displayName) == wanted }
            && caseIndex(named: text) != nil
    }

    static func normalized(_ text: String) -> String {
        String(text.lowercased().filter { !$0.isWhitespace && $0 != "_" && $0 != "-" })
    }

    /// Whether both are the same enum type.
    public static func == (a: AnyEnumType, b: AnyEnumType) -> Bool { a === b }
    /// Hashes the type's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// The description of one Swift enum type `E`, its `static let enumType`: its name in scripts and each case's display
/// name.
///
/// ```swift
/// static let enumType = EnumType<Shelf>("shelf", displayNames: [.wantToRead: "Want to Read"],
///                                        formerNames: [.wantToRead: ["toRead"]])   // renamed from `toRead`
/// ```
public final class EnumType<E: AppEnum>: AnyEnumType, @unchecked Sendable {
    /// The type named `name` in scripts (`shelf`, `as Shelf`). `displayNames` word the cases for people; a case left out is named from its raw value as a parameter's title
    /// is (`currentlyReading` → "Currently reading", `in_progress` → "In progress"), never shown as the raw value.
    /// `formerNames` are what cases were called in earlier versions of the host: scripts that still say them run,
    /// with a warning that gives the current name.
    public init(_ name: String, displayNames: [E: String] = [:], formerNames: [E: [String]] = [:]) {
        super.init(name: name, cases: E.allCases.map { value in
            Case(identifier: value.rawValue, displayName: displayNames[value] ?? Self.derivedName(value.rawValue),
                 formerNames: formerNames[value] ?? [])
        })
    }

    /// A raw value as people read it, words apart (`_` and `-` separate words too).
    static func derivedName(_ rawValue: String) -> String {
        ParameterInfo.titleCase(String(rawValue.map { $0 == "_" || $0 == "-" ? " " : $0 }))
            .split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }
}
