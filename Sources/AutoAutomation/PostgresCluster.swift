import Foundation
import Logging
import PostgresNIO
import Synchronization

/// The nodes of a cluster and who owns which automation, in PostgreSQL (`ClusterStore`). Leases are counted at the
/// database's clock (`now()`), so no node's clock matters; a node's claims are fenced in `PostgresRunStore.record`.
/// Changes that another node should act on at once — a node joining or leaving, automations handed back — are
/// announced with NOTIFY on `auto_cluster`; a node also looks every heartbeat, since NOTIFY doesn't pass through every
/// connection pooler.
extension PostgresRunStore: ClusterStore {
    /// The channel nodes announce changes on.
    static let channel = "auto_cluster"

    nonisolated(nonsending) package func join(_ node: NodeInfo, lease: Duration) async throws(RunStoreError) -> NodeID {
        let id = try await transaction { connection in
            // Nodes that stopped or died a day ago are of no more interest to `status`.
            try await connection.perform("""
                DELETE FROM node WHERE lease_until < now() - interval '1 day'
                """, logger: self.logger)
            let rows = try await connection.query("""
                INSERT INTO node (name, host, pid, version, lease_until)
                VALUES (\(node.name), \(node.host), \(Int64(node.pid)), \(node.version), now() + \(Self.microseconds(lease)) * interval '1 microsecond')
                RETURNING id
                """, logger: self.logger).collect()
            try await connection.perform("SELECT pg_notify(\(Self.channel), 'joined')", logger: self.logger)
            // INSERT … RETURNING returns its row, or fails.
            return try rows.first?.decode(Int64.self) ?? 0
        }
        joined.withLock { $0 = id }
        return id
    }

    nonisolated(nonsending) package func renew(_ node: NodeID, lease: Duration, oldestDue: Date?) async throws(RunStoreError) -> Bool {
        try await value("""
            UPDATE node SET heartbeat = now(), lease_until = now() + \(Self.microseconds(lease)) * interval '1 microsecond',
              oldest_due_ms = \(oldestDue.map(Self.milliseconds))::bigint
            WHERE id = \(node) AND left_at IS NULL AND lease_until > now()
            RETURNING 1
            """, as: Int.self) != nil
    }

    nonisolated(nonsending) package func define(_ definitions: [AutomationKey: String], imposing: Set<AutomationKey>, for node: NodeID)
        async throws(RunStoreError) {
        let rows = definitions.map { (key: $0.key, row: DefinitionRow(script: $0.key.script, name: $0.key.name, hash: $0.value)) }
        let input = try json(rows.map(\.row)), imposed = try json(rows.filter { imposing.contains($0.key) }.map(\.row))
        try await transaction { connection in
            try await connection.perform("DELETE FROM node_definition WHERE node = \(node)", logger: self.logger)
            try await connection.perform("""
                INSERT INTO node_definition (node, script, name, hash)
                SELECT \(node), script, name, hash FROM jsonb_to_recordset(\(input)::jsonb) AS f(script text, name text, hash text)
                """, logger: self.logger)
            // An automation with no definition yet (new, or from before definitions were kept) takes this node's, and
            // keeps its owner. Rows locked in the order of their keys, as claims lock them.
            try await connection.perform("""
                INSERT INTO automation AS a (script, name, definition)
                SELECT script, name, hash FROM jsonb_to_recordset(\(input)::jsonb) AS f(script text, name text, hash text)
                ORDER BY script, name
                ON CONFLICT (script, name) DO UPDATE SET definition = excluded.definition WHERE a.definition IS NULL
                """, logger: self.logger)
            // One this node loaded becomes the store's; an owner with another definition of it loses it: the epoch grows,
            // so its next claim fails its fence, and a node with this definition takes it.
            try await connection.perform("""
                INSERT INTO automation AS a (script, name, definition)
                SELECT script, name, hash FROM jsonb_to_recordset(\(imposed)::jsonb) AS f(script text, name text, hash text)
                ORDER BY script, name
                ON CONFLICT (script, name) DO UPDATE SET definition = excluded.definition,
                  owner = CASE WHEN a.owner = \(node) THEN a.owner END,
                  owned_since = CASE WHEN a.owner = \(node) THEN a.owned_since END,
                  epoch = CASE WHEN a.owner = \(node) OR a.owner IS NULL THEN a.epoch ELSE a.epoch + 1 END
                WHERE a.definition IS DISTINCT FROM excluded.definition
                """, logger: self.logger)
            try await connection.perform("UPDATE node SET definitions = definitions + 1 WHERE id = \(node)", logger: self.logger)
            try await connection.perform("SELECT pg_notify(\(Self.channel), 'defined')", logger: self.logger)
        }
    }

    nonisolated(nonsending) package func acquire(_ automations: [AutomationKey: String], upTo count: Int, for node: NodeID) async throws(RunStoreError)
        -> [AutomationKey: Fence] {
        guard !automations.isEmpty, count > 0 else { return [:] }
        let input = try json(automations.map { DefinitionRow(script: $0.key.script, name: $0.key.name, hash: $0.value) })
        // Free: owned by no node, or by one whose lease ran out or that left — or by this node itself, which gave an
        // automation up (its renewal hung past its deadline) while the database still had it as its: it takes it again
        // under a new epoch. Only with the store's definition. Those the fewest live nodes can fire first: a node that
        // filled its share with automations any node fires would leave one only it can fire to nobody. Rows another node
        // is taking (or claiming a fire of) right now are skipped, not waited for.
        return try await transaction { connection in
            let rows = try await connection.query("""
                WITH free AS (
                  SELECT a.script, a.name FROM automation a
                  JOIN jsonb_to_recordset(\(input)::jsonb) AS f(script text, name text, hash text)
                    ON a.script = f.script AND a.name = f.name AND a.definition = f.hash
                  WHERE EXISTS (SELECT 1 FROM node me WHERE me.id = \(node) AND me.left_at IS NULL AND me.lease_until > now())
                    AND (a.owner = \(node)
                         OR NOT EXISTS (SELECT 1 FROM node n WHERE n.id = a.owner AND n.left_at IS NULL AND n.lease_until > now()))
                  ORDER BY (SELECT count(*) FROM node_definition d JOIN node n ON n.id = d.node
                            WHERE d.script = a.script AND d.name = a.name AND d.hash = a.definition
                              AND n.left_at IS NULL AND n.lease_until > now()),
                    a.script, a.name
                  LIMIT \(Int64(count))
                  FOR UPDATE OF a SKIP LOCKED)
                UPDATE automation a SET owner = \(node), epoch = a.epoch + 1, owned_since = now()
                FROM free WHERE a.script = free.script AND a.name = free.name
                RETURNING a.script, a.name, a.epoch
                """, logger: self.logger)
            var granted: [AutomationKey: Fence] = [:]
            for try await (script, name, epoch) in rows.decode((String, String, Int64).self) {
                granted[AutomationKey(script: script, name: name)] = Fence(node: node, epoch: epoch)
            }
            return granted
        }
    }

    nonisolated(nonsending) package func release(_ automations: [AutomationKey], from node: NodeID) async throws(RunStoreError) {
        guard !automations.isEmpty else { return }
        let input = try json(automations.map { AutomationRow(script: $0.script, name: $0.name) })
        try await transaction { connection in
            // Rows locked in the order of their keys first, as a claim locks them: an UPDATE locks them in the order of
            // its join, and would deadlock with the node's own claim of fires of two of them (the server breaks that
            // off after a second, and the claim is tried again, late).
            try await connection.perform("""
                WITH mine AS (
                  SELECT a.script, a.name FROM automation a
                  JOIN jsonb_to_recordset(\(input)::jsonb) AS f(script text, name text) ON a.script = f.script AND a.name = f.name
                  WHERE a.owner = \(node)
                  ORDER BY a.script, a.name
                  FOR NO KEY UPDATE OF a)
                UPDATE automation a SET owner = NULL, owned_since = NULL
                FROM mine WHERE a.script = mine.script AND a.name = mine.name
                """, logger: self.logger)
            try await connection.perform("SELECT pg_notify(\(Self.channel), 'released')", logger: self.logger)
        }
    }

    nonisolated(nonsending) package func leave(_ node: NodeID) async throws(RunStoreError) {
        try await transaction { connection in
            // In the order of their keys, as `release`.
            try await connection.perform("""
                WITH mine AS (SELECT script, name FROM automation WHERE owner = \(node) ORDER BY script, name FOR NO KEY UPDATE)
                UPDATE automation a SET owner = NULL, owned_since = NULL
                FROM mine WHERE a.script = mine.script AND a.name = mine.name
                """, logger: self.logger)
            try await connection.perform("""
                UPDATE node SET left_at = now(), lease_until = least(lease_until, now()) WHERE id = \(node)
                """, logger: self.logger)
            try await connection.perform("SELECT pg_notify(\(Self.channel), 'left')", logger: self.logger)
        }
    }

    nonisolated(nonsending) package func shape() async throws(RunStoreError) -> ClusterShape {
        let row = try await transaction { connection in
            try await connection.query("""
                SELECT count(*), coalesce(sum(id), 0)::bigint, coalesce(sum(definitions), 0)::bigint FROM node
                WHERE left_at IS NULL AND lease_until > now()
                """, logger: self.logger).collect().first?.decode((Int64, Int64, Int64).self)
        }
        return ClusterShape(live: Int(row?.0 ?? 0), ids: row?.1 ?? 0, definitions: row?.2 ?? 0)
    }

    nonisolated(nonsending) package func share(for node: NodeID) async throws(RunStoreError) -> NodeShare {
        try await transaction { connection in
            // For each automation this node can fire, how many live nodes can (those with the store's definition).
            let able = try await connection.query("""
                WITH able AS (
                  SELECT d.script, d.name, count(*) AS nodes, bool_or(d.node = \(node)) AS mine
                  FROM node_definition d
                  JOIN node n ON n.id = d.node AND n.left_at IS NULL AND n.lease_until > now()
                  JOIN automation a ON a.script = d.script AND a.name = d.name AND a.definition = d.hash
                  GROUP BY d.script, d.name)
                SELECT nodes, count(*), CASE WHEN nodes = 1 THEN array_agg(script) END, CASE WHEN nodes = 1 THEN array_agg(name) END
                FROM able WHERE mine GROUP BY nodes
                """, logger: self.logger)
            var share = 0.0
            var exclusive: Set<AutomationKey> = []
            for try await (nodes, count, scripts, names) in able.decode((Int64, Int64, [String]?, [String]?).self) {
                share += Double(count) / Double(max(1, nodes))
                for (script, name) in zip(scripts ?? [], names ?? []) { exclusive.insert(AutomationKey(script: script, name: name)) }
            }
            var owned: Set<AutomationKey> = []
            let mine = try await connection.query("SELECT script, name FROM automation WHERE owner = \(node)", logger: self.logger)
            for try await (script, name) in mine.decode((String, String).self) { owned.insert(AutomationKey(script: script, name: name)) }
            // Rounded up, less what a sum of thirds adds by rounding (3,333 × ⅓ is not quite 1,111 in binary).
            return NodeShare(count: Int((share - 1e-9).rounded(.up)), exclusive: exclusive, owned: owned)
        }
    }

    nonisolated(nonsending) package func status() async throws(RunStoreError) -> ClusterStatus {
        try await transaction { connection in
            let now = try await connection.query("SELECT now()", logger: self.logger).collect().first?.decode(Date.self) ?? Date()
            var nodes: [ClusterStatus.Node] = []
            let nodeRows = try await connection.query("""
                SELECT id, name, host, pid, version, started, heartbeat, lease_until, left_at, oldest_due_ms FROM node
                WHERE left_at IS NULL OR left_at > now() - interval '1 hour'
                ORDER BY id
                """, logger: self.logger)
            for try await (id, name, host, pid, version, started, heartbeat, leaseUntil, left, oldestDue)
                in nodeRows.decode((Int64, String, String, Int64, String, Date, Date, Date, Date?, Int64?).self) {
                nodes.append(ClusterStatus.Node(
                    id: id, info: NodeInfo(name: name, host: host, pid: Int32(truncatingIfNeeded: pid), version: version), started: started,
                    heartbeat: heartbeat, leaseUntil: leaseUntil, left: left, oldestDue: oldestDue.map(Self.date(milliseconds:))))
            }
            var automations: [ClusterStatus.Ownership] = []
            let ownerRows = try await connection.query("""
                SELECT a.script, a.name, a.owner, a.epoch, a.owned_since, a.definition,
                  (SELECT array_agg(d.node ORDER BY d.node) FROM node_definition d JOIN node n ON n.id = d.node
                   WHERE d.script = a.script AND d.name = a.name AND d.hash IS DISTINCT FROM a.definition
                     AND n.left_at IS NULL AND n.lease_until > now())
                FROM automation a WHERE a.cursor_ms IS NOT NULL ORDER BY a.name, a.script
                """, logger: self.logger)
            for try await (script, name, owner, epoch, since, definition, others)
                in ownerRows.decode((String, String, Int64?, Int64, Date?, String?, [Int64]?).self) {
                automations.append(ClusterStatus.Ownership(automation: AutomationKey(script: script, name: name), owner: owner, epoch: epoch,
                                                           since: since, definition: definition, otherDefinition: others ?? []))
            }
            return ClusterStatus(now: now, nodes: nodes, automations: automations)
        }
    }

    nonisolated(nonsending) package func waitForChange(timeout: Duration) async {
        await announcements.wait(timeout: timeout)
    }
}

/// Another node's announcements (NOTIFY on `auto_cluster`), heard on a connection of its own once someone waits for
/// them: each wakes whoever waits. A lost connection is made again, with a growing pause, and counts as an
/// announcement (what was said meanwhile was not heard).
final class ClusterAnnouncements: Sendable {
    let address: PostgresAddress
    let logger: Logger
    private let state = Mutex<State>(State())
    private struct State {
        var listening: Task<Void, Never>?
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var cancelled: Set<Int> = []
        var nextWaiter = 0
    }

    init(address: PostgresAddress, logger: Logger) {
        self.address = address
        self.logger = logger
    }

    deinit {
        state.withLock { $0.listening?.cancel() }
    }

    func stop() async {
        let listening = state.withLock { state -> Task<Void, Never>? in
            defer { state.listening = nil }
            return state.listening
        }
        listening?.cancel()
        await listening?.value
    }

    /// Until an announcement, or `timeout`.
    func wait(timeout: Duration) async {
        startListening()
        let id = state.withLock { state -> Int in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await Task.sleep(for: timeout) }
            group.addTask {
                await withTaskCancellationHandler {
                    await withCheckedContinuation { continuation in
                        let resumeNow = self.state.withLock { state -> Bool in
                            if state.cancelled.remove(id) != nil { return true }
                            state.waiters[id] = continuation
                            return false
                        }
                        if resumeNow { continuation.resume() }
                    }
                } onCancel: {
                    self.state.withLock { state -> CheckedContinuation<Void, Never>? in
                        guard let waiter = state.waiters.removeValue(forKey: id) else {
                            state.cancelled.insert(id)
                            return nil
                        }
                        return waiter
                    }?.resume()
                }
            }
            await group.next()
            group.cancelAll()
        }
        // A waiter resumed by an announcement leaves no mark; one cancelled before it waited does.
        state.withLock { _ = $0.cancelled.remove(id) }
    }

    func announce() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    private func startListening() {
        state.withLock { state in
            guard state.listening == nil else { return }
            state.listening = Task { [self] in await listen() }
        }
    }

    private func listen() async {
        var pause = Duration.milliseconds(100)
        while !Task.isCancelled {
            do {
                let connection = try await PostgresConnection.connect(configuration: address.connectionConfiguration(), id: 1, logger: self.logger)
                pause = .milliseconds(100)
                try await withTaskCancellationHandler {
                    try await connection.listen(on: PostgresRunStore.channel) { notifications in
                        // Listening now: what was announced before may have been missed.
                        announce()
                        for try await _ in notifications { announce() }
                    }
                } onCancel: {
                    connection.close().whenComplete { _ in }
                }
                try? await connection.close().get()
            } catch {
                if Task.isCancelled { return }
                logger.debug("not listening for other nodes' announcements", metadata: ["error": "\(error)"])
            }
            announce()
            try? await Task.sleep(for: pause)
            pause = min(pause * 2, .seconds(5))
        }
    }
}
