@testable import AutoAutomation
import AutoTestSupport
import Foundation
import Testing

/// When inotify can't keep up or can't start: the kernel's queue overflowing (read paused while far more records
/// come than it holds), the per-user limits (through a seam: changing them would change them for the machine), and
/// folders that can't be watched.
@Suite struct FileEventOverflowTests {
    static func proc(_ name: String) -> String? {
        (try? String(contentsOfFile: "/proc/sys/fs/inotify/" + name, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func anOverflowIsMadeUpByARescanThatReportsExactlyWhatWasMissed() async throws {
        let folder = try TemporaryFolder("auto-file-events")
        defer { withExtendedLifetime(folder) {} }
        for number in 0..<100 { try writeFile(folder("old-\(number)"), "x") }
        let log = EventLog()
        // An instance of its own: the overflow is of its queue alone.
        let watcher = try FileEventWatcher(WatchSpec(folder: folder.path, recursive: true), since: nil, calls: .system, events: log.add,
                                           status: log.addStatus)
        // Each new file is two records (made, closed): well past the kernel's queue (16384 by default).
        let count = max(20_000, (Self.proc("max_queued_events").flatMap { Int($0) } ?? 16384) + 4000)
        watcher.pauseReading()
        try await offThePool {
            try shell("mkdir -p early/inside && touch early/inside/one", in: folder.path)
            for number in 0..<count { try writeFile(folder("new-\(number)"), "") }
            // Past the overflow: only the rescan can tell of these.
            for number in 0..<50 { try remove(folder("old-\(number)")) }
            for number in 50..<75 { try writeFile(folder("old-\(number)"), "longer") }
            try shell("mkdir -p late/inside && touch late/inside/two", in: folder.path)
        }
        watcher.resumeReading()
        try await #require(log.settle(folder.path))

        #expect(log.statuses == [.overflowed(folder.path)])
        let events = log.events
        let created = events.filter { $0.kind == .created }.map(\.path)
        #expect(created.count == count + 2)
        #expect(Set(created) == Set((0..<count).map { folder("new-\($0)") } + [folder("early/inside/one"), folder("late/inside/two")]))
        let deleted = events.filter { $0.kind == .deleted }.map(\.path)
        #expect(deleted.count == 50 && Set(deleted) == Set((0..<50).map { folder("old-\($0)") }))
        let changed = events.filter { $0.kind == .changed }.map(\.path)
        #expect(changed.count == 25 && Set(changed) == Set((50..<75).map { folder("old-\($0)") }))
        #expect(events.contains { $0.fromRescan } && events.contains { !$0.fromRescan }, "some read from the queue, the rest rescanned")
        #expect(log.largestBatch <= FileEventWatcher.batchLimit)
        #expect(watcher.snapshot == TreeSnapshot.scan(watcher.spec))
        // And the folder the lost records made is watched.
        try writeFile(folder("late/inside/three"), "")
        #expect(await log.wait { $0.events(of: folder("late/inside/three")) == [.created(folder("late/inside/three"))] })
    }

    @Test func runningOutOfWatchesNamesTheSettingAndItsValue() throws {
        let folder = try TemporaryFolder("auto-file-events")
        defer { withExtendedLifetime(folder) {} }
        try makeFolder(folder("sub"))
        var calls = InotifyCalls.system
        calls.addWatch = { descriptor, path, mask in
            path.hasSuffix("/sub") ? (-1, ENOSPC) : InotifyCalls.system.addWatch(descriptor, path, mask)
        }
        let current = try #require(Self.proc("max_user_watches"))
        #expect {
            _ = try FileEventWatcher(WatchSpec(folder: folder.path, recursive: true), since: nil, calls: calls,
                                     events: { _ in }, status: { _ in })
        } throws: { error in
            let text = (error as? FileWatchError)?.description ?? ""
            return text.hasPrefix("can't watch '\(folder("sub"))': the limit of inotify watches")
                && text.contains("(fs.inotify.max_user_watches = \(current))") && text.contains("sysctl fs.inotify.max_user_watches=")
        }
    }

    @Test func runningOutOfWatchesLaterIsAStatusAndTheRestGoesOn() async throws {
        let folder = try TemporaryFolder("auto-file-events")
        defer { withExtendedLifetime(folder) {} }
        var calls = InotifyCalls.system
        calls.addWatch = { descriptor, path, mask in
            path.hasSuffix("/full") ? (-1, ENOSPC) : InotifyCalls.system.addWatch(descriptor, path, mask)
        }
        let log = EventLog()
        let watcher = try FileEventWatcher(WatchSpec(folder: folder.path, recursive: true), since: nil, calls: calls,
                                           events: log.add, status: log.addStatus)
        try shell("mkdir full && touch full/unseen", in: folder.path)
        try writeFile(folder("seen"), "")
        try await #require(log.settle(folder.path))
        #expect(log.events == [.created(folder("seen"))])
        guard case .folderNotWatched(let path, let reason)? = log.statuses.first else {
            Issue.record("no status: \(log.statuses)")
            return
        }
        #expect(path == folder("full") && reason.contains("fs.inotify.max_user_watches"))
        #expect(watcher.snapshot.unreadable == [folder("full")])
    }

    @Test func aFolderInsideThatCantBeWatchedIsReportedAndItsFilesAreNeitherMadeNorLost() async throws {
        let folder = try TemporaryFolder("auto-file-events")
        defer { withExtendedLifetime(folder) {} }
        try shell("mkdir -p locked open && touch locked/a open/b", in: folder.path)
        var calls = InotifyCalls.system
        // As a folder without read permission answers (this test may run as root, who reads every folder).
        calls.addWatch = { descriptor, path, mask in
            path.hasSuffix("/locked") ? (-1, EACCES) : InotifyCalls.system.addWatch(descriptor, path, mask)
        }
        let log = EventLog()
        let spec = WatchSpec(folder: folder.path, recursive: true)
        let watcher = try FileEventWatcher(spec, since: TreeSnapshot.scan(spec), calls: calls, events: log.add,
                                           status: log.addStatus)
        try writeFile(folder("open/c"), "")
        try await #require(log.settle(folder.path))
        #expect(log.statuses == [.folderNotWatched(folder("locked"), reason: "permission denied")])
        #expect(log.events == [.created(folder("open/c"))], "locked/a is unknown, not deleted")
        #expect(watcher.snapshot.unreadable == [folder("locked")])
    }

    @Test func runningOutOfInstancesNamesTheSettingAndTheOpenFileLimit() throws {
        var calls = InotifyCalls.system
        calls.initialize = { (-1, EMFILE) }
        let current = try #require(Self.proc("max_user_instances"))
        #expect {
            _ = try FileEventWatcher(WatchSpec(folder: "/tmp"), since: nil, calls: calls, events: { _ in }, status: { _ in })
        } throws: { error in
            let text = (error as? FileWatchError)?.description ?? ""
            return text.contains("(fs.inotify.max_user_instances = \(current))") && text.contains("ulimit -n")
        }
    }

    @Test func aFileOrARelativePathCantBeWatched() throws {
        let folder = try TemporaryFolder("auto-file-events")
        defer { withExtendedLifetime(folder) {} }
        try writeFile(folder("file"), "")
        #expect(throws: FileWatchError.notAFolder(folder("file"))) {
            _ = try FileEventWatcher(WatchSpec(folder: folder("file")), events: { _ in })
        }
        #expect(throws: FileWatchError.notAbsolute("relative/path")) {
            _ = try FileEventWatcher(WatchSpec(folder: "relative/path"), events: { _ in })
        }
    }

    @Test(.enabled(if: getuid() != 0, "root reads every folder")) func aFolderWithoutPermissionIsReportedNotWatched() async throws {
        let folder = try TemporaryFolder("auto-file-events")
        defer { withExtendedLifetime(folder) {} }
        try shell("mkdir locked && touch locked/a && chmod 000 locked", in: folder.path)
        let log = EventLog()
        let watcher = try FileEventWatcher(WatchSpec(folder: folder.path, recursive: true), events: log.add, status: log.addStatus)
        try await #require(log.settle(folder.path))
        #expect(log.statuses == [.folderNotWatched(folder("locked"), reason: "permission denied")])
        #expect(watcher.snapshot.unreadable == [folder("locked")])
    }
}
