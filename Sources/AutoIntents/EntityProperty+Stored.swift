extension EntityProperty {
    /// The entity type's stored properties whose types the engine knows (an `IntentValue`, or an optional one),
    /// but `id`, which every entity has on its own, and those whose names start with `_`. Read once, at
    /// registration, from the type's layout; a value is read at the property's offset. `unshown` are the others,
    /// of types the engine can't show: registering the type is then an error (`Registry`), not a property gone.
    /// Throws when `E`'s properties can't be read (a class).
    static func stored() throws(StoredProperties.Unreadable) -> (properties: [EntityProperty<E>], unshown: [(name: String, type: String)]) {
        var properties: [EntityProperty<E>] = [], unshown: [(name: String, type: String)] = []
        for field in try StoredProperties.of(E.self) where field.name != "id" && !field.name.hasPrefix("_") {
            guard let reader = PropertyReader.make(for: field.type) else {
                unshown.append((field.name, String(describing: field.type)))
                continue
            }
            let offset = field.offset, read = reader.read
            properties.append(EntityProperty(name: field.name, type: reader.type) { entity in
                withUnsafeBytes(of: entity) { raw in raw.baseAddress.map { read($0 + offset) } ?? .null }
            })
        }
        return (properties, unshown)
    }
}

/// Reads a stored property of a type known only at run time as an engine value.
struct PropertyReader {
    let type: ValueType
    let read: @Sendable (UnsafeRawPointer) -> Value

    static func make(for type: Any.Type) -> PropertyReader? {
        // An optional is an `IntentValue` too (nil reads as `nil`).
        guard let value = type as? any IntentValue.Type else { return nil }
        return reader(value)
    }

    static func reader<T: IntentValue>(_ type: T.Type) -> PropertyReader {
        PropertyReader(type: T.valueType) { field in field.assumingMemoryBound(to: T.self).pointee.autoValue }
    }
}

