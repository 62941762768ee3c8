import Foundation
import GRDB
import GRDBSQLite

/// Whether a run store's pages hold together, looked at when a daemon starts and before it writes anything: a
/// damaged store accepts some writes and fails others, and what the daemon records in it may be lost with it.
enum StoreCheck {
    /// Checks the store at `path` with `PRAGMA quick_check` (each page and row; not whether the indexes match their
    /// tables), reading for at most `limit`: a store too big to read in that time is left partly unchecked rather
    /// than hold up the daemon's start. Returns whether the check finished. Throws for a damaged store, with the
    /// command that recovers what can be read of it into a new store.
    static func run(_ path: String, within limit: Duration) throws(RunStoreError) -> Bool {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(SQLiteRunStore.busyTimeout)
        configuration.label = "auto run store check"
        do {
            // As the store opens: not while another process makes the new store's schema. A connection of its own:
            // interrupting it can't touch the store's.
            return try StoreLock.whileOpening(store: path) { try check(path, configuration: configuration, within: limit) }
        } catch let error as RunStoreError {
            throw error
        } catch let error as DatabaseError where error.resultCode == .SQLITE_INTERRUPT {
            return false
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CORRUPT {
            throw RunStoreError(path: path, reason: damaged(path, problem: error.message ?? "\(error)"))
        } catch {
            throw RunStoreError(path: path, reason: SQLiteRunStore.reason(for: error, path: path))
        }
    }

    private static func check(_ path: String, configuration: Configuration, within limit: Duration) throws -> Bool {
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? queue.close() }
        let problems = try queue.read { db in
            // SQLite asks its progress handler every `progressSteps` steps of the check, and stops it (SQLITE_INTERRUPT)
            // once the deadline has passed: on the check's own thread, so a limit already passed stops it at once
            // however busy the machine is (a timer on another thread could come after the check had ended).
            let deadline = Unmanaged.passRetained(Deadline(ContinuousClock.now + limit))
            sqlite3_progress_handler(db.sqliteConnection, progressSteps, { context in
                Unmanaged<Deadline>.fromOpaque(context!).takeUnretainedValue().hasPassed ? 1 : 0
            }, deadline.toOpaque())
            defer {
                sqlite3_progress_handler(db.sqliteConnection, 0, nil, nil)
                deadline.release()
            }
            return try String.fetchAll(db, sql: "PRAGMA quick_check(3)")
        }
        guard problems == ["ok"] else { throw RunStoreError(path: path, reason: damaged(path, problem: problems.first ?? "")) }
        return true
    }

    /// Steps of SQLite's virtual machine between two looks at the clock: a few microseconds.
    static let progressSteps: Int32 = 1000

    /// The end of the check's time, for the progress handler.
    private final class Deadline {
        let instant: ContinuousClock.Instant
        init(_ instant: ContinuousClock.Instant) { self.instant = instant }
        var hasPassed: Bool { ContinuousClock.now >= instant }
    }

    /// Why the store is refused, and how to go on: sqlite3's `.dump` writes out every row it can read and, after
    /// a damaged page, ends its script with a ROLLBACK, which the `sed` turns into the COMMIT that keeps them.
    /// (`.recover` would read more, but Debian 12's sqlite3 can't run it: it lacks the sqlite_dbpage table.)
    static func damaged(_ path: String, problem: String) -> String {
        let recovered = recoveredPath(for: path)
        return """
            it is damaged (\(problem)); nothing was written to it. Copy what can be read into a new store with
              sqlite3 \(quoted(path)) .dump | sed 's/^ROLLBACK; -- due to errors$/COMMIT;/' | sqlite3 \(quoted(recovered))
            and use that one (--store \(quoted(recovered)), or move it to \(quoted(path)))
            """
    }

    /// `runs-recovered.sqlite` beside `runs.sqlite`, or `runs-recovered-2.sqlite` and on when that is taken.
    static func recoveredPath(for path: String) -> String {
        let base = (path as NSString).deletingPathExtension, pathExtension = (path as NSString).pathExtension
        let suffix = pathExtension.isEmpty ? "" : "." + pathExtension
        var candidate = base + "-recovered" + suffix, number = 1
        while FileManager.default.fileExists(atPath: candidate) {
            number += 1
            candidate = base + "-recovered-\(number)" + suffix
        }
        return candidate
    }

    /// `path` as one word of a POSIX shell.
    static func quoted(_ path: String) -> String {
        "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
