/// Everything a host offers: intents (native and shortcuts), entity types and enum types, queries, App Shortcuts
/// and the dependencies intents use. A host builds one at start-up, from `Registry.standard` (the built-ins), and
/// hands it to the engine; the checker reads it to resolve names, so nothing is looked up by name while a script runs.
///
/// ```swift
/// var registry = Registry.standard
/// try registry.register(dependency: database)       // before the intents that use it
/// try registry.register(OpenBook.self)              // with the entity and enum types it uses
/// try registry.register(query: BookQuery(database: database))
/// try registry.register(shortcuts: LibraryShortcuts.self, applicationName: "library")
/// ```
public struct Registry: Sendable {
    package private(set) var intents: [IntentDescriptor] = []
    /// The positions in `intents` of those whose name, or a former name, begins with a word, in the order registered:
    /// where the checker looks for what a call's words name. Scanning every intent for each prefix of the words, with
    /// a thousand intents, was most of completing `do task 4`.
    package private(set) var intentsByFirstWord: [String: [Int]] = [:]
    package private(set) var entityTypes: [AnyEntityType] = []
    package private(set) var enumTypes: [AnyEnumType] = []
    package private(set) var queries: [QueryDescriptor] = []
    /// The host's database, client or store, one of each type: filled into the `@Dependency` properties of the
    /// intents registered after them, and reachable through `IntentContext.dependency(_:)`.
    @usableFromInline
    package private(set) var dependencies = Dependencies()
    /// The App Shortcuts, in the order registered (`register(shortcuts:applicationName:)`), and their phrases ready to
    /// match: empty unless the host declares some, so a registry without them costs nothing more. A compiled script's
    /// registry has its shortcuts written with `phrases` here too, after the host's.
    package internal(set) var appShortcuts: [RegisteredShortcut] = []
    package internal(set) var phraseBook = PhraseBook()

    /// An empty registry, without even the built-in intents: a host usually starts from `Registry.standard`.
    public init() {}

    /// Registers a native intent, and the entity and enum types its parameters and result use. An error when its
    /// name is taken, its summary names no parameter, or a `@Dependency` it declares is not registered yet.
    @inlinable
    public mutating func register<I: AppIntent>(_ type: I.Type) throws(RegistrationError) {
        try add(IntentDescriptor(type, dependencies: dependencies))
    }

    /// Registers something intents use, by its type; a second of the same type is an error. Register dependencies
    /// before the intents that declare them with `@Dependency`.
    public mutating func register<T: Sendable>(dependency: T) throws(RegistrationError) {
        try dependencies.add(dependency)
    }

    /// Registers an entity type no intent uses (one that only a query or a property names registers itself); an
    /// error when it has a stored property of a type the engine can't show.
    public mutating func register<E: AppEntity>(entity type: E.Type) throws(RegistrationError) {
        try registerTypes(in: E.valueType)
    }

    /// Registers an enum type no intent uses, so that scripts can name it (`as Shelf`).
    public mutating func register<E: AppEnum>(enum type: E.Type) {
        try? registerTypes(in: E.valueType)
    }

    /// Adds an intent built elsewhere: a shortcut, a built-in. Names are unique, ignoring case.
    @usableFromInline
    package mutating func add(_ intent: IntentDescriptor) throws(RegistrationError) {
        if let existing = intents.first(where: { $0.name == intent.name }) {
            throw RegistrationError(Self.duplicate(intent, of: existing))
        }
        // A former title still resolves to its intent: it can't be another intent's name, now or before.
        if let existing = intents.first(where: { $0.formerNames.contains(intent.name) }) {
            throw RegistrationError("an intent named '\(intent.name)' can't be registered: '\(existing.name)' was formerly called so")
        }
        for former in intent.formerNames {
            if let existing = intents.first(where: { $0.name == former || $0.formerNames.contains(former) }) {
                throw RegistrationError("'\(intent.name)' can't have the former title '\(former)': '\(existing.name)' is "
                                        + (existing.name == former ? "called so" : "formerly called so too"))
            }
        }
        for parameter in intent.parameters { try registerTypes(in: parameter.type) }
        try registerTypes(in: intent.outputType)
        // A plain loop: `compactMap(\.first)` over the names made a key path at run time for each intent, and with the
        // `Set` was a twentieth of `auto -e 'show 1'`.
        let position = intents.count
        func index(_ words: [String]) {
            guard let first = words.first, intentsByFirstWord[first]?.last != position else { return }
            intentsByFirstWord[first, default: []].append(position)
        }
        index(intent.words)
        for former in intent.formerWords { index(former) }
        intents.append(intent)
    }

    /// Why `intent` can't be registered beside `existing`, which has its name: each named by its Swift type or the
    /// place it was declared at.
    static func duplicate(_ intent: IntentDescriptor, of existing: IntentDescriptor) -> String {
        switch (existing.declaredAs, intent.declaredAs) {
        case let (first?, second?) where first == second:
            return "an intent named '\(intent.name)' is already registered: \(first) is registered twice"
        case let (first?, second?):
            return "an intent named '\(intent.name)' is already registered: \(first) and \(second) are both titled '\(intent.title)'; give one another title"
        case let (first?, nil):
            return "an intent named '\(intent.name)' is already registered (\(first))"
        default:
            return "an intent named '\(intent.name)' is already registered"
        }
    }

    /// Registers the entity and enum types `type` names; an entity type with a problem is an error
    /// (`AnyEntityType.registrationProblem`).
    mutating func registerTypes(in type: ValueType) throws(RegistrationError) {
        switch type {
        case .entity(let entity):
            if !entityTypes.contains(entity) {
                if let problem = entity.registrationProblem { throw RegistrationError(problem) }
                entityTypes.append(entity)
                for property in entity.properties { try registerTypes(in: property.type) }
            }
        case .enumeration(let enumeration):
            if !enumTypes.contains(enumeration) { enumTypes.append(enumeration) }
        case .list(let element):
            try registerTypes(in: element)
        default:
            break
        }
    }

    @usableFromInline
    mutating func add(query: QueryDescriptor) throws(RegistrationError) {
        try registerTypes(in: .entity(query.entityType))
        queries.removeAll { $0.entityType === query.entityType }
        queries.append(query)
    }

    /// The query registered for an entity type, if any (a transient entity has none).
    package func query(for type: AnyEntityType) -> QueryDescriptor? {
        queries.first { $0.entityType === type }
    }

    /// The intent a name calls: its name, or one it had before.
    package func intent(named name: String) -> IntentDescriptor? {
        let wanted = name.lowercased()
        return intents.first { $0.name == wanted } ?? intents.first { $0.formerNames.contains(wanted) }
    }

    /// An entity type by its singular or plural name, or its type name (`book`, `books`, `Book`).
    package func entityType(named name: String) -> AnyEntityType? {
        let wanted = name.lowercased()
        return entityTypes.first { $0.singular == wanted || $0.plural == wanted || $0.typeName.lowercased() == wanted }
    }

    package func enumType(named name: String) -> AnyEnumType? {
        let wanted = name.lowercased()
        return enumTypes.first { $0.name == wanted || $0.typeName.lowercased() == wanted }
    }
}
