@testable import AutoAutomation
import AutoLanguage
import AutoTestSupport
import Foundation
import Testing

/// Snapshots of a tree: what a scan takes in, what it leaves out, and the changes between two, in order.
@Suite struct FileEventSnapshotTests {
    @Test func aScanTakesHiddenFilesAndFoldersButNeverEntersLinksToFolders() throws {
        let folder = try TemporaryFolder("auto-file-events")
        defer { withExtendedLifetime(folder) {} }
        try makeFolder(folder("sub"))
        try writeFile(folder("a.txt"), "aaa")
        try writeFile(folder(".hidden"), "")
        try writeFile(folder("sub/b.txt"), "b")
        let outside = try TemporaryFolder("auto-file-events")
        defer { withExtendedLifetime(outside) {} }
        try writeFile(outside("secret.txt"), "")
        #expect(symlink(outside.path, folder("link")) == 0)

        let flat = TreeSnapshot.scan(WatchSpec(folder: folder.path))
        #expect(flat.entries.keys.sorted() == [folder(".hidden"), folder("a.txt"), folder("link")], "not recursive: no folders, a link is a name")
        #expect(flat.entries[folder("a.txt")]?.size == 3)
        #expect(flat.entries[folder("link")]?.isFolder == false)

        let deep = TreeSnapshot.scan(WatchSpec(folder: folder.path, recursive: true))
        #expect(deep.entries.keys.sorted() == [folder(".hidden"), folder("a.txt"), folder("link"), folder("sub"), folder("sub/b.txt")])
        #expect(deep.entries[folder("sub")] == TreeSnapshot.Entry(size: 0, modified: 0, isFolder: true))

        let pdfs = TreeSnapshot.scan(WatchSpec(folder: folder.path, recursive: true, glob: try FileGlob("*.txt")))
        #expect(pdfs.entries.keys.sorted() == [folder("a.txt"), folder("sub"), folder("sub/b.txt")], "a glob never hides a folder")
    }

    @Test func changesAreCreatedChangedDeletedInOrderOfPath() throws {
        let folder = try TemporaryFolder("auto-file-events")
        defer { withExtendedLifetime(folder) {} }
        for name in ["b", "c", "d", "e"] { try writeFile(folder(name), name) }
        let spec = WatchSpec(folder: folder.path)
        let before = TreeSnapshot.scan(spec)
        try writeFile(folder("c"), "longer")
        try remove(folder("d"))
        try writeFile(folder("a"), "")
        try makeFolder(folder("e2"))
        try remove(folder("e"))
        try makeFolder(folder("e"))
        let after = TreeSnapshot.scan(spec)
        #expect(before.changes(to: after) == [.created(folder("a"), rescan: true), .changed(folder("c"), rescan: true),
                                              .deleted(folder("d"), rescan: true), .deleted(folder("e"), rescan: true)])
        #expect(after.changes(to: after).isEmpty)
        #expect(after.changes(to: before).map(\.summary) == ["deleted \(folder("a"))", "changed \(folder("c"))", "created \(folder("d"))",
                                                             "created \(folder("e"))"])
    }

    @Test func aSnapshotSurvivesJSONAsTheDaemonStoresIt() throws {
        let folder = try TemporaryFolder("auto-file-events")
        defer { withExtendedLifetime(folder) {} }
        try makeFolder(folder("sub"))
        try writeFile(folder("sub/x y\nz"), "1")
        let snapshot = TreeSnapshot.scan(WatchSpec(folder: folder.path, recursive: true))
        let decoded = try JSONDecoder().decode(TreeSnapshot.self, from: JSONEncoder().encode(snapshot))
        #expect(decoded == snapshot)
    }

    @Test func aMissingFolderIsEmptyAndAVanishedOneMidScanIsNoError() throws {
        let folder = try TemporaryFolder("auto-file-events")
        defer { withExtendedLifetime(folder) {} }
        #expect(TreeSnapshot.scan(WatchSpec(folder: folder("nothing"))).entries.isEmpty)
        // Folders made and removed while scans run: every scan ends, with what it could read.
        try makeFolder(folder("churn"))
        let done = DispatchSemaphore(value: 0)
        let churn = folder("churn")
        DispatchQueue.global().async {
            for round in 0..<300 {
                let path = churn + "/\(round % 7)"
                _ = mkdir(path, 0o755)
                let descriptor = open(path + "/f", O_CREAT | O_WRONLY | O_CLOEXEC, 0o644)
                if descriptor >= 0 { close(descriptor) }
                _ = unlink(path + "/f")
                _ = rmdir(path)
            }
            done.signal()
        }
        for _ in 0..<200 { _ = TreeSnapshot.scan(WatchSpec(folder: folder.path, recursive: true)) }
        done.wait()
    }

    /// A name that isn't UTF-8 is in the snapshot as `FileNameBytes` writes it: 0xFF as U+EFFF.
    @Test func namesThatAreNotUTF8AreKeptByTheirBytes() throws {
        let folder = try TemporaryFolder("auto-file-events")
        defer { withExtendedLifetime(folder) {} }
        try writeFile(folder("-rf"), "")
        try writeFile(folder("new\nline"), "")
        var bytes = Array((folder.path + "/bad-").utf8CString.dropLast()) + [CChar(bitPattern: 0xff), 0]
        let descriptor = open(&bytes, O_CREAT | O_WRONLY | O_CLOEXEC, 0o644)
        try #require(descriptor >= 0)
        close(descriptor)
        #expect(TreeSnapshot.scan(WatchSpec(folder: folder.path)).entries.keys.sorted() == [folder("-rf"), folder("bad-\u{EFFF}"), folder("new\nline")])
    }

    @Test func whatAnUnreadableFolderHeldIsUnknownNotDeleted() {
        let known = TreeSnapshot(entries: ["/w/locked/a": .init(size: 1, modified: 1, isFolder: false),
                                           "/w/b": .init(size: 1, modified: 1, isFolder: false)])
        let locked = TreeSnapshot(entries: [:], unreadable: ["/w/locked"])
        #expect(known.changes(to: locked) == [.deleted("/w/b", rescan: true)])
    }

    @Test(.enabled(if: getuid() != 0, "root reads every folder")) func aFolderWithoutPermissionIsUnreadable() throws {
        let folder = try TemporaryFolder("auto-file-events")
        defer { withExtendedLifetime(folder) {} }
        try makeFolder(folder("locked"))
        try writeFile(folder("locked/a"), "")
        let spec = WatchSpec(folder: folder.path, recursive: true)
        let before = TreeSnapshot.scan(spec)
        #expect(chmod(folder("locked"), 0) == 0)
        let after = TreeSnapshot.scan(spec)
        #expect(after.unreadable == [folder("locked")])
        #expect(before.changes(to: after).isEmpty)
    }
}
