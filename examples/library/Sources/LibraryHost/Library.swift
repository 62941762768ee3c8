import AutoCLI
import AutoIntents
import Foundation
import GRDB
import Synchronization

/// The Library example host: books in SQLite, found with SQL pushdown, driven by .auto scripts.
public enum Library {
    /// The open database, for the intents (which the engine creates itself and can't be handed one).
    private static let current = Mutex<LibraryDatabase?>(nil)

    static func database() throws -> LibraryDatabase {
        guard let database = current.withLock({ $0 }) else { throw IntentError("the library's database is not open") }
        return database
    }

    static func save(_ book: Book) async throws {
        let record = BookRecord(book)
        do {
            try await database().write { db in try record.update(db) }
        } catch RecordError.recordNotFound {
            throw IntentError("'\(book.title)' is not in the library any more")
        }
    }

    /// The registry of the library: the built-ins, its intents, and its queries over `database`.
    public static func registry(database: LibraryDatabase) throws -> Registry {
        current.withLock { $0 = database }
        var registry = Registry.standard
        try registry.register(OpenBook.self)
        try registry.register(OpenShelf.self)
        try registry.register(AddBook.self)
        try registry.register(MarkAsRead.self)
        try registry.register(RateBook.self)
        try registry.register(DeleteBook.self)
        registry.register(query: BookQuery(database: database))
        registry.register(query: AuthorQuery(database: database))
        return registry
    }

    public static func host(database: LibraryDatabase) throws -> AutoHost {
        AutoHost(name: "library", registry: try registry(database: database))
    }

    /// Takes `--db PATH` (or `--db=PATH`) out of the arguments, wherever it is before the script.
    public static func databasePath(from arguments: inout [String]) -> String? {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" || argument.hasSuffix(".auto") || argument == "-" { return nil }
            if argument == "--db", index + 1 < arguments.count {
                let path = arguments[index + 1]
                arguments.removeSubrange(index...index + 1)
                return path
            }
            if argument.hasPrefix("--db=") {
                arguments.remove(at: index)
                return String(argument.dropFirst(5))
            }
            if argument == "-e" { index += 1 }
            index += 1
        }
        return nil
    }
}
