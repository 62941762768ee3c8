/// Scans of a whole array of entities for one comparison on a stored property, reading the property in place
/// through its byte offset (`MemoryLayout.offset(of:)`). Made once per query from the script's value and
/// specialised, in the host's module, for the entity and the property type: per entity, the scan is a load
/// and a comparison — no closure call, no copy of the entity, no retain of a text.
@usableFromInline package enum TypedScans {
    @usableFromInline package typealias Scan<E> = @Sendable (UnsafeBufferPointer<E>) -> [Int]

    /// The positions of the entities whose property at `offset` passes `test`.
    @inlinable @inline(__always)
    package static func positions<E, T>(_ buffer: UnsafeBufferPointer<E>, _ offset: Int, _ test: (T) -> Bool) -> [Int] {
        var result: [Int] = []
        guard let start = buffer.baseAddress else { return result }
        // The memory of a struct's stored property is bound to the property's type, so it can be read as one.
        var field = UnsafeRawPointer(start) + offset
        let stride = MemoryLayout<E>.stride
        for position in 0..<buffer.count {
            if test(field.assumingMemoryBound(to: T.self).pointee) { result.append(position) }
            field += stride
        }
        return result
    }

    /// A scan for `property <op> value` on a property of a comparable type; nil when the value's type differs.
    @inlinable
    package static func scan<E, T: IntentValue & Comparable>(_ offset: Int, _ op: ComparisonOperator, _ value: Value,
                                                             _ elementTest: (@Sendable (T) -> Bool)?) -> Scan<E>? {
        switch op {
        case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual:
            guard let x = T(autoValue: value) else { return nil }
            // One loop per operator, so that the comparison is inlined into it.
            switch op {
            case .equal: return { positions($0, offset) { (v: T) in v == x } }
            case .notEqual: return { positions($0, offset) { (v: T) in v != x } }
            case .less: return { positions($0, offset) { (v: T) in v < x } }
            case .lessOrEqual: return { positions($0, offset) { (v: T) in v <= x } }
            case .greater: return { positions($0, offset) { (v: T) in v > x } }
            default: return { positions($0, offset) { (v: T) in v >= x } }
            }
        default:
            guard let test = elementTest else { return nil }
            return { positions($0, offset, test) }
        }
    }

    /// A scan of a property that may be missing: a missing value equals nothing, differs from everything and
    /// is neither before nor after anything (as `TypedTests.whenPresent`).
    @inlinable
    package static func scanOptional<E, T>(_ offset: Int, _ op: ComparisonOperator, _ test: (@Sendable (T) -> Bool)?) -> Scan<E>? {
        guard let test else { return nil }
        let missing = op == .notEqual
        return { positions($0, offset) { (v: T?) in v.map(test) ?? missing } }
    }
}
