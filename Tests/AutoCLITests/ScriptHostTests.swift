@testable import AutoTerminal
import AutoCLI
import AutoIntents
import AutoLanguage
import AutoRuntime
import Testing

/// Says hello to someone: an intent of a bundle the host adds (`ScriptHost(registry:adding:prelude:)`).
struct Wave: ImmediateIntent {
    static let title = "Wave at"
    @Parameter var name: String
    func performNow(_ context: IntentContext) throws -> IntentResult<String> { .result(value: "hello " + name) }
}

/// A host registers the intents it adds when a script may call them: a run whose script names none of them is
/// compiled without them, and everything else sees them all.
@Suite struct ScriptHostTests {
    let host = ScriptHost(registry: .standard, adding: IntentBundle(Wave.self), prelude: [])

    func compile(_ text: String, _ bodies: PreludeBodies) -> Result<CompiledScript, CompilationFailure> {
        host.compile(SourceFile(name: "t.auto", text: text), preludeBodies: bodies)
    }

    @Test func aRunThatNamesNoneOfTheAddedIntentsIsCompiledWithoutThem() throws {
        let plain = try compile("show 1", .whenCalled).get()
        #expect(plain.registry.intent(named: "wave at") == nil)
        // Named in any case, the intent is there, and it runs.
        let calling = try compile("WAVE at name: \"you\"", .whenCalled).get()
        #expect(calling.registry.intent(named: "wave at") != nil)
        #expect(host.registry.intent(named: "wave at") != nil)
        // A whole compile (listing, checking, the REPL) always has them.
        #expect(try compile("show 1", .all).get().registry.intent(named: "wave at") != nil)
    }

    @Test func anErrorIsReportedAsWithEveryIntentRegistered() {
        let eager = ScriptHost(registry: host.registry, prelude: [])
        for text in ["wav at name: \"x\"", "wave at name: 1", "show undefinedName"] {
            guard case .failure(let lazy) = compile(text, .whenCalled),
                  case .failure(let whole) = eager.compile(SourceFile(name: "t.auto", text: text), preludeBodies: .whenCalled) else {
                Issue.record("'\(text)' should not compile")
                continue
            }
            #expect(lazy.diagnostics.map { $0.rendered() } == whole.diagnostics.map { $0.rendered() }, "\(text)")
        }
    }

    @Test func theFirstWordsOfABundlesIntents() {
        #expect(IntentBundle(Wave.self).firstWords == ["wave"])
    }
}
