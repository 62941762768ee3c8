import AutoHost
import AutoIntents
import Foundation

// A host that makes the mistake named by $MISTAKE at registration, started the documented way (`AutoHost.main`):
// the tests run it to see each mistake become a message and exit 2, never a trap (issue 30, items 4 and 5).

/// Says something: a host's own intent.
struct Say: AppIntent {
    static let title = "Say aloud"
    @Parameter var text: String
    func perform(_ context: IntentContext) async throws -> IntentResult<String> { .result(value: text) }
}

/// Titled as `Say` is.
struct SayAgain: AppIntent {
    static let title = "Say Aloud"
    @Parameter var words: String
    func perform(_ context: IntentContext) async throws -> IntentResult<String> { .result(value: words) }
}

/// Named as the standard library's `notify`.
struct Notify: AppIntent {
    static let title = "Notify"
    @Parameter var message: String
    func perform(_ context: IntentContext) async throws -> IntentResult<String> { .result(value: message) }
}

/// Titled with words the language reads as its own: a find, and a word that ends an action's name.
struct FindEasyTrails: AppIntent {
    static let title = "Find easy trails"
    func perform(_ context: IntentContext) async throws -> IntentResult<NoValue> { .result() }
}

struct CheckIn: AppIntent {
    static let title = "Check in"
    func perform(_ context: IntentContext) async throws -> IntentResult<NoValue> { .result() }
}

/// What a host's own start-up may throw: its database can't be opened.
enum StoreFailure: LocalizedError {
    case locked(path: String)
    var errorDescription: String? {
        switch self {
        case .locked(let path): "the store at \(path) is locked by another program"
        }
    }
}

final class Store: Sendable {}

await AutoHost.main(name: "mistaken") { registry in
    switch ProcessInfo.processInfo.environment["MISTAKE"] ?? "" {
    case "duplicate":
        try registry.register(Say.self)
        try registry.register(Say.self)
    case "two titles alike":
        try registry.register(Say.self)
        try registry.register(SayAgain.self)
    case "standard library name":
        try registry.register(Notify.self)
    case "title starting with find":
        try registry.register(FindEasyTrails.self)
    case "title with in":
        try registry.register(CheckIn.self)
    case "host error":
        throw StoreFailure.locked(path: "/tmp/store.sqlite")
    case "missing dependency":
        try registry.register(dependency: Store())
        try registry.register(dependency: Store())
    default:
        try registry.register(Say.self)
    }
}
