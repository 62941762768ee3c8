@testable import AutoAutomation
import AutoIntents
import AutoLanguage
import AutoTestSupport
import Foundation
import Logging
import Synchronization
import Testing

/// A file automation's events are delivered to the scheduler, not scheduled: each delivery is a fire of its own (two
/// in one millisecond too), under the automation's mode, with `it` the first file and `files` all of them, and the
/// store's copy of the folder follows every fire handled, run or rejected.
@Suite struct FileFireTests {
    let store: SQLiteRunStore
    /// The store's folder, with its log, shared memory and lock files beside it.
    let folder: TemporaryFolder
    let gate = Gate()

    init() throws {
        folder = try TemporaryFolder("auto-filefire")
        store = try SQLiteRunStore(path: folder("runs.sqlite"))
    }

    func scheduler(_ text: String) async throws -> Scheduler {
        var registry = try SampleLibrary.registry()
        try registry.register(dependency: gate)
        try registry.register(WaitAtGate.self)
        let compiled = try ScriptCompiler.compile(SourceFile(name: "s.auto", text: text), registry: registry).get()
        let scheduler = Scheduler(store: store, clock: TestClock(30), logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
        try await scheduler.start()
        try await scheduler.load(LoadedAutomation.all(in: compiled, script: "/s.auto").map { ($0, nil) })
        return scheduler
    }

    @Test func eachDeliveryIsARunWithItsFiles() async throws {
        let scheduler = try await scheduler(#"automation "files" when file any in "/inbox" mode queued { show number("\(it.name) of \(count(files))") }"#)
        let key = AutomationKey(script: "/s.auto", name: "files")
        let state = FileState(size: 3, modified: 1_000)
        #expect(try await scheduler.deliver(FileFire(files: ["/inbox/a.txt", "/inbox/b.txt"], states: [state, nil]), to: key))
        #expect(try await scheduler.deliver(FileFire(files: ["/inbox/c.txt"], states: [state], fromRescan: true), to: key))
        await scheduler.settled()
        let runs = try store.runs(of: "files", limit: 10).reversed().map { "\($0.outcome.rawValue) \($0.files) \($0.fromRescan) \($0.message ?? "")" }
        #expect(runs == [#"failed ["/inbox/a.txt", "/inbox/b.txt"] false 'a.txt of 2' is not a number"#,
                         #"failed ["/inbox/c.txt"] true 'c.txt of 1' is not a number"#], "both runs, though delivered in one millisecond")
        #expect(try store.tree(of: key) == nil, "no copy of the folder before the daemon first takes one")
        try store.replaceTree(of: key, with: ["/inbox/b.txt": state])
        #expect(try await scheduler.deliver(FileFire(files: ["/inbox/a.txt", "/inbox/b.txt"], states: [state, nil]), to: key))
        await scheduler.settled()
        #expect(try store.tree(of: key) == ["/inbox/a.txt": state])
        #expect(try await !scheduler.deliver(FileFire(files: ["/inbox/z"], states: [state]), to: AutomationKey(script: "/s.auto", name: "none")))
        await scheduler.stop(grace: .seconds(5))
    }

    @Test func aRejectedFireStillBringsTheTreeUpToDate() async throws {
        let scheduler = try await scheduler(#"automation "slow" when file created in "/inbox" { wait at gate }"#)
        let key = AutomationKey(script: "/s.auto", name: "slow")
        let state = FileState(size: 3, modified: 1_000)
        try store.replaceTree(of: key, with: [:])
        #expect(try await scheduler.deliver(FileFire(files: ["/inbox/x"], states: [state]), to: key))
        try await waitUntil { gate.arrivals == 1 }
        #expect(try await scheduler.deliver(FileFire(files: ["/inbox/y"], states: [state]), to: key))
        try await waitUntil { try store.runs(of: "slow", limit: 10).contains { $0.outcome == .rejected } }
        #expect(try store.tree(of: key) == ["/inbox/x": state, "/inbox/y": state], "a rejected fire's files are handled too")
        gate.open()
        await scheduler.settled()
        #expect(try store.runs(of: "slow", limit: 10).map(\.outcome) == [.rejected, .succeeded])
        await scheduler.stop(grace: .seconds(5))
    }

    /// `mode single` turns a fire away while a run is going, and only then: once the store has a run's end (for
    /// whoever reads the history, it is over) a fire is taken. Delivered from the run's task the moment its end is
    /// recorded, the second fire is the file created right after the run ended.
    @Test func inModeSingleAFireOnceTheRunsEndIsRecordedIsTaken() async throws {
        let scheduler = try await scheduler(#"automation "single" when file created in "/inbox" { show 1 }"#)
        let key = AutomationKey(script: "/s.auto", name: "single")
        let state = FileState(size: 3, modified: 1_000)
        let delivered = Mutex<(first: RunID?, endRecorded: Bool, taken: Bool)>((nil, false, false))
        await scheduler.whenRunRecorded { [store] id in
            guard delivered.withLock({ state in
                guard state.first == nil else { return false }
                state.first = id
                return true
            }) else { return }
            let ended = (try? store.run(id))??.ended != nil
            let taken = (try? await scheduler.deliver(FileFire(files: ["/inbox/b"], states: [state]), to: key)) ?? false
            delivered.withLock { $0.endRecorded = ended; $0.taken = taken }
        }
        #expect(try await scheduler.deliver(FileFire(files: ["/inbox/a"], states: [state]), to: key))
        try await waitUntil { try store.runs(of: "single", limit: 10).count == 2 }
        await scheduler.settled()
        #expect(delivered.withLock { $0.endRecorded && $0.taken })
        let runs = try store.runs(of: "single", limit: 10).reversed().map { "\($0.outcome.rawValue) \($0.files) \($0.message ?? "")" }
        #expect(runs == [#"succeeded ["/inbox/a"] "#, #"succeeded ["/inbox/b"] "#])
        await scheduler.whenRunRecorded { _ in }
        await scheduler.stop(grace: .seconds(5))
    }

    /// Waits for something the scheduler does on its own tasks, with a generous deadline.
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
