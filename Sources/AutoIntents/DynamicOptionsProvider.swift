/// The values a parameter is usually given, supplied by the host when people are about to give one, as App Intents'
/// `DynamicOptionsProvider`: the genres already in a library, the calendars of an account. Completion offers them
/// inside the parameter's text, and a question for the parameter becomes a choice among them. They are
/// suggestions: a script may still give any value of the parameter's type.
///
/// A provider may read the host's state through `@Dependency` properties, filled in when its intent is registered,
/// and the arguments given so far through the request, so that its options can depend on them.
///
/// ```swift
/// struct GenreOptions: DynamicOptionsProvider {
///     @Dependency var database: LibraryDatabase
///     func results(for request: OptionsRequest) async throws -> [String] {
///         try await database.genres(on: request.argument("shelf", as: Shelf.self))
///     }
/// }
/// @Parameter(question: "Which genre?", optionsProvider: GenreOptions()) var genre: String
/// ```
public protocol DynamicOptionsProvider: Sendable {
    /// The type of the options: the parameter's.
    associatedtype Option: IntentValue
    /// The options, best first. Completion gives a provider a short time budget and offers nothing when it is slower.
    func results(for request: OptionsRequest) async throws -> [Option]
}

/// What a provider is asked with: the arguments of the call known so far, by parameter name. In a run these are
/// the call's arguments as given (texts not yet looked up as entities); while completing, those written as
/// literals in the entry.
public struct OptionsRequest: Sendable {
    package let arguments: [String: Value]

    package init(arguments: [String: Value] = [:]) {
        self.arguments = arguments
    }

    /// The argument given for `parameter`, as a `T`; nil when it is not given or is of another type.
    public func argument<T: IntentValue>(_ parameter: String, as type: T.Type = T.self) -> T? {
        arguments.first { $0.key.lowercased() == parameter.lowercased() }.flatMap { T(autoValue: $0.value) }
    }
}

/// A parameter's options as the engine asks for them: a registered provider, its dependencies filled in.
@usableFromInline
package final class ParameterOptions: Sendable {
    private let provide: @Sendable (OptionsRequest) async throws -> [Value]

    package init(_ provide: @escaping @Sendable (OptionsRequest) async throws -> [Value]) {
        self.provide = provide
    }

    package func options(for request: OptionsRequest) async throws -> [Value] {
        try await provide(request)
    }

    /// How a `@Parameter` registers its provider: for `owner` (an intent's parameter), a copy of it with its
    /// `@Dependency` properties set.
    @usableFromInline
    static func maker<P: DynamicOptionsProvider>(_ provider: P) -> ParameterDeclarationOptions {
        { dependencies, owner throws(RegistrationError) in
            var filled = provider
            try dependencies.fill(&filled, in: owner)
            let ready = filled
            return ParameterOptions { request in try await ready.results(for: request).map(\.autoValue) }
        }
    }
}

/// What a `@Parameter` declared with an options provider keeps until registration gives it the host's dependencies.
@usableFromInline
package typealias ParameterDeclarationOptions = @Sendable (Dependencies, String) throws(RegistrationError) -> ParameterOptions
