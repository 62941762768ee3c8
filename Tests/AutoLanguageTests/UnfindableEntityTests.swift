import AutoIntents
@testable import AutoLanguage
import AutoRuntime
import Testing

/// A coffee the host registered no query for.
struct Coffee: AppEntity {
    static let entityType = EntityType<Coffee>(singular: "coffee")
    var id: Int
    var name: String
    var displayRepresentation: DisplayRepresentation { .init(title: name) }
}

struct BrewCoffee: AppIntent {
    static let title = "Brew coffee"
    @Parameter var coffee: Coffee
    func perform(_ context: IntentContext) async throws -> IntentResult<String> { .result(value: coffee.name) }
}

/// A text given for an entity no query finds: the error says what the host lacks, and its hint is a way that works,
/// not `find coffees …`, which can't either (issue 30, item 5).
@Suite struct UnfindableEntityTests {
    @Test func theHintSaysTheHostHasNoQueryRatherThanFindOneFirst() throws {
        var registry = Registry.standard
        try registry.register(BrewCoffee.self)
        guard case .failure(let failure) = ScriptCompiler.compile(SourceFile(name: "t.auto", text: #"brew coffee "latte""#), registry: registry) else {
            Issue.record("expected an error")
            return
        }
        let error = try #require(failure.diagnostics.first)
        #expect(error.message == "'brew coffee' expects a Coffee for 'coffee', and coffees can't be found or named: the host registered no query for them")
        #expect(error.hint?.contains("find coffees") == false)
        #expect(error.hint == "give 'brew coffee' a Coffee that another action made, or register a query for coffees in the host")
    }
}
