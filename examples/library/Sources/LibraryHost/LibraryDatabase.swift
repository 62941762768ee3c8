import AutoIntents
import Foundation
import GRDB

/// The library's SQLite database: created and seeded from books.csv on first use.
public final class LibraryDatabase: Sendable {
    public let path: String
    let queue: DatabaseQueue

    /// `$XDG_DATA_HOME/auto-library/library.sqlite`, or `~/.local/share/auto-library/library.sqlite`.
    public static var defaultPath: String {
        let environment = ProcessInfo.processInfo.environment
        let data = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        return data + "/auto-library/library.sqlite"
    }

    /// Opens (creating and seeding if needed) the database at `path`.
    public init(path: String = LibraryDatabase.defaultPath, seed: String? = LibraryDatabase.bundledSeed) throws {
        self.path = path
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        var configuration = Configuration()
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
        }
        queue = try DatabaseQueue(path: path, configuration: configuration)
        try migrate(seed: seed)
    }

    /// The text of books.csv, embedded in the host's code.
    public static var bundledSeed: String? { EmbeddedFiles.all.first { $0.path == "books.csv" }?.text }

    func migrate(seed: String?) throws {
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
            }
            try db.create(index: "book_author", on: "book", columns: ["author"])
            try db.create(index: "book_title_author", on: "book", columns: ["title", "author"], unique: true)
            if let seed {
                for book in try BooksCSV.read(seed) {
                    var record = BookRecord(book)
                    try record.insert(db)
                }
            }
        }
        try migrator.migrate(queue)
    }

    func read<T: Sendable>(_ work: @Sendable (Database) throws -> T) async throws -> T {
        try await queue.read(work)
    }

    func write<T: Sendable>(_ work: @Sendable (Database) throws -> T) async throws -> T {
        try await queue.write(work)
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
    }

    var book: Book {
        Book(id: id ?? 0, title: title, author: author, published: published, pages: pages, genre: genre, rating: rating,
             readDate: readDate, shelf: shelf, recommendedBy: recommendedBy)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// books.csv: RFC 4180 (quoted fields, doubled quotes), header
/// `title,author,published,pages,genre,rating,read_date,shelf,recommended_by`.
enum BooksCSV {
    struct FormatError: Error, CustomStringConvertible {
        let line: Int
        let reason: String
        var description: String { "books.csv:\(line): \(reason)" }
    }

    static func read(_ text: String) throws -> [Book] {
        let rows = parse(text)
        guard let header = rows.first, header == ["title", "author", "published", "pages", "genre", "rating", "read_date", "shelf", "recommended_by"] else {
            throw FormatError(line: 1, reason: "unexpected header")
        }
        return try rows.dropFirst().enumerated().map { index, fields in
            let line = index + 2
            guard fields.count == 9 else { throw FormatError(line: line, reason: "expected 9 fields, found \(fields.count)") }
            guard let published = day(fields[2]) else { throw FormatError(line: line, reason: "bad published date '\(fields[2])'") }
            guard let pages = Int(fields[3]) else { throw FormatError(line: line, reason: "bad page count '\(fields[3])'") }
            guard let shelf = Shelf(csv: fields[7]) else { throw FormatError(line: line, reason: "unknown shelf '\(fields[7])'") }
            return Book(id: 0, title: fields[0], author: fields[1], published: published, pages: pages, genre: fields[4],
                        rating: Int(fields[5]), readDate: day(fields[6]), shelf: shelf,
                        recommendedBy: fields[8].isEmpty ? nil : fields[8])
        }
    }

    /// Midnight of a `YYYY-MM-DD` day in the machine's time zone, as scripts' `date("…")` reads it.
    static func day(_ text: String) -> Date? {
        let parts = text.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        return calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2]))
    }

    static func parse(_ text: String) -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var field = ""
        var quoted = false
        var characters = text.makeIterator()
        var pending: Character? = nil
        while let character = pending ?? characters.next() {
            pending = nil
            if quoted {
                if character == "\"" {
                    if let next = characters.next() {
                        if next == "\"" { field.append("\"") } else { quoted = false; pending = next }
                    } else {
                        quoted = false
                    }
                } else {
                    field.append(character)
                }
                continue
            }
            switch character {
            case "\"": quoted = true
            case ",": row.append(field); field = ""
            case "\n", "\r\n":
                row.append(field)
                rows.append(row)
                row = []
                field = ""
            case "\r": break
            default: field.append(character)
            }
        }
        if !field.isEmpty || !row.isEmpty {
            row.append(field)
            rows.append(row)
        }
        return rows
    }
}
