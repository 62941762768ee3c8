import AutoRuntime
import Foundation
import Logging
import PostgresNIO
import Synchronization

/// The run store in a PostgreSQL database, which several daemons can share: each fire is claimed by inserting its run
/// under a unique key (automation, scheduled millisecond) in the transaction that moves the automation's cursor, as
/// in `SQLiteRunStore`, so that of the daemons that try to claim a fire, exactly one does. Values are kept as the
/// SQLite store keeps them (`RunStoreValues.swift`): instants as milliseconds, lists as JSON text.
///
/// Its connections are a PostgresNIO pool (`PostgresClient`), which runs in a task the store owns until `close`.
/// Statements work on whole batches (a claim of 1,000 fires is one statement), with rows handed over as one JSON
/// parameter: PostgresNIO's arrays can't hold nulls.
package final class PostgresRunStore: RunStore {
    /// The store's URL without its password: what its errors say.
    package let path: String
    private let address: PostgresAddress
    private let client: PostgresClient
    /// Runs the pool (`PostgresClient.run`), which leases no connection before it runs and closes them all when it is
    /// cancelled.
    private let running: Task<Void, Never>
    let logger: Logger
    /// Other nodes' announcements, heard once a daemon's membership waits for them (`ClusterStore.waitForChange`).
    let announcements: ClusterAnnouncements
    /// The node's name (`--node`), which its copies of watched folders are kept under: each node watches the folders
    /// of its own machine, and what one saw says nothing of another's. Empty for a command that watches nothing.
    let nodeName: String
    /// The node's id while it is a member (`join`): recorded with its file runs, which another node closes once it is
    /// gone, as it closes its runs on time.
    let joined = Mutex<NodeID?>(nil)

    /// How many connections a store opens at most: the daemon's statements are short, and the server's
    /// `max_connections` (100 by default) is shared by every daemon on it.
    static let maximumConnections = 8
    /// Milliseconds a transaction may sit idle at the server before it ends it (see `init`).
    static let idleInTransactionTimeout = 5_000

    private init(address: PostgresAddress, logger: Logger, nodeName: String) {
        self.address = address
        self.nodeName = nodeName
        self.path = address.redacted
        self.logger = logger
        var configuration = address.clientConfiguration
        configuration.options.maximumConnections = Self.maximumConnections
        // A daemon paused (SIGSTOP, a frozen VM) in the middle of a transaction would keep its row locks for as long as
        // it is paused, and the others could take none of its automations over: the server ends such a transaction
        // after this long. Ours send their statements back to back, so none waits anywhere near it.
        configuration.options.additionalStartupParameters = [("idle_in_transaction_session_timeout", "\(Self.idleInTransactionTimeout)")]
        // The pool's own warnings (a lease asked for before its `run` task has begun) are not the user's business:
        // what fails reaches them as the store's errors.
        var poolLogger = logger
        poolLogger.logLevel = max(logger.logLevel, .error)
        let client = PostgresClient(configuration: configuration, backgroundLogger: poolLogger)
        self.client = client
        announcements = ClusterAnnouncements(address: address, logger: self.logger)
        running = Task { await client.run() }
    }

    deinit {
        running.cancel()
    }

    /// Opens the store at `url` (`postgres://user:password@host:5432/database`), bringing its tables to this auto's
    /// version first; the error says why it can't: the server can't be reached, the database doesn't exist, the
    /// password is wrong, a newer auto migrated it. A daemon gives its node's name.
    package static func open(url: String, logger: Logger, nodeName: String = "") async throws(RunStoreError) -> PostgresRunStore {
        let address = try PostgresAddress(url: url)
        _ = try await migrate(address, logger: logger)
        return PostgresRunStore(address: address, logger: logger, nodeName: nodeName)
    }

    /// Brings the database at `url` to this auto's version (`auto store migrate`): the version it had and the one it has.
    package static func migrate(url: String, logger: Logger) async throws(RunStoreError) -> (from: Int, to: Int) {
        try await migrate(PostgresAddress(url: url), logger: logger)
    }

    /// On a connection of its own rather than the pool's: one that fails says why at once.
    private static func migrate(_ address: PostgresAddress, logger: Logger) async throws(RunStoreError) -> (from: Int, to: Int) {
        do {
            let connection = try await PostgresConnection.connect(configuration: address.connectionConfiguration(), id: 0, logger: logger)
            do {
                let versions = try await PostgresSchema.migrate(connection, logger: logger)
                try? await connection.close()
                return versions
            } catch {
                try? await connection.close()
                throw error
            }
        } catch {
            throw PostgresFailure.error(error, at: address)
        }
    }

    /// Closes the store's connections; it can't be used after.
    package func close() async {
        await announcements.stop()
        running.cancel()
        await running.value
    }

    // MARK: Fires

    nonisolated(nonsending) package func claim(_ fire: Fire, at start: Date) async throws(RunStoreError) -> RunID? {
        try await claim([fire], at: start)[0]
    }

    nonisolated(nonsending) package func claim(_ fires: [Fire], at start: Date) async throws(RunStoreError) -> [RunID?] {
        try await record(fires, started: start, ended: nil, outcome: .running, message: nil, caughtUp: true)
    }

    @discardableResult
    nonisolated(nonsending) package func skip(_ fire: Fire, as outcome: RunOutcomeKind, reason: String, at time: Date) async throws(RunStoreError) -> Bool {
        // Not run, so not run late: a skip is never caught up (as in SQLite's store).
        try await record([fire], started: nil, ended: time, outcome: outcome, message: reason, caughtUp: false)[0] != nil
    }

    /// Inserts the runs of `fires` that are new, moves the cursors of the fires on time among them, and brings the
    /// copies of the folders of the file fires among them up to date: one transaction. The ids of the runs inserted, in
    /// the order of `fires`; nil for a fire already recorded (or twice in `fires`: the first is recorded).
    ///
    /// Except one thing: a fenced fire this same node claimed before, still running, is claimed again with that run's
    /// id. A claim can commit and its answer be lost (the server restarting between the two, or a request abandoned as
    /// unanswered): the node saw it fail, put the fire back and claims it again, and the run is its own, never started.
    /// Were it refused, its row would say "running" until the node is gone.
    ///
    /// Rows are inserted in the order of their keys, and cursors moved in the order of theirs, so that daemons claiming
    /// the same fires at once wait for each other rather than deadlock. Ids are taken from the sequence in the order
    /// of `fires` (a query's volatile outputs are computed after its ORDER BY), so that they are in the order the
    /// fires were handed over, as SQLite's are.
    nonisolated(nonsending) private func record(_ fires: [Fire], started: Date?, ended: Date?, outcome: RunOutcomeKind,
                                                message: String?, caughtUp: Bool) async throws(RunStoreError) -> [RunID?] {
        guard !fires.isEmpty else { return [] }
        let rows = fires.enumerated().map { position, fire in
            FireRow(position: position, script: fire.automation.script, name: fire.automation.name, trigger: fire.trigger,
                    scheduled: Self.milliseconds(fire.scheduled), manual: fire.manual, files: fire.files.map { Self.encode(paths: $0.files) },
                    rescan: fire.files?.fromRescan ?? false, caughtUp: caughtUp && fire.caughtUp, fenceNode: fire.fence?.node,
                    fenceEpoch: fire.fence?.epoch)
        }
        let input = try json(rows)
        // A fire with a fence (a cluster's) is recorded only while its node owns the automation with that epoch and
        // its lease holds at the database's clock: `fenced` reads the ownership and locks it until the transaction
        // ends, so no other node can take the automation over between the check and the insert. A row changed
        // meanwhile is read again as committed, and its new epoch fails the check. The lock is FOR NO KEY UPDATE, the
        // one the cursor's update below takes anyway: a share lock followed by that update made a multixact per row.
        let query: PostgresQuery = """
            WITH given AS (
              SELECT f.* FROM jsonb_to_recordset(\(input)::jsonb) AS f(position bigint, script text, name text, trigger text,
                scheduled_ms bigint, manual boolean, files text, rescan boolean, caught_up boolean, fence_node bigint, fence_epoch bigint)),
            fenced AS (
              SELECT a.script, a.name, a.owner, a.epoch FROM automation a
              WHERE (a.script, a.name, a.owner, a.epoch) IN (SELECT script, name, fence_node, fence_epoch FROM given WHERE fence_node IS NOT NULL)
                AND EXISTS (SELECT 1 FROM node n WHERE n.id = a.owner AND n.left_at IS NULL AND n.lease_until > now())
              ORDER BY a.script, a.name
              FOR NO KEY UPDATE OF a),
            input AS MATERIALIZED (
              SELECT nextval(pg_get_serial_sequence('run', 'id')) AS id, g.*
              FROM given g
              WHERE g.fence_node IS NULL
                 OR EXISTS (SELECT 1 FROM fenced WHERE fenced.script = g.script AND fenced.name = g.name AND fenced.owner = g.fence_node
                            AND fenced.epoch = g.fence_epoch)
              ORDER BY g.position),
            inserted AS (
              INSERT INTO run (id, script, name, trigger, scheduled_ms, manual, started_ms, ended_ms, outcome, message, files, rescan, caught_up,
                               node)
              SELECT id, script, name, trigger, scheduled_ms, manual, \(started.map(Self.milliseconds))::bigint,
                     \(ended.map(Self.milliseconds))::bigint, \(outcome.rawValue), \(message.map(Self.storable))::text, files, rescan, caught_up,
                     coalesce(fence_node, CASE WHEN files IS NOT NULL THEN \(joined.withLock { $0 })::bigint END)
              FROM input ORDER BY script, name, scheduled_ms, position
              ON CONFLICT DO NOTHING
              RETURNING id, script, name, scheduled_ms, manual, files),
            moved AS (
              INSERT INTO automation AS a (script, name, cursor_ms)
              SELECT script, name, max(scheduled_ms) FROM inserted WHERE NOT manual AND files IS NULL
              GROUP BY script, name ORDER BY script, name
              ON CONFLICT (script, name) DO UPDATE SET cursor_ms = greatest(a.cursor_ms, excluded.cursor_ms))
            SELECT given.position, coalesce(inserted.id, adopted.id) FROM given LEFT JOIN input ON input.position = given.position
            LEFT JOIN inserted ON inserted.id = input.id
            LEFT JOIN LATERAL (
              SELECT r.id FROM run r
              WHERE \(outcome == .running) AND input.id IS NOT NULL AND inserted.id IS NULL AND given.fence_node IS NOT NULL
                AND r.script = given.script AND r.name = given.name AND r.scheduled_ms = given.scheduled_ms AND NOT r.manual
                AND r.files IS NULL AND r.outcome = 'running' AND r.node = given.fence_node) adopted ON true
            """
        return try await transaction { connection in
            var ids = [RunID?](repeating: nil, count: fires.count)
            for try await (position, id) in try await connection.query(query, logger: self.logger).decode((Int, Int64?).self) {
                ids[position] = id
            }
            try await self.updateTrees(for: fires, recorded: ids, on: connection)
            return ids
        }
    }

    /// Brings the copies of the folders of the file fires recorded up to date: each file as the last of them saw it.
    nonisolated(nonsending) private func updateTrees(for fires: [Fire], recorded ids: [RunID?], on connection: PostgresConnection) async throws {
        var latest: [TreeKey: FileState?] = [:]
        for (fire, id) in zip(fires, ids) where id != nil && !fire.manual {
            guard let files = fire.files else { continue }
            for (path, state) in zip(files.files, files.states) {
                latest[TreeKey(automation: fire.automation, path: path)] = .some(state)
            }
        }
        guard !latest.isEmpty else { return }
        let present = latest.compactMap { key, state in
            state.map { TreeRow(script: key.automation.script, name: key.automation.name, path: key.path, size: $0.size, modified: $0.modified) }
        }
        let gone = latest.compactMap { key, state in
            state == nil ? TreeRow(script: key.automation.script, name: key.automation.name, path: key.path, size: 0, modified: 0) : nil
        }
        if !present.isEmpty {
            try await connection.perform("""
                INSERT INTO tree (script, name, node, path, size, modified_ns)
                SELECT script, name, \(nodeName), path, size, modified_ns
                FROM jsonb_to_recordset(\(try json(present))::jsonb) AS f(script text, name text, path text, size bigint, modified_ns bigint)
                ORDER BY script, name, path
                ON CONFLICT (script, name, node, path) DO UPDATE SET size = excluded.size, modified_ns = excluded.modified_ns
                """, logger: self.logger)
        }
        if !gone.isEmpty {
            try await connection.perform("""
                DELETE FROM tree USING jsonb_to_recordset(\(try json(gone))::jsonb) AS f(script text, name text, path text)
                WHERE tree.script = f.script AND tree.name = f.name AND tree.node = \(nodeName) AND tree.path = f.path
                """, logger: self.logger)
        }
    }

    nonisolated(nonsending) package func finish(_ run: RunID, _ ending: RunEnding, steps: [RunTrace.Step], droppedSteps: Int,
                                                at end: Date) async throws(RunStoreError) {
        let rows = steps.enumerated().map { position, step in
            StepRow(position: position, intent: Self.storable(step.intent), arguments: Self.encode(step.arguments),
                    result: step.result.map(Self.storable), error: step.error.map(Self.storable),
                    startedAfter: Self.microseconds(step.startedAfter), duration: Self.microseconds(step.duration),
                    location: Self.storable(step.location.description), intentID: step.intentID)
        }
        let input = try json(rows)
        try await transaction { connection in
            try await connection.perform("""
                UPDATE run SET ended_ms = \(Self.milliseconds(end)), outcome = \(ending.outcome.rawValue),
                  message = \(ending.message.map(Self.storable))::text, location = \(ending.location.map(Self.storable))::text,
                  dropped_steps = \(Int64(droppedSteps))
                WHERE id = \(run)
                """, logger: self.logger)
            guard !rows.isEmpty else { return }
            try await connection.perform("""
                INSERT INTO step (run, position, intent, arguments, result, error, started_after_us, duration_us, location, intent_id)
                SELECT \(run), position, intent, arguments, result, error, started_after_us, duration_us, location, intent_id
                FROM jsonb_to_recordset(\(input)::jsonb) AS f(position integer, intent text, arguments text, result text, error text,
                                                              started_after_us bigint, duration_us bigint, location text, intent_id text)
                ON CONFLICT (run, position) DO UPDATE SET intent = excluded.intent, arguments = excluded.arguments,
                  result = excluded.result, error = excluded.error, started_after_us = excluded.started_after_us,
                  duration_us = excluded.duration_us, location = excluded.location, intent_id = excluded.intent_id
                """, logger: self.logger)
        }
    }

    nonisolated(nonsending) package func closeUnfinished(reason: String, at time: Date) async throws(RunStoreError) -> Int {
        // A run whose row is locked (its end being recorded right now, or by a node paused in the middle of it) is left
        // for the next time rather than waited for: this runs in a node's heartbeat.
        try await value("""
            WITH gone AS (
              SELECT id FROM run
              WHERE outcome = 'running' AND CASE
                WHEN node IS NOT NULL THEN NOT EXISTS (
                  SELECT 1 FROM node n WHERE n.id = run.node AND n.left_at IS NULL AND n.lease_until > now())
                -- Recorded by no node: a fire on time from before nodes; a manual or file run may be another process's.
                ELSE NOT manual AND files IS NULL END
              FOR UPDATE SKIP LOCKED),
            closed AS (
              UPDATE run SET outcome = 'failed', message = \(Self.storable(reason)), ended_ms = \(Self.milliseconds(time))
              FROM gone WHERE run.id = gone.id
              RETURNING 1)
            SELECT count(*) FROM closed
            """, as: Int.self) ?? 0
    }

    // MARK: Automations

    nonisolated(nonsending) package func cursor(of automation: AutomationKey) async throws(RunStoreError) -> Date? {
        let cursor = try await value("SELECT cursor_ms FROM automation WHERE script = \(automation.script) AND name = \(automation.name)",
                                     as: Int64?.self)
        return cursor.flatMap { $0 }.map(Self.date(milliseconds:))
    }

    nonisolated(nonsending) package func cursors(of automations: [AutomationKey], startingAt instant: Date) async throws(RunStoreError)
        -> [AutomationKey: Date] {
        guard !automations.isEmpty else { return [:] }
        // Each automation once: an upsert may not change a row twice.
        let keys = Array(Set(automations))
        let input = try json(keys.map { AutomationRow(script: $0.script, name: $0.name) })
        let start = Self.milliseconds(instant)
        return try await transaction { connection in
            var cursors: [AutomationKey: Date] = [:]
            let rows = try await connection.query("""
                INSERT INTO automation AS a (script, name, cursor_ms)
                SELECT script, name, \(start) FROM jsonb_to_recordset(\(input)::jsonb) AS f(script text, name text)
                ORDER BY script, name
                ON CONFLICT (script, name) DO UPDATE SET cursor_ms = coalesce(a.cursor_ms, excluded.cursor_ms)
                RETURNING script, name, cursor_ms
                """, logger: self.logger)
            for try await (script, name, cursor) in rows.decode((String, String, Int64).self) {
                cursors[AutomationKey(script: script, name: name)] = Self.date(milliseconds: cursor)
            }
            return cursors
        }
    }

    nonisolated(nonsending) package func disabledNames() async throws(RunStoreError) -> Set<String> {
        try await connection { connection in
            var names: Set<String> = []
            for try await name in try await connection.query("SELECT name FROM disabled", logger: self.logger).decode(String.self) { names.insert(name) }
            return names
        }
    }

    nonisolated(nonsending) package func setEnabled(_ enabled: Bool, for name: String) async throws(RunStoreError) {
        let query: PostgresQuery = enabled
            ? "DELETE FROM disabled WHERE name = \(name)"
            : "INSERT INTO disabled (name) VALUES (\(name)) ON CONFLICT DO NOTHING"
        try await connection { connection in try await connection.perform(query, logger: self.logger) }
    }

    /// One statement, so that whether it is watched and what it holds are read at the same moment.
    nonisolated(nonsending) package func tree(of automation: AutomationKey) async throws(RunStoreError) -> [String: FileState]? {
        try await connection { connection in
            let rows = try await connection.query("""
                SELECT a.watched, t.path, t.size, t.modified_ns
                FROM automation a LEFT JOIN tree t ON t.script = a.script AND t.name = a.name AND t.node = \(self.nodeName)
                WHERE a.script = \(automation.script) AND a.name = \(automation.name)
                """, logger: self.logger)
            var tree: [String: FileState]?
            for try await (watched, path, size, modified) in rows.decode((Bool, String?, Int64?, Int64?).self) where watched {
                if tree == nil { tree = [:] }
                if let path, let size, let modified { tree?[path] = FileState(size: size, modified: modified) }
            }
            return tree
        }
    }

    nonisolated(nonsending) package func replaceTree(of automation: AutomationKey, with tree: [String: FileState]) async throws(RunStoreError) {
        let input = try json(tree.map { TreeRow(script: automation.script, name: automation.name, path: $0.key, size: $0.value.size,
                                                modified: $0.value.modified) })
        try await transaction { connection in
            try await connection.perform("""
                DELETE FROM tree WHERE script = \(automation.script) AND name = \(automation.name) AND node = \(self.nodeName)
                """, logger: self.logger)
            try await connection.perform("""
                INSERT INTO tree (script, name, node, path, size, modified_ns)
                SELECT script, name, \(self.nodeName), path, size, modified_ns
                FROM jsonb_to_recordset(\(input)::jsonb) AS f(script text, name text, path text, size bigint, modified_ns bigint)
                """, logger: self.logger)
            try await connection.perform("""
                INSERT INTO automation (script, name, watched) VALUES (\(automation.script), \(automation.name), true)
                ON CONFLICT (script, name) DO UPDATE SET watched = true
                """, logger: self.logger)
        }
    }

    // MARK: History

    /// The columns `record` reads, in its order.
    private static let runColumns = "id, script, name, trigger, scheduled_ms, manual, started_ms, ended_ms, outcome, message, location, "
        + "dropped_steps, files, rescan, caught_up"

    nonisolated(nonsending) package func runs(of name: String?, limit: Int) async throws(RunStoreError) -> [RunRecord] {
        try await records("""
            SELECT \(unescaped: Self.runColumns) FROM run WHERE \(name)::text IS NULL OR name = \(name)::text
            ORDER BY id DESC LIMIT \(Int64(max(0, limit)))
            """)
    }

    nonisolated(nonsending) package func run(_ id: RunID) async throws(RunStoreError) -> RunRecord? {
        try await records("SELECT \(unescaped: Self.runColumns) FROM run WHERE id = \(id)").first
    }

    nonisolated(nonsending) package func lastRun(of automation: AutomationKey) async throws(RunStoreError) -> RunRecord? {
        try await records("""
            SELECT \(unescaped: Self.runColumns) FROM run WHERE name = \(automation.name) AND script = \(automation.script)
            ORDER BY id DESC LIMIT 1
            """).first
    }

    nonisolated(nonsending) package func steps(of run: RunID) async throws(RunStoreError) -> [RunTrace.Step] {
        try await connection { connection in
            let rows = try await connection.query("""
                SELECT intent, arguments, result, error, started_after_us, duration_us, location, intent_id
                FROM step WHERE run = \(run) ORDER BY position
                """, logger: self.logger)
            var steps: [RunTrace.Step] = []
            for try await (intent, arguments, result, error, startedAfter, duration, location, intentID)
                in rows.decode((String, String, String?, String?, Int64, Int64, String, String?).self) {
                steps.append(RunTrace.Step(intent: intent, arguments: Self.decode(arguments), result: result, error: error,
                                           startedAfter: .microseconds(startedAfter), duration: .microseconds(duration),
                                           location: Self.location(location), intentID: intentID))
            }
            return steps
        }
    }

    @discardableResult
    nonisolated(nonsending) package func prune(_ retention: Retention, now: Date) async throws(RunStoreError) -> Int {
        let ageLimit = Self.milliseconds(now) - Int64(retention.age.components.seconds) * 1000
        let failureLimit = Self.milliseconds(now) - Int64(retention.failureAge.components.seconds) * 1000
        let kept = Int64(retention.runsPerAutomation)
        // Removing a year of runs at once may take minutes: not held to the deadline of the daemon's short statements.
        return try await transaction(within: .seconds(600)) { connection in
            let old = try await Self.count(connection.query("""
                WITH removed AS (
                  DELETE FROM run WHERE outcome <> 'running' AND (
                    (outcome IN ('failed', 'cancelled') AND coalesce(ended_ms, scheduled_ms) < \(failureLimit))
                    OR (outcome NOT IN ('failed', 'cancelled') AND coalesce(ended_ms, scheduled_ms) < \(ageLimit)))
                  RETURNING 1)
                SELECT count(*) FROM removed
                """, logger: self.logger))
            let surplus = try await Self.count(connection.query("""
                WITH removed AS (
                  DELETE FROM run WHERE outcome <> 'running' AND id IN (
                    SELECT id FROM (SELECT id, row_number() OVER (PARTITION BY script, name ORDER BY id DESC) AS newer FROM run) ranked
                    WHERE newer > \(kept))
                  RETURNING 1)
                SELECT count(*) FROM removed
                """, logger: self.logger))
            return old + surplus
        }
    }

    // MARK: Rows and values

    nonisolated(nonsending) private func records(_ query: PostgresQuery) async throws(RunStoreError) -> [RunRecord] {
        try await connection { connection in
            var records: [RunRecord] = []
            let rows = try await connection.query(query, logger: self.logger)
            for try await (id, script, name, trigger, scheduled, manual, started, ended, outcome, message, location, dropped, files, rescan, caughtUp)
                in rows.decode((Int64, String, String, String, Int64, Bool, Int64?, Int64?, String, String?, String?, Int64, String?, Bool, Bool).self) {
                records.append(RunRecord(
                    id: id, automation: AutomationKey(script: script, name: name), trigger: trigger, scheduled: Self.date(milliseconds: scheduled),
                    manual: manual, started: started.map(Self.date(milliseconds:)), ended: ended.map(Self.date(milliseconds:)),
                    outcome: RunOutcomeKind(rawValue: outcome) ?? .failed, message: message, location: location, droppedSteps: Int(dropped),
                    files: files.map(Self.decode(paths:)) ?? [], fromRescan: rescan, caughtUp: caughtUp))
            }
            return records
        }
    }

    private static func count(_ rows: PostgresRowSequence) async throws -> Int {
        try await rows.collect().first?.decode(Int.self) ?? 0
    }

    /// The first column of the first row, nil when there is none.
    nonisolated(nonsending) func value<T: PostgresDecodable & Sendable>(_ query: PostgresQuery, as type: T.Type) async throws(RunStoreError) -> T? {
        try await connection { connection in
            try await connection.query(query, logger: self.logger).collect().first?.decode(T.self)
        }
    }

    /// Text as PostgreSQL can keep it: its text can't hold the character 0, which SQLite's can (a step's result
    /// read from a binary file). It becomes U+FFFD, the replacement character.
    static func storable(_ text: String) -> String {
        text.contains("\u{0}") ? text.replacingOccurrences(of: "\u{0}", with: "\u{FFFD}") : text
    }

    /// Rows for `jsonb_to_recordset`.
    func json(_ rows: some Encodable) throws(RunStoreError) -> String {
        do {
            return String(decoding: try JSONEncoder().encode(rows), as: UTF8.self)
        } catch {
            throw RunStoreError(path: path, reason: "its rows can't be written as JSON (\(error))")
        }
    }

    private struct FireRow: Encodable {
        let position: Int, script: String, name: String, trigger: String, scheduled: Int64, manual: Bool, files: String?,
            rescan: Bool, caughtUp: Bool, fenceNode: Int64?, fenceEpoch: Int64?
        enum CodingKeys: String, CodingKey {
            case position, script, name, trigger, scheduled = "scheduled_ms", manual, files, rescan, caughtUp = "caught_up",
                 fenceNode = "fence_node", fenceEpoch = "fence_epoch"
        }
    }

    private struct StepRow: Encodable {
        let position: Int, intent: String, arguments: String, result: String?, error: String?, startedAfter: Int64, duration: Int64,
            location: String, intentID: String?
        enum CodingKeys: String, CodingKey {
            case position, intent, arguments, result, error, startedAfter = "started_after_us", duration = "duration_us", location,
                 intentID = "intent_id"
        }
    }

    private struct TreeRow: Encodable {
        let script: String, name: String, path: String, size: Int64, modified: Int64
        enum CodingKeys: String, CodingKey {
            case script, name, path, size, modified = "modified_ns"
        }
    }

    struct AutomationRow: Encodable {
        let script: String, name: String
    }

    /// An automation with a node's definition of it (`ClusterStore.define`).
    struct DefinitionRow: Encodable {
        let script: String, name: String, hash: String
    }

    private struct TreeKey: Hashable {
        let automation: AutomationKey
        let path: String
    }

    // MARK: Access

    /// How many times a transaction is tried when the server broke it off to end a deadlock or a serialization
    /// conflict: the statements take their locks in one order, so neither should happen, but when one does the
    /// transaction was rolled back whole and running it again is what the server asks for.
    static let attempts = 3

    nonisolated(nonsending) func transaction<T: Sendable>(within deadline: Duration = answerDeadline,
                                                          _ work: @escaping @Sendable (PostgresConnection) async throws -> T)
        async throws(RunStoreError) -> T {
        var attempt = 1
        while true {
            do {
                return try await answered(within: deadline) { [client, logger] in
                    try await client.withTransaction(logger: logger) { connection in try await work(connection) }
                }
            } catch where attempt < Self.attempts && PostgresFailure.isConflict(error) {
                attempt += 1
            } catch {
                throw PostgresFailure.error(error, at: address)
            }
        }
    }

    nonisolated(nonsending) func connection<T: Sendable>(_ work: @escaping @Sendable (PostgresConnection) async throws -> T) async throws(RunStoreError)
        -> T {
        do {
            return try await answered { [client] in try await client.withConnection { connection in try await work(connection) } }
        } catch {
            throw PostgresFailure.error(error, at: address)
        }
    }

    /// How long a request may go unanswered: the daemon's longest statement (a claim of 10,000 fires) takes well under a
    /// second, and the scheduler's work waits behind it (runs' ends, the next fires).
    static let answerDeadline = Duration.seconds(10)

    /// A request to the pool, given at most `deadline`. Across a server restart with requests in flight, the
    /// pool was seen to leave one unanswered for good — cancelled or not — and the scheduler's operation waiting on it
    /// stopped every other (runs' ends, the next fires) until the daemon was killed. Left unanswered, a request is
    /// abandoned and fails as a lost connection does; the transaction it was in never committed (its connection is
    /// gone), or if it did, the fires it claimed are found claimed when they are claimed again.
    nonisolated(nonsending) private func answered<T: Sendable>(within deadline: Duration = answerDeadline,
                                                               _ request: @escaping @Sendable () async throws -> T) async throws -> T {
        guard let answer = try await Deadline.run(within: deadline, request) else {
            throw RunStoreError(path: path, reason: "PostgreSQL at \(address) did not answer within \(deadline); try again", isUnavailable: true)
        }
        return answer
    }
}

extension PostgresConnection {
    /// Runs a statement to its end, whatever rows it returns: an error the server raises while it runs is thrown here
    /// rather than lost with rows no one reads.
    func perform(_ query: PostgresQuery, logger: Logger) async throws {
        _ = try await self.query(query, logger: self.logger).collect()
    }
}
