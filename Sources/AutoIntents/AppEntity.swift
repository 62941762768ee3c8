/// How an entity or an enum case is shown to people: a title, an optional subtitle, other names it answers to.
public struct DisplayRepresentation: Sendable, Hashable {
    public var title: String
    public var subtitle: String?
    public var synonyms: [String]
    public init(title: String, subtitle: String? = nil, synonyms: [String] = []) {
        self.title = title
        self.subtitle = subtitle
        self.synonyms = synonyms
    }
}

/// One of the host's objects: a book, a shelf item, a contact. A type describes itself once, in a
/// `static let entityType`, with its names and its properties (by key path, so no reflection is needed).
///
/// ```swift
/// struct Book: AppEntity {
///     static let entityType = EntityType<Book>(singular: "book", plural: "books", properties: [
///         .init("title", \.title), .init("author", \.author),
///     ])
///     var id: Int; var title: String; var author: String
///     var displayRepresentation: DisplayRepresentation { .init(title: title, subtitle: author) }
/// }
/// ```
public protocol AppEntity: IntentValue, Identifiable where ID: Sendable & CustomStringConvertible {
    static var entityType: EntityType<Self> { get }
    var displayRepresentation: DisplayRepresentation { get }
}

extension AppEntity {
    public static var valueType: ValueType { .entity(entityType) }
    public init?(autoValue value: Value) {
        guard case .entity(let entity) = value, let typed = entity.payload as? Self else { return nil }
        self = typed
    }
    public var autoValue: Value { .entity(EntityValue(type: Self.entityType, payload: self)) }
}

/// A property an entity type declares: its name in scripts, its title for people, its type and getter.
public struct EntityProperty<E: AppEntity>: Sendable {
    public let name: String
    public let title: String
    public let type: ValueType
    let get: @Sendable (E) -> Value

    public init<T: IntentValue>(_ name: String, _ keyPath: KeyPath<E, T> & Sendable, title: String? = nil) {
        self.name = name
        self.title = title ?? name
        self.type = T.valueType
        self.get = { $0[keyPath: keyPath].autoValue }
    }

    /// An optional property reads as `nil` when absent (a book not read yet has no read date).
    public init<T: IntentValue>(_ name: String, _ keyPath: KeyPath<E, T?> & Sendable, title: String? = nil) {
        self.name = name
        self.title = title ?? name
        self.type = T.valueType
        self.get = { $0[keyPath: keyPath]?.autoValue ?? .null }
    }
}

/// What the engine knows of an entity type without knowing its Swift type. Compared by identity: each
/// Swift entity type has exactly one, its `static let entityType`.
open class AnyEntityType: @unchecked Sendable, Hashable, CustomStringConvertible {
    public struct Property: Sendable {
        public let name: String
        public let title: String
        public let type: ValueType
        public let get: @Sendable (any Sendable) -> Value
    }

    /// Lower-case names as scripts write them: `book`, `books`.
    public let singular: String
    public let plural: String
    public let properties: [Property]
    /// Name → index into `properties`, for the checker; run time uses the index it resolved.
    public let propertyIndex: [String: Int]

    init(singular: String, plural: String, properties: [Property]) {
        self.singular = singular.lowercased()
        self.plural = plural.lowercased()
        self.properties = properties
        var index: [String: Int] = [:]
        for (i, property) in properties.enumerated() where index[property.name.lowercased()] == nil {
            index[property.name.lowercased()] = i
        }
        self.propertyIndex = index
    }

    /// The type's name in type annotations and messages: `Book`.
    public var typeName: String { singular.split(separator: " ").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined() }
    public var description: String { typeName }

    open func identifier(of payload: any Sendable) -> String { "" }
    open func display(of payload: any Sendable) -> DisplayRepresentation { .init(title: "") }

    public static func == (a: AnyEntityType, b: AnyEntityType) -> Bool { a === b }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// The description of one Swift entity type `E`.
public final class EntityType<E: AppEntity>: AnyEntityType, @unchecked Sendable {
    public init(singular: String, plural: String? = nil, properties: [EntityProperty<E>]) {
        super.init(
            singular: singular,
            plural: plural ?? singular + "s",
            properties: properties.map { property in
                let get = property.get
                return Property(name: property.name, title: property.title, type: property.type) { payload in
                    // The payload of an EntityValue of this type is always an E: EntityValue is built only by
                    // `autoValue`, which pairs E with E.entityType.
                    guard let entity = payload as? E else { return .null }
                    return get(entity)
                }
            })
    }

    override public func identifier(of payload: any Sendable) -> String {
        (payload as? E).map { String(describing: $0.id) } ?? ""
    }

    override public func display(of payload: any Sendable) -> DisplayRepresentation {
        (payload as? E)?.displayRepresentation ?? .init(title: "")
    }
}
