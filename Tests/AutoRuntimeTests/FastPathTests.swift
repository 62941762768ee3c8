import AutoIntents
import AutoLanguage
import AutoRuntime
import AutoTestSupport
import Foundation
import Testing

/// The evaluator's fast paths (two Ints computed in place; a variable and a number, two variables) give what the
/// general path gives — results, errors and their locations — and a loop of them still stops at the run's limits.
@Suite struct FastPathTests {
    func outcome(_ text: String, limits: RunLimits = RunLimits(), cancellation: CancellationFlag = CancellationFlag()) async throws -> RunOutcome {
        let compiled = try ScriptCompiler.compile(SourceFile(name: "t.auto", text: text), registry: .standard).get()
        return await Engine(registry: compiled.registry).run(compiled.program, interaction: ScriptedInteraction(),
                                                             cancellation: cancellation, limits: limits)
    }

    func value(_ text: String) async throws -> String {
        ValueFormatter.inline(try await outcome(text).value())
    }

    func error(_ text: String) async throws -> RuntimeError? {
        guard case .failed(let error) = try await outcome(text).ending else { return nil }
        return error
    }

    /// Every shape the evaluator specialises, as a template: a variable and a constant (`Y`, the value of y), two
    /// variables, and any two operands.
    static let shapes = ["x OP Y", "x OP y", "(x + 0) OP (y + 0)"]

    /// The script `set x = …; set y = …; <shape>`, with `op` and y's value in it.
    func script(_ shape: String, _ op: String, x: String, y: String) -> String {
        "set x = \(x)\nset y = \(y)\n" + shape.replacingOccurrences(of: "OP", with: op).replacingOccurrences(of: "Y", with: y)
    }

    @Test(arguments: shapes)
    func overflowIsTheGeneralPathsError(_ shape: String) async throws {
        let max = "9223372036854775807", min = "-9223372036854775808"
        for (op, x, y) in [("+", max, "1"), ("-", min, "1"), ("*", max, "2")] {
            let error = try await error(script(shape, op, x: x, y: y))
            #expect(error?.message == "integer overflow: \(x) \(op) \(y) does not fit in 64 bits", "\(shape) \(op)")
            #expect(error?.location?.line == 3)
        }
    }

    @Test(arguments: shapes)
    func intsGiveTheSameResultsAsTheGeneralPath(_ shape: String) async throws {
        for (op, x, y, result) in [("+", "7", "1", "8"), ("-", "7", "1", "6"), ("*", "7", "3", "21"), ("%", "7", "3", "1"),
                                   // Division of Ints is exact: a Decimal, never an Int cut short.
                                   ("/", "7", "2", "3.5"),
                                   ("<", "7", "1", "false"), ("<=", "1", "1", "true"), (">", "7", "1", "true"), (">=", "0", "1", "false"),
                                   ("==", "1", "1", "true"), ("!=", "1", "1", "false")] {
            #expect(try await value(script(shape, op, x: x, y: y)) == result, "\(shape) \(op)")
        }
    }

    @Test func otherValuesTakeTheGeneralPath() async throws {
        #expect(try await value("set x = 0.5\nx + 1") == "1.5")
        #expect(try await value("set x = 2.5\nx < 3") == "true")
        #expect(try await value("set x = \"a\"\nset x = x + \"b\"\nx") == "\"ab\"")
        // Comparing with nil is false, as before.
        #expect(try await value("set x = [1]\nset y = x[5]\ny < 3") == "false")
        // The remainders the fast path leaves to `Operations`: by -1 (0 for every Int) and by 0 (an error).
        #expect(try await value("set x = -9223372036854775808\nx % -1") == "0")
        let byZero = try await error("set x = 5\nset y = 0\nx % y")
        #expect(byZero?.message == "remainder of division by zero (5 % 0)")
        #expect(byZero?.location?.line == 3)
        // A value the checker can't type (Any) is checked when it is used.
        let mixed = try await error("set x = parseJson(\"\\\"a\\\"\")\nx - 1")
        #expect(mixed?.message == "can't apply '-' to Text and Int")
    }

    @Test func aLoopOfFastStatementsStopsAtTheStepLimit() async throws {
        let outcome = try await outcome("set x = 0\nrepeat 1000000000 times { set x = x + 1 }", limits: RunLimits(maxSteps: 10_000))
        guard case .failed(let error) = outcome.ending else {
            Issue.record("expected the step limit, got \(outcome.ending)")
            return
        }
        #expect(error.kind == .stepLimit(10_000))
    }

    /// A loop of one fast statement runs most passes without counting each step in the run (`Run.quietPasses`): it
    /// must stop at the same step as a loop the general path runs, whatever the count, with the same error and place.
    @Test func aLoopOfFastStatementsStopsAtTheSameStepAsTheGeneralPath() async throws {
        let limits = RunLimits(maxSteps: 2_000)
        var endings: Set<String> = []
        for count in 990...1_010 {
            for body in ["set x = x + 1", "set x = x * 1"] {
                let fast = try await outcome("set x = 0\nrepeat \(count) times { \(body) }\nx", limits: limits)
                let general = try await outcome("set x = 0\nrepeat \(count) times { set x = x + 0.0 }\nx", limits: limits)
                switch (fast.ending, general.ending) {
                case (.failed(let a), .failed(let b)):
                    #expect(a.kind == b.kind && a.location?.line == b.location?.line, "\(count) × \(body)")
                    endings.insert("failed")
                case (.completed, .completed):
                    endings.insert("completed")
                default:
                    Issue.record("\(count) × \(body): the fast loop ended \(fast.ending), the general one \(general.ending)")
                }
            }
        }
        // The counts straddle the limit.
        #expect(endings == ["failed", "completed"])
    }

    /// An overflow in the middle of a loop's passes is the general path's error, and the passes before it happened.
    @Test func anOverflowInALoopStopsItAtThatPass() async throws {
        let added = try await error("set x = 9223372036854775000\nrepeat 5000 times { set x = x + 1 }")
        #expect(added?.message == "integer overflow: 9223372036854775807 + 1 does not fit in 64 bits")
        #expect(added?.location?.line == 2)
        let doubled = try await error("set x = 1\nrepeat 100 times { set x = x * 2 }")
        #expect(doubled?.message == "integer overflow: 4611686018427387904 * 2 does not fit in 64 bits")
        #expect(doubled?.location?.line == 2)
        // Each pass wrote the variable.
        #expect(try await value("set x = 3\nrepeat 7 times { set x = x * 2 }\nx") == "384")
        #expect(try await value("set x = 0\nrepeat 3000 times { set x = x - 2 }\nx") == "-6000")
        // `it` held a text before the loop and the variable's value after; a variable from another is set each pass.
        #expect(try await value("set x = 0\n\"a\"\nrepeat 3000 times { set x = x + 1 }\nit") == "3000")
        #expect(try await value("set x = 7\nset y = 0\nrepeat 3000 times { set y = x - 1 }\n[x, y]") == "[7, 6]")
        // A variable that holds something else until the loop's first pass.
        #expect(try await value("set x = 0.5\nrepeat 3000 times { set x = x + 1 }\nx") == "3000.5")
    }

    @Test func aLoopOfFastStatementsStopsAtTheTimeLimit() async throws {
        let started = ContinuousClock.now
        let outcome = try await outcome("set x = 0\nwhile x >= 0 { set x = x + 1 }", limits: RunLimits(maxDuration: .milliseconds(100)))
        guard case .failed(let error) = outcome.ending else {
            Issue.record("expected the time limit, got \(outcome.ending)")
            return
        }
        #expect(error.kind == .timeLimit(.milliseconds(100)))
        // Generous: under load the whole suite has held both threads of the test pool for over a minute, and the
        // deadline's task waits for one like every other.
        #expect(ContinuousClock.now - started < .seconds(300))
    }

    @Test func aLoopOfFastStatementsStopsWhenCancelled() async throws {
        let flag = CancellationFlag()
        // Ctrl-C comes from another thread, not from a task that the busy test pool might start late.
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 0.05)
            flag.cancel()
        }
        let outcome = try await outcome("set x = 0\nwhile true { set x = x + 1 }", limits: RunLimits(maxSteps: .max), cancellation: flag)
        guard case .cancelled = outcome.ending else {
            Issue.record("expected a cancellation, got \(outcome.ending)")
            return
        }
    }
}
