import AutoTestSupport
import Testing

/// One engine and one registry run many programs at once, as the daemon will: each run's results and dialogs equal
/// the same program's run alone (ConcurrentRuns). CI runs the same check under Thread Sanitizer as `auto-race`:
/// `swift build --sanitize=thread --scratch-path .build-tsan --product auto-race && .build-tsan/debug/auto-race`.
@Suite struct ConcurrentRunsTests {
    @Test func sixteenRunsAtOnceEqualTheSameRunsOneByOne() async throws {
        let (alone, mismatches) = try await ConcurrentRuns.check()
        #expect(alone.count == ConcurrentRuns.scripts.count)
        #expect(mismatches == [])
    }
}
