import AutoTestSupport
import Foundation
import Testing

/// Real `auto daemon` processes on one PostgreSQL store, for the cluster's tests: a script of automations that fire
/// every second, each run appending "NAME INSTANT" to a ledger outside the store, of which each node has its own copy
/// (as nodes on several machines would: a shared store knows a script by its file name); the nodes started on it;
/// what `auto automations status` says each owns; and what the store and the ledger say ran. The folder of the
/// scripts and the ledger goes with the harness: a test keeps it to its end, after its nodes.
struct ClusterHarness {
    let folder: TemporaryFolder
    let automations: Int
    var ledger: String { folder("ledger.txt") }

    init(automations: Int) throws {
        self.automations = automations
        folder = try TemporaryFolder("auto-cluster")
    }

    /// The script, as first written or edited: an edit adds a comment to every body, which changes each automation's
    /// definition and none of what its runs do.
    func script(edited: Bool) -> String {
        (1...automations).map { index in
            "automation \"tick\(index)\" every 1 second {\(edited ? " # edited" : "")\n"
                + "  write text \"tick\(index) \\(it)\\n\" to \"\(ledger)\" append: true\n}"
        }.joined(separator: "\n") + "\n"
    }

    /// The folder of a node's copy of the script.
    func scripts(of node: String) -> String { folder("nodes/" + node) }

    /// Writes a node's copy of the script (the node, if it runs, reloads it).
    func writeScript(of node: String, edited: Bool) throws {
        try FileManager.default.createDirectory(atPath: scripts(of: node), withIntermediateDirectories: true)
        try script(edited: edited).write(toFile: scripts(of: node) + "/ticks.auto", atomically: true, encoding: .utf8)
    }

    /// Starts a node on its copy of the script, written first if it has none.
    func daemon(_ name: String, _ url: String) throws -> ChildProcess {
        if !FileManager.default.fileExists(atPath: scripts(of: name) + "/ticks.auto") { try writeScript(of: name, edited: false) }
        return try ChildProcess(BinaryRunner.binary, ["daemon", scripts(of: name), "--store", url, "--node", name, "--lease", "2s", "--grace", "5s"])
    }

    /// What `auto automations status --json` says: its nodes and automations; nil (and an issue recorded) when it failed.
    func status(_ url: String) async throws -> (nodes: [[String: Any]], automations: [[String: Any]])? {
        let result = try await BinaryRunner.runAwaiting(["automations", "status", "--json", "--store", url])
        guard result.exitCode == 0, let object = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any],
              let nodes = object["nodes"] as? [[String: Any]], let automations = object["automations"] as? [[String: Any]] else {
            Issue.record("status failed: \(result.standardError)")
            return nil
        }
        return (nodes, automations)
    }

    /// How many automations each live node owns, as status says.
    func owners(_ url: String) async throws -> [String: Int] {
        guard let (nodes, automations) = try await status(url) else { return [:] }
        let live = Dictionary(nodes.filter { $0["live"] as? Bool == true }.compactMap { node in
            (node["id"] as? Int).flatMap { id in (node["name"] as? String).map { (id, $0) } }
        }, uniquingKeysWith: { first, _ in first })
        var owned: [String: Int] = [:]
        for automation in automations {
            guard let owner = automation["owner"] as? Int, let name = live[owner] else { continue }
            owned[name, default: 0] += 1
        }
        return owned
    }

    /// The live nodes that have another definition of some automation than the store, as status says, by name.
    func nodesWithOtherDefinitions(_ url: String) async throws -> Set<String> {
        guard let (nodes, _) = try await status(url) else { return [] }
        return Set(nodes.filter { $0["live"] as? Bool == true && ($0["otherDefinitions"] as? Int ?? 0) > 0 }.compactMap { $0["name"] as? String })
    }

    /// Whether `nodes` live nodes own every automation between them, none more than its share.
    func isShared(_ owned: [String: Int], among nodes: Int) -> Bool {
        owned.count == nodes && owned.values.reduce(0, +) == automations && owned.values.allSatisfy { $0 <= (automations + nodes - 1) / nodes }
    }

    /// Waits for `condition` with a generous deadline; how long it took.
    @discardableResult
    func until(_ what: String, _ processes: [ChildProcess], within deadline: Duration = .seconds(90),
               _ condition: () async throws -> Bool) async throws -> Duration {
        let start = ContinuousClock.now
        while try await !condition() {
            guard ContinuousClock.now - start < deadline else {
                let logs = processes.map { "log:\n\($0.standardErrorForReport)" }.joined(separator: "\n")
                Issue.record("never: \(what)\n\(logs)")
                return ContinuousClock.now - start
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        return ContinuousClock.now - start
    }

    /// Waits until no run begun more than 5 s ago is still "running" in the store. A request in flight as the server
    /// went down may go unanswered until the store gives it up (10 s), and the ends of runs wait behind it: they are
    /// recorded then, and a test waits for them before it stops the nodes (a node stopping leaves them to the next
    /// daemon after its grace).
    func untilRunsBegunAreRecorded(_ url: String, _ nodes: [ChildProcess]) async throws {
        try await until("the runs begun before are recorded", nodes, within: .seconds(120)) {
            try await history(url).allSatisfy { $0.outcome != "running" || $0.scheduled > Date().addingTimeInterval(-5) }
        }
    }

    /// The automations with a line in the ledger, from its line `from` on.
    func automationsInLedger(from line: Int = 0) -> Set<String> {
        Set(ledgerLines().dropFirst(line).map { String($0.split(separator: " ")[0]) })
    }

    /// The ledger's lines, "tickN yyyy-MM-dd HH:mm:ss" (the instant in this machine's zone).
    func ledgerLines() -> [String] {
        ((try? String(contentsOfFile: ledger, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// The lines of the ledger that appear more than once: fires that ran twice.
    func repeatedLines() -> [String] {
        Dictionary(grouping: ledgerLines(), by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
    }

    /// What every test of the cluster checks at its end, whatever it put the nodes through: no fire ran twice — in the
    /// ledger the runs append to, or in the store — every second of every automation, from its first fire recorded to
    /// its last, has exactly one row (a run, or a fire not run with its reason), no run was left running, and the ledger
    /// and the store agree. `nodes`: the daemons, whose logs say what happened to a run left running.
    func expectEachFireOnce(_ url: String, _ nodes: [ChildProcess]) async throws {
        // No fire twice, in the ledger or in the store.
        let lines = ledgerLines()
        #expect(repeatedLines().isEmpty, "fires run twice: \(repeatedLines().prefix(20))")
        let fires = try await history(url)
        let keys = fires.map { "\($0.automation) \(Int($0.scheduled.timeIntervalSince1970))" }
        #expect(Set(keys).count == keys.count, "fires recorded twice")

        // Every second of every automation, from its first fire recorded to its last, has one row, and a fire not run
        // says why.
        for (automation, rows) in Dictionary(grouping: fires, by: \.automation) {
            let seconds = Set(rows.map { Int($0.scheduled.timeIntervalSince1970) })
            guard let first = seconds.min(), let last = seconds.max() else { continue }
            let missing = (first...last).filter { !seconds.contains($0) }
            #expect(missing.isEmpty, "\(automation): no row for \(missing.count) seconds, the first at \(missing.first ?? 0)")
        }
        let unexplained = fires.filter { ($0.outcome == "skipped" || $0.outcome == "rejected") && $0.message.isEmpty }
        #expect(unexplained.isEmpty, "fires not run with no reason: \(unexplained.prefix(5))")
        // What the nodes said of a run left running: the lines with its automation and instant.
        for fire in fires.filter({ $0.outcome == "running" }).prefix(3) {
            let instant = ISO8601DateFormatter().string(from: fire.scheduled)
            let said = nodes.flatMap { node in
                node.standardError.split(separator: "\n").filter { line in
                    (line.contains("automation=\(fire.automation) ") && line.contains(instant)) || line.contains(" error ") || line.contains(" warning ")
                }
            }
            Issue.record("\(fire.automation) at \(instant) left running; the nodes said:\n\(said.joined(separator: "\n"))")
        }

        // The ledger and the store agree: each line is a fire the store has as run, each success has its line.
        // An instant reads as a date shows: its seconds left out when they are 0, its time when it is midnight.
        let formatters = ["yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd HH:mm", "yyyy-MM-dd"].map { format in
            let formatter = DateFormatter()
            formatter.dateFormat = format
            formatter.timeZone = .current
            return formatter
        }
        let ledgerKeys = Set(lines.compactMap { line -> String? in
            let parts = line.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, let date = formatters.lazy.compactMap({ $0.date(from: String(parts[1])) }).first else { return nil }
            return "\(parts[0]) \(Int(date.timeIntervalSince1970))"
        })
        #expect(ledgerKeys.count == lines.count, "every ledger line reads as an automation and an instant")
        let ran = Set(fires.filter { $0.outcome != "skipped" && $0.outcome != "rejected" }.map { "\($0.automation) \(Int($0.scheduled.timeIntervalSince1970))" })
        let succeeded = Set(fires.filter { $0.outcome == "succeeded" }.map { "\($0.automation) \(Int($0.scheduled.timeIntervalSince1970))" })
        #expect(ledgerKeys.subtracting(ran).isEmpty, "runs in the ledger the store doesn't have: \(ledgerKeys.subtracting(ran).sorted().prefix(5))")
        #expect(succeeded.subtracting(ledgerKeys).isEmpty, "successes with no line: \(succeeded.subtracting(ledgerKeys).sorted().prefix(5))")
    }

    /// Every fire recorded in the store: automation, scheduled instant, outcome and message.
    func history(_ url: String) async throws -> [(automation: String, scheduled: Date, outcome: String, message: String)] {
        let history = try await BinaryRunner.runAwaiting(["automations", "history", "--json", "--limit", "10000000", "--store", url])
        let runs = try #require(try JSONSerialization.jsonObject(with: Data(history.standardOutput.utf8)) as? [[String: Any]],
                                "\(history.standardError)")
        let iso = ISO8601DateFormatter()
        return runs.filter { $0["manual"] as? Bool == false }.compactMap { run in
            guard let automation = run["automation"] as? String, let scheduled = (run["scheduled"] as? String).flatMap(iso.date(from:)) else {
                return nil
            }
            return (automation, scheduled, run["outcome"] as? String ?? "", run["message"] as? String ?? "")
        }
    }
}
