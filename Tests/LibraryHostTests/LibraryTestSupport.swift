import AutoCLI
import AutoIntents
import Foundation
import LibraryHost

/// A fresh library database seeded from books.csv, in a temporary folder of its own.
func freshDatabase() throws -> LibraryDatabase {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("library-tests-\(UUID().uuidString)")
    return try LibraryDatabase(path: folder.appendingPathComponent("library.sqlite").path)
}

/// Books only through `allEntities`: the engine filters, sorts and limits everything itself.
struct EngineOnlyBookQuery: EnumerableEntityQuery {
    let books: BookQuery
    func allEntities() async throws -> [Book] { try await books.allEntities() }
    func entities(for identifiers: [Int64]) async throws -> [Book] { try await books.entities(for: identifiers) }
}

// AutoTestSupport has a sample library of its own; these tests mean the Library example's types.
typealias Book = LibraryHost.Book
typealias Shelf = LibraryHost.Shelf
