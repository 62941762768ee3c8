import AutoIntents
import AutoLanguage
import AutoRuntime
import AutoTestSupport
import Testing

// The executor runs control flow once, as the code's jumps, whether or not a call in it awaits (`Code`,
// `Run+Execute`). These scripts go through every construct with a call that runs immediately and again with one that
// awaits: the two must show the same lines, fail the same way and leave the same values.

/// Says its number and gives it back; refuses negative numbers.
struct Mark: ImmediateIntent {
    static let title = "Mark"
    @Parameter var n: Int
    func performNow(_ context: IntentContext) throws -> IntentResult<Int> {
        guard n >= 0 else { throw IntentError("can't mark \(n)") }
        return .result(value: n, dialog: "mark \(n)")
    }
}

/// `Mark` after a real suspension.
struct MarkLater: AppIntent {
    static let title = "Mark later"
    @Parameter var n: Int
    func perform(_ context: IntentContext) async throws -> IntentResult<Int> {
        await Task.yield()
        guard n >= 0 else { throw IntentError("can't mark \(n)") }
        return .result(value: n, dialog: "mark \(n)")
    }
}

@Suite struct ControlFlowTests {
    static let registry = Registry.standard(adding: [Mark.self, MarkLater.self])

    /// The script run with `mark` as written and with `mark later` in its place.
    func bothWays(_ script: String) async -> (immediate: ScriptOutcome, awaiting: ScriptOutcome) {
        let immediate = await EngineHarness.run(script, registry: Self.registry)
        let awaiting = await EngineHarness.run(script.replacingOccurrences(of: "mark ", with: "mark later "), registry: Self.registry)
        return (immediate, awaiting)
    }

    @Test func loopsBreakAndContinueAlikeWhetherOrNotACallAwaits() async {
        let (immediate, awaiting) = await bothWays("""
            set total = 0
            for i in [1, 2, 3, 4, 5, 6] {
              if i == 2 { continue }
              if i == 5 { break }
              mark i
              set total = total + it
            }
            repeat 3 times {
              set total = total + 100
              if total > 250 { break }
              mark total
            }
            set n = 0
            while n < 10 {
              set n = n + 1
              if n % 3 != 0 { continue }
              mark n
              for j in [1, 2] {
                if j == 2 { break }
                mark n * 10 + j
              }
            }
            show "total \\(total), n \\(n)"
            """)
        #expect(immediate.exitCode == 0, "\(immediate.standardError)")
        #expect(immediate.output == ["mark 1", "mark 3", "mark 4", "mark 108", "mark 208", "mark 3", "mark 31", "mark 6",
                                     "mark 61", "mark 9", "mark 91", "total 308, n 10"])
        #expect(awaiting.output == immediate.output)
        #expect(awaiting.exitCode == 0, "\(awaiting.standardError)")
    }

    @Test func aFailureInsideALoopGoesToTheInnermostTry() async {
        let (immediate, awaiting) = await bothWays("""
            for i in [1, -2, 3] {
              try {
                mark i
                try {
                  mark i - 10
                } otherwise {
                  show "inner: \\(error)"
                  mark i * -1
                }
                show "after \\(i)"
              } otherwise {
                show "outer: \\(error)"
              }
            }
            try {
              repeat 2 times { mark -5 }
            } otherwise {
              show "loop: \\(error)"
            }
            mark -7
            show "not reached"
            """)
        #expect(immediate.output == ["mark 1", "inner: mark: can't mark -9", "outer: mark: can't mark -1",
                                     "outer: mark: can't mark -2", "mark 3", "inner: mark: can't mark -7", "outer: mark: can't mark -3",
                                     "loop: mark: can't mark -5"])
        #expect(immediate.exitCode == 1)
        #expect(immediate.standardError.contains("can't mark -7"))
        #expect(awaiting.exitCode == 1)
        #expect(awaiting.output == immediate.output.map { $0.replacingOccurrences(of: "mark:", with: "mark later:") })
    }

    @Test func aShortcutReturnsFromInsideLoopsAndStopEndsOnlyIt() async {
        let (immediate, awaiting) = await bothWays("""
            shortcut "first over" (limit: Int) {
              for i in [1, 5, 9, 12] {
                repeat 2 times {
                  mark i
                  if i > limit { return i }
                }
              }
              return -1
            }
            shortcut "halt" () {
              while true {
                mark 7
                stop
              }
            }
            show first over limit: 4
            show first over limit: 20
            halt
            show "still here"
            """)
        #expect(immediate.exitCode == 0, "\(immediate.standardError)")
        #expect(immediate.output == ["mark 1", "mark 1", "mark 5", "5", "mark 1", "mark 1", "mark 5", "mark 5", "mark 9", "mark 9",
                                     "mark 12", "mark 12", "-1", "mark 7", "still here"])
        #expect(awaiting.output == immediate.output)
    }

    @Test func aLoopThatAwaitsGoesOnWithItsOwnListAfterTheListChanges() async {
        // The loop's list is its own once evaluated: changing the variable it came from changes nothing, and a
        // recursive shortcut's loops each keep their own place.
        let (immediate, awaiting) = await bothWays("""
            shortcut "count down" (n: Int) {
              for i in [n, n - 1] {
                mark i
                if i > 1 { count down n: i - 1 }
              }
            }
            set xs = [1, 2, 3]
            for x in xs {
              set xs = xs + [x * 10]
              mark x
            }
            show xs
            count down n: 2
            """)
        #expect(immediate.exitCode == 0, "\(immediate.standardError)")
        #expect(immediate.output == ["mark 1", "mark 2", "mark 3", "[1, 2, 3, 10, 20, 30]", "mark 2", "mark 1", "mark 0", "mark 1"])
        #expect(awaiting.output == immediate.output)
    }

    @Test func aLoopWhoseBodyIsOneAwaitingCallRunsItsPassesAsAnyLoop() async throws {
        // A loop whose body is one call through an awaiting site goes from call to call in `Run.runPasses`: its
        // passes show, count, fail and leave values as the same loop of an immediate call does.
        let (immediate, awaiting) = await bothWays("""
            for i in [1, 2, 3] { mark i }
            show "it \\(it)"
            repeat 2 times { for j in [4, 5] { mark j * 10 } }
            for x in [7, 8] { mark x }
            repeat 0 times { mark 99 }
            for y in [] { mark 98 }
            show "after \\(it)"
            try {
              for k in [6, 0, -1, 2] { mark k }
            } otherwise {
              show "stopped: \\(error)"
            }
            """)
        #expect(immediate.exitCode == 0, "\(immediate.standardError)")
        #expect(immediate.output == ["mark 1", "mark 2", "mark 3", "it 3", "mark 40", "mark 50", "mark 40", "mark 50",
                                     "mark 7", "mark 8", "after 8", "mark 6", "mark 0", "stopped: mark: can't mark -1"])
        #expect(awaiting.exitCode == 0, "\(awaiting.standardError)")
        #expect(awaiting.output == immediate.output.map { $0.replacingOccurrences(of: "mark:", with: "mark later:") })

        // The same steps: 1 for the `repeat`, 2 a pass (the pass and the call), 1 for `it` after.
        func steps(_ text: String, maxSteps: Int) async throws -> RunOutcome {
            let program = try ScriptCompiler.compile(SourceFile(name: "t.auto", text: text), registry: Self.registry).get().program
            return await Engine(registry: Self.registry, limits: RunLimits(maxSteps: maxSteps)).run(program, interaction: ScriptedInteraction())
        }
        for call in ["mark", "mark later"] {
            let enough = try await steps("repeat 100 times { \(call) 1 }\nit", maxSteps: 202)
            guard case .completed(.int(let value)) = enough.ending else { Issue.record("\(call) stopped: \(enough.ending)"); continue }
            #expect(value == 1)
            let limited = try await steps("repeat 100 times { \(call) 1 }\nit", maxSteps: 201)
            guard case .failed(let error) = limited.ending else { Issue.record("\(call) ran to the end: \(limited.ending)"); continue }
            #expect(error.kind == .stepLimit(201))
            let within = try await steps("for i in [1, 2, 3] { \(call) i }", maxSteps: 4)
            guard case .failed(let stopped) = within.ending else { Issue.record("\(call) ran to the end: \(within.ending)"); continue }
            #expect(stopped.kind == .stepLimit(4))
            #expect(stopped.location?.line == 1)
        }
    }

    @Test func aLoopOfOneStatementStopsAtTheStepLimitAndOnOverflowAsAnyLoop() async throws {
        // `repeat` and `for` whose body is one statement run every pass in one instruction (`Loop.single`).
        let registry = Self.registry
        func run(_ text: String, maxSteps: Int) async throws -> RunOutcome {
            let program = try ScriptCompiler.compile(SourceFile(name: "t.auto", text: text), registry: registry).get().program
            return await Engine(registry: registry, limits: RunLimits(maxSteps: maxSteps)).run(program, interaction: ScriptedInteraction())
        }
        let limited = try await run("set x = 0\nrepeat 100 times { set x = x + 1 }", maxSteps: 150)
        guard case .failed(let error) = limited.ending else { Issue.record("ran to the end: \(limited.ending)"); return }
        #expect(error.kind == .stepLimit(150))
        #expect(error.location?.line == 2)
        // 2 steps before the loop's passes (the `set` and the `repeat`), 2 a pass, and the `x` after: 203.
        let enough = try await run("set x = 0\nrepeat 100 times { set x = x + 1 }\nx", maxSteps: 203)
        guard case .completed(.int(let value)) = enough.ending else { Issue.record("stopped: \(enough.ending)"); return }
        #expect(value == 100)
        let overflow = try await run("set x = 9223372036854775800\nfor i in [1, 2, 3] { set x = x + 3 }", maxSteps: 1000)
        guard case .failed(let failure) = overflow.ending else { Issue.record("no overflow: \(overflow.ending)"); return }
        #expect(failure.message.contains("overflow") || failure.message.contains("too large"), "\(failure.message)")
        let subtracted = try await run("set x = 0\nrepeat 5 times { set x = x - 2 }\nx", maxSteps: 1000)
        guard case .completed(.int(let down)) = subtracted.ending else { Issue.record("stopped: \(subtracted.ending)"); return }
        #expect(down == -10)
    }
}
