/// The App Shortcuts a host offers, as App Intents' `AppShortcutsProvider`: intents people run by saying a
/// sentence (`library say "open currently reading"`), listed by `library shortcuts`. Registered with
/// `Registry.register(shortcuts:applicationName:)`, after the intents they run.
///
/// ```swift
/// struct LibraryShortcuts: AppShortcutsProvider {
///     static var appShortcuts: [AppShortcut] {
///         [AppShortcut(intent: OpenShelf(), phrases: ["Open \(\.$shelf) in \(.applicationName)"],
///                      shortTitle: "Open shelf", systemImageName: "books.vertical")]
///     }
///     static let synonyms: [String: [String]] = ["open": ["show"], "Want to Read": ["to read"]]
/// }
/// ```
public protocol AppShortcutsProvider {
    static var appShortcuts: [AppShortcut] { get }
    /// Other words people say for a phrase's word (`"open": ["show", "list"]`) or for an enum case, by its display name
    /// or identifier (`"Currently Reading": ["reading now"]`). Keys and words are matched ignoring case and accents; a
    /// phrase's word takes one-word synonyms, a case any number of words.
    static var synonyms: [String: [String]] { get }
}

extension AppShortcutsProvider {
    public static var synonyms: [String: [String]] { [:] }
}

/// One App Shortcut: the intent it runs, the sentences that run it, and how a listing shows it.
public struct AppShortcut: Sendable {
    /// The title of the intent it runs (`Open shelf`); registration finds the registered intent by it.
    public let intentTitle: String
    public let phrases: [ShortcutPhrase]
    public let shortTitle: String
    /// An SF Symbol's name, as App Intents takes it; the engine only lists it.
    public let systemImageName: String

    public init<I: AppIntent>(intent: I, phrases: [AppShortcutPhrase<I>], shortTitle: String, systemImageName: String) {
        intentTitle = I.title
        // The intent's @Parameter properties, read once for all its phrases (each read reflects on the type).
        let declared: [(name: String, declaration: AnyParameterDeclaration)] = withUnsafeBytes(of: intent) { bytes in
            StoredProperties.of(I.self).filter { $0.isSpecialisation(of: Parameter<Int>.self) }.map { field in
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

    public struct StringInterpolation: StringInterpolationProtocol {
        var parts: [Part] = []
        public init(literalCapacity: Int, interpolationCount: Int) {}
        public mutating func appendLiteral(_ literal: String) {
            if !literal.isEmpty { parts.append(.text(literal)) }
        }
        public mutating func appendInterpolation<T>(_ parameter: KeyPath<Intent, Parameter<T>>) {
            parts.append(.parameter { $0[keyPath: parameter].declaration })
        }
        public mutating func appendInterpolation(_: AppShortcutPhraseToken) {
            parts.append(.applicationName)
        }
    }

    public init(stringLiteral text: String) { parts = [.text(text)] }
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
public struct ShortcutPhrase: Sendable, Equatable, CustomStringConvertible {
    public enum Part: Sendable, Equatable {
        case text(String)
        case parameter(String)
        case applicationName
        /// A key path to something that is not one of the intent's `@Parameter` properties; registration refuses it.
        case unknownParameter
    }
    public let parts: [Part]

    /// A phrase written in the language, its parameters named (`shortcut … phrases ["describe \(n)"]`).
    package init(parts: [Part]) { self.parts = parts }

    /// The parameters the phrase names, in order.
    public var parameterNames: [String] {
        parts.compactMap { if case .parameter(let name) = $0 { name } else { nil } }
    }

    /// The sentence with the parameter filled in by `value(name)` and the host's name for `.applicationName`.
    public func filled(applicationName: String, _ value: (String) -> String) -> String {
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
    public var description: String {
        filled(applicationName: "{applicationName}") { "{\($0)}" }
    }
}
