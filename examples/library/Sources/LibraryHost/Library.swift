import AutoIntents
import AutoStdlib
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

    /// Registers the Library in `registry`: its database (which its intents reach through their context), its
    /// intents, its queries over `database` and its App Shortcuts.
    public static func register(into registry: inout Registry, database: LibraryDatabase) throws {
        try registry.register(dependency: database)
        try registry.register(OpenBook.self)
        try registry.register(OpenShelf.self)
        try registry.register(ListShelf.self)
        try registry.register(OpenGenre.self)
        try registry.register(AddBook.self)
        try registry.register(MarkAsRead.self)
        try registry.register(RateBook.self)
        try registry.register(MoveBook.self)
        try registry.register(DeleteBook.self)
        try registry.register(ImportBooks.self)
        try registry.register(query: BookQuery(database: database))
        try registry.register(query: AuthorQuery(database: database))
        // After the intents they run and the query that finds a book by its title.
        try registry.register(shortcuts: LibraryShortcuts.self, applicationName: "library")
    }
}
