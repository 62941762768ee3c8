import AutoAutomation
import AutoTestSupport
import Foundation
import Testing

/// The real `auto daemon` binary: killed with SIGKILL at random points of its runs and started again many times,
/// its run store then holds every fire once; stopped with SIGTERM, it ends cleanly; a second daemon on its store
/// is refused, even with the lock file deleted; a damaged store is refused with a command that recovers it; a script
/// edited while it runs is reloaded, an edit that is broken or can't be read keeps the version running, and a
/// deleted one stops. Every wait is for something in the store or the log, with a generous deadline, and sleeps between looks
/// without holding a thread of the shared pool.
@Suite(.serialized) final class DaemonProcessTests {
    let folder: TemporaryFolder
    var store: String { folder("runs.sqlite") }
    var scripts: String { folder("scripts") }

    init() throws {
        folder = try TemporaryFolder("auto-daemon")
        try FileManager.default.createDirectory(atPath: folder("scripts"), withIntermediateDirectories: true)
    }

    func write(_ name: String, _ text: String) throws {
        try text.write(toFile: scripts + "/" + name, atomically: true, encoding: .utf8)
    }

    func daemon() throws -> ChildProcess {
        try ChildProcess(BinaryRunner.binary, ["daemon", scripts, "--store", store, "--grace", "5s"])
    }

    /// A daemon for which file permissions hold: as root (tests in a container), without the capabilities that
    /// override them, through util-linux's `setpriv`, which execs it (same pid).
    func daemonHeldToPermissions() throws -> ChildProcess {
        let arguments = ["daemon", scripts, "--store", store, "--grace", "5s"]
        guard getuid() == 0 else { return try ChildProcess(BinaryRunner.binary, arguments) }
        return try ChildProcess("/usr/bin/setpriv", ["--bounding-set", "-dac_override,-dac_read_search", BinaryRunner.binary] + arguments)
    }

    /// How many times the daemon's log says `text` so far.
    static func count(_ text: String, in log: String) -> Int { log.components(separatedBy: text).count - 1 }

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

    @Test func aSecondDaemonIsRefusedWithTheLockFileDeletedAndCommandsStillWork() async throws {
        try write("tick.auto", "automation \"tick\" every 1 second { show \"tick\" }\n")
        let first = try daemon()
        #expect(first.waitForError { $0.contains("daemon started") }, "\(first.standardError)")
        try FileManager.default.removeItem(atPath: store + ".lock")
        let second = try daemon()
        #expect(second.waitForExit(timeout: .seconds(60)) == 1)
        #expect(second.standardError.contains("another daemon uses it (process \(first.pid))"), "\(second.standardError)")
        // Commands beside the running daemon still read and write the store.
        await waitUntil("a run of 'tick'", of: first) { runs().contains { $0.outcome == .succeeded } }
        let history = try await BinaryRunner.runAwaiting(["automations", "history", "--store", store])
        #expect(history.exitCode == 0 && history.standardOutput.contains("tick"), "\(history.standardError)")
        let disable = try await BinaryRunner.runAwaiting(["automations", "disable", "tick", "--store", store])
        #expect(disable.exitCode == 0, "\(disable.standardError)")
        await waitUntil("a fire of the disabled 'tick' skipped", of: first) { runs().contains { $0.outcome == .skipped } }
        first.signal(SIGTERM)
        #expect(first.waitForExit(timeout: .seconds(60)) == 0)
    }

    /// An edit that can't be read is no script: the version running keeps running, as with a syntax error, and the
    /// log says why. Each edit replaces `second` with `third`, which never runs.
    @Test func anEditThatCantBeReadKeepsTheVersionRunning() async throws {
        let running = "automation \"first\" every 1 second { show 1 }\nautomation \"second\" every 1 second { show 2 }\n"
        let edited = "automation \"first\" every 1 second { show 1 }\nautomation \"third\" every 1 second { show 3 }\n"
        try write("a.auto", running)
        let process = try daemonHeldToPermissions()
        #expect(process.waitForError { $0.contains("daemon started") }, "\(process.standardError)")
        let kept = "script can't be read; its previous version keeps running"
        /// Whether the log says the previous version is kept, for `reason`. (A save may show more than one event.)
        func keptSaying(_ reason: String) -> Bool {
            process.waitForError { log in log.split(separator: "\n").contains { $0.contains(kept) && $0.contains("reason=\(reason)") } }
        }
        func secondKeepsRunning(after edit: String) async {
            let before = runs().filter { $0.automation.name == "second" }.count
            await waitUntil("'second' goes on running after \(edit)", of: process) {
                runs().filter { $0.automation.name == "second" }.count > before + 1
            }
        }

        // One byte that isn't UTF-8, in a comment.
        var bytes = Data("# caf".utf8) + Data([0xE9]) + Data("\n".utf8) + Data(edited.utf8)
        try bytes.write(to: URL(fileURLWithPath: scripts + "/a.auto"), options: .atomic)
        #expect(keptSaying("line 1 is not UTF-8"), "\(process.standardError)")
        await secondKeepsRunning(after: "a byte that isn't UTF-8")

        // Half-written: a writer has emptied the file and written part of it, and still has it open; another write,
        // closed, makes the daemon read it meanwhile. (Descriptors closed on exec: no child another test starts
        // keeps the file open for writing.)
        func append(_ text: String, to descriptor: Int32) {
            #expect(text.withCString { Glibc.write(descriptor, $0, strlen($0)) } == text.utf8.count)
        }
        let beingWritten = "script is being written; it is read when its writer closes it"
        let seen = Self.count(beingWritten, in: process.standardError)
        let writer = open(scripts + "/a.auto", O_WRONLY | O_TRUNC | O_CLOEXEC)
        #expect(writer >= 0)
        append("automation \"first\" every 1 second { show 1 }\n", to: writer)
        close(open(scripts + "/a.auto", O_WRONLY | O_CLOEXEC))
        #expect(process.waitForError { Self.count(beingWritten, in: $0) > seen }, "\(process.standardError)")
        await secondKeepsRunning(after: "a half-written edit")
        #expect(!process.standardError.contains("script reloaded"), "the half-written edit was not loaded")
        append("automation \"second\" every 1 second { show 2 }\n", to: writer)
        close(writer)
        #expect(process.waitForError { $0.contains("script reloaded") }, "\(process.standardError)")

        // Saved by rename without permission to read it.
        bytes = Data(edited.utf8)
        try bytes.write(to: URL(fileURLWithPath: folder.path + "/unreadable.auto"))
        #expect(chmod(folder.path + "/unreadable.auto", 0) == 0)
        #expect(rename(folder.path + "/unreadable.auto", scripts + "/a.auto") == 0)
        #expect(keptSaying("permission denied"), "\(process.standardError)")
        await secondKeepsRunning(after: "an edit without permission to read it")

        // A FIFO moved in: reading it would wait for a writer.
        #expect(mkfifo(folder.path + "/fifo.auto", 0o644) == 0)
        #expect(rename(folder.path + "/fifo.auto", scripts + "/a.auto") == 0)
        #expect(keptSaying("it is not a regular file"), "\(process.standardError)")
        await secondKeepsRunning(after: "a FIFO")

        #expect(!runs().contains { $0.automation.name == "third" }, "no edit that couldn't be read was loaded")
        try FileManager.default.removeItem(atPath: scripts + "/a.auto")
        #expect(process.waitForError { $0.contains("script gone: its automations stop") }, "\(process.standardError)")
        process.signal(SIGTERM)
        #expect(process.waitForExit(timeout: .seconds(60)) == 0)
    }

    /// A store with runs in it, then damaged where a daemon that only fires on time doesn't look: the folder copies
    /// of file automations. Returns how many runs it held.
    func damagedStore() async throws -> Int {
        try write("tick.auto", "automation \"tick\" every 1 second { show \"tick\" }\n")
        let process = try daemon()
        await waitUntil("two runs", of: process) { runs().filter { $0.outcome == .succeeded }.count >= 2 }
        process.signal(SIGTERM)
        #expect(process.waitForExit(timeout: .seconds(60)) == 0)
        let held = runs().count
        try DaemonTestSupport.damage("tree", of: store)
        return held
    }

    @Test func aDamagedStoreIsRefusedWithTheCommandThatRecoversIt() async throws {
        _ = try await damagedStore()
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let process = try daemon()
        #expect(process.waitForExit(timeout: .seconds(60)) == 1)
        #expect(process.standardError.contains("error: run store \(store): it is damaged ("), "\(process.standardError)")
        #expect(process.standardError.contains("nothing was written to it"))
        #expect(process.standardError.contains("\n  sqlite3 '\(store)' .dump | sed 's/^ROLLBACK; -- due to errors$/COMMIT;/' | sqlite3 '\(folder.path)/runs-recovered.sqlite'\n"),
                "\(process.standardError)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before, "the damaged store is left as it was")
    }

    /// sqlite3 is installed by `.ci/setup`, as the message tells people to run it.
    @Test func theCommandGivenForADamagedStoreRecoversItsRuns() async throws {
        let held = try await damagedStore()
        let refused = try daemon()
        #expect(refused.waitForExit(timeout: .seconds(60)) == 1)
        let command = try #require(refused.standardError.split(separator: "\n").first { $0.hasPrefix("  sqlite3 ") }, "\(refused.standardError)")
        let recovering = try await BinaryRunner.runAwaiting(["-c", String(command)], executable: "/bin/sh")
        #expect(recovering.exitCode == 0, "\(recovering.standardError)")
        let recovered = folder.path + "/runs-recovered.sqlite"
        #expect(DaemonTestSupport.runs(in: recovered).count == held, "every run is in the recovered store")
        let process = try ChildProcess(BinaryRunner.binary, ["daemon", scripts, "--store", recovered, "--grace", "5s"])
        await waitUntil("a run in the recovered store", of: process) { DaemonTestSupport.runs(in: recovered).count > held }
        process.signal(SIGTERM)
        #expect(process.waitForExit(timeout: .seconds(60)) == 0)
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

    /// A script's warnings (a former name, a deprecated intent, an argument that takes a whole expression) are in the
    /// log once when it is loaded, with the line and the hint, and the script runs.
    @Test func aScriptsWarningsAreLoggedOnceWhenItIsLoaded() async throws {
        try write("w.auto", """
            shortcut "sq" (n: Int) { return n * n }
            automation "squares" every 1 hour { show sq 3 + 1 }
            """)
        let process = try daemon()
        // Scripts are loaded, and their warnings logged, before the daemon says it started.
        #expect(process.waitForError { $0.contains("daemon started") }, "\(process.standardError)")
        let log = process.standardError
        #expect(Self.count("'sq' takes all of this as its argument", in: log) == 1, "\(log)")
        #expect(log.contains("hint=write 'sq (…)' to keep this meaning") && log.contains("line=2"), "\(log)")
        process.signal(SIGTERM)
        #expect(process.waitForExit(timeout: .seconds(60)) == 0)
    }
}
