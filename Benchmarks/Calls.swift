import AutoIntents
import AutoLanguage
import AutoRuntime
import Foundation

// Workloads 2 and 3: the interpreter's own speed. 1M calls of a native intent with two named parameters,
// and 1M iterations of `set x = x + 1`, against the same loops in Lua 5.4 and Python 3.

/// The trivial intent of workload 2: two Int parameters, returns their sum. Immediate, as an intent that only
/// computes should be: it never awaits.
struct AddNumbers: ImmediateIntent {
    static let title = "Add numbers"
    @Parameter var a: Int
    @Parameter var b: Int

    func performNow(_ context: IntentContext) throws -> IntentResult<Int> {
        .result(value: a + b)
    }
}

/// The same intent written with an async `perform`, as an intent that may wait is: each call then awaits.
struct AddNumbersLater: AppIntent {
    static let title = "Add numbers later"
    @Parameter var a: Int
    @Parameter var b: Int

    func perform(_ context: IntentContext) async throws -> IntentResult<Int> {
        .result(value: a + b)
    }
}

/// The standard registry with `add numbers` and `add numbers later`.
func benchRegistry() throws -> Registry {
    var registry = Registry.standard
    try registry.register(AddNumbers.self)
    try registry.register(AddNumbersLater.self)
    return registry
}

/// Compiles a script or stops the benchmark with its diagnostics.
func compileOrExit(_ text: String, name: String, registry: Registry) -> CompiledScript {
    switch ScriptCompiler.compile(SourceFile(name: name, text: text), registry: registry) {
    case .success(let compiled): return compiled
    case .failure(let failure):
        print("auto-bench: \(name) does not compile:")
        for diagnostic in failure.diagnostics.prefix(10) { print("  \(diagnostic)") }
        exit(1)
    }
}

@Sendable func callsWorkload(_ options: Options, _ anchors: Anchors, _ notes: Notes) async throws -> [ResultRow] {
    let n = options.iterations
    let registry = try benchRegistry()
    let executor = Engine(registry: registry)

    // Each intent answers correctly before it is timed.
    for intent in ["add numbers", "add numbers later"] {
        let check = compileOrExit("\(intent) a: 40 b: 2", name: "check.auto", registry: registry)
        let answer = try await executor.run(check.program, interaction: Silent()).value()
        if ValueFormatter.inline(answer) != "42" { notes.mismatch("calls: \(intent) a: 40 b: 2 gave \(ValueFormatter.inline(answer)), not 42") }
    }

    let program = compileOrExit("repeat \(n) times { add numbers a: 1 b: 2 }", name: "calls.auto", registry: registry).program
    // The same call with an argument computed on each call (a variable), so that a call also writes it into the intent.
    let computed = compileOrExit("set x = 1\nrepeat \(n) times { add numbers a: x b: 2 }", name: "calls-computed.auto", registry: registry).program
    let awaiting = compileOrExit("repeat \(n) times { add numbers later a: 1 b: 2 }", name: "calls-async.auto", registry: registry).program
    func timed(_ program: Program) async throws -> Timing {
        .milliseconds(try await measure(options.slowRepetitions) { _ = try await executor.run(program, interaction: Silent()).value() })
    }
    let timings = try await alternating(rounds: options.rounds, [
        { try await timed(program) },
        { try await timed(computed) },
        { try await timed(awaiting) },
        {
            anchors.lua(luaPrelude + """
                local function add(t) return t.a + t.b end
                local result
                print(bench(function() for i = 1, \(n) do result = add({a = 1, b = 2}) end end, \(options.slowRepetitions)))
                """).0
        },
        {
            anchors.python(pythonPrelude + """
                class Numbers:
                    def add(self, a, b): return a + b
                def calls():
                    numbers = Numbers()
                    for _ in range(\(n)): numbers.add(a=1, b=2)
                print(bench(calls, \(options.slowRepetitions)))
                """).0
        },
    ])
    let (engine, engineComputed, engineAwaiting, lua, python) = (timings[0], timings[1], timings[2], timings[3], timings[4])
    notes.add("calls: `repeat \(n) times { add numbers a: 1 b: 2 }` with a native ImmediateIntent (two Int @Parameters, "
        + "`performNow`), compiled once, run \(options.slowRepetitions) times in each of \(options.rounds) rounds that take turns with the anchors' (the median of the rounds' medians); the next row gives `a` a variable (`a: x`), "
        + "computed on each call, and the last is the same intent with an async `perform` (an AppIntent that may wait). Lua calls `add({a = 1, b = 2})` (a fresh table per call), timed with os.clock; "
        + "Python calls `numbers.add(a=1, b=2)` on an object, timed with time.perf_counter.")
    let anchorsOfCalls: [(name: String, timing: Timing)] = [("Lua 5.4 (function taking a table)", lua), ("Python 3 (method, keyword arguments)", python)]
    return [
        ResultRow(workload: "\(n.formatted()) calls of an intent with 2 named parameters", engine: engine,
                  anchors: anchorsOfCalls, goal: .atMost(40, "≤ 40 ms (issue 17)"), scaled: n != 1_000_000),
        ResultRow(workload: "\(n.formatted()) calls, the same with a: x (a variable)", engine: engineComputed,
                  anchors: anchorsOfCalls, goal: Goal(text: "none (the row above with an argument read on each call)", limit: nil)),
        ResultRow(workload: "\(n.formatted()) calls, the same intent with an async perform", engine: engineAwaiting,
                  anchors: anchorsOfCalls, goal: .atMost(50, "≤ 50 ms (issue 35)"), scaled: n != 1_000_000),
    ]
}

@Sendable func loopWorkload(_ options: Options, _ anchors: Anchors, _ notes: Notes) async throws -> [ResultRow] {
    let n = options.iterations
    let registry = try benchRegistry()
    let executor = Engine(registry: registry)
    let program = compileOrExit("set x = 0\nrepeat \(n) times { set x = x + 1 }\nshow x", name: "loop.auto", registry: registry).program
    let timings = try await alternating(rounds: options.rounds, [
        { .milliseconds(try await measure(options.repetitions) { _ = try await executor.run(program, interaction: Silent()).value() }) },
        {
            anchors.lua(luaPrelude + """
                print(bench(function() local x = 0; for i = 1, \(n) do x = x + 1 end end, \(options.repetitions)))
                """).0
        },
        {
            anchors.python(pythonPrelude + """
                def loop():
                    x = 0
                    for _ in range(\(n)): x = x + 1
                print(bench(loop, \(options.repetitions)))
                """).0
        },
    ])
    let (engine, lua, python) = (timings[0], timings[1], timings[2])
    notes.add("loop: `set x = 0; repeat \(n) times { set x = x + 1 }` against Lua's numeric for over a local and Python's "
        + "for over range() in a function (local variables, the fast case for both), in \(options.rounds) rounds that take turns, as the calls' are, each the median of \(options.repetitions) runs (a run is a few milliseconds).")
    return [ResultRow(workload: "\(n.formatted()) iterations of set x = x + 1", engine: engine,
                      anchors: [("Lua 5.4 (numeric for, local)", lua), ("Python 3 (for in range, local)", python)],
                      goal: .atMost(20, "≤ 20 ms (issue 17)"), scaled: n != 1_000_000)]
}
