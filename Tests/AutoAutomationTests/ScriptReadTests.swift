@testable import AutoAutomation
import AutoTestSupport
import Foundation
import Testing

/// How the daemon reads a script: its text, gone, or why it can't be read now, on real files.
@Suite struct ScriptReadTests {
    let folder: TemporaryFolder
    init() throws {
        folder = try TemporaryFolder("auto-read")
    }

    /// Writes a file through a child process (`printf`'s octal escapes for bytes): a child that another test starts
    /// meanwhile would share a descriptor of this process's, open for writing, until it execs.
    func write(_ format: String, to path: String) throws {
        let written = try BinaryRunner.run(["-c", "printf \"$1\" > \"$2\"", "sh", format, path], executable: "/bin/sh")
        try #require(written.exitCode == 0, "\(written.standardError)")
    }

    @Test func aScriptIsItsTextOrGone() throws {
        try write(#"show "\303\251"\n"#, to: folder("a.auto"))
        #expect(ScriptRead.read(folder("a.auto")) == .text("show \"é\"\n"))
        #expect(ScriptRead.read(folder("gone.auto")) == .gone)
        #expect(ScriptRead.read(folder("a.auto/b.auto")) == .gone, "a file where a folder was")
    }

    @Test func whatCantBeReadSaysWhy() throws {
        try write(#"show 1\n# caf\303\251\n# caf\351\n"#, to: folder("latin1.auto"))
        #expect(ScriptRead.read(folder("latin1.auto")) == .unreadable("line 3 is not UTF-8"))
        try FileManager.default.createDirectory(atPath: folder("folder.auto"), withIntermediateDirectories: true)
        #expect(ScriptRead.read(folder("folder.auto")) == .unreadable("it is a folder"))
        #expect(mkfifo(folder("fifo.auto"), 0o644) == 0)
        #expect(ScriptRead.read(folder("fifo.auto")) == .unreadable("it is not a regular file"), "and no wait for a writer")
    }

    @Test func aFileOpenForWritingIsBeingWritten() async throws {
        let path = folder("a.auto")
        try write(#"show 1\n"#, to: path)
        let writer = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
        try #require(writer >= 0)
        #expect(ScriptRead.read(path) == .beingWritten)
        #expect("show 2\n".withCString { Glibc.write(writer, $0, strlen($0)) } == 7)
        close(writer)
        // A child another test started while the writer was open shares it until that child execs.
        let deadline = ContinuousClock.now + .seconds(30)
        while ScriptRead.read(path) == .beingWritten, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(ScriptRead.read(path) == .text("show 1\nshow 2\n"))
    }
}
