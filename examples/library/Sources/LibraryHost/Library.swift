import AutoCLI
import AutoIntents
import Foundation
import GRDB

/// The Library example host: books in SQLite, found with SQL pushdown, driven by .auto scripts.
public enum Library {
    /// Changes only the given columns of a book, so a script holding an older copy of it can't undo
    /// another change (`rate book b` then `mark as read b` keeps both), and returns the book as stored now.
    static func update(_ book: Book, _ changes: [String: DatabaseValue], in database: LibraryDatabase) async throws -> Book {
        let id = book.id
        let updated = try await database.write { db -> Book? in
            let assignments = changes.map { Column($0.key).set(to: $0.value) }
            guard try BookRecord.filter(key: id).updateAll(db, assignments) == 1 else { return nil }
            return try BookRecord.fetchOne(db, key: id)?.book
        }
        guard let updated else { throw IntentError("'\(book.title)' is not in the library any more") }
        return updated
    }

    /// The registry of the library: the built-ins, its intents, and its queries over `database`.
    public static func registry(database: LibraryDatabase) throws -> Registry {
        var registry = Registry.standard
        // The intents reach the database through their context.
        try registry.register(dependency: database)
        try registry.register(OpenBook.self)
        try registry.register(OpenShelf.self)
        try registry.register(AddBook.self)
        try registry.register(MarkAsRead.self)
        try registry.register(RateBook.self)
        try registry.register(DeleteBook.self)
        try registry.register(ImportBooks.self)
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
