import AutoIntents
import AutoLanguage
import AutoPrelude
import AutoRuntime
import Synchronization

/// One engine and one registry run many programs at once, as the daemon does: each run's results and dialogs must
/// equal the same program's run alone. Both `ConcurrentRunsTests` and `auto-race` (the same check under Thread
/// Sanitizer in CI) run it; it lives in this small target so that the sanitized build is of the engine alone, not of
/// every package the command line links.
package enum ConcurrentRuns {
    /// Sixteen scripts over everything a run owns: loops and their step counts, shortcuts and their frames, `it`,
    /// finds, intents that await and ones that don't, questions answered per run, dialogs, failures and limits.
    package static let scripts: [String] = [
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

    /// What a run produced: its outcome and everything it showed and asked, as text.
    package struct Observed: Equatable, Sendable {
        package let outcome: String
        package let shown: [String]
        package let questions: [String]
    }

    /// The runs' outcomes one by one, and where the runs all at once differed from them: empty when they all agreed
    /// and the scripts ended in every way the check means to cover.
    package static func check() async throws -> (alone: [Observed], mismatches: [String]) {
        let registry = try SampleLibrary.registry()
        let prelude = Prelude.sources.map { SourceFile(name: $0.name, text: $0.text) }
        let programs = try scripts.enumerated().map { index, text in
            try ScriptCompiler.compile(SourceFile(name: "s\(index).auto", text: text), prelude: prelude, registry: registry).get().program
        }
        // One engine and one registry for all: the registry every script was compiled against.
        let engine = Engine(registry: registry)
        var alone: [Observed] = []
        for program in programs { alone.append(await observe(program, on: engine)) }

        let together = await withTaskGroup(of: (Int, Observed).self) { group in
            for (index, program) in programs.enumerated() {
                group.addTask { (index, await observe(program, on: engine)) }
            }
            var results = [Observed?](repeating: nil, count: programs.count)
            for await (index, observed) in group { results[index] = observed }
            return results
        }
        var mismatches: [String] = []
        for (index, expected) in alone.enumerated() where together[index] != expected {
            mismatches.append("script \(index) (\(scripts[index])): alone \(expected), together \(String(describing: together[index]))")
        }
        // The scripts do end in every way a run can: a sanity check that the comparison covers them.
        if !alone.contains(where: { $0.outcome.hasPrefix("completed") }) { mismatches.append("no run completed") }
        if !alone.contains(where: { $0.outcome.contains("it failed: on purpose") }) { mismatches.append("no run failed") }
        if !alone.contains(where: { $0.outcome.contains("200000 steps") }) { mismatches.append("no run hit its step limit") }
        if alone[1].outcome != "completed: 610" { mismatches.append("fib 15 gave \(alone[1].outcome)") }
        return (alone, mismatches)
    }

    static func observe(_ program: Program, on engine: Engine) async -> Observed {
        // Each run has its own interaction: answers are per run, as each automation's or REPL's are.
        let interaction = AnsweringInteraction(answers: [.int(3), .int(4)])
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
}

/// The interaction of one run of the check: it keeps what was shown and asked, and answers questions from a list of
/// values (the tests' `ScriptedInteraction` parses typed text as the terminal does, which needs the terminal's module).
final class AnsweringInteraction: Interaction, Sendable {
    private struct State {
        var shown: [String] = []
        var questions: [String] = []
        var answers: [Value]
    }
    private struct Unanswered: Error, CustomStringConvertible {
        let question: String
        var description: String { "nobody can answer \"\(question)\"" }
    }
    private let state: Mutex<State>

    init(answers: [Value]) { state = Mutex(State(answers: answers)) }

    var shown: [String] { state.withLock { $0.shown } }
    var questions: [String] { state.withLock { $0.questions } }

    func show(_ dialog: Dialog) async { _ = showNow(dialog) }

    func showNow(_ dialog: Dialog) -> Bool {
        state.withLock { $0.shown.append(dialog.full) }
        return true
    }

    func requestValue(_ request: ValueRequest) async throws -> Value {
        let answer: Value? = state.withLock { state in
            state.questions.append(request.prompt)
            return state.answers.isEmpty ? nil : state.answers.removeFirst()
        }
        guard let answer else { throw Unanswered(question: request.prompt) }
        return answer
    }

    func choose(_ request: ChoiceRequest) async throws -> Int {
        state.withLock { $0.questions.append(request.prompt) }
        throw Unanswered(question: request.prompt)
    }

    func confirm(_ request: ConfirmationRequest) async throws -> Bool {
        state.withLock { $0.questions.append(request.prompt) }
        throw Unanswered(question: request.prompt)
    }

    func progress(_ event: ProgressEvent) async {}
}
