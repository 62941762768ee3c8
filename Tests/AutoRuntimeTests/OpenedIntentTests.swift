import AutoIntents
import AutoLanguage
import AutoRuntime
import AutoTestSupport
import Testing

// Intents a host makes itself and opens with `.result(opensIntent:)`: the engine prepares them as it prepares a
// call's intent, where `perform` used to read an unfilled dependency or an unset parameter and trap.

/// The host's own state, reached through a `@Dependency`.
final class Bakery: Sendable {
    let name = "The corner bakery"
}

/// What the opened intents say: the dependency, the parameter the opener sets or forgets, one with a default and an
/// optional one the opener never sets.
private func baked(_ bakery: Bakery, _ count: Int, _ flour: String, _ note: String?) -> Dialog {
    Dialog("\(bakery.name) baked \(count) \(flour) loaves\(note.map { ", \($0)" } ?? "")")
}

/// Opened by `Order`. Its required parameter is named apart from its property, so that an error shows which of the two
/// it names.
struct Bake: AppIntent {
    static let title = "Bake"
    @Parameter("loaves") var count: Int
    @Parameter(default: "rye") var flour: String
    @Parameter var note: String?
    @Dependency var bakery: Bakery

    func perform(_ context: IntentContext) async throws -> IntentResult<NoValue> {
        .result(dialog: baked(bakery, count, flour, note))
    }
}

/// `Bake` without awaiting, opened by `OrderNow`.
struct BakeNow: ImmediateIntent {
    static let title = "Bake now"
    @Parameter("loaves") var count: Int
    @Parameter(default: "rye") var flour: String
    @Parameter var note: String?
    @Dependency var bakery: Bakery

    func performNow(_ context: IntentContext) throws -> IntentResult<NoValue> {
        .result(dialog: baked(bakery, count, flour, note))
    }
}

/// Opens `Bake` for its loaves, leaving the parameter unset for none.
struct Order: AppIntent {
    static let title = "Order"
    @Parameter var loaves: Int

    func perform(_ context: IntentContext) async throws -> IntentResult<Int> {
        var bake = Bake()
        if loaves > 0 { bake.count = loaves }
        return .result(value: loaves, opensIntent: bake)
    }
}

/// `Order` without awaiting, opening `BakeNow`.
struct OrderNow: ImmediateIntent {
    static let title = "Order now"
    @Parameter var loaves: Int

    func performNow(_ context: IntentContext) throws -> IntentResult<Int> {
        var bake = BakeNow()
        if loaves > 0 { bake.count = loaves }
        return .result(value: loaves, opensIntent: bake)
    }
}

/// A class, which the engine can't prepare (its properties aren't in the value the opener returns), and its opener.
final class SharedBake: AppIntent, @unchecked Sendable {
    static let title = "Shared bake"
    init() {}
    func perform(_ context: IntentContext) async throws -> IntentResult<NoValue> { .result() }
}

struct OrderShared: AppIntent {
    static let title = "Order shared"
    func perform(_ context: IntentContext) async throws -> IntentResult<NoValue> { .result(opensIntent: SharedBake()) }
}

@Suite struct OpenedIntentTests {
    /// The openers only: the opened intents need not be registered to be opened.
    static func registry(bakery: Bakery?) -> Registry {
        var registry = Registry.standard
        do {
            if let bakery { try registry.register(dependency: bakery) }
            try registry.register(Order.self)
            try registry.register(OrderNow.self)
            try registry.register(OrderShared.self)
        } catch {
            Issue.record("registration failed: \(error)")
        }
        return registry
    }

    @Test(arguments: ["order", "order now"])
    func anOpenedIntentGetsItsDependencies(opener: String) async {
        // Opened again in a loop, as the run knows the type by then.
        let outcome = await EngineHarness.run("\(opener) 3 -> n\nshow n + 1\nfor k in [1, 2] { \(opener) k }", registry: Self.registry(bakery: Bakery()))
        #expect(outcome.exitCode == 0, "\(outcome.standardError)")
        #expect(outcome.output == ["The corner bakery baked 3 rye loaves", "4", "The corner bakery baked 1 rye loaves",
                                   "The corner bakery baked 2 rye loaves"])
    }

    @Test(arguments: ["order", "order now"])
    func aRequiredParameterTheHostDidNotSetIsAnErrorNamingIt(opener: String) async {
        let outcome = await EngineHarness.run("show 1\n\(opener) 0\nshow 2", name: "o.auto", registry: Self.registry(bakery: Bakery()))
        #expect(outcome.exitCode == 1)
        #expect(outcome.output == ["1"])
        let opened = opener == "order" ? "bake" : "bake now"
        #expect(outcome.standardError.contains("o.auto:2:1: error: \(opener): can't open '\(opened)': its parameter 'loaves' was not set"),
                "\(outcome.standardError)")
    }

    @Test(arguments: ["order", "order now"])
    func aDependencyTheHostDidNotRegisterIsAnErrorNamingItsType(opener: String) async {
        let outcome = await EngineHarness.run("\(opener) 3", registry: Self.registry(bakery: nil))
        #expect(outcome.exitCode == 1)
        #expect(outcome.standardError.contains("\(opener): can't open '\(opener == "order" ? "bake" : "bake now")': it uses a dependency of type "
            + "Bakery ('bakery'), which is not registered"), "\(outcome.standardError)")
    }

    /// A script can catch the error, as any intent's, and open the intent again: nothing is left half done.
    @Test func theErrorCanBeHandled() async {
        let outcome = await EngineHarness.run("""
            order now 2
            try { order now 0 } otherwise { show error }
            order now 1
            """, registry: Self.registry(bakery: Bakery()))
        #expect(outcome.exitCode == 0, "\(outcome.standardError)")
        #expect(outcome.output == ["The corner bakery baked 2 rye loaves", "order now: can't open 'bake now': its parameter 'loaves' was not set",
                                   "The corner bakery baked 1 rye loaves"])
    }

    @Test func anOpenedClassIsRefusedNamingIt() async {
        let outcome = await EngineHarness.run("order shared", registry: Self.registry(bakery: Bakery()))
        #expect(outcome.exitCode == 1)
        #expect(outcome.standardError.contains("order shared: can't open 'shared bake': AutoRuntimeTests.SharedBake is a class: the engine "
            + "reads and fills the properties of structs only; declare it a struct"), "\(outcome.standardError)")
    }
}
