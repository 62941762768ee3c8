extension ValueType {
    /// Whether a parameter of this type takes one value: then a list given to it (piped or written) runs the
    /// action once per element. `Any` and lists take a list as it is.
    package var takesOneValue: Bool {
        switch self {
        case .any, .list: return false
        default: return true
        }
    }
}

extension ValueType {
    /// The types scripts name (`as Int`, `(n: Decimal)`), by name ignoring case, with the other names people
    /// reach for (`Integer`, `Number`, `String`, `Boolean`): the one table the checker and `ask` read.
    package static func builtin(named name: String) -> ValueType? {
        builtinNames[name.lowercased()]
    }

    static let builtinNames: [String: ValueType] = [
        "int": .int, "integer": .int, "decimal": .decimal, "number": .decimal, "text": .text, "string": .text,
        "bool": .bool, "boolean": .bool, "date": .date, "duration": .duration, "size": .size, "file": .file,
        "list": .list(.any), "record": .record, "any": .any,
    ]
}
