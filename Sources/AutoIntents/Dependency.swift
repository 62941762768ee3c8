/// Something of the host's that intents use — a database, a client, a store — registered once by its type and
/// handed to every intent that declares it, as App Intents' `@Dependency`:
///
/// ```swift
/// try registry.register(dependency: database)          // before the intents that use it
/// struct AddBook: AppIntent {
///     @Dependency var database: LibraryDatabase
///     …
/// }
/// ```
/// Registering an intent whose dependency is not registered is an error that names the type, so a missing one is
/// never found while a script runs.
@propertyWrapper
public struct Dependency<T: Sendable>: Sendable {
    @usableFromInline var value: T?

    /// A dependency of type `T`, filled in when the intent is registered or opened.
    public init() {}

    /// The registered `T`.
    @inlinable
    public var wrappedValue: T {
        guard let value else {
            // Only reachable when a host calls `perform` itself on an intent it made: registration puts every
            // dependency into the intent the engine copies for each call, and opening an intent puts them into it.
            preconditionFailure("the dependency \(T.self) was read from an intent the engine did not prepare")
        }
        return value
    }
}

extension Dependencies {
    /// Fills every `@Dependency` property of `value` (a query, an options provider) from these dependencies, found
    /// from its stored properties; a missing one is an error that names its type and `owner`. A class may be one of
    /// these, but the engine doesn't write into it: one that declares a `@Dependency` is refused.
    @usableFromInline
    func fill<T>(_ value: inout T, in owner: String) throws(RegistrationError) {
        guard StoredProperties.structDescriptor(of: T.self) == nil else {
            return try fill(&value, fields: StoredProperties.of(T.self, for: owner), in: owner)
        }
        guard let type = T.self as? AnyObject.Type else { return }  // an enum: nothing stored to fill
        if let field = StoredProperties.ofClass(type).first(where: { $0.isSpecialisation(of: Dependency<Int>.self) }) {
            throw RegistrationError("\(owner), \(String(reflecting: T.self)), is a class whose @Dependency '\(field.propertyName)' "
                + "the engine can't fill: declare it a struct, or give the class what it needs when you make it")
        }
    }

    /// The same, given `T`'s stored properties.
    func fill<T>(_ value: inout T, fields: [StoredProperties.Field], in owner: String) throws(RegistrationError) {
        let fills = try self.fills(for: fields, in: owner)
        withUnsafeMutableBytes(of: &value) { raw in
            guard let base = raw.baseAddress else { return }
            for fill in fills { fill.set(base + fill.offset) }
        }
    }

    /// What sets each `@Dependency` property among `fields` (a type's stored properties), found once for a type whose
    /// values are filled many times (`IntentOpening`); a missing one is an error that names its type and `owner`.
    func fills(for fields: [StoredProperties.Field], in owner: String) throws(RegistrationError) -> [DependencyFill] {
        var fills: [DependencyFill] = []
        for field in fields where field.isSpecialisation(of: Dependency<Int>.self) {
            guard let filler = tables.fillers[ObjectIdentifier(field.type)] else {
                // `Dependency<Clock>`: the type inside is the one to name.
                let type = String(describing: field.type).dropFirst("Dependency<".count).dropLast()
                throw RegistrationError("\(owner) uses a dependency of type \(type) ('\(field.propertyName)'), "
                    + "which is not registered; register it first: registry.register(dependency: …)")
            }
            fills.append(DependencyFill(offset: field.offset, set: filler))
        }
        return fills
    }
}

/// Sets one `@Dependency` property: its offset in the value, and what sets the property there.
struct DependencyFill: Sendable {
    let offset: Int
    let set: @Sendable (UnsafeMutableRawPointer) -> Void
}

/// The host's dependencies, one of each type.
///
/// Both tables live in one immutable object, which `add` replaces: copying the struct (every engine and every run's
/// context holds one) is then one retain. Copying the two dictionaries went through their type's metadata, whose
/// first instantiation scans every conformance record of the binary for `ObjectIdentifier: Hashable`: a tenth of a
/// millisecond of every start, for a host with no dependency at all.
@usableFromInline
package struct Dependencies: Sendable {
    private var tables = DependencyTables.none

    @usableFromInline
    package init() {}

    package subscript<T>(_ type: T.Type) -> T? {
        tables.values[ObjectIdentifier(type)] as? T
    }

    mutating func add<T: Sendable>(_ value: T) throws(RegistrationError) {
        guard tables.values[ObjectIdentifier(T.self)] == nil else {
            throw RegistrationError("a dependency of type \(T.self) is already registered; there is one of each type")
        }
        var values = tables.values, fillers = tables.fillers
        values[ObjectIdentifier(T.self)] = value
        fillers[ObjectIdentifier(Dependency<T>.self)] = { field in
            field.assumingMemoryBound(to: Dependency<T>.self).pointee.value = value
        }
        tables = DependencyTables(values: values, fillers: fillers)
    }
}

/// What `Dependencies` holds, replaced whole when a dependency is added.
final class DependencyTables: Sendable {
    let values: [ObjectIdentifier: any Sendable]
    /// For each registered type `T`, keyed by `Dependency<T>`, what sets a `@Dependency` property of that type:
    /// registration matches a property's type here, with no dynamic cast.
    let fillers: [ObjectIdentifier: @Sendable (UnsafeMutableRawPointer) -> Void]

    init(values: [ObjectIdentifier: any Sendable], fillers: [ObjectIdentifier: @Sendable (UnsafeMutableRawPointer) -> Void]) {
        self.values = values
        self.fillers = fillers
    }

    static let none = DependencyTables(values: [:], fillers: [:])
}
