import AutoAutomation
import AutoTestSupport
import Foundation
import Testing

/// File triggers under the real `auto daemon`, on real folders with real inotify: the example that files new PDFs
/// (written in place, or saved by rename), an automation that writes into its own folder and doesn't trigger itself,
/// what came while the daemon was down delivered with `catch up`, and a burst gathered by `debounce` into one run
/// with every file once. Every wait is for a file or a run, with a generous deadline, and sleeps between looks
/// without holding a thread of the shared pool (the debouncer and other suites' tasks run there).
@Suite(.serialized) final class FileTriggerDaemonTests {
    let folder: TemporaryFolder
    var store: String { folder("runs.sqlite") }
    var scripts: String { folder("scripts") }

    init() throws {
        folder = try TemporaryFolder("auto-filetrigger")
        for sub in ["scripts/inbox", "scripts/box", "scripts/burst"] {
            try FileManager.default.createDirectory(atPath: folder(sub), withIntermediateDirectories: true)
        }
    }

    func daemon() async throws -> ChildProcess {
        let process = try ChildProcess(BinaryRunner.binary, ["daemon", scripts, "--store", store, "--grace", "5s"])
        await waitUntil("the daemon started", of: process) { process.standardError.contains("daemon started") }
        return process
    }

    /// Stops the daemon with SIGTERM and gives its exit status.
    func stop(_ process: ChildProcess) async -> Int32? {
        process.signal(SIGTERM)
        var status: Int32?
        await waitUntil("the daemon stopped", of: process) {
            status = process.waitForExit(timeout: .milliseconds(1))
            return status != nil
        }
        return status
    }

    /// The runs of `name` so far, oldest first.
    func runs(of name: String) -> [RunRecord] { DaemonTestSupport.runs(in: store, of: name).reversed() }

    func write(_ text: String, to path: String) throws {
        try text.write(toFile: scripts + "/" + path, atomically: false, encoding: .utf8)
    }

    func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: scripts + "/" + path) }

    /// Waits for `condition`; when it never holds, the failure shows the daemon's log.
    func waitUntil(_ what: String, of process: ChildProcess? = nil, timeout: Duration = .seconds(120), _ condition: () -> Bool) async {
        await DaemonTestSupport.waitUntil(what, of: process, timeout: timeout, condition)
    }

    var today: String {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: Date())
    }

    @Test func theExampleFilesNewPDFsAndCatchesUpAfterDowntime() async throws {
        let example = try String(contentsOfFile: Fixture.repositoryRoot + "/examples/automations/file-pdfs.auto", encoding: .utf8)
        try example.write(toFile: scripts + "/file-pdfs.auto", atomically: true, encoding: .utf8)
        let first = try await daemon()
        try write("one", to: "inbox/a.pdf")
        try write("two", to: "inbox/.b.pdf.part")
        #expect(rename(scripts + "/inbox/.b.pdf.part", scripts + "/inbox/b.pdf") == 0, "a save by rename")
        try write("not a pdf", to: "inbox/notes.txt")
        await waitUntil("both PDFs filed", of: first) { exists("inbox/\(today)/a.pdf") && exists("inbox/\(today)/b.pdf") }
        await waitUntil("two runs ended", of: first) { runs(of: "file new PDFs").filter { $0.outcome == .succeeded }.count == 2 }
        #expect(await stop(first) == 0, "\(first.standardError)")

        try write("three", to: "inbox/c.pdf")
        let second = try await daemon()
        await waitUntil("the PDF that came while the daemon was down filed", of: second) { exists("inbox/\(today)/c.pdf") }
        await waitUntil("its run ended", of: second) { runs(of: "file new PDFs").count == 3 && runs(of: "file new PDFs").last?.outcome == .succeeded }
        let history = runs(of: "file new PDFs")
        #expect(history.map { ($0.files.first as NSString?)?.lastPathComponent } == ["a.pdf", "b.pdf", "c.pdf"], "each once, in order")
        #expect(history.map(\.fromRescan) == [false, false, true])
        #expect(exists("inbox/notes.txt"))
        #expect(await stop(second) == 0, "\(second.standardError)")
    }

    @Test func anAutomationsOwnWritesDontTriggerIt() async throws {
        try """
            automation "copies" when file created in "box" matching "*.txt" mode queued {
              set source = it
              write text "copy of \\(source.name)" to "\\(source.path).copy.txt"
            }

            """.write(toFile: scripts + "/copies.auto", atomically: true, encoding: .utf8)
        let process = try await daemon()
        try write("a", to: "box/a.txt")
        await waitUntil("a's copy", of: process) { exists("box/a.txt.copy.txt") }
        // Events are handled in order: once b's run has ended, a self-triggered run of a's copy would have come first.
        try write("b", to: "box/b.txt")
        await waitUntil("b's copy", of: process) { exists("box/b.txt.copy.txt") }
        await waitUntil("two runs ended", of: process) { runs(of: "copies").filter { $0.outcome != .running }.count == 2 }
        #expect(runs(of: "copies").map { ($0.files.first as NSString?)?.lastPathComponent } == ["a.txt", "b.txt"])
        #expect(!exists("box/a.txt.copy.txt.copy.txt"))
        #expect(await stop(process) == 0, "\(process.standardError)")
    }

    /// A machine too busy to read the events for the quiet time splits the burst into a few runs, as a debounce should:
    /// what must hold is that every file is in exactly one run.
    @Test func aBurstUnderDebounceIsAFewRunsWithEveryFileOnce() async throws {
        try """
            automation "burst" when file any in "burst" debounce 3 seconds { show count(files) }

            """.write(toFile: scripts + "/burst.auto", atomically: true, encoding: .utf8)
        let process = try await daemon()
        let count = 10_000
        for index in 0..<count {
            #expect(FileManager.default.createFile(atPath: scripts + "/burst/f\(index)", contents: Data("x".utf8)))
        }
        await waitUntil("every file delivered", of: process, timeout: .seconds(180)) { runs(of: "burst").reduce(0) { $0 + $1.files.count } >= count }
        let delivered = runs(of: "burst").flatMap(\.files)
        #expect(delivered.count == count && Set(delivered).count == count, "every file once: \(delivered.count) delivered")
        #expect(runs(of: "burst").count <= 20, "gathered into a few runs, not one per file: \(runs(of: "burst").count)")
        #expect(await stop(process) == 0, "\(process.standardError)")
    }
}
