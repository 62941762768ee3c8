import AutoIntents
import Foundation

/// Where a book sits in the reader's life.
public enum Shelf: String, AppEnum, Codable {
    case wantToRead, currentlyReading, read
    public static let enumType = EnumType<Shelf>("shelf", displayNames: [
        .wantToRead: "Want to Read", .currentlyReading: "Currently Reading", .read: "Read",
    ])
}

/// A book of the library: a row of the `book` table.
public struct Book: AppEntity, Codable, Hashable {
    public static let entityType = EntityType<Book>(singular: "book", plural: "books", properties: [
        .init("title", \.title), .init("author", \.author), .init("published", \.published), .init("pages", \.pages),
        .init("genre", \.genre), .init("rating", \.rating), .init("readDate", \.readDate, title: "Date read"),
        .init("shelf", \.shelf), .init("recommendedBy", \.recommendedBy, title: "Recommended by").formerly("recommender"),
        .init("added", \.added, title: "Date added"),
    ])

    public var id: Int64
    public var title: String
    public var author: String
    public var published: Date
    public var pages: Int
    public var genre: String
    public var rating: Int?
    public var readDate: Date?
    public var shelf: Shelf
    public var recommendedBy: String?
    /// When the book came into this library: the moment of `add book`, of the import that brought it (or the
    /// file's own `added` value), of the library's creation for the books it starts with. Nil for the books of a
    /// library made before the date was kept: when they came is not known, and no date would be true.
    public var added: Date?

    public var displayRepresentation: DisplayRepresentation { .init(title: title, subtitle: author) }

    /// What `add book` and `import books` accept; 0 pages means not known.
    static let pageRange = 0...100_000
    static let ratingRange = 1...5
}

/// An author, made from the books: found by the engine, which lists them all.
public struct Author: AppEntity {
    public static let entityType = EntityType<Author>(singular: "author", plural: "authors", properties: [
        .init("name", \.name), .init("books", \.books), .init("firstPublished", \.firstPublished, title: "First published"),
        .init("latestPublished", \.latestPublished, title: "Latest published"), .init("averageRating", \.averageRating, title: "Average rating"),
    ])
    public var id: String { name }
    public var name: String
    public var books: Int
    public var firstPublished: Date
    public var latestPublished: Date
    public var averageRating: Double?

    public var displayRepresentation: DisplayRepresentation {
        .init(title: name, subtitle: books == 1 ? "1 book" : "\(books) books")
    }
}
