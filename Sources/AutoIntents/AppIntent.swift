/// What running an intent may do to the world, declared as `static let sideEffect = SideEffect.changes`.
/// Destructive intents are confirmed before they run, and `--what-if` stops before any that changes something.
public enum SideEffect: String, Sendable {
    /// Reads and computes only (the default): it runs freely, also under `--what-if`.
    case none
    /// Changes the host's state or the world, in a way that can be undone (adding a book, moving it).
    case changes
    /// Loses something for good (deleting a book): people confirm it before it runs.
    case destructive
}

/// How an intent describes itself to people and to `auto intents`.
///
/// ```swift
/// static let description = IntentDescription("Opens a book to read it.", category: "Books",
///                                            searchKeywords: ["read", "show"], resultName: "book")
/// ```
public struct IntentDescription: Sendable, ExpressibleByStringLiteral {
    /// What the intent does, in a sentence.
    public var text: String
    /// The group `auto intents` lists it under (`Books`); nil for none.
    public var category: String?
    /// Other words people search for it by (`read`, `show`).
    public var searchKeywords: [String]
    /// The name people give the result (`newBook`); the graph and the docs show it.
    public var resultName: String?

    /// A description with what the intent does and, optionally, its category, search keywords and result's name.
    public init(_ text: String, category: String? = nil, searchKeywords: [String] = [], resultName: String? = nil) {
        self.text = text
        self.category = category
        self.searchKeywords = searchKeywords
        self.resultName = resultName
    }
    /// A description that is the text alone: `static let description: IntentDescription = "Opens a book"`.
    public init(stringLiteral text: String) { self.init(text) }
}

/// What an intent's `description` may be declared as: an `IntentDescription`, or its text alone. So
/// `static let description = "Opens a book"`, written without a type (which makes it a `String`), is the description,
/// and not a property the protocol never reads.
public protocol IntentDescriptionConvertible: Sendable {
    /// The description `value` declares.
    static func intentDescription(_ value: Self) -> IntentDescription
}

extension IntentDescription: IntentDescriptionConvertible {
    /// The description itself.
    public static func intentDescription(_ value: IntentDescription) -> IntentDescription { value }
}

extension String: IntentDescriptionConvertible {
    /// A description whose text is the string.
    public static func intentDescription(_ value: String) -> IntentDescription { IntentDescription(value) }
}

/// What an intent's `parameterSummary` may be declared as: a `ParameterSummary`, optional or not, or the sentence
/// alone, so that `static let parameterSummary = "Open {book}"` without a type is the summary, not ignored.
public protocol ParameterSummaryConvertible: Sendable {
    /// The summary `value` declares.
    static func parameterSummary(_ value: Self) -> ParameterSummary?
}

extension ParameterSummary: ParameterSummaryConvertible {
    /// The summary itself.
    public static func parameterSummary(_ value: ParameterSummary) -> ParameterSummary? { value }
}

extension Optional: ParameterSummaryConvertible where Wrapped == ParameterSummary {
    /// The summary, or none: the engine then makes one from the title and the parameters.
    public static func parameterSummary(_ value: ParameterSummary?) -> ParameterSummary? { value }
}

extension String: ParameterSummaryConvertible {
    /// The summary the sentence spells, `{name}` for each parameter.
    public static func parameterSummary(_ value: String) -> ParameterSummary? { ParameterSummary(stringLiteral: value) }
}

/// A typed action a host offers: `open book`, `add book`. Its parameters are its `@Parameter` properties, in
/// the order they are declared (the first is the *input*: what a pipe or an unlabeled argument fills), and its
/// `@Dependency` properties reach the host's state. Both are found when the intent is registered.
///
/// ```swift
/// struct OpenBook: AppIntent {
///     static let title = "Open book"
///     static let parameterSummary: ParameterSummary? = "Open {book}"
///     @Parameter(question: "Which book?") var book: Book
///     func perform(_ context: IntentContext) async throws -> IntentResult<Book> {
///         .result(value: book, dialog: "Opening \(book.title)")
///     }
/// }
/// ```
public protocol AppIntent: Sendable {
    /// The type of value `perform` returns (`Book`, `[Book]`, `Int?`); `NoValue` for an intent that returns nothing.
    associatedtype Output: IntentValue = NoValue
    /// What `description` is declared as: an `IntentDescription` (the default), or a `String`.
    associatedtype Description: IntentDescriptionConvertible = IntentDescription
    /// What `parameterSummary` is declared as: a `ParameterSummary?` (the default), a `ParameterSummary`, or a `String`.
    associatedtype Summary: ParameterSummaryConvertible = ParameterSummary?

    /// The title, capitalised as people read it. Scripts call the intent by its title in lower case.
    static var title: String { get }
    /// What the intent does, for `intents describe`, completion and MCP: `"Opens a book"`, or an
    /// `IntentDescription` with a category, search keywords and the result's name.
    static var description: Description { get }
    /// A sentence with `{name}` for each parameter, e.g. "Open {book}". It labels the action in graphs.
    static var parameterSummary: Summary { get }
    /// What running it may change: `.none` (the default), `.changes` or `.destructive`, which is confirmed first.
    static var sideEffect: SideEffect { get }
    /// What it touches outside the engine (files, the network, programs, the environment). A run that isn't granted
    /// one of them refuses the intent: at compile time where the checker sees the call, and otherwise when the
    /// intent asks `IntentContext.authorize` before it acts.
    static var capabilities: Set<Capability> { get }
    /// Hidden intents can still be called by scripts but are not listed.
    static var isDiscoverable: Bool { get }
    /// The titles it had in earlier versions of the host: a script or an automation that still calls it by one
    /// compiles and runs, with a warning that gives the new title. `["Show shelf"]` after renaming it "Open shelf".
    static var formerTitles: [String] { get }
    /// Set when the intent is on its way out: it still runs, but calling it is a warning with `message` and its
    /// replacement, and it is left out of completion, `intents` and MCP's tool list (`intents --all` shows it).
    static var deprecation: IntentDeprecation? { get }

    /// Makes the intent with every parameter unset: the engine makes one when it registers the intent and fills
    /// in a copy of it for each call. A struct of `@Parameter` and `@Dependency` properties gets it from Swift.
    init()
    /// Does the intent's work with its parameters set and its dependencies filled in, and says what came of it.
    /// Throw `IntentError` for a failure people should read, `context.needsValue(_:reason:)` to have a parameter
    /// asked again.
    ///
    /// The requirement is `nonisolated(nonsending)`: an implementation that is too (the default in a module built with
    /// the `NonisolatedNonsendingByDefault` feature) runs on the run's own executor, with no hop to another one on the
    /// way in or out. A plain `nonisolated` `perform` in a module without that feature (`@concurrent`) satisfies it as
    /// well, and runs on the global concurrent executor as it always did. The run's executor is its caller's: for a
    /// script started through `AutoHost.main` from top-level code, the main actor. A `perform` that blocks its thread
    /// (a long computation, a blocking read) rather than awaiting belongs on the global executor: declare it
    /// `@concurrent`.
    nonisolated(nonsending) func perform(_ context: IntentContext) async throws -> IntentResult<Output>
}

extension AppIntent where Description == IntentDescription {
    /// No description unless the intent declares one.
    public static var description: IntentDescription { "" }
}

extension AppIntent where Summary == ParameterSummary? {
    /// No summary unless the intent declares one: the engine makes one from the title and the parameters.
    public static var parameterSummary: ParameterSummary? { nil }
}

extension AppIntent {
    /// No side effect unless the intent declares one.
    public static var sideEffect: SideEffect { .none }
    /// Nothing outside the engine unless the intent declares it.
    public static var capabilities: Set<Capability> { [] }
    /// Listed unless the intent says otherwise.
    public static var isDiscoverable: Bool { true }
    /// No former titles unless the intent declares them.
    public static var formerTitles: [String] { [] }
    /// Not deprecated unless the intent says so.
    public static var deprecation: IntentDeprecation? { nil }

    /// How the engine runs the intent without awaiting: `performNow` on the intent at the given address for an
    /// `ImmediateIntent`, nil for every other intent. Not a requirement of the protocol, which would show it to every
    /// host, but a cast, made when the intent is registered or opened. Where the intent's type is known the optimiser
    /// folds it: always for an immediate intent, and for another when its type is internal to a module built whole
    /// (release); else the first cast of a type scans the binary's conformance records. The address is the engine's
    /// reused intent, performed where it is rather than copied for the call.
    @inlinable
    package static var immediatePerform: ImmediatePerform? {
        (Self.self as? any ImmediateIntent.Type)?.performNowAtAddress
    }
}

/// `performNow` on the intent at an address, its result in engine terms: how the engine calls an `ImmediateIntent`.
@usableFromInline
package typealias ImmediatePerform = @Sendable (UnsafeRawPointer, IntentContext) throws -> IntentOutput

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
///     @Parameter var a: Int
///     @Parameter var b: Int
///     func performNow(_ context: IntentContext) throws -> IntentResult<Int> { .result(value: a + b) }
/// }
/// ```
public protocol ImmediateIntent: AppIntent {
    /// What `performNow` returns; restated without AppIntent's default, so that Swift infers it from `performNow`.
    associatedtype Output
    /// Does the intent's work without awaiting, as `perform` does for other intents.
    func performNow(_ context: IntentContext) throws -> IntentResult<Output>
}

extension ImmediateIntent {
    /// Where the engine has to await anyway (a host calling `perform` itself), `performNow` runs as is.
    @inlinable
    public nonisolated(nonsending) func perform(_ context: IntentContext) async throws -> IntentResult<Output> {
        try performNow(context)
    }

    /// `AppIntent.immediatePerform` for this type, which the engine reaches through a cast.
    @inlinable
    package static var performNowAtAddress: ImmediatePerform {
        { intent, context in
            try IntentDescriptor.output(try intent.assumingMemoryBound(to: Self.self).pointee.performNow(context))
        }
    }
}

/// What `perform` returns: a value of the declared type (none for `NoValue`), a dialog for people, and optionally
/// an intent to run next. The value is of the declared type, so that a result can't break it: an intent that returns
/// nothing declares `IntentResult<NoValue>` and returns `.result()` or `.result(dialog:)`, and one that returns a value
/// or nothing declares an optional (`IntentResult<Int?>`).
public struct IntentResult<Output: IntentValue>: Sendable {
    /// What the intent returns to the script: the action's result.
    public var value: Output
    /// The dialog and the next intent, nil when there are neither (see `IntentExtras`).
    @usableFromInline var extras: IntentExtras?

    /// What the intent says to people; nil when it says nothing and its value is shown.
    public var dialog: Dialog? {
        get { extras?.dialog }
        set { extras = IntentExtras.make(dialog: newValue, next: next) }
    }
    package var next: NextIntent? {
        get { extras?.next }
        set { extras = IntentExtras.make(dialog: dialog, next: newValue) }
    }

    @inlinable
    init(value: Output, dialog: Dialog?, next: NextIntent?) {
        self.value = value
        self.extras = IntentExtras.make(dialog: dialog, next: next)
    }

    /// A result with a value and, optionally, what to say: `.result(value: book, dialog: "Opening \(book.title)")`.
    /// Inlinable, as is everything on the way of a call, so that the host's `perform` runs specialised code.
    @inlinable
    public static func result(value: Output, dialog: Dialog? = nil) -> IntentResult {
        IntentResult(value: value, dialog: dialog, next: nil)
    }

    /// Runs `intent` after this one. Its dialog (or its value, if it says nothing) is shown; the action's result stays
    /// `value`, of this intent's declared type, as in App Intents. The engine fills in its dependencies; a required
    /// parameter not set on it is an error naming it (see `NextIntent`).
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

    /// A result with nothing to return that runs `intent` next, as `result(value:dialog:opensIntent:)` does.
    @inlinable
    public static func result<Next: AppIntent>(dialog: Dialog? = nil, opensIntent intent: Next) -> IntentResult {
        IntentResult(value: NoValue(), dialog: dialog, next: NextIntent(intent))
    }
}

/// The rarer parts of a result, a dialog and an intent to open next, in one reference that is nil when there
/// are neither: a result is made and copied on every call, and a nil reference is free to copy where a
/// dialog's two texts and a next intent's title and closures are not.
@usableFromInline
package final class IntentExtras: Sendable {
    package let dialog: Dialog?
    package let next: NextIntent?

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

/// Why an intent is deprecated and what replaces it: `static let deprecation: IntentDeprecation? =
/// IntentDeprecation("Shelves open by name now", replacedBy: OpenShelf.self)`.
public struct IntentDeprecation: Sendable {
    /// What people read in the warning: why, or what to do instead.
    public let message: String
    /// The intent to call instead, if there is one.
    public let replacement: (any AppIntent.Type)?

    /// A deprecation with its message and, optionally, the intent that replaces it.
    public init(_ message: String, replacedBy replacement: (any AppIntent.Type)? = nil) {
        self.message = message
        self.replacement = replacement
    }
}
