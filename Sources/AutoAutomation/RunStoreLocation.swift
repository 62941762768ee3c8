import Foundation
import Logging

/// Where the run store is: a SQLite file, the default, which one daemon holds; or a PostgreSQL database, which
/// several daemons share. Given by `--store`, else by `AUTO_STORE`, else the default file.
package enum RunStoreLocation: Sendable, Equatable, CustomStringConvertible {
    case sqlite(path: String)
    /// A `postgres://` or `postgresql://` URL.
    case postgres(url: String)

    /// The environment variable a store is named by when `--store` is not given: one setting for the daemon and every
    /// `auto automations` command of a machine (or of a service's unit file).
    package static let environmentVariable = "AUTO_STORE"

    /// `--store`'s text; nil for `AUTO_STORE`'s, or the default file when that is unset or empty.
    package init(_ text: String?, environment: [String: String] = ProcessInfo.processInfo.environment) {
        let given = text ?? environment[Self.environmentVariable].flatMap { $0.isEmpty ? nil : $0 }
        guard let given else {
            self = .sqlite(path: SQLiteRunStore.defaultPath)
            return
        }
        let scheme = given.prefix { $0 != ":" }.lowercased()
        self = given.contains("://") && (scheme == "postgres" || scheme == "postgresql") ? .postgres(url: given) : .sqlite(path: given)
    }

    /// The file's path, or the URL without its password: what messages and logs show.
    package var description: String {
        switch self {
        case .sqlite(let path): path
        case .postgres(let url): (try? PostgresAddress(url: url).redacted) ?? PostgresAddress.withoutPassword(url)
        }
    }

    /// Whether several daemons may share it.
    package var isShared: Bool {
        if case .postgres = self { return true }
        return false
    }

    /// How the store knows a script's automations: by the script's path on a store of its own; by its file name on a
    /// shared store, as the nodes sharing it keep their copies of the scripts where each machine has them (`/srv/auto`
    /// on one, `/home/ops/auto` on another, or a folder per node on one machine).
    package func scriptKey(_ path: String) -> String {
        isShared ? (path as NSString).lastPathComponent : path
    }

    /// Whether there is a store to read: a SQLite file is made when first opened, so a command that only reads it
    /// (`automations next`) doesn't make one; a database is always there to ask.
    package var exists: Bool {
        switch self {
        case .sqlite(let path): FileManager.default.fileExists(atPath: path)
        case .postgres: true
        }
    }

    /// Opens the store, creating and migrating its schema as needed (see each store's `open`).
    package func open(logger: Logger) async throws(RunStoreError) -> any RunStore {
        switch self {
        case .sqlite(let path): try SQLiteRunStore(path: path)
        case .postgres(let url): try await PostgresRunStore.open(url: url, logger: logger)
        }
    }
}
