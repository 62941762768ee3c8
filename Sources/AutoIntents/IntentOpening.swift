import Synchronization

/// How the engine prepares a host-made intent of one type before running it (`NextIntent`): where its `@Dependency`
/// properties are and what fills them, and where its `@Parameter` properties are, to check that every required one
/// was set. Read from the type's stored properties on its first opening in a run (a few microseconds) and kept by the
/// run's `IntentContext`, so that an intent opened in a loop costs a look-up, not a reading of its layout.
struct IntentOpening: Sendable {
    let type: ObjectIdentifier
    let dependencies: [DependencyFill]
    /// The offsets of the `@Parameter` properties, with their property names.
    let parameters: [(offset: Int, propertyName: String)]

    init<I: AppIntent>(_ type: I.Type, dependencies registered: Dependencies) throws(IntentError) {
        // Its properties are written at their offsets in the value, which only a struct's are.
        let fields: [StoredProperties.Field]
        do {
            fields = try StoredProperties.of(I.self)
        } catch {
            throw Self.refusal(I.self, "\(String(reflecting: I.self)) \(error.reason)")
        }
        self.type = ObjectIdentifier(I.self)
        do {
            dependencies = try registered.fills(for: fields, in: "it")
        } catch {
            throw Self.refusal(I.self, error.message)
        }
        parameters = fields.filter { $0.isSpecialisation(of: Parameter<Int>.self) }.map { ($0.offset, $0.propertyName) }
    }

    /// `intent` with its dependencies filled in, once every required parameter is known to be set.
    func prepare<I: AppIntent>(_ intent: I) throws(IntentError) -> I {
        var prepared = intent
        let unset: String? = withUnsafeMutableBytes(of: &prepared) { bytes in
            guard let base = bytes.baseAddress else { return nil }
            for fill in dependencies { fill.set(base + fill.offset) }
            for (offset, propertyName) in parameters {
                let declaration = AnyParameterDeclaration.ofParameter(in: UnsafeRawBufferPointer(bytes), at: offset)
                if declaration.isMissing(in: base + offset) { return declaration.name ?? propertyName }
            }
            return nil
        }
        if let unset { throw Self.refusal(I.self, "its parameter '\(unset)' was not set") }
        return prepared
    }

    static func refusal<I: AppIntent>(_ type: I.Type, _ reason: String) -> IntentError {
        IntentError("can't open '\(IntentDescriptor.name(of: I.title))': \(reason)")
    }
}

extension IntentContext {
    /// How to prepare an opened intent of type `I`: the run's, read on its first opening.
    func opening<I: AppIntent>(of type: I.Type) throws(IntentError) -> IntentOpening {
        let id = ObjectIdentifier(type)
        if let known = openings.withLock({ $0.first { $0.type == id } }) { return known }
        let made = try IntentOpening(type, dependencies: dependencies)
        openings.withLock { $0.append(made) }
        return made
    }
}
