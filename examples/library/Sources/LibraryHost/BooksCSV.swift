import AutoIntents
import AutoStdlib
import Foundation

/// The books of a CSV file, each value checked: books.csv, which seeds a new library, and the files that
/// `import books` reads. The first line names the columns, in any order; only `title` is needed.
/// A bad value is an error at its line and column, naming the column as the first line does:
/// `more.csv:7:23: pages: 'abc' is not a page count`.
struct BooksCSV {
    /// A book read from a line of the file. Its author is empty when the file gives none.
    struct Row {
        var book: Book
        var line: Int
    }

    /// The columns a file may have, as books.csv spells them. `added` is kept as the file says (a library's
    /// export brings its dates along); a book without one is added at the time of the import.
    static let columns = ["title", "author", "published", "pages", "genre", "rating", "read_date", "shelf", "recommended_by", "added"]

    let file: String
    /// The shelf of a book whose row names none.
    var shelf: Shelf = .wantToRead

    func read(_ text: String) throws(CSVError) -> [Row] {
        let rows: [CSVText.Row]
        do {
            rows = try CSVText(file: file).rows(text)
        } catch {
            throw naming(error, in: text)
        }
        guard let header = rows.first else { return [] }
        var columns: [String: Int] = [:]
        for (index, field) in header.fields.enumerated() {
            let name = Self.normalized(field.text)
            guard let known = Self.columns.first(where: { Self.normalized($0) == name }) else {
                throw CSVError(file: file, position: field.position, message: "unknown column '\(field.text)'; the columns are \(Self.columns.joined(separator: ", "))")
            }
            if let first = columns[known] {
                throw CSVError(file: file, position: field.position, message: "'\(known)' is named twice in the first line (first at column \(header.fields[first].position.column))")
            }
            columns[known] = index
        }
        guard let titleColumn = columns["title"] else {
            throw CSVError(file: file, position: TextPosition(line: 1, column: 1), message: "the first line must name the columns, with at least 'title'")
        }
        var books: [Row] = []
        books.reserveCapacity(rows.count - 1)
        for row in rows.dropFirst() {
            guard row.fields.count == header.fields.count else {
                // A row of nothing but commas is a blank line written by a spreadsheet.
                if row.fields.allSatisfy({ Self.trimmed($0.text).isEmpty }) { continue }
                throw wrongFieldCount(row, header: header)
            }
            if row.fields.allSatisfy({ Self.trimmed($0.text).isEmpty }) { continue }
            books.append(Row(book: try book(row, header: header, columns: columns, titleColumn: titleColumn), line: row.line))
        }
        return books
    }

    /// A line with more fields than the first line names, at the first one too many (most often a comma in a
    /// value that is not in quotes), or with fewer, at its end, naming the columns it has no value for.
    func wrongFieldCount(_ row: CSVText.Row, header: CSVText.Row) -> CSVError {
        let counts = "this line has \(row.fields.count == 1 ? "1 field" : "\(row.fields.count) fields") and the first line names \(header.fields.count)"
        if row.fields.count > header.fields.count {
            return CSVError(file: file, position: row.fields[header.fields.count].position,
                            message: "\(counts) (\(Self.names(header).joined(separator: ", "))); is a value with a comma in it not in quotes?")
        }
        let missing = Self.names(header)[row.fields.count...].map { "'\($0)'" }
        return CSVError(file: file, position: row.end, message: "\(counts): no value for \(Self.list(missing))")
    }

    /// The reader's own errors (a quote never closed, text after a closing quote) with the name of the column
    /// they are in. The field's place is in the error; which column it is comes from reading the text up to
    /// there again, which the reader got through without an error.
    func naming(_ error: CSVError, in text: String) -> CSVError {
        guard error.position.line > 1, let end = Self.index(of: error.position, in: text),
              let before = try? CSVText(file: file).rows(String(text[..<end])), let header = before.first else { return error }
        // A field at the start of a line starts its row; any other is the last of the row read so far.
        let index = error.position.column == 1 ? 0 : before.count > 1 ? before[before.count - 1].fields.count - 1 : nil
        guard let index, header.fields.indices.contains(index) else { return error }
        return CSVError(file: file, position: error.position, message: "\(Self.names(header)[index]): \(error.message)")
    }

    /// Where `position` is in `text`, counted as CSVText counts places: by characters, a line break ending a
    /// line, a byte-order mark at the start taking no column.
    static func index(of position: TextPosition, in text: String) -> String.Index? {
        var here = TextPosition(line: 1, column: 1)
        var index = text.first == "\u{FEFF}" ? text.index(after: text.startIndex) : text.startIndex
        while here != position {
            guard index < text.endIndex else { return nil }
            let character = text[index]
            if character == "\n" || character == "\r\n" || character == "\r" {
                here.line += 1
                here.column = 1
            } else {
                here.column += 1
            }
            index = text.index(after: index)
        }
        return index
    }

    /// The columns' names as the first line writes them, for errors.
    static func names(_ header: CSVText.Row) -> [String] { header.fields.map { trimmed($0.text) } }

    /// `'a'`, `'a' and 'b'`, `'a', 'b' and 'c'`.
    static func list(_ items: [String]) -> String {
        items.count < 2 ? items.joined() : items.dropLast().joined(separator: ", ") + " and " + items[items.count - 1]
    }

    func book(_ row: CSVText.Row, header: CSVText.Row, columns: [String: Int], titleColumn: Int) throws(CSVError) -> Book {
        func field(_ name: String) -> CSVText.Field? {
            guard let index = columns[name] else { return nil }
            var field = row.fields[index]
            field.text = Self.trimmed(field.text)
            return field.text.isEmpty ? nil : field
        }
        /// The error at `field`, after the column's name as the first line writes it.
        func fail(_ name: String, _ field: CSVText.Field, _ message: String) -> CSVError {
            let column = columns[name].map { Self.names(header)[$0] } ?? name
            return CSVError(file: file, position: field.position, message: "\(column): \(message)")
        }
        func number(_ name: String, _ what: String, in range: ClosedRange<Int>) throws(CSVError) -> Int? {
            guard let field = field(name) else { return nil }
            guard let value = Int(field.text) else { throw fail(name, field, "'\(field.text)' is not \(what)") }
            guard range.contains(value) else {
                throw fail(name, field, "'\(field.text)' is not \(what): it must be from \(range.lowerBound) to \(range.upperBound)")
            }
            return value
        }
        func date(_ name: String) throws(CSVError) -> Date? {
            guard let field = field(name) else { return nil }
            switch Self.day(field.text) {
            case .success(let day): return day
            case .failure(let problem): throw fail(name, field, "'\(field.text)' is not a date: \(problem.reason)")
            }
        }

        guard let title = field("title") else {
            throw fail("title", row.fields[titleColumn], "it is empty, and a book needs a title")
        }
        var shelf = self.shelf
        if let named = field("shelf") {
            guard let found = Self.shelves[Self.normalized(named.text)] else {
                throw fail("shelf", named, "'\(named.text)' is not a shelf: it must be want_to_read, currently_reading or read")
            }
            shelf = found
        }
        return Book(id: 0, title: title.text, author: field("author")?.text ?? "", published: try date("published") ?? Date(),
                    pages: try number("pages", "a page count", in: Book.pageRange) ?? 0, genre: field("genre")?.text ?? "Unknown",
                    rating: try number("rating", "a rating", in: Book.ratingRange), readDate: try date("read_date"), shelf: shelf,
                    recommendedBy: field("recommended_by")?.text, added: try date("added"))
    }

    /// `Read Date`, `readDate` and `read_date` name the same column; `want_to_read` and `Want to Read`
    /// the same shelf.
    static func normalized(_ name: String) -> String {
        String(name.lowercased().filter { !$0.isWhitespace && $0 != "_" && $0 != "-" })
    }

    /// Every shelf by its normalized identifier and display name (`wanttoread`), made once rather than
    /// for each row.
    static let shelves: [String: Shelf] = Dictionary(Shelf.allCases.flatMap { shelf in
        [(normalized(shelf.rawValue), shelf), (normalized(shelf.displayName), shelf)]
    }, uniquingKeysWith: { first, _ in first })

    /// Without the spaces and tabs around it. Most values have none, and Foundation's trimming costs more
    /// than the rest of reading a value.
    static func trimmed(_ text: String) -> String {
        guard let first = text.first, let last = text.last, first == " " || first == "\t" || last == " " || last == "\t" else { return text }
        return text.trimmingCharacters(in: .whitespaces)
    }

    struct DateProblem: Error {
        let reason: String
    }

    /// Midnight of a `YYYY-MM-DD` day in the machine's time zone, as scripts' `date("…")` reads it. A day
    /// that doesn't exist is refused: Calendar would roll 2024-13-45 over to 2025-02-14.
    static func day(_ text: String) -> Result<Date, DateProblem> {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, zip(parts, [4, 2, 2]).allSatisfy({ part, digits in
            (1...digits).contains(part.count) && part.allSatisfy { $0.isASCII && $0.isNumber }
        }), let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]) else {
            return .failure(DateProblem(reason: "write it as YYYY-MM-DD"))
        }
        guard year >= 1 else { return .failure(DateProblem(reason: "there is no year 0")) }
        guard (1...12).contains(month) else { return .failure(DateProblem(reason: "there is no month \(month)")) }
        // Counted here rather than asked of Calendar, which costs more than the rest of reading a row.
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        guard (1...days).contains(day) else {
            return .failure(DateProblem(reason: "\(Self.monthNames[month - 1]) \(year) has \(days) days"))
        }
        guard let date = calendar.date(from: DateComponents(year: year, month: month, day: day)) else {
            return .failure(DateProblem(reason: "write it as YYYY-MM-DD"))
        }
        return .success(date)
    }

    /// Gregorian, in the machine's time zone: made once, as making one is slow.
    static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        return calendar
    }()

    static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                             "October", "November", "December"]
}
