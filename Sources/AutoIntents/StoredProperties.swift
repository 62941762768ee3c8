@_spi(Reflection) import Swift

/// The stored properties of a struct, with their offsets, in declaration order: how registration finds an intent's
/// `@Parameter` and `@Dependency` properties and an entity's properties without a list written by hand. Read once,
/// at registration; nothing on the path of a call looks a property up.
///
/// This is the engine's one seam onto Swift's private reflection: the standard library's `_forEachField` (the SPI
/// behind `Mirror`, which lists each stored property's name, offset and type) and the struct metadata's layout (its
/// type descriptor, to tell a generic struct's specialisations apart without a cast). Everything else writes and
/// reads through the offsets given here. Swift 6.3, the toolchain tested, keeps both as this reads them; one that
/// doesn't is caught before any offset is used: the first read checks a probe struct against Swift's layout of a
/// struct (`toolchainProblem`), and a mismatch refuses every registration with an error rather than writes in the
/// wrong place. `StoredPropertiesTests` pins each assumption against the compiler's own offsets.
///
/// Measured against the alternatives (issue 30): a macro on swift-syntax adds swift-syntax to the clean build of
/// every host, and key paths listed by hand are a list a host can get wrong; PERFORMANCE.md has the figures.
enum StoredProperties {
    struct Field {
        /// As declared; a property wrapper's storage is the property's name after an underscore.
        let name: String
        let offset: Int
        let type: Any.Type

        /// The name a script uses: `title` for the storage `_title` of `@Parameter var title`.
        var propertyName: String { name.hasPrefix("_") ? String(name.dropFirst()) : name }

        /// Whether the field is of the generic struct that `example` is a specialisation of (`Parameter<Int>.self`
        /// stands for every `Parameter<…>`).
        ///
        /// Compared by the struct's type descriptor, which every specialisation shares, and not with a cast to a
        /// protocol: the first cast of each type to a protocol scans every conformance record of the binary
        /// (4,264 with the web client linked), so casting each property type of each registered intent was a
        /// seventh of a start.
        func isSpecialisation(of example: Any.Type) -> Bool {
            guard let descriptor = StoredProperties.structDescriptor(of: type) else { return false }
            return descriptor == StoredProperties.structDescriptor(of: example)
        }
    }

    /// Why a type's stored properties can't be read: what follows the type's name in registration's error.
    struct Unreadable: Error {
        let reason: String
    }

    /// The stored properties of the struct `type`: what the engine reads and writes in place in a value of it.
    /// A class, an enum or a tuple is refused (a value of one isn't its fields), and so is every type when this
    /// toolchain's reflection doesn't read as the engine relies on.
    static func of(_ type: Any.Type) throws(Unreadable) -> [Field] {
        if let toolchainProblem { throw Unreadable(reason: "can't be read: " + toolchainProblem) }
        guard structDescriptor(of: type) != nil else {
            let kind = type is AnyObject.Type ? "a class" : "not a struct"
            throw Unreadable(reason: "is \(kind): the engine reads and fills the properties of structs only; declare it a struct")
        }
        guard let fields = fields(of: type) else { throw Unreadable(reason: "has stored properties Swift's reflection can't list") }
        return fields
    }

    /// `of(type)`, refused with a registration error that names `owner` (`intent 'Mark as read'`) and its Swift type.
    static func of(_ type: Any.Type, for owner: String) throws(RegistrationError) -> [Field] {
        do { return try of(type) } catch { throw RegistrationError("\(owner), \(String(reflecting: type)), \(error.reason)") }
    }

    /// The stored properties of the class `type`, their offsets within an instance: only for saying what a class
    /// declares that the engine can't fill (a `@Dependency`), never for writing into one.
    static func ofClass(_ type: AnyObject.Type) -> [Field] {
        guard toolchainProblem == nil else { return [] }
        // `.classType` by its value: the standard library declares the option a `static var`, which Swift 6 refuses.
        return fields(of: type, options: _EachFieldOptions(rawValue: 1)) ?? []
    }

    /// What `_forEachField` lists; nil when it refuses the type.
    private static func fields(of type: Any.Type, options: _EachFieldOptions = _EachFieldOptions(rawValue: 0)) -> [Field]? {
        var fields: [Field] = []
        // The options spelt out: the default, `[]`, is built by the standard library's unspecialised
        // `SetAlgebra.init(arrayLiteral:)`, whose first use looks up a conformance by scanning every record in the
        // binary (a twentieth of a start).
        let listed = _forEachField(of: type, options: options) { name, offset, fieldType, _ in
            fields.append(Field(name: String(cString: name), offset: offset, type: fieldType))
            return true
        }
        return listed ? fields : nil
    }

    /// The nominal type descriptor of a struct's metadata; nil for any other kind of type. Swift's struct metadata
    /// starts with its kind (0x200: a struct) and then a pointer to its descriptor (the ABI's `StructMetadata`).
    static func structDescriptor(of type: Any.Type) -> UnsafeRawPointer? {
        let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
        guard metadata.load(as: UInt.self) == 0x200 else { return nil }
        return metadata.load(fromByteOffset: MemoryLayout<UInt>.stride, as: UnsafeRawPointer.self)
    }

    /// Nil when this toolchain's reflection reads as the engine relies on; else what differs. Checked once, on the
    /// first read, in a few microseconds.
    static let toolchainProblem: String? = problem(in: fields(of: LayoutProbe.self), expected: LayoutProbe.expected(),
                                                   parameter: fields(of: Parameter<String>.self))

    /// What differs between the fields read of `LayoutProbe` and those expected of it (names, types and the offsets
    /// `MemoryLayout.offset(of:)` gives), and in `Parameter`'s layout, whose first word registration reads as its
    /// declaration (`AnyParameterDeclaration.ofParameter`).
    static func problem(in read: [Field]?, expected: [Field], parameter: [Field]?) -> String? {
        let prefix = "this Swift toolchain's reflection doesn't read structs as auto relies on (auto is tested on Swift 6.3): "
        guard let read else { return prefix + "it can't list a struct's stored properties" }
        let describe = { (fields: [Field]) in fields.map { "\($0.name) at \($0.offset): \($0.type)" }.joined(separator: ", ") }
        guard read.count == expected.count,
              zip(read, expected).allSatisfy({ $0.name == $1.name && $0.offset == $1.offset && $0.type == $1.type }) else {
            return prefix + "it reads [\(describe(read))] where [\(describe(expected))] was expected"
        }
        guard let probe = read.first(where: { $0.name == "_parameter" }),
              probe.isSpecialisation(of: Parameter<Int>.self), !probe.isSpecialisation(of: Dependency<String>.self) else {
            return prefix + "a @Parameter's storage isn't known by its struct's type descriptor"
        }
        guard let first = parameter?.first, first.name == "declaration", first.offset == 0 else {
            return prefix + "a @Parameter's declaration isn't its first word"
        }
        return nil
    }
}

/// A struct of the kinds of properties registration reads: a byte before a word (padding), the engine's two property
/// wrappers, a text, an optional and a generic struct.
struct LayoutProbe {
    var flag: Int8 = 0
    @Parameter var parameter: String
    var text: String = ""
    var count: Int? = nil
    @Dependency var dependency: Int
    var pair: Pair<Int8> = Pair(first: 0, second: 0)

    struct Pair<T> { var first: T; var second: T }

    /// Its fields as Swift lays out a struct: in declaration order, each at the first offset after the one before
    /// that is a multiple of its alignment. Computed from `MemoryLayout`'s sizes and alignments, not with key paths,
    /// whose first use in a process costs about 50 µs of every start; a test holds it equal to `compilersOffsets`.
    static func expected() -> [StoredProperties.Field] {
        var end = 0
        func field<T>(_ name: String, _ type: T.Type) -> StoredProperties.Field {
            let alignment = MemoryLayout<T>.alignment
            let offset = (end + alignment - 1) / alignment * alignment
            end = offset + MemoryLayout<T>.size
            return StoredProperties.Field(name: name, offset: offset, type: type)
        }
        return [field("flag", Int8.self), field("_parameter", Parameter<String>.self), field("text", String.self),
                field("count", Int?.self), field("_dependency", Dependency<Int>.self), field("pair", Pair<Int8>.self)]
    }

    /// The offsets the compiler gives, through key paths: for the tests (`_parameter` is visible only here).
    static func compilersOffsets() -> [Int?] {
        [\LayoutProbe.flag, \LayoutProbe._parameter, \LayoutProbe.text, \LayoutProbe.count, \LayoutProbe._dependency, \LayoutProbe.pair]
            .map { MemoryLayout<LayoutProbe>.offset(of: $0) }
    }
}
