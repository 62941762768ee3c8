import AutoIntents
import AutoLanguage
import AutoRuntime
import AutoTestSupport
import Foundation
import Testing

/// Joins its arguments: no parameter has a range, so a call site takes values of their exact type as they are.
struct Join: ImmediateIntent {
    static let title = "Join"
    @Parameter var n: Int
    @Parameter var word: String
    @Parameter(default: true) var loud: Bool
    @Parameter var note: String?
    @Parameter var weight: Double?

    func performNow(_ context: IntentContext) throws -> IntentResult<String> {
        guard n >= 0 else { throw IntentError("can't join \(n) times") }
        let text = String(repeating: loud ? word.uppercased() : word, count: n)
        return .result(value: text + (note.map { " (\($0))" } ?? "") + (weight.map { " x\($0)" } ?? ""))
    }
}

/// `Join` with an async `perform` that really suspends: its calls go through an awaiting site (`AwaitingSite`).
struct JoinLater: AppIntent {
    static let title = "Join later"
    @Parameter var n: Int
    @Parameter var word: String
    @Parameter(default: true) var loud: Bool
    @Parameter var note: String?
    @Parameter var weight: Double?

    func perform(_ context: IntentContext) async throws -> IntentResult<String> {
        await Task.yield()
        guard n >= 0 else { throw IntentError("can't join \(n) times") }
        let text = String(repeating: loud ? word.uppercased() : word, count: n)
        return .result(value: text + (note.map { " (\($0))" } ?? "") + (weight.map { " x\($0)" } ?? ""))
    }
}

/// `JoinLater` with a `perform` that says where it runs: on the global concurrent executor (`@concurrent`), or on the
/// run's own (`nonisolated(nonsending)`, as `AppIntent.perform` is declared). Either satisfies the requirement, and
/// either goes through an awaiting site.
struct JoinConcurrently: AppIntent {
    static let title = "Join concurrently"
    @Parameter var n: Int
    @Parameter var word: String
    @Parameter(default: true) var loud: Bool
    @Parameter var note: String?
    @Parameter var weight: Double?

    @concurrent func perform(_ context: IntentContext) async throws -> IntentResult<String> {
        try await JoinLater(n: n, word: word, loud: loud, note: note, weight: weight).perform(context)
    }
}

struct JoinHere: AppIntent {
    static let title = "Join here"
    @Parameter var n: Int
    @Parameter var word: String
    @Parameter(default: true) var loud: Bool
    @Parameter var note: String?
    @Parameter var weight: Double?

    nonisolated(nonsending) func perform(_ context: IntentContext) async throws -> IntentResult<String> {
        try await JoinLater(n: n, word: word, loud: loud, note: note, weight: weight).perform(context)
    }
}

extension JoinLater {
    init(n: Int, word: String, loud: Bool, note: String?, weight: Double?) {
        self.init()
        self.n = n
        self.word = word
        self.loud = loud
        self.note = note
        self.weight = weight
    }
}

/// Awaits, and asks for another `n` when it is odd.
struct EvenLater: AppIntent {
    static let title = "Even later"
    @Parameter var n: Int
    func perform(_ context: IntentContext) async throws -> IntentResult<Int> {
        await Task.yield()
        guard n.isMultiple(of: 2) else { throw context.needsValue("n", reason: "it must be even") }
        return .result(value: n, dialog: "even \(n)")
    }
}

/// Awaits, then opens `EvenLater` with an odd number, whose need is that intent's, not this one's.
struct OpenOdd: AppIntent {
    static let title = "Open odd"
    @Parameter var n: Int
    func perform(_ context: IntentContext) async throws -> IntentResult<Int> {
        await Task.yield()
        var next = EvenLater()
        next.n = n * 2 + 1
        return .result(value: n, opensIntent: next)
    }
}

/// Calls through a call site (`ActionCall+Bound`): constants set once in the site's intent, computed arguments
/// written on each call. Each must give what the array path gives, which a traced run takes.
@Suite struct CallSiteTests {
    static let registry = Registry.standard(adding: [Join.self, JoinLater.self, JoinConcurrently.self, JoinHere.self, EvenLater.self,
                                                     OpenOdd.self, Scale.self, ScaleLater.self, Tick.self, Bump.self, Shred.self])

    func compile(_ text: String) throws -> CompiledScript {
        try ScriptCompiler.compile(SourceFile(name: "t.auto", text: text), registry: Self.registry).get()
    }

    /// Every call node of the script, in source order, and whether it has a site.
    func sites(_ text: String) throws -> [String] {
        try compile(text).program.main.allNodes.compactMap { node in
            guard case .action(let call) = node.kind else { return nil }
            return "\(call.intent.name): \(call.callsThroughSite)"
        }
    }

    @Test func aCallHasASiteWhenItsConstantsAreReadyAndItsOtherArgumentsCanBe() throws {
        let calls = try sites("""
            join n: 1 word: "a"
            set i = 2
            join n: i word: "b" note: "c"
            tick i
            bump 3
            shred 4
            scale 1.5 by: 3
            """)
        #expect(calls == [
            "join: true", "join: true", "tick: true",
            // Changing intents have sites too: `--what-if` runs take the array path.
            "bump: true",
            // Destructive: confirmed first, so it awaits.
            "shred: false",
            // A parameter with a range is checked on every call.
            "scale: false",
        ])
    }

    @Test func anAwaitingCallHasASiteWhenNothingBeforeItAwaits() throws {
        let calls = try sites("""
            join later n: 1 word: "a"
            set i = 2
            join later n: i word: "b" note: "c"
            even later
            scale later 1.5 by: 3
            """)
        #expect(calls == [
            "join later: true", "join later: true",
            // A missing argument is asked for first.
            "even later: false",
            // A parameter with a range is checked on every call.
            "scale later: false",
        ])
    }

    /// The same compiled program, run through its sites and then along the array path (a trace turns sites off):
    /// constants, computed texts and numbers, an optional left out and given, a default, a value that needs
    /// converting on one call of three, and lists piped into a one-value input; with an immediate intent and with ones
    /// that await, wherever their `perform` runs.
    @Test(arguments: ["join", "join later", "join concurrently", "join here"])
    func aSiteGivesWhatTheArrayPathGives(_ intent: String) async throws {
        let script = try compile("""
            set words = ["a", "b"]
            for i in [0, 1, 2] {
              join n: i word: "w" -> r
              show r
              join n: 2 word: "x"
              show it
              join n: i word: words[1] note: "k" loud: false -> r2
              show r2
              set v = i
              if i == 1 { set v = 2.5 }
              join n: 1 word: "d" weight: v -> r3
              show r3
            }
            [1, 2] | join word: "p" -> ps
            show ps
            set xs = [3, 1]
            xs | join word: "q" -> qs
            show qs
            join n: 1 word: "e" note: nil
            """.replacingOccurrences(of: "join ", with: intent + " "))
        let engine = Engine(registry: script.registry)
        let throughSites = ScriptedInteraction(), alongArrays = ScriptedInteraction()
        let sited = try await engine.run(script.program, interaction: throughSites).value()
        let arrayed = try await engine.run(script.program, interaction: alongArrays, trace: RunTrace()).value()
        #expect(throughSites.shown == [
            "", "XX", " (k)", "D x0.0",
            "W", "XX", "b (k)", "D x2.5",
            "WW", "XX", "bb (k)", "D x2.0",
            #"["P", "PP"]"#, #"["QQQ", "Q"]"#,
        ])
        #expect(throughSites.shown == alongArrays.shown)
        #expect(ValueFormatter.display(sited) == "E" && ValueFormatter.display(arrayed) == "E", "\(sited) \(arrayed)")
    }

    @Test(arguments: ["join", "join later"])
    func anErrorThroughASiteHasItsLocation(_ intent: String) async throws {
        // The column of the argument, after the intent's name.
        let shift = intent.count - "join".count
        let wrongKind = await EngineHarness.run("set w = \"a\"\nfor v in [1, \"2\"] { \(intent) n: v word: w }", registry: Self.registry)
        #expect(wrongKind.exitCode == 1)
        #expect(wrongKind.standardError.contains("test.auto:2:\(29 + shift): error:"), "\(wrongKind.standardError)")
        let refused = await EngineHarness.run("for v in [1, -1] { \(intent) n: v word: \"a\" -> j\nshow j }", registry: Self.registry)
        #expect(refused.output == ["A"])
        #expect(refused.standardError.contains("test.auto:1:20: error: \(intent): can't join -1 times"), "\(refused.standardError)")
        // A site of constants only, which performs on its own intent.
        let refusedConstants = await EngineHarness.run("show 1\n  \(intent) n: -1 word: \"a\"\nshow 2", registry: Self.registry)
        #expect(refusedConstants.output == ["1"] && refusedConstants.exitCode == 1)
        #expect(refusedConstants.standardError.contains("test.auto:2:3: error: \(intent): can't join -1 times"), "\(refusedConstants.standardError)")
        let failing = await EngineHarness.run("set w = \"a\"\nrepeat 2 times { \(intent) n: 1 / 0 word: w }", registry: Self.registry)
        #expect(failing.standardError.contains("test.auto:2:\(26 + shift): error:"), "\(failing.standardError)")
    }

    @Test func theNeedOfAnOpenedIntentIsNotAskedAsTheCallersParameter() async throws {
        let outcome = await EngineHarness.run("open odd n: 1", registry: Self.registry, answers: ["4"])
        #expect(outcome.questions.isEmpty)
        #expect(outcome.exitCode == 1)
        #expect(outcome.standardError.contains("open odd"), "\(outcome.standardError)")
    }

    @Test func anAwaitingSiteWhoseIntentNeedsAValueAsksForIt() async throws {
        let outcome = await EngineHarness.run("set n = 3\neven later n: n -> e\nshow e + 1", registry: Self.registry, answers: ["4"])
        #expect(outcome.exitCode == 0, "\(outcome.standardError)")
        #expect(outcome.questions.count == 1)
        #expect(outcome.output == ["even 4", "5"])
    }

    /// One compiled program run six times at once, as an automation's body is: each run's calls of one site see
    /// only their own arguments, whether they take the site's intent or find it taken and copy it.
    @Test(arguments: ["join", "join later"])
    func runsOfOneProgramAtOnceEachGetTheirOwnArguments(_ intent: String) async throws {
        let script = try compile("""
            set wrong = 0
            set i = 0
            repeat 2000 times {
              set i = i + 1
              set k = i % 7
              join n: k word: "r" loud: false -> s
              if count(s) != k { set wrong = wrong + 1 }
              join n: 1 word: "c" -> c
              if c != "C" { set wrong = wrong + 1 }
            }
            wrong
            """.replacingOccurrences(of: "join ", with: intent + " "))
        let engine = Engine(registry: script.registry)
        let results = await withTaskGroup(of: String.self) { group in
            for _ in 1...6 {
                group.addTask {
                    let outcome = await engine.run(script.program, interaction: ScriptedInteraction())
                    return (try? outcome.value()).map(ValueFormatter.inline) ?? "\(outcome.ending)"
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results == Array(repeating: "0", count: 6))
    }

    @Test func whatIfStillStopsBeforeAChangeWithASite() async throws {
        let outcome = await EngineHarness.run("set n = 1\ntick n\nbump n", registry: Self.registry, whatIf: true)
        #expect(outcome.output == ["tick 1", "What if: Bump 1"])
    }
}
