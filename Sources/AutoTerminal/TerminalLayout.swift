import AutoIntents
import AutoRuntime
import Foundation

/// How values are laid out for a person at a terminal — `show`, a script's result and the REPL's — where a script's
/// output piped elsewhere keeps the one-line forms of `ValueFormatter`: a list one element per line, a list of
/// entities of one type as a table (the display title, then the type's properties that fit the width, long cells
/// cut with `…`, the row count below), a list of records with the same fields as a table of those fields; and, for
/// a result, one entity as its title, subtitle and properties.
package enum TerminalLayout {
    /// The widest a column of cells may be, so that one long title doesn't take the whole screen.
    package static let maxColumn = 40

    /// A result (the REPL's, a script's): a list as `list` lays it out, an entity with its properties.
    package static func render(_ value: Value, width: Int) -> String {
        switch value {
        case .list(let items):
            return list(items, width: width)
        case .entity(let entity):
            let display = entity.display
            var text = display.title + (display.subtitle.map { " — \($0)" } ?? "") + "\n"
            let width = entity.type.properties.map(\.name.count).max() ?? 0
            for (index, property) in entity.type.properties.enumerated() {
                text += "  " + property.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + cell(entity.property(index)) + "\n"
            }
            return text
        default:
            return ValueFormatter.display(value) + "\n"
        }
    }

    /// A list: entities of one type or records of the same fields as a table, anything else one element per line as
    /// `show` shows it (a text without quotes, a list inside on one line); `[]` when empty.
    package static func list(_ items: [Value], width: Int) -> String {
        guard !items.isEmpty else { return "[]\n" }
        if let entities = sameTypeEntities(items) { return table(entities, of: entities[0].type, width: width) }
        if let records = sameFieldRecords(items) { return table(records, width: width) }
        var text = ""
        for index in items.indices {
            if index % Interruption.stride == Interruption.stride - 1, Interruption.isRequested { return text + "…\n" }
            text += ValueFormatter.display(items[index]) + "\n"
        }
        return text
    }

    static func sameTypeEntities(_ items: [Value]) -> [EntityValue]? {
        guard case .entity(let first) = items[0] else { return nil }
        var entities: [EntityValue] = []
        entities.reserveCapacity(items.count)
        for item in items {
            guard case .entity(let entity) = item, entity.type === first.type else { return nil }
            entities.append(entity)
        }
        return entities
    }

    static func sameFieldRecords(_ items: [Value]) -> [Record]? {
        guard case .record(let first) = items[0], !first.keys.isEmpty else { return nil }
        var records: [Record] = []
        records.reserveCapacity(items.count)
        for item in items {
            guard case .record(let record) = item, record.keys == first.keys else { return nil }
            records.append(record)
        }
        return records
    }

    /// Records as rows, their fields as columns in the order the first record has them.
    static func table(_ records: [Record], width: Int) -> String {
        let keys = records[0].keys
        let columns = keys.indices.map { index in (header: keys[index], cells: records.map { cell($0.values[index]) }) }
        return table(columns, width: width, count: "\(records.count) \(records.count == 1 ? "record" : "records")", hiddenColumns: ("field", "fields"))
    }

    package static func table(_ entities: [EntityValue], of type: AnyEntityType, width: Int) -> String {
        var columns: [(header: String, cells: [String])] = [(type.typeName, entities.map { $0.display.title })]
        for (index, property) in type.properties.enumerated() {
            let cells = entities.map { cell($0.property(index)) }
            // A property that is the display title (a book's `title`) would only repeat the first column.
            if cells == columns[0].cells { continue }
            columns.append((property.name, cells))
        }
        let noun = entities.count == 1 ? type.singular : type.plural
        return table(columns, width: width, count: "\(entities.count) \(noun)", hiddenColumns: ("property", "properties"))
    }

    /// Columns in order while they fit the width, the first always; the count and the columns left out below.
    static func table(_ columns: [(header: String, cells: [String])], width: Int, count: String, hiddenColumns: (one: String, many: String)) -> String {
        var widths: [Int] = []
        var used = 0
        for column in columns {
            let natural = min(maxColumn, ([column.header] + column.cells).map(\.count).max() ?? 0)
            let needed = (widths.isEmpty ? 0 : 2) + natural
            if !widths.isEmpty, used + needed > width { break }
            widths.append(widths.isEmpty ? min(natural, max(8, width)) : natural)
            used += needed
        }
        let shown = columns.prefix(widths.count)
        func row(_ cells: [String]) -> String {
            zip(cells, widths).map { fitted($0, to: $1) }.joined(separator: "  ").replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) + "\n"
        }
        var text = row(shown.map(\.header))
        text += row(widths.map { String(repeating: "─", count: $0) })
        for index in columns[0].cells.indices { text += row(shown.map { $0.cells[index] }) }
        let hidden = columns.count - shown.count
        text += "(\(count)\(hidden > 0 ? ", \(hidden) \(hidden == 1 ? hiddenColumns.one : hiddenColumns.many) not shown" : ""))\n"
        return text
    }

    /// A value in a cell: on one line, texts without quotes, nothing for nil.
    package static func cell(_ value: Value) -> String {
        switch value {
        case .null: return ""
        case .text(let text): return text.replacingOccurrences(of: "\n", with: " ")
        default: return ValueFormatter.inline(value)
        }
    }

    /// Padded to `width` characters, or cut to it with `…`.
    package static func fitted(_ text: String, to width: Int) -> String {
        if text.count > width { return String(text.prefix(max(0, width - 1))) + "…" }
        return text.padding(toLength: width, withPad: " ", startingAt: 0)
    }

}
