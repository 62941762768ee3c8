import AutoIntents
import AutoStdlib
import Foundation
import GRDB

/// `import books from "more.csv"`: adds the books of a CSV file, all of them or none.
///
/// It goes in three steps, so that nothing is half done and no other process waits on a person:
/// 1. the whole file is read and every value checked: a bad one is an error that says which line and
///    column is wrong (`more.csv:7:23: pages: 'abc' is not a page count`), and a file that can't be used at
///    all (missing, unreadable, not text) is asked for again;
/// 2. after a confirmation, the questions: who wrote a book without an author, what to do with a book the
///    library already has (`duplicates: skip` or `addAgain` answers that for every book, without asking);
/// 3. one transaction writes every book, one progress step per row, each added at the same time (the
///    transaction's start) unless the file gives its own. Ctrl-C, an error or a killed process leaves the
///    library as it was, and the message says that nothing was imported.
struct ImportBooks: AppIntent {
    static let title = "Import books"
    static let description = IntentDescription(
        "Adds the books of a CSV file, all of them or none (columns: title, author, published, pages, genre, rating, read_date, shelf, recommended_by, added; only title is needed).",
        category: "Books", searchKeywords: ["csv", "load"], resultName: "imported")
    static let sideEffect = SideEffect.changes
    static let capabilities: Set<Capability> = [.read]
    static let parameterSummary: ParameterSummary? = "Import books from {from} onto {shelf}"
    @Parameter(title: "CSV file", question: "Which CSV file?") var from: FileRef
    @Parameter(default: .wantToRead) var shelf: Shelf
    @Parameter(title: "Books already here", default: .ask) var duplicates: Duplicates
    @Dependency var database: LibraryDatabase

    /// A row of the file and what becomes of it.
    enum Step: Sendable {
        case add(Book, line: Int)
        case skip
    }

    func perform(_ context: IntentContext) async throws -> IntentResult<[Book]> {
        let rows: [BooksCSV.Row]
        do {
            // A file the run may not read is asked for again, as a file that can't be read is.
            let path = try context.authorize(.read, path: from.path)
            rows = try ImportFile(path: path).books(shelf: shelf)
        } catch let bad as CSVError {
            // The file is the right one and its content is wrong: another file is no answer (and where nobody
            // can give one, asking would hide the line and column to fix).
            throw IntentError("\(bad); no book was imported")
        } catch {
            throw context.needsValue("from", reason: "\(error)")
        }
        guard !rows.isEmpty else { return .result(value: [], dialog: "\(from.name) has no books to import") }
        try await context.requestConfirmation("Import \(rows.count) books from \(from.name)?", actionName: "Import")
        let steps = try await plan(rows, database: database, context: context)

        let progress = await context.progress("Importing \(from.name)", total: rows.count)
        // The rows are written in one synchronous transaction on GRDB's queue, and each one's progress step
        // is reported here. The transaction waits until its row is reported: what people see is what is
        // written (no "100%" while rows are still going in), and a Ctrl-C pressed at 10% stops it there.
        let (done, rowDone) = AsyncStream.makeStream(of: Void.self)
        let reported = DispatchSemaphore(value: 0)
        let reporter = Task {
            // Cancellation is noticed by the transaction itself, which rolls back.
            for await _ in done {
                try? await progress.advance()
                reported.signal()
            }
        }
        let written: (added: [Book], skipped: Int)
        do {
            written = try await database.write { [file = from.path, duplicates, database] db in
                defer { rowDone.finish() }
                return try Self.write(steps, duplicates: duplicates, added: database.now(), file: file, db: db, context: context) {
                    rowDone.yield()
                    reported.wait()
                }
            }
        } catch {
            rowDone.finish()
            await reporter.value
            // The engine reports the task stopped, as the import ends with this error.
            switch error {
            case let cancelled as RunCancelled: throw RunCancelled("\(cancelled.reason); nothing was imported from \(from.name)")
            case let failed as IntentError: throw IntentError("\(failed.message); no book was imported")
            default: throw IntentError("\(error); no book was imported")
            }
        }
        await reporter.value
        await progress.finish()
        let skippedText = written.skipped == 0 ? "" : ", \(written.skipped) skipped"
        let books = written.added.count == 1 ? "1 book" : "\(written.added.count) books"
        return .result(value: written.added, dialog: "Imported \(books) from \(from.name)\(skippedText)")
    }

    /// Asks what the rows leave open, before anything is written (and before any lock is taken, so that a
    /// person thinking about an answer holds up no other process).
    func plan(_ rows: [BooksCSV.Row], database: LibraryDatabase, context: IntentContext) async throws -> [Step] {
        var known = try await database.read { db in try Self.keys(db) }
        var lineOfKey: [String: Int] = [:]
        var skipTheRest = false
        var steps: [Step] = []
        steps.reserveCapacity(rows.count)
        for row in rows {
            var book = row.book
            let place = "\(from.path):\(row.line)"
            if book.author.isEmpty {
                do {
                    book.author = try await context.requestValue("Who wrote '\(book.title)' (\(place))?", as: String.self)
                        .trimmingCharacters(in: .whitespaces).nilIfEmpty ?? "Unknown"
                } catch let error as NoAnswerError {
                    throw IntentError("\(place): '\(book.title)' has no author and \(error); fill in its author column; no book was imported")
                }
            }
            let key = book.sameBookKey
            if known.contains(key) {
                let already = lineOfKey[key].map { "is also on line \($0) of \(from.name)" } ?? "is already in the library"
                var choice = duplicates
                if choice == .ask {
                    if skipTheRest {
                        choice = .skip
                    } else {
                        do {
                            switch try await context.choose("'\(book.title)' by \(book.author) (\(place)) \(already).", from: DuplicateChoice.allCases) {
                            case .skip: choice = .skip
                            case .keepBoth: choice = .addAgain
                            case .skipAll:
                                choice = .skip
                                skipTheRest = true
                            }
                        } catch let error as NoAnswerError {
                            throw IntentError("\(place): '\(book.title)' by \(book.author) \(already) and \(error); give duplicates: skip or duplicates: addAgain; no book was imported")
                        }
                    }
                }
                if choice == .skip {
                    steps.append(.skip)
                    continue
                }
                book.title = Self.copyTitle(of: book, notIn: known)
            }
            known.insert(book.sameBookKey)
            lineOfKey[book.sameBookKey] = row.line
            steps.append(.add(book, line: row.line))
        }
        return steps
    }

    /// The transaction: every planned book, or none, each `added` then unless its row says when. `rowDone` is
    /// called after each row.
    static func write(_ steps: [Step], duplicates: Duplicates, added now: Date, file: String, db: Database, context: IntentContext,
                      rowDone: () -> Void) throws -> (added: [Book], skipped: Int) {
        // Read again under the write lock: another process may have added some of these books since the plan.
        var known = try keys(db)
        var added: [Book] = []
        var skipped = 0
        for step in steps {
            try context.checkCancellation()
            switch step {
            case .skip:
                skipped += 1
            case .add(var book, let line):
                if known.contains(book.sameBookKey) {
                    switch duplicates {
                    case .skip:
                        skipped += 1
                        rowDone()
                        continue
                    case .addAgain:
                        book.title = copyTitle(of: book, notIn: known)
                    case .ask:
                        throw IntentError("\(file):\(line): '\(book.title)' by \(book.author) was added to the library by another program during this import; run it again")
                    }
                }
                book.added = book.added ?? now
                var record = BookRecord(book)
                do {
                    try record.insert(db)
                } catch {
                    throw IntentError("\(file):\(line): '\(book.title)' can't be added: \(error)")
                }
                known.insert(book.sameBookKey)
                added.append(record.book)
            }
            rowDone()
        }
        return (added, skipped)
    }

    /// The same-book keys of every book in the library.
    static func keys(_ db: Database) throws -> Set<String> {
        var keys = Set<String>()
        let rows = try Row.fetchCursor(db, sql: "SELECT title, author FROM book")
        while let row = try rows.next() {
            keys.insert(Book.folded(row["title"]) + "\u{0}" + Book.folded(row["author"]))
        }
        return keys
    }

    /// `Emma (2026 copy)`, or `Emma (2026 copy 2)` when that one is there too.
    static func copyTitle(of book: Book, notIn known: Set<String>) -> String {
        let base = "\(book.title) (\(Calendar.current.component(.year, from: Date())) copy"
        var copy = book
        var number = 1
        repeat {
            copy.title = base + (number == 1 ? ")" : " \(number))")
            number += 1
        } while known.contains(copy.sameBookKey)
        return copy.title
    }
}

/// What `import books` does with a book the library already has (the same title and author, ignoring case).
enum Duplicates: String, AppEnum, CaseIterable {
    /// Ask for each one, where someone can answer; an error naming the parameter where nobody can.
    case ask
    /// Leave the library's copy as it is: what re-running an import needs.
    case skip
    /// Add the book again, titled `Emma (2026 copy)`.
    case addAgain
    static let enumType = EnumType<Duplicates>("duplicates", displayNames: [
        .ask: "Ask", .skip: "Skip", .addAgain: "Add again",
    ])
}

/// The answers to "what to do with this book already here?".
enum DuplicateChoice: String, AppEnum, CaseIterable {
    case skip, keepBoth, skipAll
    static let enumType = EnumType<DuplicateChoice>("duplicate choice", displayNames: [
        .skip: "Skip it", .keepBoth: "Add it again", .skipAll: "Skip every book already here",
    ])
}

/// The CSV file an import reads, and what is wrong with it, said so that a person can fix it: missing,
/// not readable, empty or not UTF-8 (a `Problem`: the file can't be used, so another is asked for), or the
/// line and column of a bad value (a `CSVError`: the content is to be fixed).
struct ImportFile {
    struct Problem: Error, CustomStringConvertible {
        let description: String
    }

    let path: String

    func books(shelf: Shelf) throws -> [BooksCSV.Row] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            throw Problem(description: code == ENOENT ? "\(path): no such file" : "\(path) can't be read: \(SystemError(code: code).reason)")
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            throw Problem(description: "\(path) is a folder, not a CSV file")
        }
        let data: Data
        do {
            data = try handle.readToEnd() ?? Data()
        } catch {
            throw Problem(description: "\(path) can't be read: \(error.localizedDescription)")
        }
        guard let text = String(data: data, encoding: .utf8) else { throw Problem(description: "\(path) is not UTF-8 text") }
        if text.allSatisfy(\.isWhitespace) { throw Problem(description: "\(path) is empty") }
        return try BooksCSV(file: path, shelf: shelf).read(text)
    }
}
