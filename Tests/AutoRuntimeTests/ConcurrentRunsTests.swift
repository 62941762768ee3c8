import AutoIntents
import AutoLanguage
import AutoRuntime
import AutoTestSupport
import Testing

/// One engine and one registry run many programs at once, as the daemon will: each run's results and dialogs equal
/// the same program's run alone. Run it under Thread Sanitizer too:
/// `swift test --sanitize=thread --scratch-path .build-tsan --filter ConcurrentRunsTests`.
@Suite struct ConcurrentRunsTests {
    /// Sixteen scripts over everything a run owns: loops and their step counts, shortcuts and their frames, `it`,
    /// finds, intents that await and ones that don't, questions answered per run, dialogs, failures and limits.
    static let scripts: [String] = [
        "set x = 0\nrepeat 20000 times { set x = x + 1 }\nx",
        "shortcut \"fib\" (n: Int) { if n < 2 { return n }\n return (fib n - 1) + (fib n - 2) }\nfib 15",
        "find books where rating >= 4 sort by title | open book",
        "for b in find books sort by published { show b.title }\ncount(find books)",
        "set total = 0\nfor i in numbers from 1 to: 300 { set total = total + (add numbers a: i b: i) }\ntotal",
        "greet \"you\" -> g\nshow g\nit",
        "set l = []\nrepeat 2000 times { set l = l + [count(l)] }\nsum(l)",
        "pick even -> n\nshow n * 2",
        "count to 50",
        "fail politely reason: \"on purpose\"",
        "set t = \"\"\nfor w in [\"a\", \"b\", \"c\"] { set t = t + w }\nrepeat 500 times { set t = t + \".\" }\ncount(t)",
        "[1, 2, 3] | add numbers b: 10",
        "average [1, 2, 3, 4] -> a\nshow a\nclamp 12 low: 0 high: 10",
        "find books where author contains \"a\" sort by pages desc limit 2 | rate book rating: 3",
        "set r = {a: 1, b: [1, 2]}\nshow r.b\nr.a + 1",
        "repeat 1000000 times { }",
    ]

    /// What a run produced: its outcome and everything it showed, as text.
    struct Observed: Equatable, Sendable {
        let outcome: String
        let shown: [String]
        let questions: [String]
    }

    static func observe(_ program: Program, on engine: Engine) async -> Observed {
        // Each run has its own interaction: answers are per run, as each automation's or REPL's are.
        let interaction = ScriptedInteraction(answers: ["3", "4"])
        let outcome = await engine.run(program, interaction: interaction, limits: RunLimits(maxSteps: 200_000))
        let text: String
        switch outcome.ending {
        case .completed(let value): text = "completed: " + ValueFormatter.json(value)
        case .stoppedBeforeChange: text = "stopped before a change"
        case .failed(let error): text = "failed: \(error)"
        case .cancelled(let reason): text = "cancelled: \(reason)"
        }
        return Observed(outcome: text, shown: interaction.shown, questions: interaction.questions)
    }

    @Test func sixteenRunsAtOnceEqualTheSameRunsOneByOne() async throws {
        let registry = EngineHarness.sampleRegistry
        let compiled = try Self.scripts.enumerated().map { index, text in
            try ScriptCompiler.compile(SourceFile(name: "s\(index).auto", text: text), prelude: EngineHarness.prelude, registry: registry).get()
        }
        // One engine and one registry for all: the registry every script was compiled against.
        let engine = Engine(registry: registry)
        var alone: [Observed] = []
        for script in compiled { alone.append(await Self.observe(script.program, on: engine)) }

        let together = await withTaskGroup(of: (Int, Observed).self) { group in
            for (index, script) in compiled.enumerated() {
                let program = script.program
                group.addTask { (index, await Self.observe(program, on: engine)) }
            }
            var results = [Observed?](repeating: nil, count: compiled.count)
            for await (index, observed) in group { results[index] = observed }
            return results
        }
        for (index, expected) in alone.enumerated() {
            #expect(together[index] == expected, "script \(index): \(Self.scripts[index])")
        }
        // The scripts do end in every way a run can: a sanity check that the comparison covers them.
        #expect(alone.contains { $0.outcome.hasPrefix("completed") })
        #expect(alone.contains { $0.outcome.contains("it failed: on purpose") })
        #expect(alone.contains { $0.outcome.contains("200000 steps") })
        #expect(alone[1].outcome == "completed: 610")
    }
}
