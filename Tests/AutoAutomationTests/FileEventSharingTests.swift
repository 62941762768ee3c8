@testable import AutoAutomation
import AutoTestSupport
import Foundation
import Testing

/// The watches of a process share one inotify instance: more watches than the kernel allows instances per user
/// (`fs.inotify.max_user_instances`, 128 by default) each report their own folder's files, and watches of the same
/// folder (one inotify watch, whose descriptor they share) each see what they asked for, until the last one stops.
@Suite struct FileEventSharingTests {
    @Test func moreWatchesThanTheLimitOfInstancesEachReportTheirFolder() async throws {
        let limit = FileEventOverflowTests.proc("max_user_instances").flatMap { Int($0) } ?? 128
        let count = max(200, limit + 72)
        let parent = try TemporaryFolder("auto-file-events")
        defer { withExtendedLifetime(parent) {} }
        var watchers: [FileEventWatcher] = []
        var logs: [EventLog] = []
        for number in 0..<count {
            try makeFolder(parent("w\(number)"))
            let log = EventLog()
            watchers.append(try FileEventWatcher(WatchSpec(folder: parent("w\(number)")), events: log.add, status: log.addStatus))
            logs.append(log)
        }
        for number in 0..<count { try writeFile(parent("w\(number)/file"), "") }
        for (number, log) in logs.enumerated() {
            #expect(await log.wait { $0.events == [.created(parent("w\(number)/file"))] }, "w\(number): \(log.events)")
            #expect(log.statuses.isEmpty)
        }
        // One inotify descriptor of this process holds a watch of every folder (the kernel lists them by inode).
        let inodes = try Set((0..<count).map { number in try #require(EntryStatus.of(parent("w\(number)"))).inode })
        #expect(Self.inotifyDescriptors().contains { inodes.isSubset(of: $0.watched) })
        for watcher in watchers { watcher.stop() }
    }

    @Test func watchesOfOneFolderEachSeeWhatTheyAskedForAndOneStoppingLeavesTheOther() async throws {
        let folder = try TemporaryFolder("auto-file-events")
        defer { withExtendedLifetime(folder) {} }
        try makeFolder(folder("sub"))
        let everything = EventLog(), created = EventLog(), inside = EventLog()
        let recursive = try FileEventWatcher(WatchSpec(folder: folder.path, recursive: true), events: everything.add,
                                             status: everything.addStatus)
        let plain = try FileEventWatcher(WatchSpec(folder: folder.path, kinds: [.created]), events: created.add, status: created.addStatus)
        let sub = try FileEventWatcher(WatchSpec(folder: folder("sub")), events: inside.add, status: inside.addStatus)
        try writeFile(folder("a"), "")
        try writeFile(folder("sub/b"), "")
        try remove(folder("a"))
        try await #require(everything.settle(folder.path))
        try await #require(created.settle(folder.path))
        try await #require(inside.settle(folder("sub")))
        #expect(everything.events == [.created(folder("a")), .created(folder("sub/b")), .deleted(folder("a"))]
                || everything.events == [.created(folder("sub/b"))], "a may be gone before its records are read")
        #expect(created.events.allSatisfy { $0.kind == .created } && created.events.map(\.path).allSatisfy { $0 == folder("a") })
        #expect(inside.events == [.created(folder("sub/b"))])

        // The recursive watch stops: the folder and its sub-folder keep their inotify watches for the others.
        recursive.stop()
        try writeFile(folder("c"), "")
        try writeFile(folder("sub/d"), "")
        #expect(await created.wait { $0.events(of: folder("c")) == [.created(folder("c"))] })
        #expect(await inside.wait { $0.events(of: folder("sub/d")) == [.created(folder("sub/d"))] })
        // And the sub-folder's own watch stopping leaves nothing behind that the other needs.
        sub.stop()
        try writeFile(folder("e"), "")
        #expect(await created.wait { $0.events(of: folder("e")) == [.created(folder("e"))] })
        #expect(everything.events.allSatisfy { ![folder("c"), folder("sub/d"), folder("e")].contains($0.path) })
        #expect(everything.statuses.isEmpty && created.statuses.isEmpty && inside.statuses.isEmpty)
        plain.stop()
    }

    /// The instance's thread ends, its descriptors closed, once the last watcher lets the instance go — paused or not.
    @Test(arguments: [false, true]) func aReleasedInstanceEndsItsReadingThread(paused: Bool) async throws {
        weak var thread: AnyObject?
        do {
            let folder = try TemporaryFolder("auto-file-events")
            defer { withExtendedLifetime(folder) {} }
            let instance = try InotifyInstance(calls: .system)
            let log = EventLog()
            let watcher = try FileEventWatcher(WatchSpec(folder: folder.path), since: nil, on: instance, events: log.add,
                                               status: log.addStatus)
            try writeFile(folder("seen"), "")
            #expect(await log.wait(until: { $0.events == [.created(folder("seen"))] }))
            if paused { instance.pauseReading() }
            thread = instance.readingThread
            watcher.stop()
        }
        try await ClusterTests.eventually("the reading thread ends", within: .seconds(30)) { thread == nil }
    }

    /// The kernel's queue is the instance's: when it overflows, the record names no watch, and every watcher of the
    /// instance reads its tree again — the quiet one too, which finds what it missed.
    @Test func anOverflowOfTheSharedQueueIsMadeUpByEveryWatchersRescan() async throws {
        let instance = try InotifyInstance(calls: .system)
        let busy = try TemporaryFolder("auto-file-events"), quiet = try TemporaryFolder("auto-file-events")
        defer { withExtendedLifetime((busy, quiet)) {} }
        let busyLog = EventLog(), quietLog = EventLog()
        let busyWatcher = try FileEventWatcher(WatchSpec(folder: busy.path), since: nil, on: instance, events: busyLog.add,
                                               status: busyLog.addStatus)
        let quietWatcher = try FileEventWatcher(WatchSpec(folder: quiet.path), since: nil, on: instance, events: quietLog.add,
                                                status: quietLog.addStatus)
        let count = max(20_000, (FileEventOverflowTests.proc("max_queued_events").flatMap { Int($0) } ?? 16384) + 4000)
        instance.pauseReading()
        try await offThePool {
            for number in 0..<count { try writeFile(busy("new-\(number)"), "") }
            // Past the overflow: only a rescan can tell of it.
            try writeFile(quiet("lost"), "")
        }
        instance.resumeReading()
        try await #require(busyLog.settle(busy.path))
        try await #require(quietLog.settle(quiet.path))
        #expect(busyLog.statuses == [.overflowed(busy.path)])
        #expect(quietLog.statuses == [.overflowed(quiet.path)])
        #expect(quietLog.events == [.created(quiet("lost"), rescan: true)])
        let created = busyLog.events.filter { $0.kind == .created }.map(\.path)
        #expect(created.count == count && Set(created) == Set((0..<count).map { busy("new-\($0)") }))
        #expect(busyWatcher.snapshot == TreeSnapshot.scan(busyWatcher.spec))
        #expect(quietWatcher.snapshot == TreeSnapshot.scan(quietWatcher.spec))
        busyWatcher.stop()
        quietWatcher.stop()
    }

    /// This process's inotify descriptors, each with the inodes it watches (from /proc/self/fdinfo).
    static func inotifyDescriptors() -> [(descriptor: Int, watched: Set<UInt64>)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return names.compactMap { name -> (Int, Set<UInt64>)? in
            guard let descriptor = Int(name),
                  (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + name)) == "anon_inode:inotify",
                  let info = try? String(contentsOfFile: "/proc/self/fdinfo/" + name, encoding: .utf8) else { return nil }
            // "inotify wd:3 ino:1a2b sdev:800001 mask:… ignored_mask:0 …", the inode in hex.
            let inodes = info.split(separator: "\n").compactMap { line -> UInt64? in
                guard line.hasPrefix("inotify "), let field = line.split(separator: " ").first(where: { $0.hasPrefix("ino:") }) else { return nil }
                return UInt64(field.dropFirst(4), radix: 16)
            }
            return (descriptor, Set(inodes))
        }
    }
}
