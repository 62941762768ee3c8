import ArgumentParser
import AutoAutomation
import AutoTerminal
import Logging

/// `auto store`: the run store itself, apart from what it records.
struct StoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store", abstract: "Look after the run store.", subcommands: [MigrateStore.self])
}

/// `auto store migrate`: brings a store's tables to this auto's version, as a daemon does when it starts — for an
/// operator who upgrades a shared store before the daemons, or checks a backup.
struct MigrateStore: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate", abstract: "Bring the run store's tables to this version of auto.",
        discussion: """
            Each step runs in a transaction of its own; on PostgreSQL under an advisory lock, so that daemons starting \
            at the same time migrate once. A store written by a newer auto is refused (exit 1). Daemons do this \
            themselves when they start; this is for doing it before, or on its own.
            """)

    @OptionGroup var store: StoreOption

    func run() async throws {
        let location = store.location
        let versions: (from: Int, to: Int)
        do {
            switch location {
            case .sqlite(let path): versions = try SQLiteRunStore.migrate(path: path)
            case .postgres(let url): versions = try await PostgresRunStore.migrate(url: url, logger: Logger(label: "auto.store"))
            }
        } catch {
            Console.standard.writeError("error: \(error)\n")
            throw CommandExit(code: 1)
        }
        Console.standard.writeOut(versions.from == versions.to
            ? "\(location): already at version \(versions.to)\n"
            : "\(location): migrated from version \(versions.from) to \(versions.to)\n")
    }
}
