/// What running an intent may do to the world. Destructive intents are confirmed before they run.
public enum SideEffect: String, Sendable {
    case none
    case changes
    case destructive
}

/// How an intent describes itself to people and to `auto intents`.
public struct IntentDescription: Sendable, ExpressibleByStringLiteral {
    public var text: String
    public var category: String?
    public var searchKeywords: [String]
    /// The name people give the result (`newBook`); the graph and the docs show it.
    public var resultName: String?

    public init(_ text: String, category: String? = nil, searchKeywords: [String] = [], resultName: String? = nil) {
        self.text = text
        self.category = category
        self.searchKeywords = searchKeywords
        self.resultName = resultName
    }
    public init(stringLiteral text: String) { self.init(text) }
}

/// A typed action a host offers: `open book`, `add book`. Its parameters are `@Parameter` properties,
/// listed once in `parameters` by key path (Swift has no reflection worth using on the hot path).
///
/// ```swift
/// struct OpenBook: AppIntent {
///     static let title = "Open book"
///     static let parameters: [IntentParameter<OpenBook>] = [.init(\.$book)]
///     static let parameterSummary: ParameterSummary? = "Open {book}"
///     @Parameter("book", question: "Which book?") var book: Book
///     func perform(_ context: IntentContext) async throws -> IntentResult<Book> {
///         .result(value: book, dialog: "Opening \(book.title)")
///     }
/// }
/// ```
public protocol AppIntent: Sendable {
    associatedtype Output: IntentValue = NoValue

    /// The title, capitalised as people read it. Scripts call the intent by its title in lower case.
    static var title: String { get }
    static var description: IntentDescription { get }
    /// Every parameter, in order. The first is the *input*: the one a pipe or an unlabeled argument fills.
    static var parameters: [IntentParameter<Self>] { get }
    /// A sentence with `{name}` for each parameter, e.g. "Open {book}". It labels the action in graphs.
    static var parameterSummary: ParameterSummary? { get }
    static var sideEffect: SideEffect { get }
    /// Hidden intents can still be called by scripts but are not listed.
    static var isDiscoverable: Bool { get }

    init()
    func perform(_ context: IntentContext) async throws -> IntentResult<Output>

    /// How the engine runs the intent without awaiting: `performNow` for an `ImmediateIntent`, nil for every
    /// other intent. Provided by the protocols; an intent doesn't implement it.
    static var immediatePerform: (@Sendable (Self, IntentContext) throws -> IntentResult<Output>)? { get }
}

extension AppIntent {
    public static var description: IntentDescription { "" }
    public static var parameters: [IntentParameter<Self>] { [] }
    public static var parameterSummary: ParameterSummary? { nil }
    public static var sideEffect: SideEffect { .none }
    public static var isDiscoverable: Bool { true }
    @inlinable
    public static var immediatePerform: (@Sendable (Self, IntentContext) throws -> IntentResult<Output>)? { nil }
}

/// An intent whose work never waits: it computes, or reads and writes the host's memory, and returns. It
/// implements `performNow` instead of `perform`, and the engine calls it without an `await`: a loop of such
/// calls runs like a loop of plain statements (a few hundred nanoseconds less per call).
///
/// What it gives up, because each of these waits for something:
/// - asking: it can't call `context.requestValue`, `choose` or `requestConfirmation`, and `needsValue` thrown
///   from `performNow` is reported as an error. Missing arguments are still asked for before it runs.
/// - opening an intent that awaits: `.result(opensIntent:)` may only open another `ImmediateIntent`.
/// - reporting progress. Its dialog, `.result(dialog:)`, is shown as usual.
/// A destructive immediate intent is still confirmed before it runs.
///
/// ```swift
/// struct AddNumbers: ImmediateIntent {
///     static let title = "Add numbers"
///     static let parameters: [IntentParameter<AddNumbers>] = [.init(\.$a), .init(\.$b)]
///     @Parameter("a") var a: Int
///     @Parameter("b") var b: Int
///     func performNow(_ context: IntentContext) throws -> IntentResult<Int> { .result(value: a + b) }
/// }
/// ```
public protocol ImmediateIntent: AppIntent {
    /// Restated without AppIntent's default, so that Swift infers it from `performNow`.
    associatedtype Output
    func performNow(_ context: IntentContext) throws -> IntentResult<Output>
}

extension ImmediateIntent {
    /// Where the engine has to await anyway (a host calling `perform` itself), `performNow` runs as is.
    @inlinable
    public func perform(_ context: IntentContext) async throws -> IntentResult<Output> {
        try performNow(context)
    }

    @inlinable
    public static var immediatePerform: (@Sendable (Self, IntentContext) throws -> IntentResult<Output>)? {
        { intent, context in try intent.performNow(context) }
    }
}

/// A parameter of an intent. Whether it is required follows Swift: `var book: Book` is required,
/// `var note: String?` is optional, and a default makes a parameter optional too.
@propertyWrapper
public struct Parameter<T: Sendable>: Sendable {
    /// What the host declared, shared by every copy: the engine copies an intent for each call, and one
    /// reference is cheaper to copy than a name, a title, a question and a default.
    @usableFromInline let declaration: ParameterDeclaration<T>
    @usableFromInline var value: T?

    public var name: String { declaration.name }
    /// Asked when the parameter is missing and someone can answer.
    public var question: String? { declaration.question }
    public var defaultValue: T? { declaration.defaultValue }
    /// For numbers: the allowed range, checked before `perform`.
    public var range: ClosedRange<Double>? { declaration.range }

    /// Inlinable, so that `perform` reads its parameters without generic code in between.
    @inlinable
    public var wrappedValue: T {
        get {
            if let value { return value }
            if let defaultValue = declaration.defaultValue { return defaultValue }
            // Only reachable when a host calls `perform` itself without setting a required parameter: the
            // engine asks for or rejects every missing required parameter before `perform`.
            preconditionFailure("parameter '\(name)' was read before it was set")
        }
        set { value = newValue }
    }

    public var projectedValue: Parameter<T> {
        get { self }
        set { self = newValue }
    }

    public init(_ name: String, title: String? = nil, question: String? = nil, default defaultValue: T? = nil,
                range: ClosedRange<Double>? = nil) where T: IntentValue {
        declaration = ParameterDeclaration(name: name, title: title, question: question, defaultValue: defaultValue, range: range)
    }

    public init<W: IntentValue>(_ name: String, title: String? = nil, question: String? = nil,
                                range: ClosedRange<Double>? = nil) where T == W? {
        declaration = ParameterDeclaration(name: name, title: title, question: question, defaultValue: .some(nil), range: range)
    }

    /// `recommendedBy` → "Recommended by".
    /// The title people read: the one given, or the name as a sentence (read once, at registration).
    public var title: String { declaration.title ?? Self.titleCase(name) }

    static func titleCase(_ name: String) -> String {
        var words: [String] = []
        var current = ""
        for character in name {
            if character.isUppercase, !current.isEmpty {
                words.append(current)
                current = ""
            }
            current.append(character)
        }
        words.append(current)
        let sentence = words.map { $0.lowercased() }.joined(separator: " ")
        return sentence.prefix(1).uppercased() + sentence.dropFirst()
    }
}

/// The part of a `@Parameter` the host declares, made once with the intent's prototype.
public final class ParameterDeclaration<T: Sendable>: Sendable {
    let name: String
    /// Kept as given; `Parameter.title` derives one from the name when it is nil.
    let title: String?
    let question: String?
    @usableFromInline let defaultValue: T?
    let range: ClosedRange<Double>?

    init(name: String, title: String?, question: String?, defaultValue: T?, range: ClosedRange<Double>?) {
        self.name = name
        self.title = title
        self.question = question
        self.defaultValue = defaultValue
        self.range = range
    }
}

/// One entry of `AppIntent.parameters`: the metadata of a `@Parameter`, read once, and a typed setter.
/// The initialisers are inlinable so that the setter is specialised in the host's module for the concrete
/// intent and value type: a generic one would look up type metadata on every call.
public struct IntentParameter<I: AppIntent>: Sendable {
    public let info: ParameterInfo
    @usableFromInline let assign: @Sendable (inout I, Value) -> Bool

    @inlinable
    public init<T: IntentValue>(_ keyPath: WritableKeyPath<I, Parameter<T>> & Sendable) {
        let parameter = I()[keyPath: keyPath]
        info = ParameterInfo(
            name: parameter.name, title: parameter.title, type: T.valueType,
            isRequired: parameter.defaultValue == nil,
            defaultValue: parameter.defaultValue?.autoValue,
            question: parameter.question, range: parameter.range)
        assign = { intent, value in
            guard let typed = T(autoValue: value) else { return false }
            intent[keyPath: keyPath].value = typed
            return true
        }
    }

    @inlinable
    public init<T: IntentValue>(_ keyPath: WritableKeyPath<I, Parameter<T?>> & Sendable) {
        let parameter = I()[keyPath: keyPath]
        info = ParameterInfo(
            name: parameter.name, title: parameter.title, type: T.valueType,
            isRequired: false, defaultValue: nil,
            question: parameter.question, range: parameter.range)
        assign = { intent, value in
            if value.isNull {
                intent[keyPath: keyPath].value = .some(nil)
                return true
            }
            guard let typed = T(autoValue: value) else { return false }
            intent[keyPath: keyPath].value = typed
            return true
        }
    }
}

/// What the engine knows of one parameter, for native intents and shortcuts alike. A class, because every
/// call reads it: one reference is cheaper to pass around than its texts, type and default.
public final class ParameterInfo: Sendable {
    public let name: String
    public let title: String
    public let type: ValueType
    public let isRequired: Bool
    public let defaultValue: Value?
    public let question: String?
    public let range: ClosedRange<Double>?

    public init(name: String, title: String? = nil, type: ValueType, isRequired: Bool, defaultValue: Value? = nil,
                question: String? = nil, range: ClosedRange<Double>? = nil) {
        self.name = name
        self.title = title ?? name
        self.type = type
        self.isRequired = isRequired
        self.defaultValue = defaultValue
        self.question = question
        self.range = range
    }
}

extension ParameterInfo {
    /// "between 1 and 5": the range as people read it, whole numbers for an Int parameter.
    public var rangeDescription: String? {
        guard let range else { return nil }
        func number(_ value: Double) -> String {
            type == .int && value == value.rounded() && abs(value) < 9e15 ? String(Int(value)) : "\(value)"
        }
        return "between \(number(range.lowerBound)) and \(number(range.upperBound))"
    }
}

/// "Open {book} on {shelf}": a sentence that names an intent's parameters in braces.
public struct ParameterSummary: Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    public enum Part: Sendable, Equatable {
        case text(String)
        case parameter(String)
    }
    public let parts: [Part]

    public init(stringLiteral template: String) {
        var parts: [Part] = []
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            if open > rest.startIndex { parts.append(.text(String(rest[..<open]))) }
            parts.append(.parameter(String(rest[rest.index(after: open)..<close])))
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { parts.append(.text(String(rest))) }
        self.parts = parts
    }

    public init(parts: [Part]) { self.parts = parts }

    /// The sentence with each parameter replaced by `fill(name)`, or "…" where that gives nil: the compiler fills
    /// in the script's text for graphs, the runtime the values an intent runs with.
    public func filled(_ fill: (String) -> String?) -> String {
        parts.map { part in
            switch part {
            case .text(let text): return text
            case .parameter(let name): return fill(name) ?? "…"
            }
        }.joined()
    }

    public var description: String {
        parts.map { part in
            switch part {
            case .text(let text): return text
            case .parameter(let name): return "{\(name)}"
            }
        }.joined()
    }
}

/// What `perform` returns: a value of the declared type (none for `NoValue`), a dialog for people, and optionally
/// an intent to run next. The value is not optional, so that a result can't break its declared type: an intent that
/// returns nothing declares `IntentResult<NoValue>` and returns `.result()` or `.result(dialog:)`.
public struct IntentResult<Output: IntentValue>: Sendable {
    public var value: Output
    /// The dialog and the next intent, nil when there are neither (see `IntentExtras`).
    @usableFromInline var extras: IntentExtras?

    public var dialog: Dialog? {
        get { extras?.dialog }
        set { extras = IntentExtras.make(dialog: newValue, next: next) }
    }
    public var next: NextIntent? {
        get { extras?.next }
        set { extras = IntentExtras.make(dialog: dialog, next: newValue) }
    }

    @inlinable
    init(value: Output, dialog: Dialog?, next: NextIntent?) {
        self.value = value
        self.extras = IntentExtras.make(dialog: dialog, next: next)
    }

    /// Inlinable, as is everything on the way of a call, so that the host's `perform` runs specialised code.
    @inlinable
    public static func result(value: Output, dialog: Dialog? = nil) -> IntentResult {
        IntentResult(value: value, dialog: dialog, next: nil)
    }

    /// Runs `intent` after this one. Its dialog (or its value, if it says nothing) is shown; the action's result stays
    /// `value`, of this intent's declared type, as in App Intents.
    @inlinable
    public static func result<Next: AppIntent>(value: Output, dialog: Dialog? = nil, opensIntent intent: Next) -> IntentResult {
        IntentResult(value: value, dialog: dialog, next: NextIntent(intent))
    }
}

extension IntentResult where Output == NoValue {
    /// A result with nothing to return: a dialog, or nothing at all.
    @inlinable
    public static func result(dialog: Dialog? = nil) -> IntentResult {
        IntentResult(value: NoValue(), dialog: dialog, next: nil)
    }

    @inlinable
    public static func result<Next: AppIntent>(dialog: Dialog? = nil, opensIntent intent: Next) -> IntentResult {
        IntentResult(value: NoValue(), dialog: dialog, next: NextIntent(intent))
    }
}

/// The rarer parts of a result, a dialog and an intent to open next, in one reference that is nil when there
/// are neither: a result is made and copied on every call, and a nil reference is free to copy where a
/// dialog's two texts and a next intent's title and closures are not.
public final class IntentExtras: Sendable {
    public let dialog: Dialog?
    public let next: NextIntent?

    @usableFromInline
    init(dialog: Dialog?, next: NextIntent?) {
        self.dialog = dialog
        self.next = next
    }

    @inlinable
    static func make(dialog: Dialog?, next: NextIntent?) -> IntentExtras? {
        dialog == nil && next == nil ? nil : IntentExtras(dialog: dialog, next: next)
    }
}

/// An intent, already filled in, that the engine runs after the current one.
public struct NextIntent: Sendable {
    public let title: String
    public let run: @Sendable (IntentContext) async throws -> IntentOutput
    /// For an `ImmediateIntent`: the same run without awaiting, so that an immediate intent can open it.
    public let runNow: (@Sendable (IntentContext) throws -> IntentOutput)?

    @inlinable
    init<I: AppIntent>(_ intent: I) {
        title = I.title
        run = { context in try await IntentDescriptor.perform(intent, context) }
        if let performNow = I.immediatePerform {
            runNow = { context in IntentDescriptor.output(try performNow(intent, context)) }
        } else {
            runNow = nil
        }
    }
}
