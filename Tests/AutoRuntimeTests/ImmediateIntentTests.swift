import AutoIntents
import AutoLanguage
import AutoRuntime
import AutoTestSupport
import Foundation
import Testing

// Intents that run without awaiting (`ImmediateIntent`), each beside an awaiting twin where the two must agree.

/// Multiplies a number: a decimal parameter (so an Int argument is converted), a default with a range, and an
/// optional text.
struct Scale: ImmediateIntent {
    static let title = "Scale"
    @Parameter(question: "Scale what?") var value: Double
    @Parameter(default: 2, range: 0...100) var by: Int
    @Parameter var label: String?

    func performNow(_ context: IntentContext) throws -> IntentResult<String> {
        .result(value: "\(label ?? "x") = \(value * Double(by))")
    }
}

/// `Scale` with an async `perform` that really suspends.
struct ScaleLater: AppIntent {
    static let title = "Scale later"
    @Parameter(question: "Scale what?") var value: Double
    @Parameter(default: 2, range: 0...100) var by: Int
    @Parameter var label: String?

    func perform(_ context: IntentContext) async throws -> IntentResult<String> {
        await Task.yield()
        return .result(value: "\(label ?? "x") = \(value * Double(by))")
    }
}

/// Says its number; refuses negative ones.
struct Tick: ImmediateIntent {
    static let title = "Tick"
    @Parameter var n: Int

    func performNow(_ context: IntentContext) throws -> IntentResult<Int> {
        guard n >= 0 else { throw IntentError("can't tick \(n)") }
        return .result(value: n, dialog: "tick \(n)")
    }
}

/// Says its number after awaiting.
struct Tock: AppIntent {
    static let title = "Tock"
    @Parameter var n: Int

    func perform(_ context: IntentContext) async throws -> IntentResult<Int> {
        await Task.yield()
        return .result(value: n, dialog: "tock \(n)")
    }
}

/// Destructive, so confirmed before it runs, immediate or not.
struct Shred: ImmediateIntent {
    static let title = "Shred"
    static let sideEffect = SideEffect.destructive
    @Parameter var n: Int
    func performNow(_ context: IntentContext) throws -> IntentResult<NoValue> { .result(dialog: "shredded \(n)") }
}

/// Changes something: `--what-if` stops before it.
struct Bump: ImmediateIntent {
    static let title = "Bump"
    static let sideEffect = SideEffect.changes
    @Parameter var n: Int
    func performNow(_ context: IntentContext) throws -> IntentResult<Int> { .result(value: n + 1, dialog: "bumped") }
}

/// Asks for another value through `needsValue`, which an immediate intent can't wait for.
struct Needy: ImmediateIntent {
    static let title = "Needy"
    @Parameter var n: Int
    func performNow(_ context: IntentContext) throws -> IntentResult<Int> {
        guard n.isMultiple(of: 2) else { throw context.needsValue("n", reason: "it must be even") }
        return .result(value: n)
    }
}

/// Opens an immediate intent: its result and dialog follow this one's.
struct Hop: ImmediateIntent {
    static let title = "Hop"
    @Parameter var n: Int
    func performNow(_ context: IntentContext) throws -> IntentResult<Int> {
        var next = Tick()
        next.n = n
        return .result(value: n, dialog: "hopping", opensIntent: next)
    }
}

/// Opens an intent that awaits, which an immediate intent can't run.
struct Leap: ImmediateIntent {
    static let title = "Leap"
    @Parameter var n: Int
    func performNow(_ context: IntentContext) throws -> IntentResult<Int> {
        var next = Tock()
        next.n = n
        return .result(value: n, opensIntent: next)
    }
}

extension Registry {
    /// The built-ins and `intents`, for a suite's scripts; a registration that fails is the test's failure.
    static func standard(adding intents: [any AppIntent.Type]) -> Registry {
        var registry = Registry.standard
        do {
            for intent in intents { try registry.register(intent) }
        } catch {
            Issue.record("registration failed: \(error)")
        }
        return registry
    }
}

@Suite struct ImmediateIntentTests {
    static let registry = Registry.standard(adding: [Scale.self, ScaleLater.self, Tick.self, Tock.self, Shred.self, Bump.self,
                                                     Needy.self, Hop.self, Leap.self])

    func script(_ text: String) throws -> CompiledScript {
        try ScriptCompiler.compile(SourceFile(name: "t.auto", text: text), registry: Self.registry).get()
    }

    @Test func immediateAndAwaitingIntentsGiveTheSameResults() async throws {
        let script = """
            for i in [1, 2, 3] {
              scale i
              scale i by: i + 1 label: "n"
              repeat 2 times { scale 0.5 label: "half" }
            }
            [4, 5] | scale -> scaled
            show scaled
            scale 1.5 label: nil
            """
        let immediate = await EngineHarness.run(script, registry: Self.registry)
        let awaiting = await EngineHarness.run(script.replacingOccurrences(of: "scale ", with: "scale later "), registry: Self.registry)
        #expect(immediate.exitCode == 0, "\(immediate.standardError)")
        #expect(immediate.output == awaiting.output)
        #expect(immediate.output.last == "x = 3.0")
        #expect(immediate.output.dropLast().last == "[\"x = 8.0\", \"x = 10.0\"]")
    }

    @Test func onlyCallsThatNeverWaitRunWithoutAwaiting() throws {
        func awaited(_ source: String) throws -> [String] { try script(source).graph.awaitedNodes.map(\.label) }
        #expect(try awaited("repeat 3 times { scale 2 }").isEmpty)
        #expect(try awaited("for i in [1, 2] { if i > 1 { tick i } else { show i } }").isEmpty)
        #expect(try awaited("repeat 3 times { scale later 2 }").count == 1)
        // In a loop with an awaiting call, only that call awaits.
        #expect(try awaited("repeat 3 times { scale 2\ntock 1 }").count == 1)
        // A missing argument is asked for and a destructive intent is confirmed: both wait for an answer.
        #expect(try awaited("scale").count == 1)
        #expect(try awaited("shred 1").count == 1)
    }

    @Test func aMissingArgumentIsStillAskedForBeforeTheIntentRuns() async throws {
        let outcome = await EngineHarness.run("scale label: \"asked\"", registry: Self.registry, answers: ["4"])
        #expect(outcome.questions == ["Scale what?"])
        #expect(outcome.output == ["asked = 8.0"])
    }

    @Test(arguments: [false, true])
    func dialogsKeepTheirOrderAroundAwaitingWork(showsOnlyByAwaiting: Bool) async throws {
        let interaction = ScriptedInteraction(confirmations: [true], showsOnlyByAwaiting: showsOnlyByAwaiting)
        _ = try await script("for i in [1, 2] { tick i }\ntock 3\nrepeat 1 times { tick 4 }\nshred 5\ntick 6").run(interaction: interaction)
        #expect(interaction.events == ["show: tick 1", "show: tick 2", "show: tock 3", "show: tick 4",
                                       "confirm: Shred 5? This can't be undone.", "show: shredded 5", "show: tick 6"])
    }

    @Test(arguments: [false, true])
    func whatALoopShowedBeforeItFailedIsShownAndTheErrorHasItsLocation(showsOnlyByAwaiting: Bool) async throws {
        let interaction = ScriptedInteraction(showsOnlyByAwaiting: showsOnlyByAwaiting)
        do {
            _ = try await script("show 0\nfor i in [1, 2, -1, 3] { tick i }").run(interaction: interaction)
            Issue.record("expected tick to fail on -1")
        } catch let error as RuntimeError {
            #expect(error.message == "tick: can't tick -1")
            #expect(error.location?.line == 2)
        }
        #expect(interaction.shown == ["0", "tick 1", "tick 2"])
    }

    @Test func needsValueFromAnImmediateIntentIsAnErrorNotAQuestion() async throws {
        let outcome = await EngineHarness.run("needy 2\nneedy 3", registry: Self.registry, answers: ["4"])
        #expect(outcome.exitCode == 1)
        #expect(outcome.questions.isEmpty)
        #expect(outcome.standardError.contains("test.auto:2:1: error: needy: needs a value for 'n': it must be even"), "\(outcome.standardError)")
    }

    @Test func anImmediateIntentOpensImmediateIntentsOnly() async throws {
        let hop = await EngineHarness.run("hop 7 -> landed\nshow landed + 1", registry: Self.registry)
        #expect(hop.exitCode == 0, "\(hop.standardError)")
        #expect(hop.output == ["hopping", "tick 7", "8"])
        let leap = await EngineHarness.run("show 1\nleap 7", registry: Self.registry)
        #expect(leap.exitCode == 1)
        #expect(leap.output == ["1"])
        #expect(leap.standardError.contains("test.auto:2:1: error: leap: can't open 'Tock', which awaits, from an intent that runs immediately"),
                "\(leap.standardError)")
    }

    @Test func whatIfStopsBeforeAnImmediateChange() async throws {
        let outcome = await EngineHarness.run("tick 1\nrepeat 3 times { bump 1 }", registry: Self.registry, whatIf: true)
        #expect(outcome.output == ["tick 1", "What if: Bump 1"])
        // A list says every action it would run, as it does for an intent that awaits.
        let list = await EngineHarness.run("[1, 2] | bump", registry: Self.registry, whatIf: true)
        #expect(list.output == ["What if: Bump 1", "What if: Bump 2"])
    }

    @Test func aListPipedIntoAnImmediateIntentRunsItForEachElement() async throws {
        let outcome = await EngineHarness.run("[1, 2, 3] | tick -> ticks\nfor t in ticks { show t * 10 }", registry: Self.registry)
        #expect(outcome.output == ["tick 1", "tick 2", "tick 3", "10", "20", "30"])
    }

    @Test func argumentsAreConvertedAndCheckedWithTheirLocation() async throws {
        let outcome = await EngineHarness.run("scale 3 by: 1 -> s\nshow s\nset d = 200\nrepeat 2 times { scale 1 by: d }", registry: Self.registry)
        #expect(outcome.output == ["x = 3.0"])
        #expect(outcome.standardError.contains("test.auto:4:30: error: 'by' of 'scale' must be between 0 and 100, got 200"), "\(outcome.standardError)")
    }

    /// A call site knows which of its arguments are ready as they are; one whose value changes kind from call to call
    /// (a Decimal, then an Int the Double parameter converts) is prepared on each call that needs it, a default is
    /// filled in where nothing is written, and the intent never sees the previous call's values.
    @Test func argumentsThatChangeKindFromCallToCallArePreparedEachTime() async throws {
        let outcome = await EngineHarness.run("""
            for v in [1.5, 2, 2.5] { scale v by: 2 -> s\nshow s }
            for v in [1.5, 2] { scale v -> s\nshow s }
            set l = "y"
            for n in [1, 2] { scale n by: n label: l -> s\nshow s\nset l = nil }
            """, registry: Self.registry)
        #expect(outcome.output == ["x = 3.0", "x = 4.0", "x = 5.0", "x = 3.0", "x = 4.0", "y = 1.0", "x = 4.0"], "\(outcome.standardError)")
    }

    /// A call fills in the intent its descriptor keeps for reuse: what one call gave is put back after it, so a call
    /// that leaves a parameter out gets its default, not the previous call's value.
    @Test func aParameterLeftOutAfterACallThatGaveItHasItsDefault() async throws {
        let outcome = await EngineHarness.run("""
            scale 1 by: 5 label: "big" -> a
            scale 1 -> b
            show a
            show b
            """, registry: Self.registry)
        #expect(outcome.output == ["big = 5.0", "x = 2.0"], "\(outcome.standardError)")
    }

    /// Runs calling the same intent at once: a call that finds the kept intent taken fills in a copy, and no call
    /// sees another's arguments.
    @Test func runsCallingOneIntentAtOnceEachGetTheirOwnArguments() async throws {
        let wrongCounts = await withTaskGroup(of: String.self) { group in
            for k in 1...6 {
                group.addTask {
                    let outcome = await EngineHarness.run("""
                        set wrong = 0
                        repeat 3000 times {
                          scale 1 by: \(k) label: "r\(k)" -> s
                          if s != "r\(k) = \(k).0" { set wrong = wrong + 1 }
                          scale 1 -> d
                          if d != "x = 2.0" { set wrong = wrong + 1 }
                        }
                        show wrong
                        """, registry: Self.registry)
                    return "\(k): \(outcome.output) \(outcome.standardError)"
                }
            }
            return await group.reduce(into: []) { $0.append($1) }.sorted()
        }
        #expect(wrongCounts == (1...6).map { "\($0): [\"0\"] " })
    }

    @Test func cancellationStopsALoopOfImmediateCalls() async throws {
        let flag = CancellationFlag()
        let loop = try script("repeat 1_000_000_000 times { scale 1 }")
        // Cancelled from a Dispatch thread: the loop holds one thread of the shared pool, and other suites' blocking
        // tests may hold the rest, so a canceller waiting for the pool could come only when the step limit stops it.
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) { flag.cancel() }
        let run = Task { try await loop.run(cancellation: flag) }
        await #expect(throws: RunCancelled.self) { try await run.value }
    }

    @Test func aClassIntentIsRefused() {
        final class Shared: AppIntent, @unchecked Sendable {
            static let title = "Shared"
            init() {}
            func perform(_ context: IntentContext) async throws -> IntentResult<NoValue> { .result() }
        }
        var registry = Registry.standard
        #expect(throws: RegistrationError.self) { try registry.register(Shared.self) }
    }
}
