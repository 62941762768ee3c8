import AutoTestSupport
import Foundation
import Testing

/// Real `auto daemon` nodes and a PostgreSQL server of the test's own that goes away under them: restarted while they
/// fire, down when a daemon starts, gone when one is told to stop.
@Suite struct ClusterDatabaseTests {
    /// A restart (as a crash: `pg_ctl -m immediate`) while three nodes fire 30 automations every second: they reconnect
    /// (their requests wait for the pool's new connections, or fail and are made again), share the automations again and
    /// go on firing, and across it no fire ran twice and none has no row.
    @Test func nodesGoOnAfterTheirDatabaseRestartsLosingAndRepeatingNoFire() async throws {
        let cluster = try ClusterHarness(automations: 30)
        defer { withExtendedLifetime(cluster) {} }
        let server = try await PostgresServer.privateServer()
        let url = try await server.newDatabase()
        let nodes = try ["alpha", "beta", "gamma"].map { try cluster.daemon($0, url) }
        try await cluster.until("three nodes share the automations", nodes) { cluster.isShared(try await cluster.owners(url), among: 3) }
        try await cluster.until("a round of runs", nodes) { cluster.ledgerLines().count >= 60 }

        try await server.restart()
        let before = cluster.ledgerLines().count
        try await cluster.until("runs go on after the restart", nodes, within: .seconds(120)) { cluster.ledgerLines().count >= before + 150 }
        try await cluster.until("three nodes share the automations again", nodes, within: .seconds(120)) {
            cluster.isShared(try await cluster.owners(url), among: 3)
        }
        try await cluster.untilRunsBegunAreRecorded(url, nodes)
        for node in nodes { node.signal(SIGTERM) }
        for node in nodes {
            #expect(node.waitForExit(timeout: .seconds(60)) == 0, "\(node.standardErrorForReport)")
        }
        try await cluster.expectEachFireOnce(url, nodes)
        await server.stop()
    }

    /// A daemon started while its server is down (both started at boot) waits for it, saying why, and joins once it is
    /// up; one told to stop while it waits stops.
    @Test func aDaemonStartedBeforeItsDatabaseWaitsForIt() async throws {
        let cluster = try ClusterHarness(automations: 2)
        defer { withExtendedLifetime(cluster) {} }
        let server = try await PostgresServer.privateServer()
        let url = try await server.newDatabase()
        try await server.halt()
        let waiting = try cluster.daemon("alpha", url), stopped = try cluster.daemon("beta", url)
        for daemon in [waiting, stopped] {
            try await cluster.until("the daemon says it waits for the store", [daemon]) {
                daemon.standardError.contains("the run store can't be reached; the daemon tries again")
            }
        }
        stopped.signal(SIGTERM)
        #expect(stopped.waitForExit(timeout: .seconds(60)) == 0, "\(stopped.standardErrorForReport)")
        #expect(stopped.standardError.contains("stopped before the run store could be reached"), "\(stopped.standardErrorForReport)")

        try await server.resume()
        try await cluster.until("the daemon joins and owns both", [waiting]) { try await cluster.owners(url) == ["alpha": 2] }
        try await cluster.until("a run of each", [waiting]) { cluster.automationsInLedger().count == 2 }
        waiting.signal(SIGTERM)
        #expect(waiting.waitForExit(timeout: .seconds(60)) == 0, "\(waiting.standardErrorForReport)")
        await server.stop()
    }

    /// A node whose server is gone still stops on SIGTERM, within its grace and lease: it can't say it leaves (its lease
    /// runs out instead) nor record its runs' ends (the next daemon closes them), and says so.
    @Test func aDaemonWhoseDatabaseIsGoneStillStops() async throws {
        let cluster = try ClusterHarness(automations: 2)
        defer { withExtendedLifetime(cluster) {} }
        let server = try await PostgresServer.privateServer()
        let url = try await server.newDatabase()
        let daemon = try cluster.daemon("alpha", url)
        try await cluster.until("the daemon owns both", [daemon]) { try await cluster.owners(url) == ["alpha": 2] }
        try await cluster.until("a run of each", [daemon]) { cluster.automationsInLedger().count == 2 }
        try await server.halt()
        // Its requests wait for the pool's connection (up to a minute, then they fail); its lease runs out before.
        try await cluster.until("the node gives its automations up", [daemon]) { daemon.standardError.contains("could not renew its lease in time") }
        daemon.signal(SIGTERM)
        let stopping = ContinuousClock.now
        #expect(daemon.waitForExit(timeout: .seconds(60)) == 0, "\(daemon.standardErrorForReport)")
        #expect(daemon.standardError.contains("daemon stopped"), "\(daemon.standardErrorForReport)")
        FileHandle.standardError.write(Data("cluster: a node whose database is gone stopped \(ContinuousClock.now - stopping) after SIGTERM\n".utf8))
        await server.stop()
    }
}
