import AutoIntents
import Foundation
import GRDB

/// The library's intents. Each reaches the database through its `@Dependency`, registered by `Library.registry`.
struct OpenBook: AppIntent {
    static let title = "Open book"
    static let description = IntentDescription("Opens a book to read it.", category: "Books", searchKeywords: ["read", "show"], resultName: "book")
    static let parameterSummary: ParameterSummary? = "Open {book}"
    @Parameter(question: "Which book?") var book: Book

    func perform(_ context: IntentContext) async throws -> IntentResult<Book> {
        .result(value: book, dialog: "Opening \(book.title) by \(book.author)")
    }
}

struct OpenShelf: AppIntent {
    static let title = "Open shelf"
    static let description = IntentDescription("Lists the books on a shelf.", category: "Books", resultName: "books")
    static let parameterSummary: ParameterSummary? = "Open the {shelf} shelf"
    @Parameter(question: "Which shelf?") var shelf: Shelf
    @Dependency var database: LibraryDatabase

    func perform(_ context: IntentContext) async throws -> IntentResult<[Book]> {
        .result(value: try await Self.books(on: shelf, in: database))
    }

    /// The books on `shelf`, by title.
    static func books(on shelf: Shelf, in database: LibraryDatabase) async throws -> [Book] {
        try await database.read { db in
            try BookRecord.filter(Column("shelf") == shelf.rawValue).order(Column("title"), Column("id")).fetchAll(db).map(\.book)
        }
    }
}

/// The first version's way to list a shelf, kept so that its scripts still run; `open shelf` replaces it.
struct ListShelf: AppIntent {
    static let title = "List shelf"
    static let description = IntentDescription("Lists the books on a shelf.", category: "Books", resultName: "books")
    static let deprecation: IntentDeprecation? = IntentDeprecation("a shelf's books are listed by 'open shelf'", replacedBy: OpenShelf.self)
    @Parameter(question: "Which shelf?") var shelf: Shelf
    @Dependency var database: LibraryDatabase

    func perform(_ context: IntentContext) async throws -> IntentResult<[Book]> {
        .result(value: try await OpenShelf.books(on: shelf, in: database))
    }
}

struct OpenGenre: AppIntent {
    static let title = "Open genre"
    static let description = IntentDescription("Lists the books of a genre, on one shelf or on all of them.", category: "Books",
                                               resultName: "books")
    static let parameterSummary: ParameterSummary? = "Open the {genre} books on {shelf}"
    @Parameter(question: "Which genre?", optionsProvider: GenreOptions()) var genre: String
    @Parameter var shelf: Shelf?
    @Dependency var database: LibraryDatabase

    func perform(_ context: IntentContext) async throws -> IntentResult<[Book]> {
        let genre = self.genre, shelf = self.shelf
        let books = try await database.read { db in
            var request = BookRecord.filter(Column("genre").collating(.nocase) == genre)
            if let shelf { request = request.filter(Column("shelf") == shelf.rawValue) }
            return try request.order(Column("title"), Column("id")).fetchAll(db).map(\.book)
        }
        return .result(value: books)
    }
}

/// The genres in the library, those with the most books first; with a shelf given, only the genres of the books on it,
/// so that `open genre` offers what it would find.
struct GenreOptions: DynamicOptionsProvider {
    @Dependency var database: LibraryDatabase

    func results(for request: OptionsRequest) async throws -> [String] {
        let shelf = request.argument("shelf", as: Shelf.self)
        return try await database.read { db in
            try String.fetchAll(db, sql: """
                SELECT genre FROM book WHERE ?1 IS NULL OR shelf = ?1 GROUP BY genre ORDER BY count(*) DESC, genre
                """, arguments: [shelf?.rawValue])
        }
    }
}

struct AddBook: AppIntent {
    static let title = "Add book"
    static let description = IntentDescription("Adds a book to the library, on the want-to-read shelf unless told another; a book added as read may be rated.",
                                               category: "Books", resultName: "newBook")
    static let sideEffect = SideEffect.changes
    /// A rating is offered only for a book added as read: the summary follows the shelf, and so do completion,
    /// `intents describe add book shelf: read` and `--what-if` ("Add Emma by Jane Austen to Read, rated 5").
    static let parameterSummary: ParameterSummary? = .when(
        "shelf", .equalTo(Shelf.read),
        ParameterSummary("Add {title} by {author} to {shelf}, rated {rating}", secondary: details),
        otherwise: ParameterSummary("Add {title} by {author} to {shelf}", secondary: details))
    static let details = ["recommendedBy", "published", "pages", "genre"]
    @Parameter(question: "What is the book's title?") var title: String
    @Parameter var author: String?
    @Parameter(title: "Recommended by", formerNames: ["recommender"]) var recommendedBy: String?
    @Parameter var published: Date?
    @Parameter(default: 0, range: Book.pageRange) var pages: Int
    @Parameter(default: "Unknown", optionsProvider: GenreOptions()) var genre: String
    @Parameter(default: .wantToRead) var shelf: Shelf
    @Parameter(range: Book.ratingRange) var rating: Int?
    @Dependency var database: LibraryDatabase

    func perform(_ context: IntentContext) async throws -> IntentResult<Book> {
        let title = self.title.trimmingCharacters(in: .whitespaces)
        guard !title.isEmpty else { throw IntentError("a book needs a title") }
        guard rating == nil || shelf == .read else {
            throw IntentError("only a book added as read is rated: add it with shelf: read, or rate it once it is read")
        }
        let author = self.author?.trimmingCharacters(in: .whitespaces).nilIfEmpty ?? "Unknown"
        let now = database.now()
        let book = Book(id: 0, title: title, author: author, published: published ?? Date(), pages: pages, genre: genre,
                        rating: rating, readDate: shelf == .read ? Calendar.current.startOfDay(for: now) : nil, shelf: shelf,
                        recommendedBy: recommendedBy, added: now)
        let added = try await database.write { db -> Book? in
            if try BookRecord.filter(Book.isSame(title: title, author: author)).fetchCount(db) > 0 { return nil }
            var record = BookRecord(book)
            try record.insert(db)
            return record.book
        }
        guard let added else { throw IntentError("'\(title)' by \(author) is already in the library") }
        return .result(value: added, dialog: "Added \(added.title) by \(added.author)")
    }
}

struct MarkAsRead: AppIntent {
    static let title = "Mark as read"
    /// Its title in the Library's first version: scripts that say `finish book` still run, with a warning
    /// (docs/MIGRATION.md).
    static let formerTitles = ["Finish book"]
    static let description = IntentDescription("Moves a book to the read shelf, with the day it was finished.", category: "Books")
    static let sideEffect = SideEffect.changes
    static let parameterSummary: ParameterSummary? = "Mark {book} as read on {on}"
    @Parameter(question: "Which book did you finish?") var book: Book
    @Parameter(title: "Date read") var on: Date?
    @Dependency var database: LibraryDatabase

    func perform(_ context: IntentContext) async throws -> IntentResult<Book> {
        let day = on ?? Calendar.current.startOfDay(for: Date())
        let updated = try await Library.update(book, ["readDate": day.databaseValue, "shelf": Shelf.read.rawValue.databaseValue],
                                               in: database)
        return .result(value: updated, dialog: "Marked \(book.title) as read")
    }
}

struct RateBook: AppIntent {
    static let title = "Rate book"
    static let description = IntentDescription("Gives a book 1 to 5 stars.", category: "Books")
    static let sideEffect = SideEffect.changes
    static let parameterSummary: ParameterSummary? = "Rate {book} {rating} stars"
    @Parameter(question: "Which book?") var book: Book
    @Parameter(question: "How many stars, from 1 to 5?", range: Book.ratingRange) var rating: Int
    @Dependency var database: LibraryDatabase

    func perform(_ context: IntentContext) async throws -> IntentResult<Book> {
        let updated = try await Library.update(book, ["rating": rating.databaseValue], in: database)
        return .result(value: updated, dialog: "Rated \(book.title) \(rating) of 5")
    }
}

struct MoveBook: AppIntent {
    static let title = "Move book"
    // The date read stays even on want to read: a move must not lose what the reader recorded, and moving the
    // book back to read finds it there. `mark as read` is what records the day a book was finished.
    static let description = IntentDescription(
        "Puts a book on another shelf, changing nothing else: its rating and date read stay, even on want to read.",
        category: "Books", searchKeywords: ["shelf", "put"])
    // Not destructive: nothing is lost (the rating and the date read stay), and moving the book back undoes
    // it, so it runs without asking; it does change the library, so `--what-if` stops before it.
    static let sideEffect = SideEffect.changes
    static let parameterSummary: ParameterSummary? = "Move {book} to {to}"
    @Parameter(question: "Which book?") var book: Book
    @Parameter(title: "Shelf", question: "To which shelf?") var to: Shelf
    @Dependency var database: LibraryDatabase

    func perform(_ context: IntentContext) async throws -> IntentResult<Book> {
        let updated = try await Library.update(book, ["shelf": to.rawValue.databaseValue], in: database)
        return .result(value: updated, dialog: "Moved \(book.title) to \(to.displayName)")
    }
}

struct DeleteBook: AppIntent {
    static let title = "Delete book"
    static let description = IntentDescription("Removes a book from the library for good.", category: "Books")
    static let sideEffect = SideEffect.destructive
    static let parameterSummary: ParameterSummary? = "Delete {book}"
    @Parameter(question: "Which book?") var book: Book
    @Dependency var database: LibraryDatabase

    func perform(_ context: IntentContext) async throws -> IntentResult<NoValue> {
        let id = book.id
        let deleted = try await database.write { db in try BookRecord.deleteOne(db, key: id) }
        guard deleted else { throw IntentError("'\(book.title)' is not in the library any more") }
        return .result(dialog: "Deleted \(book.title)")
    }
}

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
