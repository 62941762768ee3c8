@testable import AutoAutomation
import AutoLanguage
import AutoTestSupport
import Foundation
import Synchronization
import Testing

/// The inotify watcher on real folders: one event per change as a trigger wants it (a new file once, complete; an
/// atomic save once, as a change), moves, deletions, globs, recursion into folders made at once, odd names, and
/// the watched folder going away and coming back. After each, the watcher's snapshot is what a scan finds.
@Suite struct FileEventWatcherTests {
    /// The watchers a test made, kept as long as the test runs: a watcher released stops.
    let watchers = Kept<FileEventWatcher>()

    /// `alone`: on an inotify instance of its own, for a test that pauses its reading or fills its queue, which
    /// would hold back or overflow the other tests' watchers.
    func watch(_ spec: WatchSpec, since: TreeSnapshot? = nil, alone: Bool = false) throws -> (FileEventWatcher, EventLog) {
        let log = EventLog()
        let watcher = alone ? try FileEventWatcher(spec, since: since, calls: .system, events: log.add, status: log.addStatus)
            : try FileEventWatcher(spec, since: since, events: log.add, status: log.addStatus)
        watchers.keep(watcher)
        return (watcher, log)
    }

    @Test func aNewFileWrittenAndClosedIsCreatedOnce() async throws {
        let folder = try TemporaryFolder("auto-file-events")
        defer { withExtendedLifetime(folder) {} }
        let (watcher, log) = try watch(WatchSpec(folder: folder.path))
        try writeFile(folder("a.txt"), "hello")
        try await #require(log.settle(folder.path))
        #expect(log.events == [.created(folder("a.txt"))])
        try writeFile(folder("a.txt"), "hello again")
        try await #require(log.settle(folder.path))
        #expect(log.events == [.created(folder("a.txt")), .changed(folder("a.txt"))])
        #expect(watcher.snapshot == TreeSnapshot.scan(watcher.spec))
    }

    @Test func theHandlerMayReadTheSnapshotWhichHoldsWhatItIsGiven() async throws {
        let folder = try TemporaryFolder("auto-file-events")
        defer { withExtendedLifetime(folder) {} }
        let watcher = Mutex<FileEventWatcher?>(nil)
        let seen = Mutex<[Bool]>([])
        let made = try FileEventWatcher(WatchSpec(folder: folder.path)) { events in
            guard let snapshot = watcher.withLock({ $0 })?.snapshot else { return }
            seen.withLock { $0.append(events.allSatisfy { snapshot.entries[$0.path] != nil }) }
        }
        watcher.withLock { $0 = made }
        try writeFile(folder("a"), "")
        try writeFile(folder("b"), "")
        let deadline = ContinuousClock.now + .seconds(120)
        while seen.withLock({ $0.isEmpty }), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(seen.withLock { !$0.isEmpty && $0.allSatisfy { $0 } })
        made.stop()
        watcher.withLock { $0 = nil }
    }

    @Test func aFileStillBeingWrittenIsCreatedWhenClosed() async throws {
        let folder = try TemporaryFolder("auto-file-events")
        defer { withExtendedLifetime(folder) {} }
        let (_, log) = try watch(WatchSpec(folder: folder.path))
        let descriptor = open(folder("big.bin"), O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        try #require(descriptor >= 0)
        var chunk = [UInt8](repeating: 7, count: 4096)
        _ = write(descriptor, &chunk, chunk.count)
        try await #require(log.settle(folder.path))
        #expect(log.events.isEmpty, "not complete yet")
        _ = write(descriptor, &chunk, chunk.count)
        close(descriptor)
        try await #require(log.settle(folder.path))
        #expect(log.events == [.created(folder("big.bin"))])
    }

    @Test func linksAndHardLinksAreCompleteAtOnce() async throws {
        let folder = try TemporaryFolder("auto-file-events")
        defer { withExtendedLifetime(folder) {} }
        let outside = try TemporaryFolder("auto-file-events")
        defer { withExtendedLifetime(outside) {} }
        try writeFile(outside("target"), "t")
        let (watcher, log) = try watch(WatchSpec(folder: folder.path))
        #expect(symlink(outside("target"), folder("soft")) == 0)
        #expect(link(outside("target"), folder("hard")) == 0)
        #expect(symlink(folder("nowhere"), folder("dangling")) == 0)
        try await #require(log.settle(folder.path))
        #expect(log.events == [.created(folder("soft")), .created(folder("hard")), .created(folder("dangling"))])
        #expect(watcher.snapshot == TreeSnapshot.scan(watcher.spec))
    }

    @Test func anAtomicSaveIsOneChange() async throws {
        let folder = try TemporaryFolder("auto-file-events")
        defer { withExtendedLifetime(folder) {} }
        try writeFile(folder("notes.txt"), "v1")
        let (watcher, log) = try watch(WatchSpec(folder: folder.path), alone: true)
        // As an editor saves: a new file beside, renamed over the old one.
        try writeFile(folder(".notes.txt.swp"), "v2")
        try move(folder(".notes.txt.swp"), folder("notes.txt"))
        try await #require(log.settle(folder.path))
        #expect(log.events(of: folder("notes.txt")) == [.changed(folder("notes.txt"))])
        // The temporary file is either unseen (gone before its records were read) or made and removed.
        let temporary = log.events(of: folder(".notes.txt.swp")).map(\.kind)
        #expect(temporary == [] || temporary == [.created, .deleted])

        // Read after the save, as a busy daemon would: only the change.
        watcher.pauseReading()
        try writeFile(folder(".notes.txt.swp"), "v3")
        try move(folder(".notes.txt.swp"), folder("notes.txt"))
        watcher.resumeReading()
        try await #require(log.settle(folder.path))
        #expect(log.events(of: folder("notes.txt")) == [.changed(folder("notes.txt")), .changed(folder("notes.txt"))])
        #expect(log.events(of: folder(".notes.txt.swp")).map(\.kind) == temporary)
        #expect(watcher.snapshot == TreeSnapshot.scan(watcher.spec))
    }

    @Test func anAtomicSaveThroughATemporaryNameTheGlobSkipsIsOneChange() async throws {
        let folder = try TemporaryFolder("auto-file-events")
        defer { withExtendedLifetime(folder) {} }
        try writeFile(folder("budget.csv"), "1")
        let (_, log) = try watch(WatchSpec(folder: folder.path, glob: try FileGlob("*.csv")))
        try writeFile(folder("budget.csv.tmp"), "1,2")
        try move(folder("budget.csv.tmp"), folder("budget.csv"))
        try await #require(log.settle(folder.path, suffix: ".csv"))
        #expect(log.events == [.changed(folder("budget.csv"))])
    }

    @Test func movesInOutAndWithinAndDeletions() async throws {
        let folder = try TemporaryFolder("auto-file-events")
        defer { withExtendedLifetime(folder) {} }
        let outside = try TemporaryFolder("auto-file-events")
        defer { withExtendedLifetime(outside) {} }
        try writeFile(folder("old.txt"), "")
        let (watcher, log) = try watch(WatchSpec(folder: folder.path))
        try writeFile(outside("a.txt"), "a")
        try move(outside("a.txt"), folder("a.txt"))
        try move(folder("a.txt"), folder("b.txt"))
        try move(folder("b.txt"), outside("b.txt"))
        try remove(folder("old.txt"))
        try await #require(log.settle(folder.path))
        // Each name's own story, however the reads fell: a file gone before its records were read makes no events.
        #expect(log.events(of: folder("old.txt")) == [.deleted(folder("old.txt"))])
        for name in ["a.txt", "b.txt"] {
            let kinds = log.events(of: folder(name)).map(\.kind)
            #expect(kinds == [.created, .deleted] || kinds == [], "\(name): \(kinds)")
        }
        // Slowly, one at a time: each move is seen.
        try writeFile(outside("c.txt"), "c")
        try move(outside("c.txt"), folder("c.txt"))
        #expect(await log.wait { $0.events(of: folder("c.txt")) == [.created(folder("c.txt"))] })
        try move(folder("c.txt"), folder("d.txt"))
        #expect(await log.wait { $0.events(of: folder("d.txt")) == [.created(folder("d.txt"))] })
        #expect(log.events(of: folder("c.txt")) == [.created(folder("c.txt")), .deleted(folder("c.txt"))])
        try move(folder("d.txt"), outside("d.txt"))
        #expect(await log.wait { $0.events(of: folder("d.txt")).count == 2 })
        #expect(log.events(of: folder("d.txt")) == [.created(folder("d.txt")), .deleted(folder("d.txt"))])
        #expect(watcher.snapshot == TreeSnapshot.scan(watcher.spec))
    }

    @Test func aGlobAndTheKindsFilterWhatIsReported() async throws {
        let folder = try TemporaryFolder("auto-file-events")
        defer { withExtendedLifetime(folder) {} }
        let (_, log) = try watch(WatchSpec(folder: folder.path, glob: try FileGlob("*.pdf")))
        for name in ["invoice.pdf", "notes.txt", ".draft.pdf", "x.pdf.part"] { try writeFile(folder(name), "") }
        try await #require(log.settle(folder.path, suffix: ".pdf"))
        #expect(log.events == [.created(folder("invoice.pdf")), .created(folder(".draft.pdf"))])

        let reports = try TemporaryFolder("auto-file-events")
        defer { withExtendedLifetime(reports) {} }
        let (_, csv) = try watch(WatchSpec(folder: reports.path, glob: try FileGlob("{report-??,zz-sentinel-*}.csv"), kinds: [.created, .deleted]))
        for name in ["report-01.csv", "report-1.csv", "report-123.csv", "summary.csv"] { try writeFile(reports(name), "") }
        try await #require(csv.settle(reports.path, suffix: ".csv"))
        #expect(csv.events == [.created(reports("report-01.csv"))])
        try writeFile(reports("report-01.csv"), "a change, which this watch doesn't want")
        try remove(reports("report-01.csv"))
        try await #require(csv.settle(reports.path, suffix: ".csv"))
        #expect(csv.events == [.created(reports("report-01.csv")), .deleted(reports("report-01.csv"))])
    }

    @Test func recursionEntersAFolderMadeAndFilledAtOnce() async throws {
        let folder = try TemporaryFolder("auto-file-events")
        defer { withExtendedLifetime(folder) {} }
        let (watcher, log) = try watch(WatchSpec(folder: folder.path, recursive: true))
        // One process, no pause: the files are in the folders before their watches can be.
        try shell("for i in 1 2 3 4 5 6 7 8 9 10; do mkdir -p d$i/b/c && touch d$i/b/x d$i/b/c/y d$i/z; done", in: folder.path)
        var expected: [String] = []
        for i in 1...10 { expected += [folder("d\(i)/b/x"), folder("d\(i)/b/c/y"), folder("d\(i)/z")] }
        try await #require(log.settle(folder.path))
        #expect(Set(log.events.map(\.path)) == Set(expected))
        for path in expected { #expect(log.events(of: path).isCreatedOnce, "\(log.events(of: path))") }
        // And the folders are watched from then on.
        try writeFile(folder("d3/b/c/later"), "")
        #expect(await log.wait { $0.events(of: folder("d3/b/c/later")) == [.created(folder("d3/b/c/later"))] })
        #expect(watcher.snapshot == TreeSnapshot.scan(watcher.spec))
    }

    @Test func aTreeMovedInIsCreatedAndMovedOutIsDeleted() async throws {
        let folder = try TemporaryFolder("auto-file-events")
        defer { withExtendedLifetime(folder) {} }
        let outside = try TemporaryFolder("auto-file-events")
        defer { withExtendedLifetime(outside) {} }
        try shell("mkdir -p tree/a/b && touch tree/one tree/a/two tree/a/b/three", in: outside.path)
        let (watcher, log) = try watch(WatchSpec(folder: folder.path, recursive: true))
        try move(outside("tree"), folder("tree"))
        let files = [folder("tree/a/b/three"), folder("tree/a/two"), folder("tree/one")]
        try await #require(log.settle(folder.path))
        #expect(log.events == files.map { .created($0, rescan: true) })
        try move(folder("tree/a"), folder("tree/renamed"))
        try await #require(log.settle(folder.path))
        #expect(Array(log.events.dropFirst(3)).map(\.summary) == ["deleted \(folder("tree/a/b/three"))", "deleted \(folder("tree/a/two"))",
                                                                  "created \(folder("tree/renamed/b/three"))", "created \(folder("tree/renamed/two"))"])
        try move(folder("tree"), outside("tree"))
        try await #require(log.settle(folder.path))
        #expect(Array(log.events.dropFirst(7)).map(\.summary) == ["deleted \(folder("tree/one"))", "deleted \(folder("tree/renamed/b/three"))",
                                                                  "deleted \(folder("tree/renamed/two"))"])
        // The watches went with the tree: what happens out there now is not reported.
        try writeFile(outside("tree/four"), "")
        try await #require(log.settle(folder.path))
        #expect(log.events.count == 10)
        try FileManager.default.removeItem(atPath: outside("tree"))
        #expect(watcher.snapshot == TreeSnapshot.scan(watcher.spec))
    }

    @Test func aFolderRemovedWithItsFilesInsideARecursiveWatch() async throws {
        let folder = try TemporaryFolder("auto-file-events")
        defer { withExtendedLifetime(folder) {} }
        try shell("mkdir -p sub/deeper && touch sub/a sub/deeper/b", in: folder.path)
        let (watcher, log) = try watch(WatchSpec(folder: folder.path, recursive: true))
        try FileManager.default.removeItem(atPath: folder("sub"))
        try await #require(log.settle(folder.path))
        #expect(log.events.map(\.summary).sorted() == ["deleted \(folder("sub/a"))", "deleted \(folder("sub/deeper/b"))"])
        #expect(watcher.snapshot == TreeSnapshot.scan(watcher.spec))
    }

    @Test func withoutRecursionFoldersInsideAreNotEntered() async throws {
        let folder = try TemporaryFolder("auto-file-events")
        defer { withExtendedLifetime(folder) {} }
        let (_, log) = try watch(WatchSpec(folder: folder.path))
        try shell("mkdir -p sub && touch sub/a", in: folder.path)
        try writeFile(folder("sub/b"), "")
        try await #require(log.settle(folder.path))
        #expect(log.events.isEmpty)
    }

    @Test func aBurstOfTenThousandFilesIsEachReportedOnce() async throws {
        let folder = try TemporaryFolder("auto-file-events")
        defer { withExtendedLifetime(folder) {} }
        let (watcher, log) = try watch(WatchSpec(folder: folder.path), alone: true)
        let names = (0..<10_000).map { String(format: "file-%05d.dat", $0) }
        try await offThePool { for name in names { try writeFile(folder(name), name) } }
        #expect(await log.wait { $0.events.count >= names.count })
        try await #require(log.settle(folder.path))
        let events = log.events
        #expect(events.count == names.count)
        #expect(Set(events.map(\.path)) == Set(names.map { folder($0) }))
        #expect(events.allSatisfy { $0.kind == .created })
        #expect(log.largestBatch <= FileEventWatcher.batchLimit)
        // Unless the kernel's queue overflowed under load, which is said, and the rescan made up for it.
        if !log.statuses.contains(.overflowed(folder.path)) { #expect(events.allSatisfy { !$0.fromRescan }) }
        #expect(watcher.snapshot == TreeSnapshot.scan(watcher.spec))
    }

    /// A name that isn't UTF-8 is reported too, as `FileNameBytes` writes it (its byte 0xFE as U+EFFE), so the
    /// run it starts reaches the same file.
    @Test func oddNamesAndNamesThatAreNotUTF8AreReported() async throws {
        let folder = try TemporaryFolder("auto-file-events")
        defer { withExtendedLifetime(folder) {} }
        let (_, log) = try watch(WatchSpec(folder: folder.path))
        let names = ["with space", "new\nline", "-rf", "--", "é", "tab\there", "*"]
        for name in names { try writeFile(folder(name), "") }
        var bytes = Array((folder.path + "/bad-").utf8CString.dropLast()) + [CChar(bitPattern: 0xfe), 0]
        let descriptor = open(&bytes, O_CREAT | O_WRONLY | O_CLOEXEC, 0o644)
        try #require(descriptor >= 0)
        close(descriptor)
        try await #require(log.settle(folder.path))
        let expected = (names + ["bad-\u{EFFE}"]).map { FileEvent.created(folder($0)) }
        // In the order made, unless the shared inotify queue overflowed (another test's burst, under load): the
        // rescan that makes up for it reports in the folder's order. Each name once, either way.
        if log.statuses.contains(where: { if case .overflowed = $0 { true } else { false } }) {
            #expect(log.events.count == expected.count && Set(log.events) == Set(expected))
        } else {
            #expect(log.events == expected, "statuses: \(log.statuses)")
        }
    }

    @Test func theWatchedFolderRemovedAndMadeAgain() async throws {
        let parent = try TemporaryFolder("auto-file-events")
        defer { withExtendedLifetime(parent) {} }
        let folder = parent("watched")
        try makeFolder(folder)
        try writeFile(folder + "/a", "")
        try writeFile(folder + "/b", "")
        let (watcher, log) = try watch(WatchSpec(folder: folder))
        try FileManager.default.removeItem(atPath: folder)
        #expect(await log.wait { $0.statuses == [.folderMissing(folder)] })
        #expect(log.events.map(\.summary).sorted() == ["deleted \(folder)/a", "deleted \(folder)/b"])

        // Made elsewhere, filled, and moved into place: its files are created.
        try makeFolder(parent("staging"))
        try writeFile(parent("staging/c"), "")
        try move(parent("staging"), folder)
        #expect(await log.wait { $0.statuses == [.folderMissing(folder), .folderWatched(folder)] })
        #expect(log.events.dropFirst(2).map(\.summary) == ["created \(folder)/c"])
        try writeFile(folder + "/d", "")
        #expect(await log.wait { $0.events(of: folder + "/d") == [.created(folder + "/d")] })

        // Moved away: its files are no longer at their paths.
        try move(folder, parent("elsewhere"))
        #expect(await log.wait { $0.statuses.count == 3 })
        #expect(log.statuses.last == .folderMissing(folder))
        #expect(log.events.dropFirst(4).map(\.summary) == ["deleted \(folder)/c", "deleted \(folder)/d"])
        // Made empty, then filled.
        try makeFolder(folder)
        #expect(await log.wait { $0.statuses.count == 4 })
        try writeFile(folder + "/e", "")
        #expect(await log.wait { $0.events(of: folder + "/e") == [.created(folder + "/e")] })
        #expect(watcher.snapshot == TreeSnapshot.scan(watcher.spec))
    }

    /// The watch is of the path as configured: a folder above the watched one renamed takes the watched folder from
    /// its path (it is missing, its files deleted), and what then happens where the folder went is not reported under
    /// the old name. The path made again, or the folder brought back, is watched again, its files found by a rescan.
    @Test func aFolderAboveRenamedTakesTheWatchedFolderAwayUntilThePathIsThereAgain() async throws {
        let scratch = try TemporaryFolder("auto-file-events")
        defer { withExtendedLifetime(scratch) {} }
        let folder = scratch("top/parent/watched")
        try shell("mkdir -p top/parent/watched/sub && touch top/parent/watched/a top/parent/watched/sub/b", in: scratch.path)
        let (watcher, log) = try watch(WatchSpec(folder: folder, recursive: true))
        try move(scratch("top/parent"), scratch("top/renamed"))
        try #require(await log.wait { $0.statuses == [.folderMissing(folder)] })
        #expect(log.events.map(\.summary).sorted() == ["deleted \(folder)/a", "deleted \(folder)/sub/b"])
        try writeFile(scratch("top/renamed/watched/unseen"), "")
        try writeFile(scratch("top/renamed/watched/sub/unseen"), "")

        // Made again at its path: watched, and what is in it created.
        try shell("mkdir -p top/parent/watched && touch top/parent/watched/c", in: scratch.path)
        #expect(await log.wait { $0.statuses == [.folderMissing(folder), .folderWatched(folder)] })
        try await #require(log.settle(folder))
        #expect(log.events.dropFirst(2).map(\.summary) == ["created \(folder)/c"])

        // The new one goes, and the old one is brought back: its files, the ones made while it was away too.
        try FileManager.default.removeItem(atPath: scratch("top/parent"))
        #expect(await log.wait { $0.statuses.count == 3 })
        try move(scratch("top/renamed"), scratch("top/parent"))
        #expect(await log.wait { $0.statuses.count == 4 })
        try await #require(log.settle(folder))
        #expect(log.statuses == [.folderMissing(folder), .folderWatched(folder), .folderMissing(folder), .folderWatched(folder)])
        #expect(log.events.dropFirst(3).map(\.summary) == ["deleted \(folder)/c", "created \(folder)/a", "created \(folder)/sub/b",
                                                           "created \(folder)/sub/unseen", "created \(folder)/unseen"])

        // A folder further up renamed does the same; renamed back, the watch is as it was.
        try move(scratch("top"), scratch("moved"))
        #expect(await log.wait { $0.statuses.count == 5 })
        try writeFile(scratch("moved/parent/watched/later"), "")
        try move(scratch("moved"), scratch("top"))
        #expect(await log.wait { $0.statuses.count == 6 })
        try await #require(log.settle(folder))
        #expect(log.events(of: folder + "/later") == [.created(folder + "/later", rescan: true)])
        try writeFile(folder + "/sub/last", "")
        #expect(await log.wait { $0.events(of: folder + "/sub/last") == [.created(folder + "/sub/last")] })
        #expect(log.events.allSatisfy { $0.path.hasPrefix(folder + "/") })
        #expect(watcher.snapshot == TreeSnapshot.scan(watcher.spec))
    }

    @Test func aFolderMissingAtStartIsWaitedForThroughTheFoldersAboveIt() async throws {
        let parent = try TemporaryFolder("auto-file-events")
        defer { withExtendedLifetime(parent) {} }
        let folder = parent("not/yet/here")
        let (watcher, log) = try watch(WatchSpec(folder: folder, recursive: true))
        #expect(await log.wait { $0.statuses == [.folderMissing(folder)] })
        try shell("mkdir -p not/yet && mkdir not/yet/here && touch not/yet/here/first", in: parent.path)
        #expect(await log.wait { $0.statuses == [.folderMissing(folder), .folderWatched(folder)] })
        try await #require(log.settle(folder))
        #expect(Set(log.events.map(\.path)) == [folder + "/first"] && log.events.isCreatedOnce)
        #expect(watcher.snapshot == TreeSnapshot.scan(watcher.spec))
    }

    /// Waiting for a missing folder is waiting for its path: the nearest folder there taken away by a folder above
    /// it renamed, the wait goes on from the folders that are on the path now.
    @Test func aMissingFolderIsWaitedForAtItsPathWhenAFolderAboveIsRenamed() async throws {
        let scratch = try TemporaryFolder("auto-file-events")
        defer { withExtendedLifetime(scratch) {} }
        try shell("mkdir -p a/b", in: scratch.path)
        let folder = scratch("a/b/c/watched")
        let (watcher, log) = try watch(WatchSpec(folder: folder))
        #expect(await log.wait { $0.statuses == [.folderMissing(folder)] })
        try move(scratch("a"), scratch("moved"))
        try shell("mkdir -p a/b/c/watched && touch a/b/c/watched/first", in: scratch.path)
        try #require(await log.wait { $0.statuses == [.folderMissing(folder), .folderWatched(folder)] })
        try await #require(log.settle(folder))
        #expect(Set(log.events.map(\.path)) == [folder + "/first"] && log.events.isCreatedOnce)
        #expect(watcher.snapshot == TreeSnapshot.scan(watcher.spec))
    }

    @Test func whatChangedSinceAStoredSnapshotComesFirst() async throws {
        let folder = try TemporaryFolder("auto-file-events")
        defer { withExtendedLifetime(folder) {} }
        for name in ["keep", "change", "delete"] { try writeFile(folder(name), name) }
        let spec = WatchSpec(folder: folder.path)
        let stored = try JSONDecoder().decode(TreeSnapshot.self, from: JSONEncoder().encode(TreeSnapshot.scan(spec)))
        try writeFile(folder("change"), "changed while the daemon was down")
        try remove(folder("delete"))
        try writeFile(folder("new"), "")
        let (_, log) = try watch(spec, since: stored)
        try await #require(log.settle(folder.path))
        #expect(log.events == [.changed(folder("change"), rescan: true), .deleted(folder("delete"), rescan: true),
                               .created(folder("new"), rescan: true)])
    }

    @Test func aStoppedWatcherReportsNothingMore() async throws {
        let folder = try TemporaryFolder("auto-file-events")
        defer { withExtendedLifetime(folder) {} }
        let (watcher, log) = try watch(WatchSpec(folder: folder.path))
        watcher.stop()
        watcher.stop()
        try writeFile(folder("after"), "")
        let other = try TemporaryFolder("auto-file-events")
        defer { withExtendedLifetime(other) {} }
        let (_, otherLog) = try watch(WatchSpec(folder: other.path))
        try await #require(otherLog.settle(other.path))
        #expect(log.events.isEmpty)
        // Paused, then stopped: no crash releasing the suspended source.
        let (paused, _) = try watch(WatchSpec(folder: folder.path), alone: true)
        paused.pauseReading()
        paused.stop()
    }

    @Test func churnInARecursiveWatchEndsWithTheSnapshotAScanFinds() async throws {
        let folder = try TemporaryFolder("auto-file-events")
        defer { withExtendedLifetime(folder) {} }
        let (watcher, log) = try watch(WatchSpec(folder: folder.path, recursive: true))
        try shell("""
            for i in $(seq 1 60); do
              mkdir -p c$((i % 5))/d$((i % 3)); touch c$((i % 5))/d$((i % 3))/f$i c$((i % 5))/g$i
              rm -rf c$(((i + 2) % 5)); mv c$(((i + 1) % 5)) m$i 2>/dev/null; mv m$i c$(((i + 3) % 5)) 2>/dev/null; true
            done
            """, in: folder.path)
        try await #require(log.settle(folder.path))
        #expect(watcher.snapshot == TreeSnapshot.scan(watcher.spec))
        // Replaying the events on the empty start gives what is there: nothing twice, nothing missed.
        var present: Set<String> = []
        for event in log.events {
            switch event.kind {
            case .created: #expect(present.insert(event.path).inserted, "created twice: \(event.path)")
            case .changed: #expect(present.contains(event.path), "changed before created: \(event.path)")
            case .deleted: #expect(present.remove(event.path) != nil, "deleted unknown: \(event.path)")
            }
        }
        #expect(present == Set(TreeSnapshot.scan(watcher.spec).entries.filter { !$0.value.isFolder && !$0.key.contains(EventLog.sentinelMark) }.keys))
    }
}
