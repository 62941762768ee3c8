import AutoAutomation
import AutoTestSupport
import Foundation
import GRDB
import Testing

/// What the tests of the real `auto daemon` share: the runs its store holds, and waiting for something in the store,
/// the log or the file system.
enum DaemonTestSupport {
    /// The runs recorded in `store` so far, of one automation or all, newest first; none while the store doesn't
    /// exist yet.
    static func runs(in store: String, of name: String? = nil) -> [RunRecord] {
        guard FileManager.default.fileExists(atPath: store), let opened = try? SQLiteRunStore(path: store) else { return [] }
        return (try? opened.runs(of: name, limit: 100_000)) ?? []
    }

    /// Damages the first page of `table` in `store` as a torn write or a failing disk would: its header overwritten.
    /// What the write-ahead log holds is moved into the file first, or it would hide the damage.
    static func damage(_ table: String, of store: String) throws {
        let queue = try DatabaseQueue(path: store)
        let (page, pageSize) = try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
            return (try Int.fetchOne(db, sql: "SELECT rootpage FROM sqlite_schema WHERE name = ?", arguments: [table]) ?? 0,
                    try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0)
        }
        try queue.close()
        try #require(page > 1 && pageSize > 0, "\(table) is in \(store)")
        let file = try FileHandle(forWritingTo: URL(fileURLWithPath: store))
        try file.seek(toOffset: UInt64((page - 1) * pageSize))
        try file.write(contentsOf: Data(repeating: 0xFF, count: 16))
        try file.close()
    }

    /// Waits for `condition`, with a generous deadline, sleeping between looks without holding a thread of the shared
    /// pool. When it never holds, the failure shows `detail` and the daemon's exit status and log.
    static func waitUntil(_ what: String, of process: ChildProcess?, timeout: Duration, detail: () -> String = { "" },
                          _ condition: () -> Bool) async {
        let deadline = ContinuousClock.now + timeout
        while !condition() {
            guard ContinuousClock.now < deadline else {
                let log = process.map {
                    "\nexit status: \($0.waitForExit(timeout: .zero).map(String.init) ?? "running")\nlog:\n\($0.standardErrorForReport)"
                }
                Issue.record("never: \(what)\(detail())\(log ?? "")")
                return
            }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }
}
