import AutoIntents
import CSV
import Foundation

/// `parse csv (read text "books.csv")`: the rows of a CSV text as records, the first row naming their fields.
struct ParseCSV: ImmediateIntent {
    static let title = "Parse csv"
    static let description = IntentDescription(
        "The rows of a CSV text (a quoted field may hold the separator, quotes and line breaks) as records whose fields the first row names; every value is a text.",
        category: "Data", searchKeywords: ["csv", "spreadsheet", "table", "read"], resultName: "rows")
    static let parameterSummary: ParameterSummary? = "Parse {text} as CSV"
    @Parameter(title: "CSV text", question: "Which CSV text?") var text: String
    @Parameter(title: "Between fields", default: ",") var separator: String

    func performNow(_ context: IntentContext) throws -> IntentResult<[Record]> {
        let rows: [CSVText.Row]
        do {
            rows = try CSVText(file: nil, separator: Character(try CSVSeparator.scalar(separator))).rows(text)
        } catch {
            throw IntentError("the text is not CSV: \(error)")
        }
        guard let header = rows.first?.fields.map(\.text) else { return .result(value: []) }
        return .result(value: try rows.dropFirst().map { row in
            guard row.fields.count <= header.count else {
                throw IntentError("the text is not CSV: \(CSVError(file: nil, position: row.fields[header.count].position, message: "this line has \(row.fields.count) fields and the first line names \(header.count)"))")
            }
            return Record(keys: header, values: header.indices.map { $0 < row.fields.count ? Value.text(row.fields[$0].text) : .null })
        })
    }
}

/// `csv rows`: records as a CSV text, a first row of field names (the first record's, then those later records
/// add), and a field written in quotes where it needs them.
struct WriteCSV: ImmediateIntent {
    static let title = "Csv"
    static let description = IntentDescription(
        "Records as a CSV text: a first row naming the fields, then a row per record; a field is quoted when it holds the separator, a quote or a line break.",
        category: "Data", searchKeywords: ["csv", "spreadsheet", "table", "write", "export"], resultName: "csv")
    static let parameterSummary: ParameterSummary? = "{rows} as CSV"
    @Parameter(title: "Rows", question: "Which records?") var rows: [Record]
    @Parameter(title: "Between fields", default: ",") var separator: String

    func performNow(_ context: IntentContext) throws -> IntentResult<String> {
        _ = try CSVSeparator.scalar(separator)
        var fields: [String] = []
        for row in rows {
            for key in row.keys where !fields.contains(key) { fields.append(key) }
        }
        let stream = OutputStream.toMemory()
        do {
            let writer = try CSVWriter(stream: stream, delimiter: separator)
            try writer.write(row: fields)
            for row in rows {
                try writer.write(row: try fields.map { try Self.cell(row[$0] ?? .null, field: $0) })
            }
            writer.stream.close()
        } catch let error as IntentError {
            throw error
        } catch {
            throw IntentError("the CSV could not be written: \(error)")
        }
        guard let data = stream.property(forKey: .dataWrittenToMemoryStreamKey) as? Data else {
            throw IntentError("the CSV could not be written")
        }
        return .result(value: String(decoding: data, as: UTF8.self) + (rows.isEmpty && fields.isEmpty ? "" : "\n"))
    }

    /// A value as a cell: texts as they are, numbers and Booleans as a script writes them, dates in ISO 8601.
    static func cell(_ value: Value, field: String) throws -> String {
        switch value {
        case .null: return ""
        case .text(let text): return text
        case .int(let number): return String(number)
        case .decimal(let number): return "\(number)"
        case .bool(let flag): return flag ? "true" : "false"
        case .date(let date): return ISO8601DateFormatter().string(from: date)
        case .file(let file): return file.path
        case .enumCase(let value): return value.displayName
        case .entity(let entity): return entity.display.title
        default: throw IntentError("the field '\(field)' holds \(value.type), which a CSV cell can't: make it a text first")
        }
    }
}

/// The character between a CSV row's fields, as both CSV intents take it.
enum CSVSeparator {
    static func scalar(_ separator: String) throws -> Unicode.Scalar {
        guard separator.unicodeScalars.count == 1, let scalar = separator.unicodeScalars.first, scalar != "\"", scalar != "\n", scalar != "\r" else {
            throw IntentError("the separator is one character other than a quote or a line break, such as \",\", \";\" or \"\\t\"")
        }
        return scalar
    }
}
