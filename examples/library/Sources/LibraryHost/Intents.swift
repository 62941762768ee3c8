import AutoIntents
import Foundation
import GRDB

/// The library's intents. Each reaches the database through its context: `context.dependency(LibraryDatabase.self)`.
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

    func perform(_ context: IntentContext) async throws -> IntentResult<[Book]> {
        let shelf = self.shelf
        let books = try await context.dependency(LibraryDatabase.self).read { db in
            try BookRecord.filter(Column("shelf") == shelf.rawValue).order(Column("title"), Column("id")).fetchAll(db).map(\.book)
        }
        return .result(value: books)
    }
}

struct AddBook: AppIntent {
    static let title = "Add book"
    static let description = IntentDescription("Adds a book to the library, on the want-to-read shelf.", category: "Books", resultName: "newBook")
    static let sideEffect = SideEffect.changes
    static let parameterSummary: ParameterSummary? = "Add {title} by {author}"
    @Parameter(question: "What is the book's title?") var title: String
    @Parameter var author: String?
    @Parameter(title: "Recommended by") var recommendedBy: String?
    @Parameter var published: Date?
    @Parameter(default: 0, range: 0...100_000) var pages: Int
    @Parameter(default: "Unknown") var genre: String

    func perform(_ context: IntentContext) async throws -> IntentResult<Book> {
        let title = self.title.trimmingCharacters(in: .whitespaces)
        guard !title.isEmpty else { throw IntentError("a book needs a title") }
        let author = self.author?.trimmingCharacters(in: .whitespaces).nilIfEmpty ?? "Unknown"
        let book = Book(id: 0, title: title, author: author, published: published ?? Date(), pages: pages, genre: genre,
                        rating: nil, readDate: nil, shelf: .wantToRead, recommendedBy: recommendedBy)
        let added = try await context.dependency(LibraryDatabase.self).write { db -> Book? in
            let duplicate = try BookRecord.filter(SQL("lower(title) = lower(\(title)) AND lower(author) = lower(\(author))").sqlExpression).fetchOne(db)
            if duplicate != nil { return nil }
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
    static let description = IntentDescription("Moves a book to the read shelf, with the day it was finished.", category: "Books")
    static let sideEffect = SideEffect.changes
    static let parameterSummary: ParameterSummary? = "Mark {book} as read on {on}"
    @Parameter(question: "Which book did you finish?") var book: Book
    @Parameter(title: "Date read") var on: Date?

    func perform(_ context: IntentContext) async throws -> IntentResult<Book> {
        let day = on ?? Calendar.current.startOfDay(for: Date())
        let updated = try await Library.update(book, ["readDate": day.databaseValue, "shelf": Shelf.read.rawValue.databaseValue],
                                               in: context.dependency())
        return .result(value: updated, dialog: "Marked \(book.title) as read")
    }
}

struct RateBook: AppIntent {
    static let title = "Rate book"
    static let description = IntentDescription("Gives a book 1 to 5 stars.", category: "Books")
    static let sideEffect = SideEffect.changes
    static let parameterSummary: ParameterSummary? = "Rate {book} {rating} stars"
    @Parameter(question: "Which book?") var book: Book
    @Parameter(question: "How many stars, from 1 to 5?", range: 1...5) var rating: Int

    func perform(_ context: IntentContext) async throws -> IntentResult<Book> {
        let updated = try await Library.update(book, ["rating": rating.databaseValue], in: context.dependency())
        return .result(value: updated, dialog: "Rated \(book.title) \(rating) of 5")
    }
}

struct DeleteBook: AppIntent {
    static let title = "Delete book"
    static let description = IntentDescription("Removes a book from the library for good.", category: "Books")
    static let sideEffect = SideEffect.destructive
    static let parameterSummary: ParameterSummary? = "Delete {book}"
    @Parameter(question: "Which book?") var book: Book

    func perform(_ context: IntentContext) async throws -> IntentResult<NoValue> {
        let id = book.id
        let deleted = try await context.dependency(LibraryDatabase.self).write { db in try BookRecord.deleteOne(db, key: id) }
        guard deleted else { throw IntentError("'\(book.title)' is not in the library any more") }
        return .result(dialog: "Deleted \(book.title)")
    }
}

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}

/// `import books from "more.csv"`: adds the books of a CSV file, one progress step per row. It asks what
/// it must: the file again when it can't be read, who wrote a book without an author, what to do with a
/// book already in the library, and a confirmation before it writes anything.
struct ImportBooks: AppIntent {
    static let title = "Import books"
    static let description = IntentDescription(
        "Adds the books of a CSV file (columns: title, author, published, pages, genre, shelf; only title is needed).",
        category: "Books", searchKeywords: ["csv", "load"], resultName: "imported")
    static let sideEffect = SideEffect.changes
    static let parameterSummary: ParameterSummary? = "Import books from {from} onto {shelf}"
    @Parameter(title: "CSV file", question: "Which CSV file?") var from: FileRef
    @Parameter(default: .wantToRead) var shelf: Shelf

    func perform(_ context: IntentContext) async throws -> IntentResult<[Book]> {
        let database = try context.dependency(LibraryDatabase.self)
        let rows: [ImportRow]
        do {
            rows = try ImportRow.read(URL(fileURLWithPath: from.path), shelf: shelf)
        } catch {
            throw context.needsValue("from", reason: "\(from.path) can't be read as books (\(error))")
        }
        guard !rows.isEmpty else { return .result(value: [], dialog: "\(from.name) has no books to import") }
        try await context.requestConfirmation("Import \(rows.count) books from \(from.name)?", actionName: "Import")

        let progress = await context.progress("Importing \(from.name)", total: rows.count)
        var added: [Book] = []
        var skipped = 0
        var skipAllDuplicates = false
        do {
            for row in rows {
                var book = row.book
                if book.author.isEmpty {
                    book.author = try await context.requestValue("Who wrote '\(book.title)'?", as: String.self)
                }
                let candidate = book
                let exists = try await database.read { db in
                    try BookRecord.filter(SQL("lower(title) = lower(\(candidate.title)) AND lower(author) = lower(\(candidate.author))").sqlExpression)
                        .fetchCount(db) > 0
                }
                if exists {
                    let choice = skipAllDuplicates ? DuplicateChoice.skip
                        : try await context.choose("'\(book.title)' by \(book.author) is already in the library.", from: DuplicateChoice.allCases)
                    if choice == .skipAll { skipAllDuplicates = true }
                    if choice != .keepBoth {
                        skipped += 1
                        try await progress.advance()
                        continue
                    }
                    book.title += " (\(Calendar.current.component(.year, from: Date())) copy)"
                }
                let toInsert = book
                let inserted = try await database.write { db -> Book in
                    var record = BookRecord(toInsert)
                    try record.insert(db)
                    return record.book
                }
                added.append(inserted)
                try await progress.advance()
            }
        } catch {
            await progress.finish()
            throw error
        }
        await progress.finish()
        let skippedText = skipped == 0 ? "" : ", \(skipped) skipped"
        return .result(value: added, dialog: "Imported \(added.count) books from \(from.name)\(skippedText)")
    }
}

/// What to do with a book the library already has.
enum DuplicateChoice: String, AppEnum, CaseIterable {
    case skip, keepBoth, skipAll
    static let enumType = EnumType<DuplicateChoice>("duplicate choice", displayNames: [
        .skip: "Skip it", .keepBoth: "Add it again", .skipAll: "Skip every book already here",
    ])
}

/// A row of an imported CSV: only the title is needed; the header names the columns present.
struct ImportRow {
    let book: Book

    static func read(_ url: URL, shelf: Shelf) throws -> [ImportRow] {
        let rows = BooksCSV.parse(try String(contentsOf: url, encoding: .utf8))
        guard let header = rows.first?.map({ $0.lowercased().trimmingCharacters(in: .whitespaces) }), let titleColumn = header.firstIndex(of: "title") else {
            throw BooksCSV.FormatError(line: 1, reason: "the first line must name the columns, with at least 'title'")
        }
        func column(_ name: String) -> Int? { header.firstIndex(of: name) }
        return try rows.dropFirst().enumerated().compactMap { index, fields in
            func field(_ name: String) -> String? {
                column(name).flatMap { $0 < fields.count ? fields[$0].trimmingCharacters(in: .whitespaces) : nil }.flatMap { $0.isEmpty ? nil : $0 }
            }
            guard titleColumn < fields.count, !fields[titleColumn].trimmingCharacters(in: .whitespaces).isEmpty else {
                if fields.allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) { return nil }
                throw BooksCSV.FormatError(line: index + 2, reason: "a book needs a title")
            }
            let published = try field("published").map { text in
                guard let day = BooksCSV.day(text) else { throw BooksCSV.FormatError(line: index + 2, reason: "bad published date '\(text)'") }
                return day
            }
            return ImportRow(book: Book(
                id: 0, title: fields[titleColumn].trimmingCharacters(in: .whitespaces), author: field("author") ?? "",
                published: published ?? Date(), pages: field("pages").flatMap { Int($0) } ?? 0, genre: field("genre") ?? "Unknown",
                rating: nil, readDate: nil, shelf: field("shelf").flatMap(Shelf.init(csv:)) ?? shelf, recommendedBy: field("recommended_by")))
        }
    }
}
