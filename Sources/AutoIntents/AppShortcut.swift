/// The App Shortcuts a host offers, as App Intents' `AppShortcutsProvider`: intents people run by saying a
/// sentence (`library say "open currently reading"`), listed by `library shortcuts`. Registered with
/// `Registry.register(shortcuts:applicationName:)`, after the intents they run.
///
/// ```swift
/// struct LibraryShortcuts: AppShortcutsProvider {
///     static var appShortcuts: [AppShortcut] {
///         AppShortcut(intent: OpenShelf(), phrases: ["Open \(\.$shelf) in \(.applicationName)"],
///                     shortTitle: "Open shelf", systemImageName: "books.vertical")
///         AppShortcut(intent: OpenBook(), phrases: ["Open \(\.$book) in \(.applicationName)"],
///                     shortTitle: "Open book", systemImageName: "book")
///     }
///     static let synonyms: [String: [String]] = ["open": ["show"], "Want to Read": ["to read"]]
/// }
/// ```
public protocol AppShortcutsProvider {
    /// The shortcuts, in the order `library shortcuts` lists them: one per line, as App Intents writes them
    /// (``AppShortcutsBuilder``), or a list in brackets.
    @AppShortcutsBuilder static var appShortcuts: [AppShortcut] { get }
    /// Other words people say for a phrase's word (`"open": ["show", "list"]`) or for an enum case, by its display name
    /// or identifier (`"Currently Reading": ["reading now"]`). Keys and words are matched ignoring case and accents; a
    /// phrase's word takes one-word synonyms, a case any number of words.
    static var synonyms: [String: [String]] { get }
}

extension AppShortcutsProvider {
    /// None.
    public static var synonyms: [String: [String]] { [:] }
}

/// Builds ``AppShortcutsProvider/appShortcuts`` from one ``AppShortcut`` per line, as App Intents'
/// `AppShortcutsBuilder` does; `if`, `if … else` and `for` choose and repeat them, and a list in brackets is taken as
/// it is.
@resultBuilder
public enum AppShortcutsBuilder {
    /// One shortcut.
    public static func buildExpression(_ shortcut: AppShortcut) -> [AppShortcut] { [shortcut] }
    /// Several, written as a list.
    public static func buildExpression(_ shortcuts: [AppShortcut]) -> [AppShortcut] { shortcuts }
    /// The lines, in order.
    public static func buildBlock(_ parts: [AppShortcut]...) -> [AppShortcut] { parts.flatMap { $0 } }
    /// An `if` without `else`: its shortcuts, or none.
    public static func buildOptional(_ part: [AppShortcut]?) -> [AppShortcut] { part ?? [] }
    /// The first branch of an `if … else`.
    public static func buildEither(first part: [AppShortcut]) -> [AppShortcut] { part }
    /// The second branch of an `if … else`.
    public static func buildEither(second part: [AppShortcut]) -> [AppShortcut] { part }
    /// A `for` loop's shortcuts, pass after pass.
    public static func buildArray(_ parts: [[AppShortcut]]) -> [AppShortcut] { parts.flatMap { $0 } }
}

/// One App Shortcut: the intent it runs, the sentences that run it, and how a listing shows it.
public struct AppShortcut: Sendable {
    /// The title of the intent it runs (`Open shelf`); registration finds the registered intent by it.
    package let intentTitle: String
    package let phrases: [ShortcutPhrase]
    package let shortTitle: String
    /// An SF Symbol's name, as App Intents takes it; the engine only lists it.
    package let systemImageName: String

    /// A shortcut that runs `intent` when people say one of `phrases`, listed as `shortTitle`. Each phrase says the app's
    /// name and may name one parameter by its projection; registration checks them.
    ///
    /// ```swift
    /// AppShortcut(intent: OpenShelf(), phrases: ["Open \(\.$shelf) in \(.applicationName)"],
    ///             shortTitle: "Open shelf", systemImageName: "books.vertical")
    /// ```
    public init<I: AppIntent>(intent: I, phrases: [AppShortcutPhrase<I>], shortTitle: String, systemImageName: String) {
        intentTitle = I.title
        // The intent's @Parameter properties, read once for all its phrases (each read reflects on the type). An
        // intent whose properties can't be read was refused when it was registered, before its shortcuts.
        let fields = (try? StoredProperties.of(I.self)) ?? []
        let declared: [(name: String, declaration: AnyParameterDeclaration)] = withUnsafeBytes(of: intent) { bytes in
            fields.filter { $0.isSpecialisation(of: Parameter<Int>.self) }.map { field in
                let declaration = AnyParameterDeclaration.ofParameter(in: bytes, at: field.offset)
                return (declaration.name ?? field.propertyName, declaration)
            }
        }
        self.phrases = phrases.map { $0.resolved(in: intent, parameters: declared) }
        self.shortTitle = shortTitle
        self.systemImageName = systemImageName
    }

    /// A shortcut written in the language, its phrases already resolved: it has no symbol.
    package init(intentTitle: String, phrases: [ShortcutPhrase], shortTitle: String) {
        self.intentTitle = intentTitle
        self.phrases = phrases
        self.shortTitle = shortTitle
        systemImageName = ""
    }
}

/// What a phrase may interpolate besides a parameter: `\(.applicationName)`, the host's name.
public enum AppShortcutPhraseToken: Sendable {
    /// The host's name, as registered with `Registry.register(shortcuts:applicationName:)`.
    case applicationName
}

/// A phrase as the host writes it: `"Open \(\.$shelf) in \(.applicationName)"`. The key path names a `@Parameter`
/// by its projection (`$shelf`); it is resolved to the parameter's name when the `AppShortcut` is made.
public struct AppShortcutPhrase<Intent: AppIntent>: ExpressibleByStringInterpolation {
    enum Part {
        case text(String)
        /// Reads the parameter's declaration from an intent: compared by identity with those of the intent the
        /// shortcut is made with, which tells which of its properties the key path names.
        case parameter((Intent) -> AnyParameterDeclaration)
        case applicationName
    }
    let parts: [Part]

    /// How Swift builds a phrase from its literal: words, `\(\.$parameter)` and `\(.applicationName)`.
    public struct StringInterpolation: StringInterpolationProtocol {
        var parts: [Part] = []
        /// An empty phrase.
        public init(literalCapacity: Int, interpolationCount: Int) {}
        /// Words of the phrase.
        public mutating func appendLiteral(_ literal: String) {
            if !literal.isEmpty { parts.append(.text(literal)) }
        }
        /// A parameter of the intent, by its projection: `\(\.$shelf)`.
        public mutating func appendInterpolation<T>(_ parameter: KeyPath<Intent, Parameter<T>>) {
            parts.append(.parameter { $0[keyPath: parameter].declaration })
        }
        /// The host's name: `\(.applicationName)`.
        public mutating func appendInterpolation(_: AppShortcutPhraseToken) {
            parts.append(.applicationName)
        }
    }

    /// A phrase of words alone.
    public init(stringLiteral text: String) { parts = [.text(text)] }
    /// A phrase with parameters or the app's name in it.
    public init(stringInterpolation: StringInterpolation) { parts = stringInterpolation.parts }

    /// The phrase with its parameters named: the parameter whose declaration the key path reads from `intent` is the
    /// one of `parameters` (the intent's, found as registration finds them) with that very declaration.
    func resolved(in intent: Intent, parameters declared: [(name: String, declaration: AnyParameterDeclaration)]) -> ShortcutPhrase {
        ShortcutPhrase(parts: parts.map { part in
            switch part {
            case .text(let text): return .text(text)
            case .applicationName: return .applicationName
            case .parameter(let read):
                let declaration = read(intent)
                return declared.first { $0.declaration === declaration }.map { .parameter($0.name) } ?? .unknownParameter
            }
        })
    }
}

/// A phrase with its parameter named: what registration checks and the matcher reads.
package struct ShortcutPhrase: Sendable, Equatable, CustomStringConvertible {
    package enum Part: Sendable, Equatable {
        case text(String)
        case parameter(String)
        case applicationName
        /// A key path to something that is not one of the intent's `@Parameter` properties; registration refuses it.
        case unknownParameter
    }
    package let parts: [Part]

    /// A phrase written in the language, its parameters named (`shortcut … phrases ["describe \(n)"]`).
    package init(parts: [Part]) { self.parts = parts }

    /// The parameters the phrase names, in order.
    package var parameterNames: [String] {
        parts.compactMap { if case .parameter(let name) = $0 { name } else { nil } }
    }

    /// The sentence with the parameter filled in by `value(name)` and the host's name for `.applicationName`.
    package func filled(applicationName: String, _ value: (String) -> String) -> String {
        parts.map { part in
            switch part {
            case .text(let text): return text
            case .parameter(let name): return value(name)
            case .applicationName: return applicationName
            case .unknownParameter: return "{?}"
            }
        }.joined()
    }

    /// `Open {shelf} in {applicationName}`.
    package var description: String {
        filled(applicationName: "{applicationName}") { "{\($0)}" }
    }
}
