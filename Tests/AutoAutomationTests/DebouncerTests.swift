@testable import AutoAutomation
import Foundation
import Synchronization
import Testing

/// `debounce`: one batch once events have been quiet for the duration, or ten durations after the first, each key
/// once in the order it first came with its latest element. The clock is the test's: nothing sleeps.
@Suite struct DebouncerTests {
    final class Batches: Sendable {
        let list = Mutex<[[String]]>([])
        func withLock<T: Sendable>(_ body: (inout sending [[String]]) -> sending T) -> T { list.withLock(body) }
    }
    let batches = Batches()

    func debouncer(_ clock: TestClock) -> Debouncer<(key: String, value: String)> {
        Debouncer(quiet: .seconds(2), clock: clock, key: \.key) { [batches] batch in
            batches.withLock { $0.append(batch.map { "\($0.key)=\($0.value)" }) }
        }
    }

    @Test func aBurstIsOneBatchOnceQuietEachKeyOnceWithItsLatest() async throws {
        let clock = TestClock(0)
        let debouncer = debouncer(clock)
        try await parked(clock)
        debouncer.add([("a", "1"), ("b", "1")])
        try await parked(clock)
        await clock.advance(to: 1)
        debouncer.add([("a", "2"), ("c", "1")])
        await clock.advance(to: 2.5)    // 2 seconds after the first event, but only 1.5 after the last
        try await parked(clock)
        #expect(batches.withLock { $0.isEmpty })
        await clock.advance(to: 3)
        try await waitUntil { !batches.withLock { $0.isEmpty } }
        #expect(batches.withLock { $0 } == [["a=2", "b=1", "c=1"]])
        debouncer.add([("d", "1")])
        await clock.advance(to: 5)
        try await waitUntil { batches.withLock { $0.count } == 2 }
        #expect(batches.withLock { $0.last } == ["d=1"])
        debouncer.stop()
    }

    @Test func eventsThatNeverStopStillGoAfterTenQuietTimes() async throws {
        let clock = TestClock(0)
        let debouncer = debouncer(clock)
        try await parked(clock)
        for second in 0..<25 {
            debouncer.add([("k\(second)", "x")])
            try await parked(clock)
            await clock.advance(to: Double(second) + 1)
            try await parked(clock)
        }
        try await waitUntil { !batches.withLock { $0.isEmpty } }
        let first = try #require(batches.withLock { $0.first })
        #expect(first.count == 20, "the first event at 0 s, the batch at 20 s: \(first)")
        debouncer.stop()
    }

    /// Until the debouncer's loop has looked at everything up to now and waits on the clock for a later instant.
    func parked(_ clock: TestClock) async throws {
        try await waitUntil { clock.state.withLock { $0.waiters.count == 1 && $0.waiters[0].instant > $0.now } }
    }

    func waitUntil(_ condition: () throws -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(120)
        while try !condition() {
            guard ContinuousClock.now < deadline else {
                Issue.record("the condition never held")
                return
            }
            try await Task.sleep(for: .milliseconds(2))
        }
    }
}
