import AutoAutomation
import AutoTestSupport
import Foundation
import Testing

/// The real `auto daemon` binary: killed with SIGKILL at random points of its runs and started again many times,
/// its run store then holds every fire once; stopped with SIGTERM, it ends cleanly; a second daemon on its store
/// is refused; a script edited while it runs is reloaded, a broken edit keeps the version running, and a deleted
/// one stops. Every wait is for something in the store or the log, with a generous deadline, and sleeps between looks
/// without holding a thread of the shared pool.
@Suite(.serialized) final class DaemonProcessTests {
    let folder: URL
    var store: String { folder.appendingPathComponent("runs.sqlite").path }
    var scripts: String { folder.appendingPathComponent("scripts").path }

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("auto-daemon-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: folder.appendingPathComponent("scripts").path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    func write(_ name: String, _ text: String) throws {
        try text.write(toFile: scripts + "/" + name, atomically: true, encoding: .utf8)
    }

    func daemon() throws -> ChildProcess {
        try ChildProcess(BinaryRunner.binary, ["daemon", scripts, "--store", store, "--grace", "5s"])
    }

    /// Runs recorded so far (none while the store doesn't exist yet).
    func runs() -> [RunRecord] { DaemonTestSupport.runs(in: store) }

    /// Waits for `condition`; when it never holds, the failure shows the store's runs and the daemon's log.
    func waitUntil(_ what: String, of process: ChildProcess? = nil, timeout: Duration = .seconds(60), _ condition: () -> Bool) async {
        await DaemonTestSupport.waitUntil(what, of: process, timeout: timeout, detail: {
            "\nruns: \(runs().map { "\($0.id) \($0.outcome) \($0.message ?? "")" })"
        }, condition)
    }

    @Test func killedAtRandomPointsEveryFireIsRecordedOnceAndNoneRunsTwice() async throws {
        try write("tick.auto", "automation \"tick\" every 1 second { show \"tick \\(it.second)\"; repeat 20000 times { set n = 1 } }\n")
        var generator = SystemRandomNumberGenerator()
        for round in 0..<8 {
            let process = try daemon()
            let before = runs().filter { $0.outcome != .skipped }.count
            // A random point: after one to three more runs have started, then at once.
            let more = Int.random(in: 1...3, using: &generator)
            await waitUntil("round \(round): \(more) more runs", of: process) { runs().filter { $0.outcome != .skipped }.count >= before + more }
            process.signal(SIGKILL)
            _ = process.waitForExit(timeout: .seconds(30))
            // Every other round the daemon stays down past a fire or two, which the next start records as missed.
            if round % 2 == 1, let latest = runs().map(\.scheduled).max() {
                await waitUntil("two fires' time down") { Date() > latest.addingTimeInterval(2.5) }
            }
        }
        // A last, clean start and stop: it records what was missed and closes what a kill left running.
        let last = try daemon()
        let before = runs().count
        await waitUntil("a run after the last start", of: last) { runs().count > before + 1 }
        last.signal(SIGTERM)
        #expect(last.waitForExit(timeout: .seconds(60)) == 0, "\(last.standardError)")

        let fires = runs().filter { !$0.manual }.sorted { $0.scheduled < $1.scheduled }
        let seconds = fires.map { Int(($0.scheduled.timeIntervalSince1970).rounded()) }
        #expect(Set(seconds).count == seconds.count, "no scheduled second twice")
        let first = try #require(seconds.first), lastSecond = try #require(seconds.last)
        #expect(seconds == Array(first...lastSecond), "every second from the first fire to the last is recorded: \(seconds)")
        #expect(!fires.contains { $0.outcome == .running }, "nothing is left running")
        #expect(fires.contains { $0.outcome == .skipped && $0.message == "the daemon was not running" })
        #expect(fires.filter { $0.outcome != .skipped }.count >= 10, "each round ran at least one")
        #expect(fires.filter { $0.outcome == .failed }.allSatisfy { $0.message == "the daemon stopped during this run" },
                "a run a kill stopped is closed as failed, and not run again")
    }

    @Test func aSecondDaemonOnTheStoreIsRefusedAndSigtermStopsTheFirst() throws {
        try write("tick.auto", "automation \"tick\" every 1 second { show \"tick\" }\n")
        let first = try daemon()
        #expect(first.waitForError { $0.contains("daemon started") }, "\(first.standardError)")
        let second = try daemon()
        #expect(second.waitForExit(timeout: .seconds(60)) == 1)
        #expect(second.standardError.contains("another daemon uses it (process \(first.pid))"), "\(second.standardError)")
        #expect(first.waitForError { $0.contains("run succeeded") }, "\(first.standardError)")
        first.signal(SIGTERM)
        #expect(first.waitForExit(timeout: .seconds(60)) == 0)
        #expect(first.standardError.contains("daemon stopped"))
    }

    @Test func anEditedScriptIsReloadedAndABrokenEditKeepsTheVersionRunning() async throws {
        try write("a.auto", "automation \"first\" every 1 second { show 1 }\n")
        let process = try daemon()
        #expect(process.waitForError { $0.contains("daemon started") }, "\(process.standardError)")
        try write("a.auto", "automation \"second\" every 1 second { show 2 }\n")
        #expect(process.waitForError { $0.contains("script reloaded") }, "\(process.standardError)")
        await waitUntil("a run of the reloaded automation", of: process) { runs().contains { $0.automation.name == "second" && $0.outcome == .succeeded } }
        try write("a.auto", "automation \"third\" every 1 second { show nobody }\n")
        #expect(process.waitForError { $0.contains("its previous version keeps running") }, "\(process.standardError)")
        #expect(process.standardError.contains("unknown name 'nobody'"))
        let before = runs().filter { $0.automation.name == "second" }.count
        await waitUntil("'second' goes on running", of: process) { runs().filter { $0.automation.name == "second" }.count > before + 1 }
        try FileManager.default.removeItem(atPath: scripts + "/a.auto")
        #expect(process.waitForError { $0.contains("script gone: its automations stop") }, "\(process.standardError)")
        process.signal(SIGTERM)
        #expect(process.waitForExit(timeout: .seconds(60)) == 0)
    }
}
