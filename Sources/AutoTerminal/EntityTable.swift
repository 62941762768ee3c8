import AutoIntents
import AutoRuntime
import Foundation

/// How the REPL shows entities on a terminal: a list of them as a table — the display title, then the type's
/// properties that fit the width, long cells cut with `…`, the row count below — and one entity as its title,
/// subtitle and properties. Anything else is shown as a script shows it.
package enum EntityTable {
    /// The widest a column of cells may be, so that one long title doesn't take the whole screen.
    package static let maxColumn = 40

    package static func render(_ value: Value, width: Int) -> String {
        switch value {
        case .list(let items) where !items.isEmpty:
            let entities = items.compactMap { item -> EntityValue? in
                if case .entity(let entity) = item { return entity }
                return nil
            }
            guard entities.count == items.count, let type = entities.first?.type, entities.allSatisfy({ $0.type === type }) else { break }
            return table(entities, of: type, width: width)
        case .entity(let entity):
            let display = entity.display
            var text = display.title + (display.subtitle.map { " — \($0)" } ?? "") + "\n"
            let width = entity.type.properties.map(\.name.count).max() ?? 0
            for (index, property) in entity.type.properties.enumerated() {
                text += "  " + property.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + cell(entity.property(index)) + "\n"
            }
            return text
        default:
            break
        }
        return ValueFormatter.display(value) + "\n"
    }

    package static func table(_ entities: [EntityValue], of type: AnyEntityType, width: Int) -> String {
        var columns: [(header: String, cells: [String])] = [(type.typeName, entities.map { $0.display.title })]
        for (index, property) in type.properties.enumerated() {
            let cells = entities.map { cell($0.property(index)) }
            // A property that is the display title (a book's `title`) would only repeat the first column.
            if cells == columns[0].cells { continue }
            columns.append((property.name, cells))
        }
        // Columns in order while they fit; the title always.
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
        for index in entities.indices { text += row(shown.map { $0.cells[index] }) }
        let noun = entities.count == 1 ? type.singular : type.plural
        text += "(\(entities.count) \(noun)\(shown.count < columns.count ? ", \(columns.count - shown.count) properties not shown" : ""))\n"
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
