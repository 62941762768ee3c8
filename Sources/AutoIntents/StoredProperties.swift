@_spi(Reflection) import Swift

/// The stored properties of a type, with their offsets, in declaration order: how registration finds an intent's
/// `@Parameter` and `@Dependency` properties and an entity's properties without a list written by hand. Read once,
/// at registration; nothing on the path of a call looks a property up.
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

    static func of(_ type: Any.Type) -> [Field] {
        var fields: [Field] = []
        // The options spelt out: the default, `[]`, is built by the standard library's unspecialised
        // `SetAlgebra.init(arrayLiteral:)`, whose first use looks up a conformance by scanning every record in the
        // binary (a twentieth of a start).
        _ = _forEachField(of: type, options: _EachFieldOptions(rawValue: 0)) { name, offset, fieldType, _ in
            fields.append(Field(name: String(cString: name), offset: offset, type: fieldType))
            return true
        }
        return fields
    }

    /// The nominal type descriptor of a struct's metadata; nil for any other kind of type. Swift's struct metadata
    /// starts with its kind (0x200: a struct) and then a pointer to its descriptor (the ABI's `StructMetadata`).
    static func structDescriptor(of type: Any.Type) -> UnsafeRawPointer? {
        let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
        guard metadata.load(as: UInt.self) == 0x200 else { return nil }
        return metadata.load(fromByteOffset: MemoryLayout<UInt>.stride, as: UnsafeRawPointer.self)
    }
}
