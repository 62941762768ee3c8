import AutoIntents
import AutoLanguage
import AutoRuntime
import AutoTestSupport
import Foundation
import Testing

/// Sleeps far longer than any test waits: only a cancellation ends it early.
struct Nap: AppIntent {
    static let title = "Nap"
    func perform(_ context: IntentContext) async throws -> IntentResult<NoValue> {
        try await Task.sleep(for: .seconds(600))
        return .result(dialog: "woke up")
    }
}

/// Works without awaiting anything that cancels, checking for cancellation between steps, as long intents do.
struct Spin: AppIntent {
    static let title = "Spin"
    func perform(_ context: IntentContext) async throws -> IntentResult<NoValue> {
        while true {
            try context.checkCancellation()
            await Task.yield()
        }
    }
}

/// Starts progress, does half the work and fails, leaving its task open.
struct HalfDone: AppIntent {
    static let title = "Half done"
    func perform(_ context: IntentContext) async throws -> IntentResult<NoValue> {
        let progress = await context.progress("Copying", total: 4)
        _ = await progress.child("One file", total: nil)
        try await progress.advance(by: 2)
        throw IntentError("the disk is full")
    }
}

/// Naps until its task is cancelled — at the deadline — and then, ignoring that, returns with a dialog.
struct Doze: AppIntent {
    static let title = "Doze"
    func perform(_ context: IntentContext) async throws -> IntentResult<NoValue> {
        try? await Task.sleep(for: .seconds(600))
        return .result(dialog: "woke up")
    }
}

@Suite struct RunTests {
    static let registry: Registry = {
        var registry = Registry.standard
        try? registry.register(Nap.self)
        try? registry.register(Spin.self)
        try? registry.register(HalfDone.self)
        try? registry.register(Doze.self)
        return registry
    }()

    func outcome(_ text: String, limits: RunLimits = RunLimits(), interaction: ScriptedInteraction = ScriptedInteraction()) async throws -> RunOutcome {
        let compiled = try ScriptCompiler.compile(SourceFile(name: "t.auto", text: text), registry: Self.registry).get()
        return await Engine(registry: compiled.registry).run(compiled.program, interaction: interaction, limits: limits)
    }

    /// The time limit stops an intent that is awaiting (it was only checked between steps, so a script of naps ran
    /// to its end), and the run ends with the time limit's error at the intent's line.
    @Test(arguments: ["nap", "spin", "show 1\nrepeat 5 times { nap }"])
    func theTimeLimitStopsAnIntentThatIsRunning(_ script: String) async throws {
        let started = ContinuousClock.now
        let outcome = try await outcome(script, limits: RunLimits(maxDuration: .milliseconds(200)))
        guard case .failed(let error) = outcome.ending else {
            Issue.record("expected the time limit, got \(outcome.ending)")
            return
        }
        #expect(error.kind == .timeLimit(.milliseconds(200)))
        #expect(error.message.contains("took longer than its time limit"), "\(error.message)")
        // Where it stopped depends on how busy the machine is; that it is located does not.
        #expect(error.location != nil)
        // The nap alone would take ten minutes: the run ended with its limit, not with the intent. Half of that, not
        // less: under load the whole suite has held both threads of the test pool for over a minute, and the
        // deadline's task waits for one like every other.
        #expect(ContinuousClock.now - started < .seconds(300))
    }

    /// Nothing is shown after the deadline, even by an intent that goes on past it: auto-fuzz saw a `show` print
    /// after `--timeout` when a big copy before it ran past the deadline between two of the executor's checks.
    /// (An intent that blocks its thread instead would hold one of the few threads the deadline itself needs.)
    @Test func nothingIsShownAfterTheTimeLimit() async throws {
        let interaction = ScriptedInteraction()
        let outcome = try await outcome("doze", limits: RunLimits(maxDuration: .milliseconds(200)), interaction: interaction)
        guard case .failed(let error) = outcome.ending else {
            Issue.record("expected the time limit, got \(outcome.ending)")
            return
        }
        #expect(error.kind == .timeLimit(.milliseconds(200)))
        #expect(interaction.shown.isEmpty, "\(interaction.shown)")
    }

    /// Ctrl-C still reads as a cancellation, not as the time limit.
    @Test func aCancellationIsNotATimeLimit() async throws {
        let compiled = try ScriptCompiler.compile(SourceFile(name: "t.auto", text: "spin"), registry: Self.registry).get()
        let flag = CancellationFlag()
        flag.cancel()
        let outcome = await Engine(registry: compiled.registry, limits: RunLimits(maxDuration: .seconds(600)))
            .run(compiled.program, interaction: ScriptedInteraction(), cancellation: flag)
        guard case .cancelled = outcome.ending else {
            Issue.record("expected a cancellation, got \(outcome.ending)")
            return
        }
    }

    /// A progress task that an intent leaves open when it fails is finished by the engine, innermost first.
    @Test func progressAnIntentLeftOpenIsFinished() async throws {
        let interaction = ScriptedInteraction()
        let outcome = try await outcome("half done", interaction: interaction)
        guard case .failed(let error) = outcome.ending else {
            Issue.record("expected the intent's error, got \(outcome.ending)")
            return
        }
        #expect(error.message == "half done: the disk is full")
        let events = interaction.progressEvents
        guard case .started(let outer, nil, "Copying", 4)? = events.first,
              case .started(let inner, outer?, "One file", nil)? = events.dropFirst().first else {
            Issue.record("expected the two tasks to start: \(events)")
            return
        }
        #expect(Array(events.suffix(2)) == [.stopped(id: inner), .stopped(id: outer)], "\(events)")
    }

    /// `--what-if` on a piped list says what each call would do with the defaults a single call shows.
    @Test func whatIfOnAListShowsTheDefaults() async throws {
        let registry = EngineHarness.sampleRegistry
        let single = await EngineHarness.run("add book \"Dune\"", registry: registry, whatIf: true)
        let list = await EngineHarness.run("[\"Dune\", \"Emma 2\"] | add book", registry: registry, whatIf: true)
        #expect(single.output == ["What if: Add \"Dune\" by … to Want to Read"])
        #expect(list.output == ["What if: Add \"Dune\" by … to Want to Read", "What if: Add \"Emma 2\" by … to Want to Read"])
    }
}

extension RunTests {
    /// When an intent asks again for a value it found unusable, its reason is said before the question.
    @Test func theReasonToAskAgainComesBeforeTheQuestion() async throws {
        let interaction = ScriptedInteraction(answers: ["4"])
        let outcome = await EngineHarness.run("pick even 3", registry: EngineHarness.sampleRegistry, answers: ["4"])
        #expect(outcome.output == ["4"])
        let compiled = try ScriptCompiler.compile(SourceFile(name: "t.auto", text: "pick even 3"), registry: EngineHarness.sampleRegistry).get()
        _ = try await compiled.run(interaction: interaction)
        #expect(interaction.events == ["reason: 3 is odd", "ask: Which even number?"])
    }
}

extension RunTests {
    static let records: Value = .list((0..<20_000).map { .record(Record(keys: ["a"], values: [.int(($0 * 7919) % 20_000)])) })

    /// A long built-in looks for Ctrl-C and the time limit itself: one step that sorts, filters or formats a big
    /// list used to run to its end (the run only looked between steps, every 1,024 of them). Here Ctrl-C comes as
    /// `show 0` is shown; the statements after it are pure, so only the built-in can notice it.
    @Test(arguments: ["set s = data | sort by a", "set s = data | filter where a > 3", "set t = text(data)",
                      "set t = join(data, \";\")", "set t = \"\\(data)\""])
    func aLongBuiltInStopsWhenTheRunIsCancelled(_ statement: String) async throws {
        let script = "shortcut \"same\" (x: Any) { return x }\nset data = same args\nshow 0\n\(statement)\nset done = 1"
        let compiled = try ScriptCompiler.compile(SourceFile(name: "t.auto", text: script), registry: .standard).get()
        let flag = CancellationFlag()
        let interaction = ScriptedInteraction { _ in flag.cancel() }
        let outcome = await Engine(registry: .standard).run(compiled.program, arguments: [Self.records], interaction: interaction,
                                                            cancellation: flag)
        guard case .cancelled = outcome.ending else {
            Issue.record("\(statement): expected the run to stop, got \(outcome.ending)")
            return
        }
        #expect(interaction.shown == ["0"])
    }

    /// A value larger than the run may build is an error before it is built.
    @Test func aValueOverTheMemoryLimitIsAnErrorBeforeItIsBuilt() async throws {
        let limits = RunLimits(values: ValueLimits(maxBytes: 1_000_000))
        for script in ["set l = [1]\nrepeat 64 times { set l = l + l }", "set l = [1]\nrepeat 64 times { set m = l + l\nset l = m }",
                       "set t = \"ab\"\nrepeat 64 times { set t = t + t }"] {
            let outcome = try await outcome(script, limits: limits)
            guard case .failed(let error) = outcome.ending else {
                Issue.record("\(script): expected the memory limit, got \(outcome.ending)")
                continue
            }
            #expect(error.kind == .memoryLimit(1_000_000))
            // The value itself, or it with what the run holds already, is over the limit: whichever is seen first.
            #expect(error.message.contains("more than a value may (1 MB)") || error.message.contains("more than all its values together may take (1 MB)"),
                    "\(error.message)")
            #expect(error.location?.line == 2)
        }
    }
}
