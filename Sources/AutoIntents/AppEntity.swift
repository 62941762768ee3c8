import Foundation

/// How an entity or an enum case is shown to people: a title, an optional subtitle, other names it answers to.
public struct DisplayRepresentation: Sendable, Hashable {
    /// The name people know it by: a book's title.
    public var title: String
    /// A second line: a book's author.
    public var subtitle: String?
    /// Other names a choice or a text may give it.
    public var synonyms: [String]
    /// A representation with a title and, optionally, a subtitle and synonyms.
    public init(title: String, subtitle: String? = nil, synonyms: [String] = []) {
        self.title = title
        self.subtitle = subtitle
        self.synonyms = synonyms
    }
}

extension DisplayRepresentation {
    /// Whether `text` is in its title, subtitle or a synonym, ignoring case: how the engine finds entities by text
    /// when the host's query can list them but has no text search of its own (`find regions matching "val"`, `open
    /// region "Valais"`, a phrase that names a region).
    @usableFromInline package func matches(_ text: String) -> Bool {
        ([title] + (subtitle.map { [$0] } ?? []) + synonyms).contains { $0.range(of: text, options: .caseInsensitive) != nil }
    }
}

/// One of the host's objects: a book, a shelf item, a contact. A type describes itself once, in a
/// `static let entityType`, with its names. Its properties are its stored properties of engine types (all but
/// `id`), found at registration; or, listed by key path, the ones the type names, computed ones included,
/// which are also filtered and sorted with typed comparisons (read in place, for stored ones).
///
/// ```swift
/// struct Book: AppEntity {
///     static let entityType = EntityType<Book>(singular: "book")
///     var id: UUID; var title: String; var author: String
///     var displayRepresentation: DisplayRepresentation { .init(title: title, subtitle: author) }
/// }
/// ```
public protocol AppEntity: IntentValue, Identifiable where ID: EntityIdentifier {
    /// The type's names in scripts and its properties: `EntityType<Book>(singular: "book")`. A `static let`, so that
    /// it is made once: the engine tells entity types apart by it.
    static var entityType: EntityType<Self> { get }
    /// How the entity is shown to people: in a list, a choice, a dialog.
    var displayRepresentation: DisplayRepresentation { get }
}

extension AppEntity {
    /// The entity type, as the engine knows it.
    public static var valueType: ValueType { .entity(entityType) }
    /// The entity an engine value holds, when it is one of this type.
    public init?(autoValue value: Value) {
        guard case .entity(let entity) = value, let typed = entity.payload as? TypedEntityPayload<Self> else { return nil }
        self = typed.entity
    }
    /// The entity as an engine value.
    public var autoValue: Value {
        let type = Self.entityType
        return .entity(EntityValue(type: type, payload: type.payloadClass.boxing(self)))
    }
}

/// A property an entity type declares: its name in scripts, its title for people, its type and getter.
/// Properties are read through closures (a key path such as `\.title` converts to one), and a property of
/// a comparable type also builds typed comparisons, so engine-side filtering and sorting never box values.
///
/// ```swift
/// EntityType<Book>(singular: "book", properties: [.init("title", \.title), .init("readDate", \.readDate, title: "Date read")])
/// ```
public struct EntityProperty<E: AppEntity>: Sendable {
    @usableFromInline package let name: String
    @usableFromInline package let title: String
    @usableFromInline package let type: ValueType
    /// What it was called in earlier versions of the host (`formerly(_:)`).
    @usableFromInline package var formerNames: [String] = []
    @usableFromInline let get: @Sendable (E) -> Value
    /// A typed test for `property <op> value`, or nil when it can't be made (the value's type differs).
    @usableFromInline let makeTest: @Sendable (ComparisonOperator, Value) -> (@Sendable (E) -> Bool)?
    /// A typed three-way comparison for sorting; nil for properties that have no order.
    @usableFromInline let makeOrder: (@Sendable () -> @Sendable (E, E) -> Int)?
    /// For a stored property declared by key path: a scan of a whole array for `property <op> value` that
    /// reads the property in place. Nil for the other properties, and when the value's type differs.
    @usableFromInline var makeScan: @Sendable (ComparisonOperator, Value) -> TypedScans.Scan<E>? = { _, _ in nil }

    /// A property found by registration, read through `get` alone: the engine compares its values as it compares
    /// any values.
    init(name: String, type: ValueType, get: @escaping @Sendable (E) -> Value) {
        self.name = name
        self.title = ParameterInfo.titleCase(name)
        self.type = type
        self.get = get
        self.makeTest = { _, _ in nil }
        self.makeOrder = nil
    }

    /// A property read by `get`, `name` in scripts and `title` (the name when nil) for people.
    @inlinable
    public init<T: IntentValue>(_ name: String, _ get: @escaping @Sendable (E) -> T, title: String? = nil) {
        self.name = name
        self.title = title ?? name
        self.type = T.valueType
        self.get = { get($0).autoValue }
        self.makeTest = { _, _ in nil }
        self.makeOrder = nil
    }

    /// A property that may be missing (nil).
    @inlinable
    public init<T: IntentValue>(_ name: String, _ get: @escaping @Sendable (E) -> T?, title: String? = nil) {
        self.name = name
        self.title = title ?? name
        self.type = T.valueType
        self.get = { get($0)?.autoValue ?? .null }
        self.makeTest = { _, _ in nil }
        self.makeOrder = nil
    }

    /// A property of an ordered type: `find` filters and sorts by it with typed comparisons.
    @inlinable
    public init<T: IntentValue & Comparable>(_ name: String, _ get: @escaping @Sendable (E) -> T, title: String? = nil) {
        self.name = name
        self.title = title ?? name
        self.type = T.valueType
        self.get = { get($0).autoValue }
        self.makeTest = { op, value in TypedTests.test(op, value, get) }
        self.makeOrder = { { a, b in TypedTests.order(get(a), get(b)) } }
    }

    /// A missing value (nil) sorts first and compares false with `<` and `>`, as the engine does everywhere.
    @inlinable
    public init<T: IntentValue & Comparable>(_ name: String, _ get: @escaping @Sendable (E) -> T?, title: String? = nil) {
        self.name = name
        self.title = title ?? name
        self.type = T.valueType
        self.get = { get($0)?.autoValue ?? .null }
        self.makeTest = { op, value in TypedTests.whenPresent(op, TypedTests.test(op, value, { (present: T) in present }), get) }
        self.makeOrder = { { a, b in TypedTests.optionalOrder(get(a), get(b)) } }
    }

    /// Texts compare exactly with `==` and `<`, and ignore case with `contains`, `starts with`, `ends with`.
    @inlinable
    public init(_ name: String, _ get: @escaping @Sendable (E) -> String, title: String? = nil) {
        self.name = name
        self.title = title ?? name
        self.type = .text
        self.get = { .text(get($0)) }
        self.makeTest = { op, value in TypedTests.textTest(op, value, get) }
        self.makeOrder = { { a, b in TypedTests.order(get(a), get(b)) } }
    }

    /// A text property that may be missing; compared as `init(_:_:title:)` for texts compares.
    @inlinable
    public init(_ name: String, _ get: @escaping @Sendable (E) -> String?, title: String? = nil) {
        self.name = name
        self.title = title ?? name
        self.type = .text
        self.get = { get($0).map(Value.text) ?? .null }
        self.makeTest = { op, value in TypedTests.whenPresent(op, TypedTests.textTest(op, value, { (text: String) in text }), get) }
        self.makeOrder = { { a, b in TypedTests.optionalOrder(get(a), get(b)) } }
    }
}

extension EntityProperty {
    /// The same property, also read by the names it had in earlier versions of the host:
    /// `.init("recommendedBy", \.recommendedBy).formerly("recommender")`. A script that still says `b.recommender` or
    /// `where recommender == …` runs, with a warning that gives the current name (and `migrate --write` writes it).
    public func formerly(_ names: String...) -> EntityProperty {
        var renamed = self
        renamed.formerNames += names
        return renamed
    }
    // The same properties declared by key path (`.init("author", \.author)`, which Swift prefers to the
    // closure forms): a stored property then also gets in-place scans.

    /// What reads `path`: a stored property of a struct at its offset, since applying a key path costs a metadata
    /// lookup and more each time (a fifth of `count by` over a million entities); any other key path as it is.
    @inlinable
    static func reader<T>(_ path: KeyPath<E, T> & Sendable) -> @Sendable (E) -> T {
        guard let offset = MemoryLayout<E>.offset(of: path) else { return { $0[keyPath: path] } }
        // The memory of a struct's stored property is bound to the property's type, so it can be read as one.
        return { entity in withUnsafeBytes(of: entity) { $0.load(fromByteOffset: offset, as: T.self) } }
    }

    /// An ordered property by key path: a stored one is also scanned in place when `find` filters.
    @inlinable
    public init<T: IntentValue & Comparable>(_ name: String, _ path: KeyPath<E, T> & Sendable, title: String? = nil) {
        self.init(name, EntityProperty.reader(path), title: title)
        if let offset = MemoryLayout<E>.offset(of: path) {
            makeScan = { op, value in TypedScans.scan(offset, op, value, TypedTests.test(op, value, { (v: T) in v })) }
        }
    }

    /// An ordered property that may be missing, by key path.
    @inlinable
    public init<T: IntentValue & Comparable>(_ name: String, _ path: KeyPath<E, T?> & Sendable, title: String? = nil) {
        self.init(name, EntityProperty.reader(path), title: title)
        if let offset = MemoryLayout<E>.offset(of: path) {
            makeScan = { op, value in TypedScans.scanOptional(offset, op, TypedTests.test(op, value, { (v: T) in v })) }
        }
    }

    /// A text property by key path.
    @inlinable
    public init(_ name: String, _ path: KeyPath<E, String> & Sendable, title: String? = nil) {
        self.init(name, EntityProperty.reader(path), title: title)
        if let offset = MemoryLayout<E>.offset(of: path) {
            makeScan = { op, value in TypedScans.scan(offset, op, value, TypedTests.textTest(op, value, { (v: String) in v })) }
        }
    }

    /// A text property that may be missing, by key path.
    @inlinable
    public init(_ name: String, _ path: KeyPath<E, String?> & Sendable, title: String? = nil) {
        self.init(name, EntityProperty.reader(path), title: title)
        if let offset = MemoryLayout<E>.offset(of: path) {
            makeScan = { op, value in TypedScans.scanOptional(offset, op, TypedTests.textTest(op, value, { (v: String) in v })) }
        }
    }
}

/// An entity type as the engine knows it, without its Swift type: what a `ValueType` or an engine value names. A
/// host makes its `EntityType<E>`, and never names this class. Compared by identity: each Swift entity type has
/// exactly one, its `static let entityType`.
public class AnyEntityType: @unchecked Sendable, Hashable, CustomStringConvertible {
    package struct Property: Sendable {
        package let name: String
        package let title: String
        package let type: ValueType
        package let get: @Sendable (EntityPayload) -> Value
        /// Names it had in earlier versions of the host: still read, with a warning in scripts.
        package var formerNames: [String] = []
    }

    /// Lower-case names as scripts write them: `book`, `books`.
    package let singular: String
    @usableFromInline package let plural: String
    package let properties: [Property]
    /// Name → index into `properties`, for the checker; run time uses the index it resolved.
    @usableFromInline package let propertyIndex: [String: Int]

    /// What an identifier of this type looks like, for those who must write one (an MCP tool's schema).
    package enum IdentifierForm: Sendable {
        case integer, uuid, text
    }

    package let identifierForm: IdentifierForm
    /// Why registering this type is an error, when it is: its stored properties found of types the engine can't
    /// show, which it would otherwise leave out without a word.
    package let registrationProblem: String?

    init(singular: String, plural: String, identifierForm: IdentifierForm, properties: [Property], registrationProblem: String? = nil) {
        self.identifierForm = identifierForm
        self.registrationProblem = registrationProblem
        self.singular = singular.lowercased()
        self.plural = plural.lowercased()
        self.properties = properties
        var index: [String: Int] = [:]
        for (i, property) in properties.enumerated() where index[property.name.lowercased()] == nil {
            index[property.name.lowercased()] = i
        }
        // Former names after every current one: a current name always wins.
        for (i, property) in properties.enumerated() {
            for former in property.formerNames where index[former.lowercased()] == nil { index[former.lowercased()] = i }
        }
        self.propertyIndex = index
    }

    /// The type's name in type annotations and messages: `Book`.
    package var typeName: String { singular.split(separator: " ").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined() }
    /// The type's name as scripts write it in a type annotation: `Book`.
    public var description: String { typeName }

    package func identifier(of payload: EntityPayload) -> String { "" }
    package func display(of payload: EntityPayload) -> DisplayRepresentation { .init(title: "") }

    /// Whether both are the same entity type.
    public static func == (a: AnyEntityType, b: AnyEntityType) -> Bool { a === b }
    /// Hashes the type's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// The description of one Swift entity type `E`, its `static let entityType`: its names in scripts and its properties.
///
/// ```swift
/// static let entityType = EntityType<Book>(singular: "book")          // its stored properties, found
/// static let entityType = EntityType<Author>(singular: "author", properties: [.init("name", \.name)])
/// ```
public final class EntityType<E: AppEntity>: AnyEntityType, @unchecked Sendable {
    /// The properties with their typed getters and comparisons, for engine-side queries.
    @usableFromInline package let typedProperties: [EntityProperty<E>]
    /// `TypedEntityPayload<E>`, looked up once (see there).
    let payloadClass: TypedEntityPayload<E>.Type

    /// The type named `singular` in scripts (`book`), and `plural` (`books`, the default) where it names many; with
    /// `properties` nil: every stored property but `id`, in declaration order, and those whose names start with `_`
    /// left out. Each must be of a type the engine can show (an `IntentValue`, or an optional one): registering a type
    /// with another is an error that names the property, rather than a property silently missing.
    public init(singular: String, plural: String? = nil, properties: [EntityProperty<E>]? = nil) {
        var problem: String?
        var found = properties ?? []
        if properties == nil {
            // The type's layout, read once: its properties, and those of types the engine can't show.
            let listing = "give it the properties to show (EntityType<\(E.self)>(singular: \"\(singular)\", properties: "
                + "[.init(\"name\", \\.name), …]))"
            do {
                let stored = try EntityProperty<E>.stored()
                found = stored.properties
                if let first = stored.unshown.first {
                    let names = stored.unshown.map { "\(E.self).\($0.name) (\($0.type))" }.joined(separator: ", ")
                    problem = "\(names) can't be shown by the engine, and the entity type '\(singular)' lists its stored properties: "
                        + listing + ", make each property's type an IntentValue, or start its name with _ (_\(first.name)) to keep it out"
                }
            } catch {
                problem = "the entity type '\(singular)' lists its stored properties, but \(String(reflecting: E.self)) \(error.reason), "
                    + "or " + listing
            }
        }
        let properties = found
        let payloadClass = TypedEntityPayload<E>.self
        self.payloadClass = payloadClass
        self.typedProperties = properties
        super.init(
            singular: singular,
            plural: plural ?? singular + "s",
            identifierForm: E.ID.self == UUID.self ? .uuid : E.ID.self is any BinaryInteger.Type ? .integer : .text,
            properties: properties.map { property in
                let get = property.get
                var made = Property(name: property.name, title: property.title, type: property.type) { [payloadClass] payload in
                    payloadClass.read(payload, get)
                }
                made.formerNames = property.formerNames
                return made
            }, registrationProblem: problem)
    }

    override package func identifier(of payload: EntityPayload) -> String {
        payloadClass.read(payload) { $0.id.entityIdentifier }
    }

    override package func display(of payload: EntityPayload) -> DisplayRepresentation {
        payloadClass.read(payload) { $0.displayRepresentation }
    }
}
