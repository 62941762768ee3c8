import AutoIntents
import Foundation
import GRDB

/// Books are found in SQL: comparisons become GRDB expressions with bound arguments (never values pasted
/// into SQL text), sorts become ORDER BY and limits LIMIT. The query can also list every book and search
/// titles, so what SQL is not asked for the engine still answers.
public struct BookQuery: EntityPropertyQuery, EnumerableEntityQuery, EntityStringQuery {
    public typealias Predicate = SQLExpression
    let database: LibraryDatabase

    public init(database: LibraryDatabase) { self.database = database }

    public var properties: [QueryProperty<Book, SQLExpression>] {
        [
            Self.text("title"), Self.text("author"), Self.text("genre"), Self.text("recommendedBy"),
            Self.ordered("published", Date.self), Self.ordered("pages", Int.self), Self.ordered("rating", Int.self),
            Self.ordered("readDate", Date.self), Self.ordered("added", Date.self),
            .init("shelf", [.equal { (shelf: Shelf) in Column("shelf") == shelf.rawValue }, Self.notEqual("shelf", { (shelf: Shelf) in shelf.rawValue }),
                            .oneOf { (shelves: [Shelf]) in shelves.map(\.rawValue).contains(Column("shelf")) }]),
        ]
    }

    public var sortableProperties: [String] { ["title", "author", "published", "pages", "rating", "readDate", "genre", "added"] }

    /// `!=` keeps rows where the column is NULL, as the engine does (a missing value differs from every value).
    static func notEqual<T: IntentValue>(_ column: String, _ convert: @escaping @Sendable (T) -> some DatabaseValueConvertible & Sendable) -> QueryComparator<SQLExpression> {
        .notEqual { (value: T) in SQL("\(Column(column)) IS NOT \(convert(value))").sqlExpression }
    }

    static func text(_ column: String) -> QueryProperty<Book, SQLExpression> {
        let c = Column(column)
        return .init(column, [
            .equal { (text: String) in c == text },
            notEqual(column) { (text: String) in text },
            .less { (text: String) in c < text }, .lessOrEqual { (text: String) in c <= text },
            .greater { (text: String) in c > text }, .greaterOrEqual { (text: String) in c >= text },
            .contains { text in SQL("auto_contains(\(c), \(text))").sqlExpression },
            .startsWith { text in SQL("auto_starts(\(c), \(text))").sqlExpression },
            .endsWith { text in SQL("auto_ends(\(c), \(text))").sqlExpression },
            .oneOf { (texts: [String]) in texts.contains(c) },
            .between { (low: String, high: String) in (low...high).contains(c) },
        ])
    }

    static func ordered<T: IntentValue & DatabaseValueConvertible & Comparable & Sendable>(_ column: String, _ type: T.Type) -> QueryProperty<Book, SQLExpression> {
        let c = Column(column)
        return .init(column, [
            .equal { (value: T) in c == value },
            notEqual(column) { (value: T) in value },
            .less { (value: T) in c < value }, .lessOrEqual { (value: T) in c <= value },
            .greater { (value: T) in c > value }, .greaterOrEqual { (value: T) in c >= value },
            .oneOf { (values: [T]) in values.contains(c) },
            .between { (low: T, high: T) in (low...high).contains(c) },
        ])
    }

    public func entities(matching predicates: [SQLExpression], mode: ComparatorMode, sortedBy: [QuerySort], limit: Int?) async throws -> [Book] {
        var request = BookRecord.all()
        if !predicates.isEmpty { request = request.filter(predicates.joined(operator: mode == .and ? .and : .or)) }
        // Ties keep the order of `allEntities` (by id), so SQL and the engine agree on every result.
        let orderings: [any SQLOrderingTerm] = sortedBy.map { $0.descending ? Column($0.property).desc : Column($0.property).asc } + [Column("id")]
        request = request.order(orderings)
        if let limit { request = request.limit(limit) }
        let final = request
        return try await database.read { db in try final.fetchAll(db).map(\.book) }
    }

    public func allEntities() async throws -> [Book] {
        try await database.read { db in try BookRecord.order(Column("id")).fetchAll(db).map(\.book) }
    }

    public func entities(for identifiers: [Int64]) async throws -> [Book] {
        try await database.read { db in try BookRecord.fetchAll(db, keys: identifiers).map(\.book) }
    }

    /// Titles containing the text, ignoring case; a title equal to it comes first.
    public func entities(matching text: String) async throws -> [Book] {
        let books = try await database.read { db in
            try BookRecord.filter(SQL("auto_contains(title, \(text))").sqlExpression).order(Column("title"), Column("id")).fetchAll(db).map(\.book)
        }
        return books.filter { $0.title.caseInsensitiveCompare(text) == .orderedSame } + books.filter { $0.title.caseInsensitiveCompare(text) != .orderedSame }
    }

    public func suggestedEntities() async throws -> [Book] {
        try await database.read { db in
            try BookRecord.filter(Column("shelf") == Shelf.currentlyReading.rawValue).order(Column("title")).fetchAll(db).map(\.book)
        }
    }
}

/// Authors, grouped from the books; the engine filters, sorts and limits them.
public struct AuthorQuery: EnumerableEntityQuery {
    let database: LibraryDatabase

    public init(database: LibraryDatabase) { self.database = database }

    public func allEntities() async throws -> [Author] {
        try await database.read { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT author, count(*) AS books, min(published) AS first, max(published) AS latest, avg(rating) AS rating
                FROM book GROUP BY author ORDER BY author
                """)
            return rows.map { row in
                Author(name: row["author"], books: row["books"], firstPublished: row["first"], latestPublished: row["latest"],
                       averageRating: row["rating"])
            }
        }
    }

    public func entities(for identifiers: [String]) async throws -> [Author] {
        try await allEntities().filter { identifiers.contains($0.name) }
    }
}
