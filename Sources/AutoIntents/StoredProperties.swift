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
    }

    static func of(_ type: Any.Type) -> [Field] {
        var fields: [Field] = []
        _ = _forEachField(of: type) { name, offset, fieldType, _ in
            fields.append(Field(name: String(cString: name), offset: offset, type: fieldType))
            return true
        }
        return fields
    }
}
