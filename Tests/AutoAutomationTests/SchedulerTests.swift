@testable import AutoAutomation
import AutoIntents
import AutoLanguage
import AutoRuntime
import AutoTestSupport
import Foundation
import Logging
import Synchronization
import Testing

/// A clock the test moves: forwards to an instant (waiters due by then wake), or set anywhere (every waiter wakes
/// as a clock change would wake it). Moving it returns once the scheduler it woke is waiting again, so that what
/// was due has been handed out (runs started, skips recorded) when the test looks.
final class TestClock: SchedulerClock {
    struct Waiter {
        let id: Int
        let instant: Date
        let continuation: CheckedContinuation<ClockWake, any Error>
    }
    struct State {
        var now: Date
        var waiters: [Waiter] = []
        var nextID = 0
        var cancelled: Set<Int> = []
        /// Waits that suspended so far, and who waits for the count to pass a mark.
        var suspended = 0
        var watchers: [(mark: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }
    let state: Mutex<State>

    init(_ seconds: Double) {
        state = Mutex(State(now: Date(timeIntervalSince1970: seconds)))
    }

    func now() -> Date { state.withLock { $0.now } }

    func wait(until instant: Date) async throws -> ClockWake {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let (resumeNow, watchers) = state.withLock { state -> (Result<ClockWake, any Error>?, [CheckedContinuation<Void, Never>]) in
                    if state.cancelled.contains(id) { return (.failure(CancellationError()), []) }
                    if instant <= state.now { return (.success(.reached), []) }
                    state.waiters.append(Waiter(id: id, instant: instant, continuation: continuation))
                    state.suspended += 1
                    let count = state.suspended
                    let ready = state.watchers.filter { $0.mark < count }.map(\.continuation)
                    state.watchers.removeAll { $0.mark < count }
                    return (nil, ready)
                }
                for watcher in watchers { watcher.resume() }
                if let resumeNow { continuation.resume(with: resumeNow) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                state.cancelled.insert(id)
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index)
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Time passes to `seconds`: waiters whose instant has come wake.
    func advance(to seconds: Double) async {
        await move(to: seconds, wake: .reached) { $0.instant <= Date(timeIntervalSince1970: seconds) }
    }

    /// The clock is set to `seconds`, forwards or back: every waiter wakes to look again.
    func set(to seconds: Double) async {
        await move(to: seconds, wake: .clockChanged) { _ in true }
    }

    private func move(to seconds: Double, wake: ClockWake, _ woken: @escaping (Waiter) -> Bool) async {
        let (due, mark) = state.withLock { state -> ([Waiter], Int) in
            state.now = Date(timeIntervalSince1970: seconds)
            let due = state.waiters.filter(woken)
            state.waiters.removeAll(where: woken)
            return (due, state.suspended)
        }
        guard !due.isEmpty else { return }
        await withCheckedContinuation { continuation in
            let passed = state.withLock { state in
                if state.suspended > mark { return true }
                state.watchers.append((mark, continuation))
                return false
            }
            if passed { continuation.resume() }
            for waiter in due { waiter.continuation.resume(returning: wake) }
        }
    }
}

/// Every `seconds` seconds since the epoch: 60, 120, 180, … for 60.
struct EverySeconds: FireSchedule {
    let seconds: Double
    func nextFire(after instant: Date) -> Date? {
        Date(timeIntervalSince1970: ((instant.timeIntervalSince1970 / seconds).rounded(.down) + 1) * seconds)
    }
}

/// A door a run waits at until the test opens it: a run still going when the next fire comes. Waiting looks at
/// the door every millisecond, so that a cancelled run stops waiting, as an intent awaiting the network does.
final class Gate: Sendable {
    let state = Mutex<(open: Bool, arrivals: Int)>((false, 0))
    func wait() async throws {
        state.withLock { $0.arrivals += 1 }
        while !state.withLock({ $0.open }) { try await Task.sleep(for: .milliseconds(1)) }
    }
    func open() { state.withLock { $0.open = true } }
    var arrivals: Int { state.withLock { $0.arrivals } }
}

struct WaitAtGate: AppIntent {
    static let title = "Wait at gate"
    @Dependency var gate: Gate
    func perform(_ context: IntentContext) async throws -> IntentResult<NoValue> {
        try await gate.wait()
        return .result()
    }
}

/// The scheduler on a clock the test moves: fires on time and once, what was missed while down, clock jumps both
/// ways, and each mode with a run still going.
@Suite struct SchedulerTests {
    let store: SQLiteRunStore
    /// The store's folder, with its log, shared memory and lock files beside it.
    let folder: TemporaryFolder
    let gate = Gate()

    init() throws {
        folder = try TemporaryFolder("auto-sched")
        store = try SQLiteRunStore(path: folder("runs.sqlite"))
    }

    func automations(_ text: String) throws -> [(LoadedAutomation, any FireSchedule)] {
        var registry = try SampleLibrary.registry()
        try registry.register(dependency: gate)
        try registry.register(WaitAtGate.self)
        let compiled = try ScriptCompiler.compile(SourceFile(name: "s.auto", text: text), registry: registry).get()
        return LoadedAutomation.all(in: compiled, script: "/s.auto").map { ($0, EverySeconds(seconds: 60) as any FireSchedule) }
    }

    func scheduler(at seconds: Double) -> (Scheduler, TestClock) {
        let clock = TestClock(seconds)
        return (Scheduler(store: store, clock: clock, logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }), clock)
    }

    /// (scheduled second, outcome) of every run, oldest first.
    func history(of name: String? = nil) throws -> [String] {
        try store.runs(of: name, limit: 1000).reversed().map { "\(Int($0.scheduled.timeIntervalSince1970)) \($0.outcome.rawValue)" }
    }

    @Test func firesOnTimeAndOnce() async throws {
        let (scheduler, clock) = scheduler(at: 30)
        try await scheduler.start()
        try await scheduler.load(automations("automation \"a\" every minute { show 1 }"))
        await scheduler.settled()
        #expect(try history().isEmpty)
        await clock.advance(to: 60)
        await scheduler.settled()
        #expect(try history() == ["60 succeeded"])
        await clock.advance(to: 61)
        await scheduler.settled()
        await clock.advance(to: 120)
        await scheduler.settled()
        #expect(try history() == ["60 succeeded", "120 succeeded"])
        await scheduler.stop(grace: .seconds(5))
    }

    @Test func whatWasMissedWhileDownIsRecordedAndCatchUpRunsTheLatest() async throws {
        let before = try #require(try store.claim(Fire(automation: AutomationKey(script: "/s.auto", name: "plain"), trigger: "every 1 minute",
                                                    scheduled: Date(timeIntervalSince1970: 60)), at: Date()))
        try store.finish(before, RunEnding(.succeeded), steps: [], droppedSteps: 0, at: Date())
        _ = try store.claim(Fire(automation: AutomationKey(script: "/s.auto", name: "catching"), trigger: "every 1 minute",
                                 scheduled: Date(timeIntervalSince1970: 60)), at: Date())
        let (scheduler, _) = scheduler(at: 250)
        try await scheduler.start()
        try await scheduler.load(automations("""
            automation "plain" every minute { show 1 }
            automation "catching" every minute catch up { show 1 }
            """))
        await scheduler.settled()
        let plain = try history(of: "plain")
        #expect(plain == ["60 succeeded", "120 skipped", "180 skipped", "240 skipped"])
        #expect(try store.runs(of: "plain", limit: 1).first?.message == "the daemon was not running")
        let catching = try history(of: "catching")
        #expect(catching == ["60 failed", "120 skipped", "180 skipped", "240 succeeded"], "the run a crash left is closed as failed; the latest missed runs")
        await scheduler.stop(grace: .seconds(5))
    }

    @Test func aClockSetForwardSkipsAllButTheLatestAndSetBackRepeatsNothing() async throws {
        let (scheduler, clock) = scheduler(at: 30)
        try await scheduler.start()
        try await scheduler.load(automations("automation \"a\" every minute { show 1 }"))
        await clock.advance(to: 60)
        await scheduler.settled()
        await clock.set(to: 300)
        await scheduler.settled()
        #expect(try history() == ["60 succeeded", "120 skipped", "180 skipped", "240 skipped", "300 succeeded"])
        await clock.set(to: 100)
        await scheduler.settled()
        await clock.advance(to: 300)
        await scheduler.settled()
        #expect(try history().count == 5, "nothing handled is repeated after the clock went back")
        await clock.advance(to: 360)
        await scheduler.settled()
        #expect(try history().last == "360 succeeded")
        await scheduler.stop(grace: .seconds(5))
    }

    @Test func modeSingleTurnsAwayAFireWhileARunIsGoing() async throws {
        let (scheduler, clock) = scheduler(at: 30)
        try await scheduler.start()
        try await scheduler.load(automations("automation \"a\" every minute { wait at gate }"))
        await clock.advance(to: 60)
        try await waitUntil { gate.arrivals == 1 }
        await clock.advance(to: 120)
        try await waitUntil { try history().count == 2 }
        #expect(try history() == ["60 running", "120 rejected"])
        gate.open()
        await scheduler.settled()
        #expect(try history() == ["60 succeeded", "120 rejected"])
        await scheduler.stop(grace: .seconds(5))
    }

    @Test func modeQueuedRunsThemInTurnUpToItsBound() async throws {
        let (scheduler, clock) = scheduler(at: 30)
        try await scheduler.start()
        try await scheduler.load(automations("automation \"a\" every minute mode queued 1 { wait at gate }"))
        await clock.advance(to: 60)
        try await waitUntil { gate.arrivals == 1 }
        await clock.advance(to: 120)   // waits its turn
        await clock.advance(to: 180)   // one is already waiting: turned away
        try await waitUntil { try history().contains("180 rejected") }
        gate.open()
        await scheduler.settled()
        #expect(try history() == ["60 succeeded", "180 rejected", "120 succeeded"])
        await scheduler.stop(grace: .seconds(5))
    }

    @Test func modeParallelAndRestart() async throws {
        let (scheduler, clock) = scheduler(at: 30)
        try await scheduler.start()
        try await scheduler.load(automations("""
            automation "p" every minute mode parallel 2 { wait at gate }
            automation "r" every minute mode restart { wait at gate }
            """))
        await clock.advance(to: 60)
        try await waitUntil { gate.arrivals == 2 }
        await clock.advance(to: 120)
        try await waitUntil { gate.arrivals == 4 }
        await clock.advance(to: 180)
        try await waitUntil { try store.runs(of: "p", limit: 10).contains { $0.outcome == .rejected } }
        try await waitUntil { try store.runs(of: "r", limit: 10).filter { $0.outcome == .cancelled }.count == 2 }
        gate.open()
        await scheduler.settled()
        let parallel = try history(of: "p")
        #expect(parallel == ["60 succeeded", "120 succeeded", "180 rejected"])
        let restart = try history(of: "r")
        #expect(restart == ["60 cancelled", "120 cancelled", "180 succeeded"])
        await scheduler.stop(grace: .seconds(5))
    }

    @Test func stoppingCancelsWhatOutlastsTheGrace() async throws {
        let (scheduler, clock) = scheduler(at: 30)
        try await scheduler.start()
        try await scheduler.load(automations("automation \"a\" every minute { wait at gate }"))
        await clock.advance(to: 60)
        try await waitUntil { gate.arrivals == 1 }
        await scheduler.stop(grace: .milliseconds(50))
        #expect(try history() == ["60 cancelled"])
    }

    @Test func aDisabledAutomationsFiresAreRecordedAsSkipped() async throws {
        try store.setEnabled(false, for: "a")
        let (scheduler, clock) = scheduler(at: 30)
        try await scheduler.start()
        try await scheduler.load(automations("automation \"a\" every minute { show 1 }"))
        await clock.advance(to: 60)
        await scheduler.settled()
        #expect(try history() == ["60 skipped"])
        #expect(try store.runs(of: "a", limit: 1).first?.message == "the automation is disabled")
        await scheduler.stop(grace: .seconds(5))
    }

    /// Waits for something the scheduler does on its own tasks, with a generous deadline.
    func waitUntil(_ condition: () throws -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while try !condition() {
            guard ContinuousClock.now < deadline else {
                Issue.record("the condition never held")
                return
            }
            try await Task.sleep(for: .milliseconds(2))
        }
    }
}

/// The real wall-clock timer (timerfd): it wakes at the instant, at once for an instant past, and a cancelled wait
/// ends without waiting for its instant. (A clock being set is the TestClock's part: setting this machine's clock
/// is no test's business.)
@Suite struct SystemClockTests {
    @Test func wakesAtTheInstantAndAtOnceForOnePast() async throws {
        let clock = SystemClock()
        let target = clock.now().addingTimeInterval(0.03)
        #expect(try await clock.wait(until: target) == .reached)
        #expect(clock.now() >= target)
        #expect(try await clock.wait(until: Date(timeIntervalSince1970: 0)) == .reached)
    }

    @Test func aCancelledWaitEndsAtOnce() async throws {
        let clock = SystemClock()
        let started = ContinuousClock.now
        let waiting = Task { try await clock.wait(until: clock.now().addingTimeInterval(3600)) }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        #expect(ContinuousClock.now - started < .seconds(600))
    }
}
