import Synchronization

/// What `perform` produced, in engine terms.
@usableFromInline
package struct IntentOutput: Sendable {
    @usableFromInline package var value: Value
    /// The dialog and the next intent, nil when there are neither.
    @usableFromInline package var extras: IntentExtras?

    package init(value: Value, dialog: Dialog? = nil, next: NextIntent? = nil) {
        self.value = value
        self.extras = IntentExtras.make(dialog: dialog, next: next)
    }

    @inlinable
    package init(value: Value, extras: IntentExtras?) {
        self.value = value
        self.extras = extras
    }

    package var dialog: Dialog? { extras?.dialog }
    package var next: NextIntent? { extras?.next }
}

/// A native intent's `perform` called along the array path (`IntentDescriptor.Implementation.native`): arguments by
/// parameter index, `nil` for one not given. It runs where its caller runs, as `AppIntent.perform` does.
@usableFromInline
package typealias NativePerform = nonisolated(nonsending) @Sendable ([Value?], IntentContext) async throws -> IntentOutput

/// One registered intent, native or a shortcut, with everything the checker, the runtime and
/// `auto intents` need. Built once at registration and never changed afterwards.
@usableFromInline
package final class IntentDescriptor: Sendable {
    @usableFromInline
    package enum Implementation: Sendable {
        /// Arguments arrive by parameter index; `nil` means not given.
        case native(NativePerform)
        /// An `ImmediateIntent`: the same, run without awaiting.
        case immediate(@Sendable ([Value?], IntentContext) throws -> IntentOutput)
        /// A shortcut: the index of its graph in the compiled program that calls it.
        case shortcut(Int)
    }

    /// The name scripts call it by: the title in lower case, e.g. `open book`.
    package let name: String
    /// Its name's words, each its own `String`: short ones are stored inline, and the checker's comparison of a call's
    /// words with them (for every intent sharing a first word) is a compare of two registers rather than of two slices.
    package let words: [String]
    package let title: String
    package let description: IntentDescription
    package let parameters: [ParameterInfo]
    package let summary: ParameterSummary
    package let sideEffect: SideEffect
    /// What it touches outside the engine; a run must be granted each of them.
    package var capabilities: Set<Capability> { capabilitiesOfIntent() }
    /// Read when asked: a native intent's `static let capabilities` is a `Set<Capability>`, and making the first one
    /// scans every conformance record of the binary for `Hashable`; a run asks only for the intents it calls.
    let capabilitiesOfIntent: @Sendable () -> Set<Capability>
    package let isDiscoverable: Bool
    /// The names it was called by in earlier versions of its host (its former titles in lower case), and their words:
    /// a call by one resolves to this intent, with a warning.
    package let formerNames: [String]
    package let formerWords: [[String]]
    /// Why it is deprecated and what replaces it; nil while it is current.
    package let deprecation: IntentDeprecation?
    /// Whether lists offer it (completion, `intents`, `:help`, MCP's tools): discoverable and not deprecated. Scripts
    /// may call it either way.
    package var isListed: Bool { isDiscoverable && deprecation == nil }
    /// The name scripts call its replacement by.
    package var replacementName: String? { deprecation?.replacement.map { Self.name(of: $0.title) } }
    package let outputType: ValueType
    /// How the checker types the result when it depends on the arguments (the built-ins `ask` and `choose`).
    package let resultRule: ResultRule

    @usableFromInline
    package enum ResultRule: Sendable, Equatable {
        /// Always `outputType`.
        case fixed
        /// The element type of the list given to this parameter (`choose … from books` is a Book).
        case elementOf(parameter: Int)
        /// The type named by this parameter (`ask "How many?" as Int` is an Int); the argument is a type name.
        case typeNamedBy(parameter: Int)
    }
    /// How it runs: known when a shortcut or a built-in is made, on first use for a native intent.
    let calls: Calls

    @usableFromInline
    enum Calls: Sendable {
        case made(Implementation, CallBinder?)
        case native(NativeCalls)
    }

    /// Read when a call is compiled; the call keeps it (`ActionCall.implementation`).
    package var implementation: Implementation {
        switch calls {
        case .made(let implementation, _): implementation
        case .native(let native): native.made.implementation
        }
    }

    /// For a native `ImmediateIntent`: makes a call site with its constant arguments set once (`BoundCall`).
    package var binder: CallBinder? {
        switch calls {
        case .made(_, let binder): binder
        case .native(let native): native.made.binder
        }
    }

    /// For a native intent that awaits: makes a call site with its constant arguments set once (`AwaitingBoundCall`).
    package var awaitingBinder: AwaitingCallBinder? {
        switch calls {
        case .made: nil
        case .native(let native): native.made.awaitingBinder
        }
    }
    /// Where a shortcut was declared (`stdlib/text.auto:3`); nil for native intents.
    package let origin: String?
    /// The Swift type of a native intent, for messages about it.
    let type: (any AppIntent.Type)?
    /// The identifier of an intent made without a Swift type that keeps one of its own: a built-in keeps its
    /// struct's (`ShowIntent`). Nil for the others (`identifier`).
    let madeIdentifier: String?
    /// The Swift type of a native intent, module first (`LibraryHost.OpenBook`), made when a message needs it
    /// (`IntentBundle.Entry.swiftType` says why not before).
    package var swiftType: String? { type.map { String(reflecting: $0) } }

    /// How a message names where the intent comes from: its Swift type, or the place its shortcut was declared at.
    package var declaredAs: String? { swiftType ?? origin.map { "the shortcut at \($0)" } }

    /// `Add  Book ` → "add book": lower case, words one space apart.
    package static func name(of title: String) -> String {
        asciiName(of: title) ?? unicodeName(of: title)
    }

    /// `name(of:)` of a title in ASCII, as nearly all are, from its bytes: lower-casing the text and reading each
    /// character's Unicode properties took most of the names a start makes (the standard library's, checked against
    /// the host's). Nil for a title with any other byte. ASCII's whitespace is Unicode's: tab to carriage return, space.
    static func asciiName(of title: String) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(title.utf8.count)
        var spaceBefore = false
        for byte in title.utf8 {
            guard byte < 0x80 else { return nil }
            if byte == 0x20 || (0x09...0x0D).contains(byte) {
                spaceBefore = !bytes.isEmpty
                continue
            }
            if spaceBefore { bytes.append(0x20) }
            spaceBefore = false
            bytes.append(byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `name(of:)` of any title, character by character: splitting and joining runs the standard library's
    /// unspecialised generic code, whose first use scans every conformance record of the binary, on every start.
    static func unicodeName(of title: String) -> String {
        var name = ""
        var spaceBefore = false
        for character in title.lowercased() {
            if character.isWhitespace {
                spaceBefore = !name.isEmpty
                continue
            }
            if spaceBefore { name.append(" ") }
            spaceBefore = false
            name.append(character)
        }
        return name
    }

    package convenience init(title: String, description: IntentDescription = "", parameters: [ParameterInfo],
                summary: ParameterSummary? = nil, sideEffect: SideEffect = .none, capabilities: Set<Capability> = [],
                isDiscoverable: Bool = true, outputType: ValueType, resultRule: ResultRule = .fixed, identifier: String? = nil,
                implementation: Implementation, origin: String? = nil, formerTitles: [String] = []) {
        self.init(title: title, description: description, parameters: parameters, summary: summary, sideEffect: sideEffect,
                  capabilities: { capabilities }, isDiscoverable: isDiscoverable, outputType: outputType, resultRule: resultRule,
                  calls: .made(implementation, nil), origin: origin, madeIdentifier: identifier, formerTitles: formerTitles)
    }

    @usableFromInline
    init(title: String, description: IntentDescription, parameters: [ParameterInfo], summary: ParameterSummary?, sideEffect: SideEffect,
         capabilities: @escaping @Sendable () -> Set<Capability>, isDiscoverable: Bool, outputType: ValueType, resultRule: ResultRule,
         calls: Calls, origin: String?, type: (any AppIntent.Type)? = nil, madeIdentifier: String? = nil, formerTitles: [String] = [],
         deprecation: IntentDeprecation? = nil) {
        self.type = type
        self.madeIdentifier = madeIdentifier
        formerNames = formerTitles.map(Self.name(of:))
        formerWords = formerNames.map { $0.split(separator: " ").map(String.init) }
        self.deprecation = deprecation
        self.resultRule = resultRule
        self.title = title
        self.name = Self.name(of: title)
        self.words = name.split(separator: " ").map(String.init)
        self.description = description
        self.parameters = parameters
        self.summary = summary ?? Self.defaultSummary(title: title, parameters: parameters)
        self.sideEffect = sideEffect
        capabilitiesOfIntent = capabilities
        self.isDiscoverable = isDiscoverable
        self.outputType = outputType
        self.calls = calls
        self.origin = origin
    }

    package var input: ParameterInfo? { parameters.first }

    /// The same intent with its result type known: a shortcut's, once its body is checked. A new descriptor,
    /// since a registered one never changes.
    package func withOutputType(_ type: ValueType) -> IntentDescriptor {
        IntentDescriptor(title: title, description: description, parameters: parameters, summary: summary, sideEffect: sideEffect,
                         capabilities: capabilitiesOfIntent, isDiscoverable: isDiscoverable, outputType: type, resultRule: resultRule, calls: calls,
                         origin: origin, type: self.type, madeIdentifier: madeIdentifier, formerTitles: formerNames, deprecation: deprecation)
    }

    /// The parameter a label names: by its name, or by a name it had before (`ParameterInfo.formerNames`).
    package func parameterIndex(named label: String) -> Int? {
        let wanted = label.lowercased()
        if let index = parameters.firstIndex(where: { $0.name.lowercased() == wanted }) { return index }
        return parameters.firstIndex { $0.formerNames.contains { $0.lowercased() == wanted } }
    }

    /// "Rate {book} with {rating}" when a host gave no summary: the title, the input, then the others.
    static func defaultSummary(title: String, parameters: [ParameterInfo]) -> ParameterSummary {
        var parts: [SummarySentence.Part] = [.text(title)]
        for (index, parameter) in parameters.enumerated() {
            parts.append(.text(index == 0 ? " " : " \(parameter.name): "))
            parts.append(.parameter(parameter.name))
        }
        return ParameterSummary(parts: parts)
    }

    /// Builds the descriptor of a native intent type, checking its metadata. Inlinable, so that the code
    /// that runs on every call is specialised for `I` in the host's module.
    @inlinable
    package convenience init<I: AppIntent>(_ type: I.Type, resultRule: ResultRule = .fixed,
                                          dependencies: Dependencies = Dependencies()) throws(RegistrationError) {
        // Each call fills in a copy of one prototype intent: copies of a class would all be the prototype.
        guard !(I.self is AnyObject.Type) else {
            throw RegistrationError("intent '\(I.title)' is a class; intents are structs, so that every call has its own parameters")
        }
        // Every call starts from a copy of one intent made here, its dependencies filled in: `I()` would run every
        // @Parameter's initialiser (names, questions, defaults) again on each call.
        var prototype = I()
        let parameters = try Self.prepare(&prototype, dependencies: dependencies)
        let infos = parameters.map(\.info)
        let summary = I.Summary.parameterSummary(I.parameterSummary)
        try Self.check(title: I.title, parameters: infos, summary: summary)
        self.init(
            title: I.title, description: I.Description.intentDescription(I.description), parameters: infos, summary: summary,
            sideEffect: I.sideEffect, capabilities: { I.capabilities }, isDiscoverable: I.isDiscoverable, outputType: I.Output.valueType, resultRule: resultRule,
            calls: .native(NativeCalls { [prototype] in NativeCalls.Made(Self.native(prototype, parameters), Self.binder(prototype, parameters),
                                                                            Self.awaitingBinder(prototype, parameters)) }),
            origin: nil, type: I.self, formerTitles: I.formerTitles,
            deprecation: I.deprecation)
    }

    /// How a call sets one parameter: the `@Parameter`'s setter, at the property's offset in the intent, and how it
    /// is put back to the prototype's value.
    @usableFromInline
    struct ParameterSetter: Sendable {
        @usableFromInline let info: ParameterInfo
        @usableFromInline let offset: Int
        @usableFromInline let assign: @Sendable (UnsafeMutableRawPointer, Value) -> Bool
        @usableFromInline let restore: @Sendable (UnsafeMutableRawPointer, UnsafeRawPointer) -> Void
        @usableFromInline let holdsReferences: Bool
    }

    /// Fills the prototype's `@Dependency` properties and finds its `@Parameter` ones, in declaration order, from the
    /// type's stored properties, read once (each read resolves every field's type by its mangled name), at
    /// registration.
    @usableFromInline
    static func prepare<I: AppIntent>(_ prototype: inout I, dependencies: Dependencies) throws(RegistrationError) -> [ParameterSetter] {
        let fields = try StoredProperties.of(I.self, for: "intent '\(I.title)'")
        try dependencies.fill(&prototype, fields: fields, in: "intent '\(I.title)'")
        let declared = withUnsafeBytes(of: prototype) { bytes in
            fields.filter { $0.isSpecialisation(of: Parameter<Int>.self) }.map { field in
                (field, AnyParameterDeclaration.ofParameter(in: bytes, at: field.offset))
            }
        }
        var setters: [ParameterSetter] = []
        for (field, declaration) in declared {
            let info = try declaration.info(propertyName: field.propertyName, dependencies: dependencies, intent: I.title)
            setters.append(ParameterSetter(info: info, offset: field.offset, assign: declaration.assign, restore: declaration.restore,
                                           holdsReferences: declaration.holdsReferences))
        }
        return setters
    }

    /// Parameter names are unique, and the summary names only parameters.
    @usableFromInline
    static func check(title: String, parameters: [ParameterInfo], summary: ParameterSummary?) throws(RegistrationError) {
        // An array, not a set: an intent has a handful of parameters, and the first `Set<String>` made costs a scan
        // of every conformance record of the binary, on every start.
        var seen: [String] = []
        for parameter in parameters {
            let name = parameter.name.lowercased()
            guard !seen.contains(name) else {
                throw RegistrationError("intent '\(title)' declares parameter '\(parameter.name)' twice")
            }
            seen.append(name)
        }
        // A former name that is another parameter's name, or given twice, would leave a label meaning two things.
        var former: [String] = []
        for parameter in parameters {
            for name in parameter.formerNames.map({ $0.lowercased() }) {
                guard !seen.contains(name), !former.contains(name) else {
                    throw RegistrationError("intent '\(title)': '\(name)', a former name of parameter '\(parameter.name)', is already the name or former name of a parameter")
                }
                former.append(name)
            }
        }
        if let summary { try checkSummary(summary, title: title, parameters: parameters) }
    }

    /// Every branch of a summary names parameters the intent has, each once per sentence, compares each with a value
    /// of its type, and hides none that a call must give.
    @usableFromInline
    static func checkSummary(_ summary: ParameterSummary, title: String, parameters: [ParameterInfo]) throws(RegistrationError) {
        func parameter(_ name: String, _ role: String) throws(RegistrationError) -> ParameterInfo {
            let wanted = name.lowercased()
            guard let found = parameters.first(where: { $0.name.lowercased() == wanted }) else {
                throw RegistrationError("the summary of '\(title)' \(role), which is not one of its parameters")
            }
            return found
        }
        func fits(_ type: ValueType?, _ parameter: ParameterInfo, _ what: String) throws(RegistrationError) {
            guard let type, !type.isAssignable(to: parameter.type) else { return }
            throw RegistrationError("the summary of '\(title)' compares '\(parameter.name)' (\(parameter.type)) with \(what) of type \(type)")
        }
        switch summary.shape {
        case .sentence(let sentence):
            var shown: [String] = []
            for name in sentence.named {
                _ = try parameter(name, "names '{\(name)}'")
                if !shown.contains(name.lowercased()) { shown.append(name.lowercased()) }
            }
            // Each name once in a sentence, whether in braces, below it or hidden.
            func mention(_ name: String, _ role: String) throws(RegistrationError) -> ParameterInfo {
                let found = try parameter(name, "\(role) '\(name)' below its sentence")
                guard !shown.contains(name.lowercased()) else {
                    throw RegistrationError("the summary of '\(title)' names '\(name)' twice in one sentence (in braces, as secondary or as hidden)")
                }
                shown.append(name.lowercased())
                return found
            }
            for name in sentence.secondary { _ = try mention(name, "shows") }
            for name in sentence.hidden {
                let found = try mention(name, "hides")
                if found.isRequired, found.defaultValue == nil {
                    throw RegistrationError("the summary of '\(title)' hides '\(name)', which a call must give: give it a default or make it optional")
                }
            }
        case .when(let name, let condition, let then, let otherwise):
            try fits(condition.valueType, try parameter(name, "tests '\(name)'"), "a value")
            try checkSummary(then, title: title, parameters: parameters)
            try checkSummary(otherwise, title: title, parameters: parameters)
        case .choice(let name, let cases, let otherwise):
            let tested = try parameter(name, "switches on '\(name)'")
            guard !cases.isEmpty else { throw RegistrationError("the summary of '\(title)' switches on '\(name)' with no case") }
            var values: [String] = []
            for option in cases {
                try fits(option.valueType, tested, "a case")
                let written = ParameterCondition.written(option.value)
                guard !values.contains(written) else {
                    throw RegistrationError("the summary of '\(title)' has the case \(written) of '\(name)' twice")
                }
                values.append(written)
                try checkSummary(option.summary, title: title, parameters: parameters)
            }
            try checkSummary(otherwise, title: title, parameters: parameters)
        }
    }

    /// A call: the prototype intent, its parameters set by index, then `perform` (or `performNow`). An immediate call
    /// fills in the intent kept for reuse when it is free (`ReusableIntent`), else a copy of the prototype; an
    /// awaiting call fills in a copy, which it would make anyway to keep across its suspensions.
    @inlinable
    static func native<I: AppIntent>(_ prototype: I, _ parameters: [ParameterSetter]) -> Implementation {
        let fill = filler(parameters)
        if let performNow: ImmediatePerform = I.immediatePerform {
            let reusable = ReusableIntent(prototype), restore = restorer(parameters)
            return .immediate { arguments, context in
                guard reusable.take() else {
                    // Taken: a call of this intent in another run at this moment, or from inside its own perform.
                    let intent = try filledCopy(of: reusable.prototype.pointee, fill, arguments)
                    return try withUnsafePointer(to: intent) { try performNow($0, context) }
                }
                defer {
                    restore(reusable.intent, reusable.prototype, arguments)
                    reusable.giveBack()
                }
                try fill(reusable.intent, arguments)
                return try performNow(reusable.intent, context)
            }
        }
        return .native { arguments, context in
            try await perform(try filledCopy(of: prototype, fill, arguments), context)
        }
    }

    /// A copy of the prototype with the given arguments set.
    @inlinable
    static func filledCopy<I: AppIntent>(of prototype: I, _ fill: (UnsafeMutableRawPointer, [Value?]) throws -> Void,
                                         _ arguments: [Value?]) throws -> I {
        var intent = prototype
        try withUnsafeMutablePointer(to: &intent) { try fill($0, arguments) }
        return intent
    }

    /// Sets every given argument on an intent (its memory). Built as a chain of closures, one per parameter, each
    /// holding its parameter's setter and the rest of the chain: calling a closure held by the calling closure
    /// borrows it, where calling one taken from an array retains and releases it, on every argument.
    @inlinable
    static func filler(_ parameters: [ParameterSetter]) -> @Sendable (UnsafeMutableRawPointer, [Value?]) throws -> Void {
        var fill: @Sendable (UnsafeMutableRawPointer, [Value?]) throws -> Void = { _, _ in }
        for index in parameters.indices.reversed() {
            let assign = parameters[index].assign, offset = parameters[index].offset, info = parameters[index].info, rest = fill
            fill = { intent, arguments in
                if let argument = arguments[index], !assign(intent + offset, argument) {
                    throw IntentError("'\(info.name)' expects \(info.type), got \(argument.type)")
                }
                try rest(intent, arguments)
            }
        }
        return fill
    }

    /// Puts every parameter that was given an argument back to the prototype's value, a chain as `filler`'s: the
    /// reused intent holds no argument between calls (a big list would stay alive) and never shows one to a call
    /// that didn't give it.
    @inlinable
    static func restorer(_ parameters: [ParameterSetter]) -> @Sendable (UnsafeMutableRawPointer, UnsafeRawPointer, [Value?]) -> Void {
        var restore: @Sendable (UnsafeMutableRawPointer, UnsafeRawPointer, [Value?]) -> Void = { _, _, _ in }
        for index in parameters.indices.reversed() {
            let put = parameters[index].restore, offset = parameters[index].offset, rest = restore
            restore = { intent, prototype, arguments in
                if arguments[index] != nil { put(intent + offset, prototype + offset) }
                rest(intent, prototype, arguments)
            }
        }
        return restore
    }

    @inlinable
    nonisolated(nonsending) static func perform<I: AppIntent>(_ intent: I, _ context: IntentContext) async throws -> IntentOutput {
        try output(try await intent.perform(context))
    }

    /// The result in engine terms; a value the engine can't hold (a Double that is NaN) is an error, which the run
    /// reports with the intent's name, rather than a `nil` nobody asked for.
    @inlinable
    package static func output<Output>(_ result: IntentResult<Output>) throws(IntentError) -> IntentOutput {
        IntentOutput(value: try result.value.checkedAutoValue(), extras: result.extras)
    }
}

/// A native intent's implementation and call-site binder, made the first time they are asked for, when a script calling
/// the intent is compiled: whether the intent is an `ImmediateIntent` is a cast (`AppIntent.immediatePerform`), and the
/// first cast of a type that isn't one scans every conformance record of the binary, which a start should pay only for
/// the intents its script calls (as for `IntentDescriptor.capabilities`): made at registration, they would cost every
/// start three scans, for the built-ins `ask`, `choose` and `confirm`. Shared by the descriptors of one intent
/// (`withOutputType`).
@usableFromInline
final class NativeCalls: Sendable {
    @usableFromInline
    final class Made: Sendable {
        let implementation: IntentDescriptor.Implementation
        let binder: CallBinder?
        let awaitingBinder: AwaitingCallBinder?

        @usableFromInline
        init(_ implementation: IntentDescriptor.Implementation, _ binder: CallBinder?, _ awaitingBinder: AwaitingCallBinder?) {
            self.implementation = implementation
            self.binder = binder
            self.awaitingBinder = awaitingBinder
        }
    }

    private let make: @Sendable () -> Made
    private let cache = AtomicLazyReference<Made>()

    @usableFromInline
    init(_ make: @escaping @Sendable () -> Made) {
        self.make = make
    }

    /// One atomic load once made; two runs making them at once keep the first.
    var made: Made {
        if let made = cache.load() { return made }
        return cache.storeIfNil(make())
    }
}

/// The intent an immediate call fills in and performs, kept for reuse: a call that copied the prototype paid for a
/// copy and a destroy of every `@Parameter` (each retains its declaration), about a quarter of a call. One per
/// registered intent, shared by every run, so a call takes it (an atomic exchange) and gives it back; a call that
/// finds it taken copies the prototype. Between calls it equals the prototype (see `IntentDescriptor.restorer`).
/// It owns the prototype too, so that a parameter is put back from the same offset in it.
///
/// Generic over any type, not `AppIntent`s: the metadata of a generic class whose parameter has a protocol
/// requirement is checked against it when it is first made, a scan of every conformance record of the binary, on
/// every start, for each intent.
@usableFromInline
final class ReusableIntent<I>: @unchecked Sendable {
    @usableFromInline let intent: UnsafeMutablePointer<I>
    /// Never written after `init`.
    @usableFromInline let prototype: UnsafeMutablePointer<I>
    @usableFromInline let isTaken = Atomic<Bool>(false)

    @usableFromInline
    init(_ prototype: I) {
        intent = .allocate(capacity: 1)
        intent.initialize(to: prototype)
        self.prototype = .allocate(capacity: 1)
        self.prototype.initialize(to: prototype)
    }

    deinit {
        for memory in [intent, prototype] {
            memory.deinitialize(count: 1)
            memory.deallocate()
        }
    }

    /// Whether the caller now has it, to fill in, perform and give back.
    @inlinable
    func take() -> Bool { !isTaken.exchange(true, ordering: .acquiring) }

    @inlinable
    func giveBack() { isTaken.store(false, ordering: .releasing) }
}

/// A host declared something the engine cannot register: a duplicate name, a summary naming no parameter, a
/// dependency registered twice or missing. `Registry`'s `register` methods throw it; `AutoHost.main` reports it and
/// exits 2, so a mistake is found at start-up, before any script runs.
public struct RegistrationError: Error, Sendable, CustomStringConvertible {
    /// What is wrong, naming the intent, type or property.
    public let message: String
    /// An error with its message; a host's own checks at registration may throw it too.
    public init(_ message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}
