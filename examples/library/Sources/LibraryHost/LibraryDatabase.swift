import AutoIntents
import Foundation
import GRDB
import Synchronization

/// The library's SQLite database, opened on the first query or write: `library --help`, `check`, `graph`
/// and `intents` never touch it, and a usage error creates no file. Created and seeded from books.csv on
/// first use.
///
/// Several processes may use one library at once (two scripts, a script and an automation): the database is in
/// WAL mode, so readers never wait for a writer, and a writer waits its turn (a busy timeout) instead of
/// failing with "database is locked". Every write is one IMMEDIATE transaction (GRDB's default), which
/// takes the write lock before it reads, so a check-then-insert can't be overtaken by another process.
public final class LibraryDatabase: Sendable {
    public let path: String
    let seed: String?
    /// Called with the reason when the database can't be opened or created, before the error is thrown:
    /// the `library` command reports it and exits, as nothing in a script can do without its database.
    let unavailable: (@Sendable (LibraryUnavailable) -> Void)?
    /// What time it is, for the date a book is added: the system's clock, or a test's.
    let clock: @Sendable () -> Date
    let opened = Mutex<DatabasePool?>(nil)
    /// Opening is blocking work (files, SQLite's busy waits, the seeding): it runs here, one at a time,
    /// rather than on the threads of Swift's concurrency pool.
    let opening = DispatchQueue(label: "LibraryDatabase.open")

    /// How long a write waits for another process's transaction to end before it fails: imports of a few
    /// thousand books and the first seeding take a second or so, so this is only reached when
    /// something holds the lock for a very long time.
    static let busyTimeout: TimeInterval = 30

    /// `$XDG_DATA_HOME/auto-library/library.sqlite`, or `~/.local/share/auto-library/library.sqlite`.
    public static var defaultPath: String {
        let environment = ProcessInfo.processInfo.environment
        let data = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        return data + "/auto-library/library.sqlite"
    }

    /// The database at `path`; nothing is opened or created until it is first used. `clock` tells the time books
    /// are added at (last, so that a trailing closure is still `unavailable`).
    public init(path: String = LibraryDatabase.defaultPath, seed: String? = LibraryDatabase.bundledSeed,
                unavailable: (@Sendable (LibraryUnavailable) -> Void)? = nil, clock: @escaping @Sendable () -> Date = Date.init) {
        self.path = path
        self.seed = seed
        self.clock = clock
        self.unavailable = unavailable
    }

    /// The time for a book added now, to the second: SQLite keeps dates to the millisecond, so a finer one would
    /// differ from itself once stored (`add book "X" -> b` and then `find books where added == b.added` finds it).
    func now() -> Date {
        Date(timeIntervalSinceReferenceDate: clock().timeIntervalSinceReferenceDate.rounded(.down))
    }

    /// The text of books.csv, embedded in the host's code.
    public static var bundledSeed: String? { EmbeddedFiles.all.first { $0.path == "books.csv" }?.text }

    /// The open database: opened, created and migrated by the first caller.
    func pool() async throws -> DatabasePool {
        if let pool = opened.withLock({ $0 }) { return pool }
        do {
            return try await withCheckedThrowingContinuation { continuation in
                opening.async {
                    continuation.resume(with: Result {
                        if let pool = self.opened.withLock({ $0 }) { return pool }
                        let pool = try self.open()
                        self.opened.withLock { $0 = pool }
                        return pool
                    })
                }
            }
        } catch let error as LibraryUnavailable {
            unavailable?(error)
            throw error
        }
    }

    func open() throws(LibraryUnavailable) -> DatabasePool {
        let existed = FileManager.default.fileExists(atPath: path)
        let folder = (path as NSString).deletingLastPathComponent
        do throws(SystemError) {
            try Self.makeFolders(folder.isEmpty ? "." : folder)
        } catch {
            throw LibraryUnavailable(path: path, creating: true, reason: error.reason)
        }
        var configuration = Configuration()
        configuration.busyMode = .timeout(Self.busyTimeout)
        configuration.prepareDatabase { db in
            // Text comparisons with the engine's meaning: `contains`, `starts with` and `ends with` ignore
            // case for every script, not only ASCII as SQLite's LIKE does.
            for (name, options) in [("auto_contains", String.CompareOptions.caseInsensitive),
                                    ("auto_starts", [.caseInsensitive, .anchored]),
                                    ("auto_ends", [.caseInsensitive, .anchored, .backwards])] {
                db.add(function: DatabaseFunction(name, argumentCount: 2, pure: true) { values in
                    guard let text = String.fromDatabaseValue(values[0]), let needle = String.fromDatabaseValue(values[1]) else { return false }
                    return needle.isEmpty || text.range(of: needle, options: options) != nil
                })
            }
            db.add(function: DatabaseFunction("auto_fold", argumentCount: 1, pure: true) { values in
                String.fromDatabaseValue(values[0]).map(Book.folded)
            })
        }
        do {
            let pool = try Self.pool(at: path, configuration)
            // GRDB sets NORMAL for WAL, which may lose the last transactions on a power cut (never on a crash
            // of the process). A library of one person's books writes little: an fsync per commit is cheap.
            try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
            try migrate(pool)
            return pool
        } catch {
            throw LibraryUnavailable(path: path, creating: !existed, reason: Self.reason(for: error, path: path))
        }
    }

    /// The pool at `path`. Opening a new file switches it to WAL and commits an empty transaction to make the log
    /// file, and SQLite answers both at once, without the busy timeout, when another process is doing the same (the
    /// switch's lock is taken, or the transaction's snapshot went stale): processes making one library at once may be
    /// told "database is locked". They try again, with a growing pause, for at most the busy timeout.
    static func pool(at path: String, _ configuration: Configuration) throws -> DatabasePool {
        let deadline = Date().addingTimeInterval(busyTimeout)
        var pause: UInt32 = 1_000
        while true {
            do {
                return try DatabasePool(path: path, configuration: configuration)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && Date() < deadline {
                usleep(pause)
                pause = min(pause * 2, 50_000)
            }
        }
    }

    /// Creates the missing folders of `path`, one by one, so that a failure names its cause (errno).
    static func makeFolders(_ path: String) throws(SystemError) {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
            if isFolder.boolValue { return }
            throw SystemError(code: ENOTDIR)
        }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path { try makeFolders(parent) }
        if mkdir(path, 0o755) != 0, errno != EEXIST { throw SystemError(code: errno) }
    }

    /// What people can act on, rather than an SQLite result code: "permission denied", "it is a folder".
    static func reason(for error: any Error, path: String) -> String {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue { return "it is a folder" }
        guard let error = error as? DatabaseError else { return "\(error)" }
        switch error.resultCode {
        case .SQLITE_NOTADB: return "it is not a SQLite database"
        case .SQLITE_CANTOPEN, .SQLITE_READONLY, .SQLITE_PERM, .SQLITE_AUTH:
            let folder = (path as NSString).deletingLastPathComponent
            for (file, mode) in [(path, R_OK | W_OK), (folder.isEmpty ? "." : folder, W_OK)]
            where FileManager.default.fileExists(atPath: file) && access(file, mode) != 0 {
                return SystemError(code: errno).reason
            }
            return error.message ?? "SQLite can't open it"
        default:
            return error.message ?? "\(error)"
        }
    }

    /// Migrates only when a read says it is needed: a library in use is opened without taking the write
    /// lock, so starting a script never waits for (or blocks) another process's writes.
    func migrate(_ pool: DatabasePool) throws {
        let migrator = Self.migrator(seed: seed, now: now())
        while try !pool.read({ db in try migrator.hasCompletedMigrations(db) }) {
            let applied = try pool.read { db in try migrator.appliedIdentifiers(db) }
            do {
                try migrator.migrate(pool)
            } catch {
                // Two processes that open a library at once both see it unmigrated; the second one's migration
                // fails ("table book already exists") once the first has committed it. That is no error: the
                // second goes on from there. (Each migration is a transaction of its own, so the first may
                // still be running the next one.) Without such progress, the error is the library's.
                if try pool.read({ db in try migrator.appliedIdentifiers(db) }) == applied { throw error }
            }
        }
    }

    /// The migrations, in order. A new library is made with the latest `book` table at once; the later
    /// migrations bring a library made before them to the same table.
    static func migrator(seed: String?, now: Date) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("books") { db in
            try db.create(table: "book") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("title", .text).notNull()
                table.column("author", .text).notNull()
                table.column("published", .datetime).notNull()
                table.column("pages", .integer).notNull()
                table.column("genre", .text).notNull()
                table.column("rating", .integer)
                table.column("readDate", .datetime)
                table.column("shelf", .text).notNull()
                table.column("recommendedBy", .text)
                table.column("added", .datetime)
            }
            try db.create(index: "book_author", on: "book", columns: ["author"])
            try db.create(index: "book_title_author", on: "book", columns: ["title", "author"], unique: true)
            if let seed {
                // The books a library starts with came into it when it was made.
                for row in try BooksCSV(file: "books.csv").read(seed) {
                    var record = BookRecord(row.book)
                    if record.author.isEmpty { record.author = "Unknown" }
                    record.added = record.added ?? now
                    try record.insert(db)
                }
            }
        }
        // Libraries made before books had a date added: their books get none (NULL, read as nil), as when they
        // came is not known; the time of this migration would say they all came today.
        migrator.registerMigration("added") { db in
            if try !db.columns(in: "book").contains(where: { $0.name == "added" }) {
                try db.alter(table: "book") { table in table.add(column: "added", .datetime) }
            }
            // `find books where added >= today - 7 days` reads only the books it finds.
            try db.create(index: "book_added", on: "book", columns: ["added"])
        }
        return migrator
    }

    func read<T: Sendable>(_ work: @Sendable (Database) throws -> T) async throws -> T {
        try await pool().read(work)
    }

    func write<T: Sendable>(_ work: @Sendable (Database) throws -> T) async throws -> T {
        try await pool().write(work)
    }
}

/// The library can't be opened: `can't create the library at /x/y.sqlite: permission denied`.
public struct LibraryUnavailable: Error, Sendable, CustomStringConvertible {
    public let path: String
    /// Whether the file was to be made (no library was there yet).
    public let creating: Bool
    public let reason: String
    public var description: String { "can't \(creating ? "create" : "open") the library at \(path): \(reason)" }
}

/// An errno, worded as people read it: "permission denied", "read-only file system".
struct SystemError: Error {
    let code: Int32
    var reason: String {
        let text = String(cString: strerror(code))
        return text.prefix(1).lowercased() + text.dropFirst()
    }
}

extension Book {
    /// Title and author, ignoring case in every script (SQLite's lower() folds ASCII only): two books with
    /// the same key are the same book to `add book` and `import books`.
    static func folded(_ text: String) -> String { text.lowercased() }
    var sameBookKey: String { Self.folded(title) + "\u{0}" + Self.folded(author) }

    /// Rows holding the same book as `title` by `author`.
    static func isSame(title: String, author: String) -> SQLExpression {
        SQL("auto_fold(title) = \(folded(title)) AND auto_fold(author) = \(folded(author))").sqlExpression
    }
}

/// The `book` table's row.
struct BookRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "book"
    var id: Int64?
    var title: String
    var author: String
    var published: Date
    var pages: Int
    var genre: String
    var rating: Int?
    var readDate: Date?
    var shelf: Shelf
    var recommendedBy: String?
    var added: Date?

    init(_ book: Book) {
        id = book.id == 0 ? nil : book.id
        title = book.title
        author = book.author
        published = book.published
        pages = book.pages
        genre = book.genre
        rating = book.rating
        readDate = book.readDate
        shelf = book.shelf
        recommendedBy = book.recommendedBy
        added = book.added
    }

    var book: Book {
        Book(id: id ?? 0, title: title, author: author, published: published, pages: pages, genre: genre, rating: rating,
             readDate: readDate, shelf: shelf, recommendedBy: recommendedBy, added: added)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}
