import Foundation

/// A place in a text file, 1-based, columns counted in characters as an editor shows them.
public struct TextPosition: Sendable, Hashable, CustomStringConvertible {
    /// The line, from 1.
    public var line: Int
    /// The column on the line, from 1.
    public var column: Int
    /// The place at `line` and `column`.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
    /// `7:23`, as compilers and editors write a place.
    public var description: String { "\(line):\(column)" }
}

/// What is wrong with a CSV file, and where: `more.csv:7:23: 'abc' is not a page count`; for a text that is no file,
/// `line 7, column 23: …`.
/// A host checking the rows of `CSVText` throws one too, so that its message names the place as the reader's do.
public struct CSVError: Error, Sendable, CustomStringConvertible {
    /// The file's path as people gave it; nil for a text that is no file.
    public let file: String?
    /// Where the mistake is.
    public let position: TextPosition
    /// What is wrong, for people.
    public let message: String
    /// An error at `position` of `file`.
    public init(file: String?, position: TextPosition, message: String) {
        self.file = file
        self.position = position
        self.message = message
    }
    /// The place, then the message: `more.csv:7:23: 'abc' is not a page count`.
    public var description: String {
        guard let file else { return "line \(position.line), column \(position.column): \(message)" }
        return "\(file):\(position): \(message)"
    }
}

/// RFC 4180 text (quoted fields, doubled quotes, fields over several lines), read with the place of every field
/// so that each later check can say where it failed: the one CSV reader of the standard library (`parse csv`) and
/// of the Library example's import. Writing CSV is yaslab/CSV.swift's (`csv`); its reader isn't used because it
/// loses data on bad input without a word: 2.5.2 reads an unclosed quote to the end of the text, and after a stray
/// quote (`"Emma" 2,…`) drops the next character and reads on as quoted, so `parse csv` gave a title of
/// `Emma"2,Jane Austen⏎B,C⏎` and no error. swiftcsv/SwiftCSV 0.10.0 also reads an unclosed quote to the end, and
/// names no place for a stray one; neither tells on which line a row starts.
///
/// ```swift
/// for row in try CSVText(file: "books.csv").rows(text) {
///     guard row.fields.count == 3 else { throw CSVError(file: "books.csv", position: row.end, message: "…") }
/// }
/// ```
public struct CSVText: Sendable {
    /// One field of a row: its text, quotes removed, and where it starts.
    public struct Field: Sendable {
        /// The field's text, quotes removed and doubled quotes made one.
        public var text: String
        /// Where the field starts (its opening quote, for a quoted one).
        public var position: TextPosition
    }

    /// One row: its fields, in order.
    public struct Row: Sendable {
        /// The fields, in order.
        public var fields: [Field]
        /// Where the row's line break (or the end of the file) is: for "this line has too few fields".
        public var end: TextPosition
        /// The line the row starts on.
        public var line: Int { fields.first?.position.line ?? end.line }
    }

    /// The file errors name; nil for a text that is no file.
    public let file: String?
    /// Between fields: `,` unless told.
    public let separator: Character

    /// A reader whose errors name `file`, with fields between `separator`s.
    public init(file: String?, separator: Character = ",") {
        self.file = file
        self.separator = separator
    }

    /// The rows of `text`; blank lines are left out. An unclosed quote, or text after a closing quote, is
    /// an error at the quote that opened the field, since that is where the mistake usually is.
    public func rows(_ text: String) throws(CSVError) -> [Row] {
        enum State { case fieldStart, unquoted, quoted, quoteInQuoted }
        var rows: [Row] = []
        var fields: [Field] = []
        var field = ""
        var fieldStart = TextPosition(line: 1, column: 1)
        var here = TextPosition(line: 1, column: 1)
        var state = State.fieldStart

        func endField() {
            fields.append(Field(text: field, position: fieldStart))
            field = ""
        }
        func endRow(at end: TextPosition) {
            endField()
            // A line with nothing on it is no row at all (a blank line at the end of a file is common).
            if !(fields.count == 1 && fields[0].text.isEmpty && fields[0].position == end) {
                rows.append(Row(fields: fields, end: end))
            }
            fields = []
        }

        var first = true
        for character in text {
            // A byte-order mark, as some spreadsheets write it, is no part of the first column's name.
            if first {
                first = false
                if character == "\u{FEFF}" { continue }
            }
            let isLineBreak = character == "\n" || character == "\r\n" || character == "\r"
            switch state {
            case .fieldStart:
                fieldStart = here
                if character == "\"" {
                    state = .quoted
                } else if character == separator {
                    endField()
                } else if isLineBreak {
                    endRow(at: here)
                } else {
                    field.append(character)
                    state = .unquoted
                }
            case .unquoted:
                // A quote inside an unquoted field (`5" floppy`) is taken as it is, as most programs write it.
                if character == separator {
                    endField()
                    state = .fieldStart
                } else if isLineBreak {
                    endRow(at: here)
                    state = .fieldStart
                } else {
                    field.append(character)
                }
            case .quoted:
                if character == "\"" { state = .quoteInQuoted } else { field.append(character) }
            case .quoteInQuoted:
                if character == "\"" {
                    field.append("\"")
                    state = .quoted
                } else if character == separator {
                    endField()
                    state = .fieldStart
                } else if isLineBreak {
                    endRow(at: here)
                    state = .fieldStart
                } else if fieldStart.line == here.line {
                    throw CSVError(file: file, position: here, message: "'\(character)' after the closing quote at column \(here.column - 1); a quote inside a quoted field is written twice (\"\")")
                } else {
                    throw CSVError(file: file, position: fieldStart, message: "the quote opened here runs on to line \(here.line), where '\(character)' follows a quote; is its closing quote missing?")
                }
            }
            if isLineBreak {
                here.line += 1
                here.column = 1
            } else {
                here.column += 1
            }
        }
        switch state {
        case .quoted:
            let runsOn = here.line > fieldStart.line ? ": the field runs on to the end of the file" : ""
            throw CSVError(file: file, position: fieldStart, message: "the quote opened here is never closed\(runsOn)")
        case .unquoted, .quoteInQuoted:
            endRow(at: here)
        case .fieldStart:
            // After a comma at the very end, the row still has its last, empty field.
            if !fields.isEmpty { endRow(at: here) }
        }
        return rows
    }
}

