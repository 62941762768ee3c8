import AutoRuntime
import Foundation
import GRDB
import Synchronization

/// The run store in one SQLite file (GRDB, WAL mode): `$XDG_STATE_HOME/auto/runs.sqlite` by default. A fire is
/// claimed by inserting its run under a unique key (automation, scheduled millisecond), in the transaction that
/// moves the automation's cursor, so a fire that was claimed is never claimed again — whatever crashed in between.
/// Commits are synchronous (`PRAGMA synchronous = FULL`): a run recorded as started stays recorded.
///
/// The store checkpoints its log itself, after a write that isn't a claim (`checkpointEvery`), rather than let SQLite
/// do it inside whichever commit fills the log: a claim is on the way from an event to its run.
package final class SQLiteRunStore: RunStore {
    package let path: String
    let pool: DatabasePool
    /// The writes committed since the log was last checkpointed.
    private let uncheckpointed = Atomic<Int>(0)
    /// How many writes the log takes before it is checkpointed: about 4 pages each, so about half a megabyte. Once
    /// checkpointed, the log is written again from its start, over blocks it already has: its sync to disk then
    /// writes the pages alone, where a log growing at its end also writes its inode (a claim's commit, after an idle
    /// spell: 0.45 → 0.35 ms on this machine's ext4). SQLite's own checkpoint, after 1,000 pages, copied the pages
    /// inside the commit that crossed the mark: a claim, every ~125 runs, paid for it.
    static let checkpointEvery = 32
    /// The daemon's lock on the store, when this process is the daemon: let go of after the pool is closed.
    private let lock: StoreLock?

    /// How long a write waits for another process's transaction (an `auto automations` command) before failing.
    static let busyTimeout: TimeInterval = 5

    /// `$XDG_STATE_HOME/auto/runs.sqlite`, or `~/.local/state/auto/runs.sqlite`.
    package static var defaultPath: String {
        let environment = ProcessInfo.processInfo.environment
        let state = environment["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/state"
        return state + "/auto/runs.sqlite"
    }

    /// Opens the store at `path`, creating it and its folder when missing and migrating its schema, one process at a
    /// time; the error says why it can't: a folder, not a database, not writable, written by a newer auto.
    package convenience init(path: String = SQLiteRunStore.defaultPath) throws(RunStoreError) {
        try self.init(path: path, holding: nil)
    }

    /// The same, for a daemon, which hands over its `lock` on the store: the lock must outlive the store's
    /// connections, since closing the lock's descriptor of the database file would drop the locks SQLite holds on it.
    package init(path: String, holding lock: StoreLock?) throws(RunStoreError) {
        self.path = path
        self.lock = lock
        try Self.makeFolder(of: path)
        var configuration = Configuration()
        configuration.busyMode = .timeout(Self.busyTimeout)
        configuration.label = "auto run store"
        do {
            pool = try StoreLock.whileOpening(store: path) {
                let pool = try DatabasePool(path: path, configuration: configuration)
                try pool.writeWithoutTransaction { db in
                    try db.execute(sql: "PRAGMA synchronous = FULL")
                    // Checkpoints are the store's (see the type's doc).
                    try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
                }
                let migrator = Self.migrator
                let superseded = try pool.read { db in try migrator.hasBeenSuperseded(db) }
                if superseded {
                    throw RunStoreError(path: path, reason: "it was written by a newer version of auto; use that version, or another --store")
                }
                try migrator.migrate(pool)
                return pool
            }
        } catch let error as RunStoreError {
            throw error
        } catch {
            throw RunStoreError(path: path, reason: Self.reason(for: error, path: path))
        }
    }

    deinit {
        // Before the lock goes (its descriptor closes after this): see `init`.
        if lock != nil { try? pool.close() }
    }

    /// Makes the folder of a store at `path` when it is missing.
    static func makeFolder(of path: String) throws(RunStoreError) {
        let folder = (path as NSString).deletingLastPathComponent
        guard !folder.isEmpty else { return }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw RunStoreError(path: path, reason: "its folder can't be made (\(Self.systemReason(error)))")
        }
    }

    /// The schema, one migration per version: a store from a newer auto has identifiers this one doesn't know.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: automations, runs, steps") { db in
            try db.execute(sql: """
                CREATE TABLE automation (
                  script TEXT NOT NULL, name TEXT NOT NULL, cursor_ms INTEGER,
                  PRIMARY KEY (script, name));
                CREATE TABLE disabled (name TEXT PRIMARY KEY);
                CREATE TABLE run (
                  id INTEGER PRIMARY KEY AUTOINCREMENT,
                  script TEXT NOT NULL, name TEXT NOT NULL, trigger TEXT NOT NULL,
                  scheduled_ms INTEGER NOT NULL, manual INTEGER NOT NULL,
                  started_ms INTEGER, ended_ms INTEGER,
                  outcome TEXT NOT NULL, message TEXT, location TEXT, dropped_steps INTEGER NOT NULL DEFAULT 0);
                CREATE UNIQUE INDEX run_fire ON run (script, name, scheduled_ms) WHERE manual = 0;
                CREATE INDEX run_by_name ON run (name, id);
                CREATE TABLE step (
                  run INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE, position INTEGER NOT NULL,
                  intent TEXT NOT NULL, arguments TEXT NOT NULL, result TEXT, error TEXT,
                  started_after_us INTEGER NOT NULL, duration_us INTEGER NOT NULL, location TEXT NOT NULL,
                  PRIMARY KEY (run, position));
                """)
        }
        migrator.registerMigration("v2: file fires and watched trees") { db in
            // File fires are new each time (two may share a millisecond): only fires on time are unique by instant.
            try db.execute(sql: """
                ALTER TABLE run ADD COLUMN files TEXT;
                ALTER TABLE run ADD COLUMN rescan INTEGER NOT NULL DEFAULT 0;
                DROP INDEX run_fire;
                CREATE UNIQUE INDEX run_fire ON run (script, name, scheduled_ms) WHERE manual = 0 AND files IS NULL;
                ALTER TABLE automation ADD COLUMN watched INTEGER NOT NULL DEFAULT 0;
                CREATE TABLE tree (
                  script TEXT NOT NULL, name TEXT NOT NULL, path TEXT NOT NULL, size INTEGER NOT NULL, modified_ns INTEGER NOT NULL,
                  PRIMARY KEY (script, name, path)) WITHOUT ROWID;
                """)
        }
        migrator.registerMigration("v3: caught-up runs") { db in
            try db.execute(sql: "ALTER TABLE run ADD COLUMN caught_up INTEGER NOT NULL DEFAULT 0")
        }
        migrator.registerMigration("v4: intent identifiers of steps") { db in
            try db.execute(sql: "ALTER TABLE step ADD COLUMN intent_id TEXT")
        }
        return migrator
    }

    // MARK: Fires

    package func claim(_ fire: Fire, at start: Date) throws(RunStoreError) -> RunID? {
        try claim([fire], at: start)[0]
    }

    package func claim(_ fires: [Fire], at start: Date) throws(RunStoreError) -> [RunID?] {
        try write(checkpointing: false) { db in
            try fires.map { fire in
                // Kept by the connection: compiling the statement was a fifth of a claim, on the way from an event to its run.
                try db.cachedStatement(sql: """
                    INSERT OR IGNORE INTO run (script, name, trigger, scheduled_ms, manual, started_ms, outcome, files, rescan, caught_up)
                    VALUES (?, ?, ?, ?, ?, ?, 'running', ?, ?, ?)
                    """).execute(arguments: [fire.automation.script, fire.automation.name, fire.trigger, Self.milliseconds(fire.scheduled),
                                     fire.manual, Self.milliseconds(start), fire.files.map { Self.encode(paths: $0.files) },
                                     fire.files?.fromRescan ?? false, fire.caughtUp])
                guard db.changesCount == 1 else { return nil }
                let id = db.lastInsertedRowID
                try Self.handled(fire, in: db)
                return id
            }
        }
    }

    /// What handling a fire changes besides its run: a fire on time moves the cursor; a file fire brings the store's
    /// copy of the folder up to date, in the same transaction, so that a daemon starting after a crash delivers
    /// exactly what no run was claimed for.
    static func handled(_ fire: Fire, in db: Database) throws {
        if fire.manual { return }
        guard let files = fire.files else { return try moveCursor(of: fire, in: db) }
        let key = fire.automation
        // Prepared once per fire, not once per file: a debounced batch of 10,000 files took 145 ms to record with a
        // statement compiled for each.
        let upsert = try db.cachedStatement(sql: "INSERT OR REPLACE INTO tree (script, name, path, size, modified_ns) VALUES (?, ?, ?, ?, ?)")
        let delete = try db.cachedStatement(sql: "DELETE FROM tree WHERE script = ? AND name = ? AND path = ?")
        for (path, state) in zip(files.files, files.states) {
            if let state {
                try upsert.execute(arguments: [key.script, key.name, path, state.size, state.modified])
            } else {
                try delete.execute(arguments: [key.script, key.name, path])
            }
        }
    }

    @discardableResult
    package func skip(_ fire: Fire, as outcome: RunOutcomeKind, reason: String, at time: Date) throws(RunStoreError) -> Bool {
        try write { db in
            try db.execute(sql: """
                INSERT OR IGNORE INTO run (script, name, trigger, scheduled_ms, manual, ended_ms, outcome, message, files, rescan)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [fire.automation.script, fire.automation.name, fire.trigger, Self.milliseconds(fire.scheduled),
                                 fire.manual, Self.milliseconds(time), outcome.rawValue, reason, fire.files.map { Self.encode(paths: $0.files) },
                                 fire.files?.fromRescan ?? false])
            guard db.changesCount == 1 else { return false }
            try Self.handled(fire, in: db)
            return true
        }
    }

    /// The cursor only moves forward: a late `skip` of an older fire leaves a newer cursor as it is.
    static func moveCursor(of fire: Fire, in db: Database) throws {
        try db.execute(sql: """
            INSERT INTO automation (script, name, cursor_ms) VALUES (?, ?, ?)
            ON CONFLICT (script, name) DO UPDATE SET cursor_ms = max(coalesce(cursor_ms, excluded.cursor_ms), excluded.cursor_ms)
            """, arguments: [fire.automation.script, fire.automation.name, milliseconds(fire.scheduled)])
    }

    package func finish(_ run: RunID, _ ending: RunEnding, steps: [RunTrace.Step], droppedSteps: Int, at end: Date) throws(RunStoreError) {
        try write { db in
            try db.execute(sql: "UPDATE run SET ended_ms = ?, outcome = ?, message = ?, location = ?, dropped_steps = ? WHERE id = ?",
                           arguments: [Self.milliseconds(end), ending.outcome.rawValue, ending.message, ending.location, droppedSteps, run])
            let insert = try db.makeStatement(sql: """
                INSERT OR REPLACE INTO step (run, position, intent, arguments, result, error, started_after_us, duration_us, location,
                                             intent_id)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            for (position, step) in steps.enumerated() {
                try insert.execute(arguments: [run, position, step.intent, Self.encode(step.arguments), step.result, step.error,
                                               Self.microseconds(step.startedAfter), Self.microseconds(step.duration), step.location.description,
                                               step.intentID])
            }
        }
    }

    package func closeUnfinished(reason: String, at time: Date) throws(RunStoreError) -> Int {
        try write { db in
            try db.execute(sql: "UPDATE run SET outcome = 'failed', message = ?, ended_ms = ? WHERE outcome = 'running'",
                           arguments: [reason, Self.milliseconds(time)])
            return db.changesCount
        }
    }

    // MARK: Automations

    package func cursor(of automation: AutomationKey) throws(RunStoreError) -> Date? {
        try read { db in
            try Int64.fetchOne(db, sql: "SELECT cursor_ms FROM automation WHERE script = ? AND name = ?",
                               arguments: [automation.script, automation.name]).map(Self.date(milliseconds:))
        }
    }

    package func cursors(of automations: [AutomationKey], startingAt instant: Date) throws(RunStoreError) -> [AutomationKey: Date] {
        guard !automations.isEmpty else { return [:] }
        return try write { db in
            let start = try db.cachedStatement(sql: """
                INSERT INTO automation (script, name, cursor_ms) VALUES (?, ?, ?)
                ON CONFLICT (script, name) DO UPDATE SET cursor_ms = coalesce(cursor_ms, excluded.cursor_ms)
                """)
            let read = try db.cachedStatement(sql: "SELECT cursor_ms FROM automation WHERE script = ? AND name = ?")
            var cursors: [AutomationKey: Date] = [:]
            for key in automations {
                try start.execute(arguments: [key.script, key.name, Self.milliseconds(instant)])
                let cursor = try Int64.fetchOne(read, arguments: [key.script, key.name])
                cursors[key] = Self.date(milliseconds: cursor ?? Self.milliseconds(instant))
            }
            return cursors
        }
    }

    package func disabledNames() throws(RunStoreError) -> Set<String> {
        // Read at each fire, on the way from an event to its run: on the writer's connection, with its statement kept,
        // 0.07 ms where a read from the pool with a statement compiled each time took 0.22 ms. The claim that follows
        // needs the writer anyway, so waiting for it here makes no fire later.
        try reporting { try pool.writeWithoutTransaction { db in Set(try String.fetchAll(db.cachedStatement(sql: "SELECT name FROM disabled"))) } }
    }

    package func setEnabled(_ enabled: Bool, for name: String) throws(RunStoreError) {
        try write { db in
            if enabled {
                try db.execute(sql: "DELETE FROM disabled WHERE name = ?", arguments: [name])
            } else {
                try db.execute(sql: "INSERT OR IGNORE INTO disabled (name) VALUES (?)", arguments: [name])
            }
        }
    }

    package func tree(of automation: AutomationKey) throws(RunStoreError) -> [String: FileState]? {
        try read { db in
            guard try Bool.fetchOne(db, sql: "SELECT watched FROM automation WHERE script = ? AND name = ?",
                                    arguments: [automation.script, automation.name]) == true else { return nil }
            var tree: [String: FileState] = [:]
            let rows = try Row.fetchCursor(db, sql: "SELECT path, size, modified_ns FROM tree WHERE script = ? AND name = ?",
                                           arguments: [automation.script, automation.name])
            while let row = try rows.next() { tree[row["path"]] = FileState(size: row["size"], modified: row["modified_ns"]) }
            return tree
        }
    }

    package func replaceTree(of automation: AutomationKey, with tree: [String: FileState]) throws(RunStoreError) {
        try write { db in
            try db.execute(sql: "DELETE FROM tree WHERE script = ? AND name = ?", arguments: [automation.script, automation.name])
            let insert = try db.makeStatement(sql: "INSERT INTO tree (script, name, path, size, modified_ns) VALUES (?, ?, ?, ?, ?)")
            for (path, state) in tree {
                try insert.execute(arguments: [automation.script, automation.name, path, state.size, state.modified])
            }
            try db.execute(sql: """
                INSERT INTO automation (script, name, watched) VALUES (?, ?, 1)
                ON CONFLICT (script, name) DO UPDATE SET watched = 1
                """, arguments: [automation.script, automation.name])
        }
    }

    // MARK: History

    package func runs(of name: String?, limit: Int) throws(RunStoreError) -> [RunRecord] {
        try read { db in
            let rows = try Row.fetchAll(db, sql: "SELECT * FROM run WHERE ?1 IS NULL OR name = ?1 ORDER BY id DESC LIMIT ?2",
                                        arguments: [name, max(0, limit)])
            return rows.map(Self.record)
        }
    }

    package func run(_ id: RunID) throws(RunStoreError) -> RunRecord? {
        try read { db in try Row.fetchOne(db, sql: "SELECT * FROM run WHERE id = ?", arguments: [id]).map(Self.record) }
    }

    package func lastRun(of automation: AutomationKey) throws(RunStoreError) -> RunRecord? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM run WHERE name = ? AND script = ? ORDER BY id DESC LIMIT 1",
                             arguments: [automation.name, automation.script]).map(Self.record)
        }
    }

    package func steps(of run: RunID) throws(RunStoreError) -> [RunTrace.Step] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM step WHERE run = ? ORDER BY position", arguments: [run]).map { row in
                RunTrace.Step(intent: row["intent"], arguments: Self.decode(row["arguments"]), result: row["result"], error: row["error"],
                              startedAfter: .microseconds(row["started_after_us"] as Int64), duration: .microseconds(row["duration_us"] as Int64),
                              location: Self.location(row["location"]), intentID: row["intent_id"])
            }
        }
    }

    @discardableResult
    package func prune(_ retention: Retention, now: Date) throws(RunStoreError) -> Int {
        try write { db in
            let ageLimit = Self.milliseconds(now) - Int64(retention.age.components.seconds) * 1000
            let failureLimit = Self.milliseconds(now) - Int64(retention.failureAge.components.seconds) * 1000
            try db.execute(sql: """
                DELETE FROM run WHERE outcome != 'running' AND (
                  (outcome IN ('failed', 'cancelled') AND coalesce(ended_ms, scheduled_ms) < ?)
                  OR (outcome NOT IN ('failed', 'cancelled') AND coalesce(ended_ms, scheduled_ms) < ?))
                """, arguments: [failureLimit, ageLimit])
            var removed = db.changesCount
            try db.execute(sql: """
                DELETE FROM run WHERE outcome != 'running' AND id IN (
                  SELECT id FROM (SELECT id, row_number() OVER (PARTITION BY script, name ORDER BY id DESC) AS newer FROM run)
                  WHERE newer > ?)
                """, arguments: [retention.runsPerAutomation])
            removed += db.changesCount
            return removed
        }
    }

    // MARK: Rows and values

    static func record(_ row: Row) -> RunRecord {
        RunRecord(id: row["id"], automation: AutomationKey(script: row["script"], name: row["name"]), trigger: row["trigger"],
                  scheduled: date(milliseconds: row["scheduled_ms"]), manual: row["manual"],
                  started: (row["started_ms"] as Int64?).map(date(milliseconds:)), ended: (row["ended_ms"] as Int64?).map(date(milliseconds:)),
                  outcome: RunOutcomeKind(rawValue: row["outcome"]) ?? .failed, message: row["message"], location: row["location"],
                  droppedSteps: row["dropped_steps"], files: (row["files"] as String?).map(decode(paths:)) ?? [], fromRescan: row["rescan"],
                  caughtUp: row["caught_up"])
    }

    // MARK: Access

    /// A write in one transaction; then, unless it is a claim (`checkpointing` false), the log's checkpoint when it is
    /// due. A checkpoint that fails leaves the log as it was, to be checkpointed once as many writes again are done.
    private func write<T>(checkpointing: Bool = true, _ work: (Database) throws -> T) throws(RunStoreError) -> T {
        let result = try reporting { try pool.write(work) }
        let written = uncheckpointed.add(1, ordering: .relaxed).newValue
        if checkpointing, written >= Self.checkpointEvery {
            uncheckpointed.store(0, ordering: .relaxed)
            _ = try? pool.writeWithoutTransaction { db in try db.checkpoint(.passive) }
        }
        return result
    }

    private func read<T>(_ work: (Database) throws -> T) throws(RunStoreError) -> T {
        try reporting { try pool.read(work) }
    }

    /// The store's work, with a database's error as the store's, in words people can act on.
    private func reporting<T>(_ work: () throws -> T) throws(RunStoreError) -> T {
        do {
            return try work()
        } catch {
            throw RunStoreError(path: path, reason: Self.reason(for: error, path: path))
        }
    }

    /// What people can act on, rather than an SQLite result code.
    static func reason(for error: any Error, path: String) -> String {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue { return "it is a folder" }
        guard let error = error as? DatabaseError else { return "\(error)" }
        switch error.resultCode {
        case .SQLITE_NOTADB, .SQLITE_CORRUPT: return "it is not a SQLite database, or it is damaged; move it away to start a new one"
        case .SQLITE_BUSY, .SQLITE_LOCKED: return "it is locked by another process; try again"
        case .SQLITE_FULL: return "the disk is full"
        case .SQLITE_CANTOPEN, .SQLITE_READONLY, .SQLITE_PERM, .SQLITE_AUTH:
            let folder = (path as NSString).deletingLastPathComponent
            for (file, mode) in [(path, R_OK | W_OK), (folder.isEmpty ? "." : folder, W_OK)]
            where FileManager.default.fileExists(atPath: file) && access(file, mode) != 0 {
                return String(cString: strerror(errno)).lowercased()
            }
            return "it can't be written (\(error.message ?? "read-only"))"
        default:
            return error.message ?? "\(error)"
        }
    }

    static func systemReason(_ error: any Error) -> String {
        (error as NSError).localizedFailureReason ?? (error as NSError).localizedDescription
    }
}

extension SQLiteRunStore {
    /// The time automations a daemon has loaded (each has a cursor): what `auto automations status` lists.
    package func scheduledAutomations() throws(RunStoreError) -> [AutomationKey] {
        do {
            return try pool.read { db in
                try Row.fetchAll(db, sql: "SELECT script, name FROM automation WHERE cursor_ms IS NOT NULL ORDER BY name, script")
                    .map { AutomationKey(script: $0["script"], name: $0["name"]) }
            }
        } catch {
            throw RunStoreError(path: path, reason: Self.reason(for: error, path: path))
        }
    }
}

extension SQLiteRunStore {
    /// Opens (so migrates) the store at `path`: the versions it had and has, counted in migrations applied.
    package static func migrate(path: String) throws(RunStoreError) -> (from: Int, to: Int) {
        var before = 0
        if FileManager.default.fileExists(atPath: path) {
            do {
                let queue = try DatabaseQueue(path: path, configuration: { var c = Configuration(); c.readonly = true; return c }())
                before = try queue.read { db in try migrator.appliedIdentifiers(db).count }
            } catch {
                throw RunStoreError(path: path, reason: reason(for: error, path: path))
            }
        }
        _ = try SQLiteRunStore(path: path)
        return (before, migrator.migrations.count)
    }
}
