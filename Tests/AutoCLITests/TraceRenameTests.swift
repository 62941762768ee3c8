@testable import AutoCLI
import AutoIntents
import AutoRuntime
import Testing

/// A trace recorded before the host renamed an intent says what the intent is called now, found by its identifier.
@Suite struct TraceRenameTests {
    struct Renamed: AppIntent {
        static let title = "Shelve book"
        static let formerTitles = ["Put away"]
        func perform(_ context: IntentContext) async throws -> IntentResult<NoValue> { .result() }
    }

    func step(_ intent: String, id: String?) -> RunTrace.Step {
        RunTrace.Step(intent: intent, arguments: [], result: nil, error: nil, startedAfter: .zero, duration: .zero,
                      location: SourceLocation(file: "a.auto", line: 1, column: 1), intentID: id)
    }

    @Test func aRenamedIntentsStepsSayItsNameNow() throws {
        var registry = Registry.standard
        try registry.register(Renamed.self)
        let id = try #require(registry.intent(named: "shelve book")?.identifier)
        let names = Trace.currentNames(in: registry)
        #expect(Trace.currentName(of: step("put away", id: id), among: names) == "shelve book")
        #expect(Trace.currentName(of: step("shelve book", id: id), among: names) == nil, "not renamed")
        #expect(Trace.currentName(of: step("put away", id: nil), among: names) == nil, "recorded before identifiers were kept")
        #expect(Trace.currentName(of: step("lend book", id: "LendBook"), among: names) == nil, "no longer there")
    }
}
