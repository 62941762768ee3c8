@testable import AutoAutomation
import Foundation
import Testing

/// `Deadline`: work's answer when it comes in time, nil once the limit passed — even for work that ignores
/// cancellation, which is left behind — and its error.
@Suite struct DeadlineTests {
    struct Failed: Error {}

    @Test func answersInTimeAreReturnedAndErrorsThrown() async throws {
        #expect(try await Deadline.run(within: .seconds(60)) { 42 } == 42)
        await #expect(throws: Failed.self) { try await Deadline.run(within: .seconds(60)) { () async throws -> Int in throw Failed() } }
    }

    @Test func workThatNeverAnswersIsLeftAtTheDeadline() async throws {
        let started = ContinuousClock.now
        // Never resumed, and deaf to cancellation: only the deadline can end the wait.
        let answer = try await Deadline.run(within: .milliseconds(300)) { () async -> Int in
            await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }
            return 1
        }
        #expect(answer == nil)
        let waited = ContinuousClock.now - started
        #expect(waited >= .milliseconds(300), "not before its deadline: \(waited)")
    }

    @Test func manyCallsAtOnceEachGetTheirOwnAnswer() async throws {
        let answers = try await withThrowingTaskGroup(of: Int?.self) { group in
            for index in 0..<200 { group.addTask { try await Deadline.run(within: .seconds(60)) { index } } }
            return try await group.reduce(into: [Int]()) { $0.append($1 ?? -1) }
        }
        #expect(answers.sorted() == Array(0..<200))
    }
}
