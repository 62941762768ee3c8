import AutoIntents
import Foundation

/// A small in-memory host, registered exactly as a real host registers its types: books (an entity with
/// typed properties), shelves (an enum with display names), and intents with required, optional,
/// defaulted, enum and entity parameters.
package enum SampleLibrary {
    package static func registry() throws -> Registry {
        var registry = Registry.standard
        try registry.register(OpenBook.self)
        try registry.register(OpenShelf.self)
        try registry.register(AddBook.self)
        try registry.register(RateBook.self)
        try registry.register(DeleteBook.self)
        try registry.register(ListBooks.self)
        try registry.register(Greet.self)
        try registry.register(AddNumbers.self)
        try registry.register(FailingIntent.self)
        try registry.register(PickEven.self)
        try registry.register(CountTo.self)
        try registry.register(PickFavourite.self)
        try registry.register(query: BookQuery())
        try registry.register(query: AuthorQuery())
        try registry.register(query: NoteQuery())
        return registry
    }

    package static let books: [Book] = [
        Book(id: 1, title: "Where the Crawdads Sing", author: "Delia Owens", published: day("2018-08-14"), pages: 384, rating: 5, shelf: .read),
        Book(id: 2, title: "Emma", author: "Jane Austen", published: day("1815-12-23"), pages: 474, rating: 4, shelf: .wantToRead),
        Book(id: 3, title: "Circe", author: "Madeline Miller", published: day("2018-04-10"), pages: 393, rating: 4, shelf: .currentlyReading),
    ]

    static func day(_ text: String) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone.current
        let parts = text.split(separator: "-").compactMap { Int($0) }
        return calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2]))!
    }
}

package enum Shelf: String, AppEnum {
    case wantToRead, currentlyReading, read
    package static let enumType = EnumType<Shelf>("shelf", displayNames: [
        .wantToRead: "Want to Read", .currentlyReading: "Currently Reading", .read: "Read",
    ])
}

package struct Book: AppEntity {
    package static let entityType = EntityType<Book>(singular: "book", plural: "books", properties: [
        .init("title", \.title), .init("author", \.author), .init("published", \.published),
        .init("pages", \.pages), .init("rating", \.rating), .init("shelf", \.shelf), .init("readDate", \.readDate),
    ])
    package var id: Int
    package var title: String
    package var author: String
    package var published: Date
    package var pages: Int
    package var rating: Int
    package var shelf: Shelf
    package var readDate: Date?

    package var displayRepresentation: DisplayRepresentation { .init(title: title, subtitle: author) }
}

struct OpenBook: AppIntent {
    static let title = "Open book"
    static let description = IntentDescription("Opens a book to read.", category: "Books", resultName: "openedBook")
    static let parameterSummary: ParameterSummary? = "Open {book}"
    @Parameter(question: "Which book?") var book: Book

    func perform(_ context: IntentContext) async throws -> IntentResult<Book> {
        .result(value: book, dialog: "Opening \(book.title) by \(book.author)")
    }
}

struct OpenShelf: AppIntent {
    static let title = "Open shelf"
    static let parameterSummary: ParameterSummary? = "Open the {shelf} shelf"
    @Parameter var shelf: Shelf

    func perform(_ context: IntentContext) async throws -> IntentResult<[Book]> {
        .result(value: SampleLibrary.books.filter { $0.shelf == shelf })
    }
}

struct AddBook: AppIntent {
    static let title = "Add book"
    static let sideEffect = SideEffect.changes
    static let parameterSummary: ParameterSummary? = "Add {title} by {author} to {shelf}"
    @Parameter(question: "What is the book's title?") var title: String
    @Parameter var author: String?
    @Parameter(default: 100, range: 1...10_000) var pages: Int
    @Parameter(default: .wantToRead) var shelf: Shelf

    func perform(_ context: IntentContext) async throws -> IntentResult<Book> {
        if SampleLibrary.books.contains(where: { $0.title == title }) {
            throw IntentError("'\(title)' is already in the library")
        }
        let book = Book(id: 100, title: title, author: author ?? "Anonymous", published: SampleLibrary.day("2024-05-01"),
                        pages: pages, rating: 0, shelf: shelf)
        return .result(value: book)
    }
}

struct RateBook: AppIntent {
    static let title = "Rate book"
    static let sideEffect = SideEffect.changes
    @Parameter var book: Book
    @Parameter(range: 1...5) var rating: Int

    func perform(_ context: IntentContext) async throws -> IntentResult<Book> {
        var rated = book
        rated.rating = rating
        return .result(value: rated, dialog: "Rated \(book.title) \(rating) of 5")
    }
}

struct DeleteBook: AppIntent {
    static let title = "Delete book"
    static let sideEffect = SideEffect.destructive
    @Parameter var book: Book

    func perform(_ context: IntentContext) async throws -> IntentResult<NoValue> {
        .result(dialog: "Deleted \(book.title)")
    }
}

/// Every book: a stand-in for `find books` until queries exist.
struct ListBooks: AppIntent {
    static let title = "List books"
    func perform(_ context: IntentContext) async throws -> IntentResult<[Book]> {
        .result(value: SampleLibrary.books)
    }
}

struct Greet: AppIntent {
    static let title = "Greet"
    @Parameter(default: "world") var name: String
    @Parameter var punctuation: String?

    func perform(_ context: IntentContext) async throws -> IntentResult<String> {
        .result(value: "Hello, \(name)\(punctuation ?? "!")")
    }
}

/// A trivial intent with two named parameters, as the benchmarks call it.
struct AddNumbers: AppIntent {
    static let title = "Add numbers"
    @Parameter var a: Int
    @Parameter var b: Int

    func perform(_ context: IntentContext) async throws -> IntentResult<Int> {
        .result(value: a &+ b)
    }
}

struct FailingIntent: AppIntent {
    static let title = "Fail politely"
    @Parameter(default: "no reason") var reason: String

    func perform(_ context: IntentContext) async throws -> IntentResult<NoValue> {
        throw IntentError("it failed: \(reason)")
    }
}

/// Asks again, through `needsValue`, until it is given an even number.
struct PickEven: AppIntent {
    static let title = "Pick even"
    @Parameter(question: "Which even number?") var number: Int

    func perform(_ context: IntentContext) async throws -> IntentResult<Int> {
        if number % 2 != 0 { throw context.needsValue("number", reason: "\(number) is odd") }
        return .result(value: number)
    }
}

/// Counts with nested progress: `count to 3` reports three steps, each with a child task.
struct CountTo: AppIntent {
    static let title = "Count to"
    @Parameter(range: 0...1000) var limit: Int

    func perform(_ context: IntentContext) async throws -> IntentResult<Int> {
        let progress = await context.progress("Counting", total: limit)
        for _ in 0..<limit {
            let step = await progress.child("One step", total: nil)
            await step.finish()
            try await progress.advance()
        }
        await progress.finish()
        return .result(value: limit)
    }
}

/// Lets people choose among the books, then confirms the choice as a parameter's value.
struct PickFavourite: AppIntent {
    static let title = "Pick favourite"
    func perform(_ context: IntentContext) async throws -> IntentResult<Book> {
        let book = try await context.choose("Which is your favourite?", from: SampleLibrary.books)
        try await context.confirm(book, for: "favourite")
        return .result(value: book, dialog: "\(book.title) it is")
    }
}

/// Books: a property query (as a database would answer) that can also list everything and search text.
/// Its predicates are plain closures; a real host maps them to SQL.
package struct BookQuery: EntityPropertyQuery, EnumerableEntityQuery, EntityStringQuery {
    package typealias Predicate = @Sendable (Book) -> Bool
    package init() {}

    package var properties: [QueryProperty<Book, Predicate>] {
        [
            .init("author", [
                .equal { (author: String) in { $0.author == author } },
                .contains { text in { $0.author.range(of: text, options: .caseInsensitive) != nil } },
            ]),
            .init("published", [
                .less { (date: Date) in { $0.published < date } },
                .greater { (date: Date) in { $0.published > date } },
            ]),
            .init("rating", [.greaterOrEqual { (rating: Int) in { $0.rating >= rating } }]),
        ]
    }
    package var sortableProperties: [String] { ["published", "title"] }

    package func entities(for identifiers: [Int]) async throws -> [Book] {
        SampleLibrary.books.filter { identifiers.contains($0.id) }
    }

    package func allEntities() async throws -> [Book] { SampleLibrary.books }

    package func entities(matching text: String) async throws -> [Book] {
        SampleLibrary.books.filter { $0.title.range(of: text, options: .caseInsensitive) != nil }
    }

    package func entities(matching predicates: [Predicate], mode: ComparatorMode, sortedBy: [QuerySort], limit: Int?) async throws -> [Book] {
        var books = SampleLibrary.books.filter { book in
            mode == .and ? predicates.allSatisfy { $0(book) } : predicates.contains { $0(book) }
        }
        for key in sortedBy.reversed() {
            books.sort { a, b in
                let ascending = key.property == "title" ? a.title < b.title : a.published < b.published
                let descending = key.property == "title" ? b.title < a.title : b.published < a.published
                return key.descending ? descending : ascending
            }
        }
        return limit.map { Array(books.prefix($0)) } ?? books
    }
}

/// Authors: the engine lists them all and filters, sorts and limits itself.
package struct Author: AppEntity {
    package static let entityType = EntityType<Author>(singular: "author", properties: [
        .init("name", \.name), .init("born", \.born), .init("books", \.books),
    ])
    package var id: String { name }
    package var name: String
    package var born: Int
    package var books: Int
    package var displayRepresentation: DisplayRepresentation { .init(title: name) }
}

package struct AuthorQuery: EnumerableEntityQuery {
    package init() {}
    package func entities(for identifiers: [String]) async throws -> [Author] {
        try await allEntities().filter { identifiers.contains($0.name) }
    }
    package func allEntities() async throws -> [Author] {
        [Author(name: "Jane Austen", born: 1775, books: 6), Author(name: "Delia Owens", born: 1949, books: 1),
         Author(name: "Madeline Miller", born: 1978, books: 3)]
    }
}

/// Notes: a query that only filters by title and can't list everything, to show planning errors.
package struct Note: AppEntity {
    package static let entityType = EntityType<Note>(singular: "note", properties: [.init("title", \.title), .init("words", \.words)])
    package var id: Int
    package var title: String
    package var words: Int
    package var displayRepresentation: DisplayRepresentation { .init(title: title) }
}

package struct NoteQuery: EntityPropertyQuery {
    package typealias Predicate = String
    package init() {}
    static let notes = [Note(id: 1, title: "groceries", words: 12), Note(id: 2, title: "ideas", words: 140)]
    package var properties: [QueryProperty<Note, String>] { [.init("title", [.equal { (title: String) in title }])] }
    package var sortableProperties: [String] { [] }
    package func entities(for identifiers: [Int]) async throws -> [Note] { Self.notes.filter { identifiers.contains($0.id) } }
    package func suggestedEntities() async throws -> [Note] { Self.notes }
    package func entities(matching predicates: [String], mode: ComparatorMode, sortedBy: [QuerySort], limit: Int?) async throws -> [Note] {
        let found = Self.notes.filter { note in predicates.allSatisfy { $0 == note.title } }
        return limit.map { Array(found.prefix($0)) } ?? found
    }
}
