import AutoTestSupport
import Foundation
import Testing

/// Real `auto daemon` processes on one PostgreSQL store (a real server): they share the automations, one killed with
/// SIGKILL is taken over, one stopped with SIGTERM hands over at once, and across it all each fire ran once — in the
/// store, and in a ledger each run appends to outside it.
@Suite struct ClusterDaemonTests {
    let cluster: ClusterHarness

    init() throws {
        cluster = try ClusterHarness(automations: 4)
    }

    @Test func nodesShareTakeOverAfterSigkillHandOverAtSigtermAndNoFireRunsTwice() async throws {
        let url = try await PostgresServer.database()
        let alpha = try cluster.daemon("alpha", url), beta = try cluster.daemon("beta", url)
        try await cluster.until("alpha and beta own two each", [alpha, beta]) { try await cluster.owners(url) == ["alpha": 2, "beta": 2] }

        alpha.signal(SIGKILL)
        _ = alpha.waitForExit(timeout: .seconds(30))
        let takeover = try await cluster.until("beta takes alpha's automations over", [beta]) { try await cluster.owners(url) == ["beta": 4] }
        // How soon is printed below, not asserted: a loaded machine is slow, and speed is measured by the benchmarks.

        let gamma = try cluster.daemon("gamma", url)
        try await cluster.until("gamma gets its share", [beta, gamma]) { try await cluster.owners(url) == ["beta": 2, "gamma": 2] }
        beta.signal(SIGTERM)
        let handover = try await cluster.until("gamma owns all four once beta stopped", [beta, gamma]) { try await cluster.owners(url) == ["gamma": 4] }
        #expect(beta.waitForExit(timeout: .seconds(60)) == 0, "\(beta.standardError)")
        #expect(beta.standardError.contains("left the cluster"), "\(beta.standardError)")
        let linesBefore = cluster.ledgerLines().count
        try await cluster.until("gamma runs fires of all four", [gamma]) {
            cluster.automationsInLedger(from: linesBefore).count == 4
        }
        gamma.signal(SIGTERM)
        #expect(gamma.waitForExit(timeout: .seconds(60)) == 0, "\(gamma.standardError)")
        #expect(gamma.standardError.contains("node=gamma"), "every line of a node's log names it")

        // Each (automation, second) once in the ledger; none of them in the store twice.
        #expect(!cluster.ledgerLines().isEmpty)
        #expect(cluster.repeatedLines().isEmpty, "fires run twice: \(cluster.repeatedLines())")
        let fires = try await cluster.history(url)
        let keys = fires.map { "\($0.automation) \($0.scheduled.timeIntervalSince1970)" }
        #expect(Set(keys).count == keys.count)
        // Whatever ran in between, the fires a node missed while alpha was dead are recorded with their reason.
        #expect(fires.contains { $0.outcome == "skipped" && $0.message.contains("no daemon owned it") })
        FileHandle.standardError.write(Data("cluster: SIGKILL taken over after \(takeover), SIGTERM handed over after \(handover)\n".utf8))
    }

    /// A node paused past its lease (SIGSTOP) is taken over; when it goes on (SIGCONT) it finds its lease gone, claims
    /// nothing it no longer owns, joins again and gets its share back — and no fire ran twice.
    @Test func aNodePausedPastItsLeaseClaimsNothingWhenItGoesOn() async throws {
        let url = try await PostgresServer.database()
        let alpha = try cluster.daemon("alpha", url), beta = try cluster.daemon("beta", url)
        try await cluster.until("alpha and beta own two each", [alpha, beta]) { try await cluster.owners(url) == ["alpha": 2, "beta": 2] }
        alpha.signal(SIGSTOP)
        try await cluster.until("beta takes the paused node's automations over", [beta]) { try await cluster.owners(url) == ["beta": 4] }
        alpha.signal(SIGCONT)
        try await cluster.until("alpha joins again and gets its share", [alpha, beta]) { try await cluster.owners(url) == ["alpha": 2, "beta": 2] }
        #expect(alpha.standardError.contains("could not renew its lease in time") || alpha.standardError.contains("lease ran out"),
                "\(alpha.standardErrorForReport)")
        for process in [alpha, beta] {
            process.signal(SIGTERM)
            #expect(process.waitForExit(timeout: .seconds(60)) == 0, "\(process.standardErrorForReport)")
        }
        #expect(cluster.repeatedLines().isEmpty, "fires run twice: \(cluster.repeatedLines())")
    }
}
