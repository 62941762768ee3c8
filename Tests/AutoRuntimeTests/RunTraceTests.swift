import AutoIntents
import AutoLanguage
import AutoRuntime
import AutoTestSupport
import Foundation
import Testing

/// A run's steps as a run history keeps them: each action with the arguments it ran with (defaults filled in),
/// its result or its error, in the order they started, and no more than the trace's limit.
@Suite struct RunTraceTests {
    func run(_ text: String, trace: RunTrace, it: Value = .null) async throws -> RunOutcome {
        let compiled = try ScriptCompiler.compile(SourceFile(name: "t.auto", text: text), registry: SampleLibrary.registry()).get()
        return await Engine(registry: compiled.registry).run(compiled.program, interaction: ScriptedInteraction(), it: it, trace: trace)
    }

    @Test func eachActionIsRecordedWithItsArgumentsAndResult() async throws {
        let trace = RunTrace()
        let outcome = try await run("""
            add numbers a: 2 b: 40 -> sum
            greet punctuation: "?"
            fail politely reason: "on purpose"
            show "never"
            """, trace: trace)
        guard case .failed = outcome.ending else { Issue.record("expected the run to fail"); return }
        let steps = trace.steps
        #expect(steps.map(\.intent) == ["add numbers", "greet", "fail politely"])
        #expect(steps[0].arguments == [.init(name: "a", value: "2"), .init(name: "b", value: "40")] && steps[0].result == "42")
        #expect(steps[1].arguments.map(\.name) == ["name", "punctuation"], "a default is what the intent ran with")
        #expect(steps[1].result == "\"Hello, world?\"", "written as a script would")
        #expect(steps[2].result == nil && steps[2].error?.contains("it failed: on purpose") == true, "\(String(describing: steps[2].error))")
        #expect(steps.map(\.location.line) == [1, 2, 3])
        #expect(zip(steps, steps.dropFirst()).allSatisfy { $0.startedAfter <= $1.startedAfter })
    }

    @Test func aLongLoopKeepsTheFirstStepsAndCountsTheRest() async throws {
        let trace = RunTrace(limit: 10)
        let outcome = try await run("repeat 25 times { add numbers a: 1 b: 1 }", trace: trace)
        guard case .completed = outcome.ending else { Issue.record("expected the run to complete: \(outcome.ending)"); return }
        #expect(trace.steps.count == 10 && trace.dropped == 15)
    }

    @Test func itStartsAsGiven() async throws {
        let trace = RunTrace()
        let day = try #require(DateParsing.parse("2030-01-02 07:30"))
        let outcome = try await run("show it.hour", trace: trace, it: .date(day))
        guard case .completed = outcome.ending else { Issue.record("expected the run to complete"); return }
        #expect(trace.steps.first?.arguments.first?.value == "7")
    }
}
