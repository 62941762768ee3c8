@testable import AutoTerminal
import AutoCLI
import AutoIntents
import AutoTestSupport
import Foundation
import LibraryExample

/// A fresh library database seeded from books.csv (created on first use), adding books at the times `clock` tells:
/// a file of its own in `folder`, which the test keeps as long as it uses the database.
func freshDatabase(in folder: TemporaryFolder, clock: @escaping @Sendable () -> Date = Date.init) -> LibraryDatabase {
    LibraryDatabase(path: folder("library-\(UUID().uuidString).sqlite"), clock: clock)
}

/// The built `library` binary, run as its users run it.
enum LibraryBinary {
    static var path: String { BinaryRunner.productsFolder.appendingPathComponent("library").path }

    /// Runs it to the end with `arguments`, in `directory`.
    static func run(_ arguments: [String], directory: String = Fixture.repositoryRoot, environment: [String: String] = [:]) throws -> BinaryRunner.Result {
        try BinaryRunner.run(arguments, executable: path, environment: environment, directory: directory)
    }

    /// `run`, without holding a thread of the shared pool while the binary runs: tests that start many binaries would
    /// otherwise starve the pool (two threads on two cores) and stall the tests that await.
    static func runAwaiting(_ arguments: [String], directory: String = Fixture.repositoryRoot, environment: [String: String] = [:]) async throws -> BinaryRunner.Result {
        try await BinaryRunner.runAwaiting(arguments, executable: path, environment: environment, directory: directory)
    }

    /// Starts it and leaves it running.
    static func start(_ arguments: [String], directory: String = Fixture.repositoryRoot) throws -> ChildProcess {
        try ChildProcess(path, arguments, directory: directory)
    }
}

/// Books only through `allEntities`: the engine filters, sorts and limits everything itself.
struct EngineOnlyBookQuery: EnumerableEntityQuery {
    let books: BookQuery
    func allEntities() async throws -> [Book] { try await books.allEntities() }
    func entities(for identifiers: [Int64]) async throws -> [Book] { try await books.entities(for: identifiers) }
}

// AutoTestSupport has a sample library of its own; these tests mean the Library example's types.
typealias Book = LibraryExample.Book
typealias Shelf = LibraryExample.Shelf
typealias BookQuery = LibraryExample.BookQuery
