import AutoIntents
import AutoRuntime
import AutoTestSupport
import Foundation
import Testing

/// Nested values and the stack: every walk over a value at the nesting limit fits the stack of the thread
/// that runs a script, and nothing builds a value deeper than the limit.
@Suite struct ValueNestingTests {
    /// A list nested `depth` levels deep, lists and records in turn. Built directly: `ValueLimits` would walk
    /// the whole value at each level, and this is about walking it.
    static func nested(_ depth: Int) -> Value {
        var value = Value.list([.int(1)])
        for level in 1..<depth {
            value = level.isMultiple(of: 2) ? .list([value]) : .record(Record(["a": value]))
        }
        return value
    }

    /// The same, built through `ValueLimits` as a script builds it.
    static func nested(_ depth: Int, limits: ValueLimits) throws -> Value {
        var value = try limits.list([.int(1)])
        for level in 1..<depth {
            value = level.isMultiple(of: 2) ? try limits.list([value]) : try limits.record(Record(["a": value]))
        }
        return value
    }

    /// Runs `work` on a thread with a stack of `size` bytes: an overflow would crash the test process, which
    /// is how this test fails.
    static func onStack(of size: Int, _ work: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            work()
            done.signal()
        }
        thread.stackSize = size
        thread.start()
        done.wait()
    }

    static func walkAndFree(_ depth: Int) -> Bool {
        // Built, walked and freed inside, so that freeing happens on the small stack too.
        let value = nested(depth), copy = nested(depth)
        let text = ValueFormatter.display(value)
        let json = ValueFormatter.json(value)
        let interpolated = ValueFormatter.interpolated(value)
        return Operations.equal(value, copy) && text.count > depth && json.count > depth && interpolated == text
            && (try? ValueLimits(maxDepth: depth).list([value])) == nil
    }

    @Test func walksAtTheCeilingFitTheStackOfAWorkerThread() {
        // 8 MB: the stack of a Swift concurrency worker thread on Linux, where scripts run.
        nonisolated(unsafe) var ok = false
        Self.onStack(of: 8 << 20) { ok = Self.walkAndFree(ValueLimits.ceiling) }
        #expect(ok)
    }

    @Test func walksAtTheDefaultLimitFitOneMegabyte() {
        nonisolated(unsafe) var ok = false
        Self.onStack(of: 1 << 20) { ok = Self.walkAndFree(ValueLimits.defaultMaxDepth) }
        #expect(ok)
    }

    @Test func aValueOneLevelTooDeepIsAnError() throws {
        let limits = ValueLimits(maxDepth: 10)
        let atLimit = try Self.nested(10, limits: limits)
        #expect(throws: EvaluationError.self) { try limits.list([atLimit]) }
        #expect(throws: EvaluationError.self) { try limits.record(Record(["deeper": atLimit])) }
        // Beside it, at the same depth, is fine: only nesting counts.
        #expect((try? limits.list([.int(1), .list([]), .text("x")])) != nil)
    }

    @Test func theLimitStaysWithinTheCeiling() {
        #expect(ValueLimits(maxDepth: 1_000_000).maxDepth == ValueLimits.ceiling)
        #expect(ValueLimits(maxDepth: -3).maxDepth == 1)
        #expect(ValueLimits().maxDepth == ValueLimits.defaultMaxDepth)
    }

    @Test func aDeepValueIsValidJSON() async throws {
        let script = "set x = [1]\nrepeat 999 times { set x = {a: [x]} }\nx"
        let outcome = await EngineHarness.run(script, registry: EngineHarness.sampleRegistry, json: true)
        #expect(outcome.exitCode == 1)
        #expect(outcome.standardError.contains("would nest more than 1000 levels deep"))

        // Foundation's JSON parser stops at 512 levels: 500 are read back.
        let deep = await EngineHarness.run("set x = [1]\nrepeat 249 times { set x = {a: [x]} }\nx", registry: EngineHarness.sampleRegistry, json: true)
        #expect(deep.exitCode == 0)
        let data = Data(deep.output.joined(separator: "\n").utf8)
        #expect((try? JSONSerialization.jsonObject(with: data)) != nil)
    }
}
