@testable import AutoAutomation
import AutoLanguage
import AutoTestSupport
import Foundation
import Testing

/// The polling watcher on a clock the test moves: each tick reports what changed since the last, nothing between.
@Suite struct FileEventPollingTests {
    /// Waits until the watcher waits for its next tick.
    func waiting(_ clock: TestClock) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(120)
        while clock.state.withLock({ $0.waiters.isEmpty }) {
            if ContinuousClock.now > deadline { return false }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return true
    }

    @Test func eachTickReportsTheDifferencesSinceTheLast() async throws {
        let parent = try TemporaryFolder("auto-file-events")
        defer { withExtendedLifetime(parent) {} }
        let folder = parent("polled")
        try makeFolder(folder)
        try writeFile(folder + "/a", "1")
        let clock = TestClock(0)
        let log = EventLog()
        let watcher = PollingWatcher(WatchSpec(folder: folder, recursive: true), every: .seconds(10), clock: clock,
                                     events: log.add, status: log.addStatus)
        #expect(await waiting(clock))
        try writeFile(folder + "/a", "22")
        try shell("mkdir -p sub && touch sub/b", in: folder)
        #expect(log.events.isEmpty, "nothing between ticks")
        await clock.advance(to: 10)
        #expect(log.events == [.changed(folder + "/a", rescan: true), .created(folder + "/sub/b", rescan: true)])

        try remove(folder + "/sub/b")
        await clock.advance(to: 15)
        #expect(log.events.count == 2, "not a tick yet")
        await clock.advance(to: 20)
        #expect(log.events.dropFirst(2) == [.deleted(folder + "/sub/b", rescan: true)])

        try FileManager.default.removeItem(atPath: folder)
        await clock.advance(to: 30)
        #expect(log.events.dropFirst(3) == [.deleted(folder + "/a", rescan: true)])
        #expect(log.statuses == [.folderMissing(folder)])
        try makeFolder(folder)
        try writeFile(folder + "/c", "")
        await clock.advance(to: 40)
        #expect(log.statuses == [.folderMissing(folder), .folderWatched(folder)])
        #expect(log.events.dropFirst(4) == [.created(folder + "/c", rescan: true)])
        #expect(watcher.snapshot == TreeSnapshot.scan(watcher.spec))
        watcher.stop()
    }

    @Test func aStoredSnapshotIsComparedAtOnceAndTheGlobAndKindsApply() async throws {
        let folder = try TemporaryFolder("auto-file-events")
        defer { withExtendedLifetime(folder) {} }
        try writeFile(folder("a.log"), "")
        try writeFile(folder("b.log"), "")
        let spec = WatchSpec(folder: folder.path, glob: try FileGlob("*.log"), kinds: [.created])
        let stored = TreeSnapshot.scan(spec)
        try remove(folder("a.log"))
        try writeFile(folder("c.log"), "")
        try writeFile(folder("c.txt"), "")
        let clock = TestClock(0)
        let log = EventLog()
        let watcher = PollingWatcher(spec, every: .seconds(1), clock: clock, since: stored, events: log.add, status: log.addStatus)
        #expect(await log.wait { !$0.events.isEmpty })
        #expect(log.events == [.created(folder("c.log"), rescan: true)])
        #expect(log.statuses.isEmpty)
        watcher.stop()
    }
}
