@testable import AutoAutomation
import Foundation
import Testing

/// How the daemon reads a script: its text, gone, or why it can't be read now, on real files.
@Suite struct ScriptReadTests {
    let folder: String
    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("auto-read-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    @Test func aScriptIsItsTextOrGone() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "show \"é\"\n".write(toFile: folder + "/a.auto", atomically: true, encoding: .utf8)
        #expect(ScriptRead.read(folder + "/a.auto") == .text("show \"é\"\n"))
        #expect(ScriptRead.read(folder + "/gone.auto") == .gone)
        #expect(ScriptRead.read(folder + "/a.auto/b.auto") == .gone, "a file where a folder was")
    }

    @Test func whatCantBeReadSaysWhy() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try (Data("show 1\n# café\n# caf".utf8) + Data([0xE9, 0x0A])).write(to: URL(fileURLWithPath: folder + "/latin1.auto"))
        #expect(ScriptRead.read(folder + "/latin1.auto") == .unreadable("line 3 is not UTF-8"))
        try FileManager.default.createDirectory(atPath: folder + "/folder.auto", withIntermediateDirectories: true)
        #expect(ScriptRead.read(folder + "/folder.auto") == .unreadable("it is a folder"))
        #expect(mkfifo(folder + "/fifo.auto", 0o644) == 0)
        #expect(ScriptRead.read(folder + "/fifo.auto") == .unreadable("it is not a regular file"), "and no wait for a writer")
    }

    @Test func aFileOpenForWritingIsBeingWritten() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/a.auto"
        try "show 1\n".write(toFile: path, atomically: true, encoding: .utf8)
        let writer = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
        try #require(writer >= 0)
        #expect(ScriptRead.read(path) == .beingWritten)
        #expect("show 2\n".withCString { write(writer, $0, strlen($0)) } == 7)
        close(writer)
        #expect(ScriptRead.read(path) == .text("show 1\nshow 2\n"))
    }
}
