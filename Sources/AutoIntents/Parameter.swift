/// A parameter of an intent: a property the engine fills in before `perform`. Whether it is required follows Swift:
/// `var book: Book` is required, `var note: String?` is optional, and a default makes a parameter optional too.
/// Its name in scripts is the property's name unless one is given (`@Parameter("as") var type: …`).
///
/// ```swift
/// @Parameter(question: "What is the book's title?") var title: String
/// @Parameter var author: String?
/// @Parameter(default: .wantToRead) var shelf: Shelf
/// @Parameter(range: 1...5) var rating: Int
/// @Parameter(formerNames: ["writer"]) var author: String?   // renamed: scripts that say `writer:` still run
/// ```
@propertyWrapper
public struct Parameter<T: Sendable>: Sendable {
    /// What the host declared, shared by every copy: the engine copies an intent for each call, and one reference
    /// is cheaper to copy than a name, a title, a question and a default.
    @usableFromInline let declaration: ParameterDeclaration<T>
    @usableFromInline var value: T?

    /// The value the intent runs with: the argument, or the default.
    /// Inlinable, so that `perform` reads its parameters without generic code in between.
    @inlinable
    public var wrappedValue: T {
        get {
            if let value { return value }
            if let defaultValue = declaration.defaultValue { return defaultValue }
            // Only reachable when a host calls `perform` itself without setting a required parameter: the engine
            // asks for or rejects every missing required parameter before `perform`, and refuses to open an intent
            // whose required parameter the host didn't set (`NextIntent`).
            preconditionFailure("parameter '\(declaration.name ?? "?")' was read before it was set")
        }
        set { value = newValue }
    }

    /// The parameter itself, `$book`: what an App Shortcut's phrase names (`"Open \(\.$book)"`).
    public var projectedValue: Parameter<T> {
        get { self }
        set { self = newValue }
    }

    // The initialisers are inlinable: each makes the setter (and the restorer) the engine calls for this parameter,
    // specialised in the host's module for the parameter's type, as fast as a setter written by hand.

    /// A parameter: `name` in scripts (the property's name when nil), `title` for people, the `question` asked when
    /// it is missing, and a `default` that makes it optional. `formerNames` are the names it had in earlier versions
    /// of the host (every initialiser takes them): a script that still labels it so runs, with a warning that gives
    /// the new name.
    /// Disfavoured: an optional is an `IntentValue` too, and `@Parameter var note: String?` is the optional
    /// parameter's initialiser below, not a required parameter whose type is optional.
    @inlinable @_disfavoredOverload
    public init(_ name: String? = nil, title: String? = nil, question: String? = nil, default defaultValue: T? = nil,
                formerNames: [String] = []) where T: IntentValue {
        declaration = ParameterDeclaration(name: name, title: title, question: question, formerNames: formerNames, type: T.valueType,
                                           defaultValue: defaultValue, defaultAutoValue: defaultValue?.autoValue, range: nil,
                                           assign: Self.assigner(), restore: Self.restorer())
    }

    /// A number or another ordered value with the range it must be in, checked before `perform`.
    @inlinable
    public init(_ name: String? = nil, title: String? = nil, question: String? = nil, default defaultValue: T? = nil,
                range: ClosedRange<T>, formerNames: [String] = []) where T: IntentValue & Comparable {
        declaration = ParameterDeclaration(name: name, title: title, question: question, formerNames: formerNames, type: T.valueType,
                                           defaultValue: defaultValue, defaultAutoValue: defaultValue?.autoValue,
                                           range: ParameterRange(range.lowerBound.autoValue, range.upperBound.autoValue),
                                           assign: Self.assigner(), restore: Self.restorer())
    }

    /// A parameter whose usual values the host supplies (`@Parameter(optionsProvider: GenreOptions()) var genre: String`):
    /// completion offers them and a question for it is a choice among them.
    @inlinable
    public init<P: DynamicOptionsProvider>(_ name: String? = nil, title: String? = nil, question: String? = nil, default defaultValue: T? = nil,
                                           optionsProvider: P, formerNames: [String] = []) where T: IntentValue, P.Option == T {
        declaration = ParameterDeclaration(name: name, title: title, question: question, formerNames: formerNames, type: T.valueType,
                                           defaultValue: defaultValue, defaultAutoValue: defaultValue?.autoValue, range: nil,
                                           options: ParameterOptions.maker(optionsProvider), assign: Self.assigner(), restore: Self.restorer())
    }

    /// An optional parameter whose usual values the host supplies.
    @inlinable
    public init<W: IntentValue, P: DynamicOptionsProvider>(_ name: String? = nil, title: String? = nil, question: String? = nil,
                                                            optionsProvider: P, formerNames: [String] = []) where T == W?, P.Option == W {
        declaration = ParameterDeclaration(name: name, title: title, question: question, formerNames: formerNames, type: W.valueType,
                                           defaultValue: .some(nil), defaultAutoValue: nil, range: nil,
                                           options: ParameterOptions.maker(optionsProvider), assign: Self.optionalAssigner(), restore: Self.restorer())
    }

    /// An optional parameter: without a default, it is nil when not given.
    @inlinable
    public init<W: IntentValue>(_ name: String? = nil, title: String? = nil, question: String? = nil, default defaultValue: W? = nil,
                                formerNames: [String] = []) where T == W? {
        declaration = ParameterDeclaration(name: name, title: title, question: question, formerNames: formerNames, type: W.valueType,
                                           defaultValue: .some(defaultValue), defaultAutoValue: defaultValue?.autoValue, range: nil,
                                           assign: Self.optionalAssigner(), restore: Self.restorer())
    }

    /// An optional number or other ordered value, checked against `range` when it is given.
    @inlinable
    public init<W: IntentValue & Comparable>(_ name: String? = nil, title: String? = nil, question: String? = nil,
                                              range: ClosedRange<W>, formerNames: [String] = []) where T == W? {
        declaration = ParameterDeclaration(name: name, title: title, question: question, formerNames: formerNames, type: W.valueType,
                                           defaultValue: .some(nil), defaultAutoValue: nil,
                                           range: ParameterRange(range.lowerBound.autoValue, range.upperBound.autoValue),
                                           assign: Self.optionalAssigner(), restore: Self.restorer())
    }

    /// Sets the parameter stored at `field` (the intent's memory at the property's offset) from an engine value;
    /// false when the value is of another type.
    @inlinable
    static func assigner() -> @Sendable (UnsafeMutableRawPointer, Value) -> Bool where T: IntentValue {
        { field, value in
            guard let typed = T(autoValue: value) else { return false }
            field.assumingMemoryBound(to: Parameter<T>.self).pointee.value = typed
            return true
        }
    }

    /// Puts the parameter stored at `field` back to the value of the one at `original`.
    @inlinable
    static func restorer() -> @Sendable (UnsafeMutableRawPointer, UnsafeRawPointer) -> Void {
        { field, original in
            field.assumingMemoryBound(to: Parameter<T>.self).pointee.value = original.assumingMemoryBound(to: Parameter<T>.self).pointee.value
        }
    }

    @inlinable
    static func optionalAssigner<W: IntentValue>() -> @Sendable (UnsafeMutableRawPointer, Value) -> Bool where T == W? {
        { field, value in
            let parameter = field.assumingMemoryBound(to: Parameter<T>.self)
            if value.isNull {
                parameter.pointee.value = .some(nil)
                return true
            }
            guard let typed = W(autoValue: value) else { return false }
            parameter.pointee.value = typed
            return true
        }
    }
}

/// The part of a `@Parameter` the host declares, made once with the intent's prototype, without its type: what
/// registration reads from an intent's properties. A class and not a protocol, so that registration reaches it
/// through the property's storage with no dynamic cast (see `StoredProperties.Field.isSpecialisation(of:)`).
@usableFromInline
package class AnyParameterDeclaration: @unchecked Sendable {
    // Every stored property is a constant: the declaration is shared by every copy of the intent, on any thread.
    /// Nil: the property's name.
    @usableFromInline let name: String?
    /// Kept as given; a title is derived from the name when it is nil.
    let title: String?
    let question: String?
    let formerNames: [String]
    let type: ValueType
    let isRequired: Bool
    /// The default as the engine holds it; nil for none (an optional parameter's default is "not given").
    let defaultAutoValue: Value?
    let range: ParameterRange?
    let options: ParameterDeclarationOptions?
    package let assign: @Sendable (UnsafeMutableRawPointer, Value) -> Bool
    /// Puts the parameter at the first field (an intent's memory at the property's offset) back to its value in the
    /// second (the same property of the prototype intent): what a reused intent does after each call.
    package let restore: @Sendable (UnsafeMutableRawPointer, UnsafeRawPointer) -> Void
    /// Whether a value of it may hold a reference (a text, a list): a call site puts such a parameter back after each
    /// call, so as not to keep its value alive (`IntentDescriptor.valuesRestorer`); an Int it leaves to the next call.
    let holdsReferences: Bool

    @usableFromInline
    init(name: String?, title: String?, question: String?, formerNames: [String], type: ValueType, isRequired: Bool, defaultAutoValue: Value?,
         range: ParameterRange?, options: ParameterDeclarationOptions?, holdsReferences: Bool,
         assign: @escaping @Sendable (UnsafeMutableRawPointer, Value) -> Bool,
         restore: @escaping @Sendable (UnsafeMutableRawPointer, UnsafeRawPointer) -> Void) {
        self.holdsReferences = holdsReferences
        self.name = name
        self.title = title
        self.question = question
        self.formerNames = formerNames
        self.type = type
        self.isRequired = isRequired
        self.defaultAutoValue = defaultAutoValue
        self.range = range
        self.options = options
        self.assign = assign
        self.restore = restore
    }

    /// Whether the `@Parameter` stored at `field` (an intent's memory at the property's offset) is required and was
    /// not set: what the engine checks of an intent a host made and opened (`NextIntent`). Answered by
    /// `ParameterDeclaration`, the one kind there is, which knows the parameter's type.
    func isMissing(in field: UnsafeRawPointer) -> Bool { false }

    /// What the engine knows of the parameter; `dependencies` fill in its options provider's, for `intent`.
    package func info(propertyName: String, dependencies: Dependencies, intent: String) throws(RegistrationError) -> ParameterInfo {
        let name = self.name ?? propertyName
        return ParameterInfo(name: name, title: title ?? ParameterInfo.titleCase(name), type: type,
                             isRequired: isRequired, defaultValue: defaultAutoValue, question: question, range: range,
                             options: try options?(dependencies, "the options of '\(name)' of intent '\(intent)'"), formerNames: formerNames,
                             identifier: propertyName)
    }
}

/// A `@Parameter`'s declaration with its default as the intent reads it.
@usableFromInline
package final class ParameterDeclaration<T: Sendable>: AnyParameterDeclaration, @unchecked Sendable {
    @usableFromInline let defaultValue: T?

    @usableFromInline
    init(name: String?, title: String?, question: String?, formerNames: [String], type: ValueType, defaultValue: T?, defaultAutoValue: Value?,
         range: ParameterRange?, options: ParameterDeclarationOptions? = nil,
         assign: @escaping @Sendable (UnsafeMutableRawPointer, Value) -> Bool,
         restore: @escaping @Sendable (UnsafeMutableRawPointer, UnsafeRawPointer) -> Void) {
        self.defaultValue = defaultValue
        super.init(name: name, title: title, question: question, formerNames: formerNames, type: type, isRequired: defaultValue == nil,
                   defaultAutoValue: defaultAutoValue, range: range, options: options, holdsReferences: !_isPOD(T.self),
                   assign: assign, restore: restore)
    }

    override func isMissing(in field: UnsafeRawPointer) -> Bool {
        defaultValue == nil && field.assumingMemoryBound(to: Parameter<T>.self).pointee.value == nil
    }
}

extension AnyParameterDeclaration {
    /// The declaration of the `@Parameter` (of any type) stored at `offset` in `bytes`, an intent's memory.
    /// `declaration` is `Parameter`'s first stored property (a test holds it there), so the property's first word
    /// is the reference.
    static func ofParameter(in bytes: UnsafeRawBufferPointer, at offset: Int) -> AnyParameterDeclaration {
        bytes.load(fromByteOffset: offset, as: AnyParameterDeclaration.self)
    }
}

/// The values a parameter allows, both ends included.
@usableFromInline
package struct ParameterRange: Sendable {
    package let lowerBound: Value
    package let upperBound: Value
    @usableFromInline
    package init(_ lowerBound: Value, _ upperBound: Value) {
        self.lowerBound = lowerBound
        self.upperBound = upperBound
    }
}

/// What the engine knows of one parameter, for native intents and shortcuts alike. A class, because every call
/// reads it: one reference is cheaper to pass around than its texts, type and default.
@usableFromInline
package final class ParameterInfo: Sendable {
    @usableFromInline package let name: String
    package let title: String
    @usableFromInline package let type: ValueType
    package let isRequired: Bool
    package let defaultValue: Value?
    package let question: String?
    /// The names it had in earlier versions of its host: scripts that still use one work, with a warning.
    package let formerNames: [String]
    /// What stays when it is renamed: the Swift property's name (the schema's key for it, `HostSchema`).
    package let identifier: String
    package let range: ParameterRange?
    /// The values the host suggests for it, nil for none.
    package let options: ParameterOptions?
    /// The kind of value it takes as it is, with nothing to convert or check; nil when every value needs a look
    /// (a list, an entity, a range to check). See `Coercion.isReady`.
    package let takesAsIs: ScalarKind?

    package init(name: String, title: String? = nil, type: ValueType, isRequired: Bool, defaultValue: Value? = nil,
                question: String? = nil, range: ParameterRange? = nil, options: ParameterOptions? = nil, formerNames: [String] = [],
                identifier: String? = nil) {
        self.options = options
        self.formerNames = formerNames
        self.identifier = identifier ?? name
        self.name = name
        self.title = title ?? name
        self.type = type
        self.isRequired = isRequired
        self.defaultValue = defaultValue
        self.question = question
        self.range = range
        takesAsIs = range == nil ? ScalarKind(type) : nil
    }

    /// `recommendedBy` → "Recommended by": a name as people read it.
    package static func titleCase(_ name: String) -> String {
        // One string built character by character: splitting into words and joining them runs the standard
        // library's unspecialised generic code, whose first use scans every conformance record of the binary.
        var title = ""
        for character in name {
            if character.isUppercase, !title.isEmpty { title.append(" ") }
            title.append(contentsOf: title.isEmpty ? character.uppercased() : character.lowercased())
        }
        return title
    }
}
