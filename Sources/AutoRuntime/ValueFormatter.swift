import AutoIntents
import Foundation

/// How values read for people (`show`, interpolation) and for machines (`--json`).
public enum ValueFormatter {
    /// The text `show` prints and `"\(x)"` inserts: texts as they are, numbers in shortest form,
    /// entities by their title, lists of entities or records one per line.
    public static func display(_ value: Value) -> String {
        switch value {
        case .text(let text): return text
        case .entity(let entity):
            let display = entity.display
            return display.subtitle.map { "\(display.title) — \($0)" } ?? display.title
        case .list(let items) where items.contains(where: { if case .entity = $0 { return true }; if case .record = $0 { return true }; return false }):
            return items.map(display).joined(separator: "\n")
        default: return inline(value)
        }
    }

    /// What `"\(x)"` inserts: like `display`, but an entity is its title alone and a list stays on one line.
    public static func interpolated(_ value: Value) -> String {
        switch value {
        case .text(let text): return text
        default: return inline(value)
        }
    }

    /// The compact form used inside lists and records: texts quoted, `[1, 2]`, `{title: "Circe"}`.
    public static func inline(_ value: Value) -> String {
        switch value {
        case .null: return "nil"
        case .bool(let flag): return flag ? "true" : "false"
        case .int(let number): return String(number)
        case .decimal(let number): return decimal(number)
        case .text(let text): return quoted(text)
        case .date(let date): return self.date(date)
        case .duration(let seconds): return duration(seconds)
        case .size(let bytes): return size(bytes)
        case .file(let file): return file.path
        case .list(let items): return "[" + items.map(inline).joined(separator: ", ") + "]"
        case .record(let record):
            let fields = zip(record.keys, record.values).map { "\($0): \(inline($1))" }
            return "{" + fields.joined(separator: ", ") + "}"
        case .entity(let entity): return entity.display.title
        case .enumCase(let value): return value.displayName
        }
    }

    static func quoted(_ text: String) -> String {
        var out = "\""
        for character in text {
            switch character {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default: out.append(character)
            }
        }
        return out + "\""
    }

    /// Shortest round-trip form, always with a fractional part: `3.0`, `0.1`, `1e+20`.
    public static func decimal(_ number: Double) -> String {
        if number.isNaN { return "nan" }
        if number.isInfinite { return number < 0 ? "-infinity" : "infinity" }
        return "\(number)"
    }

    /// `2024-05-01` at midnight, `2024-05-01 07:30` otherwise, in the machine's time zone.
    public static func date(_ date: Date) -> String {
        let parts = Calendars.local.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let day = String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
        let (hour, minute, second) = (parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
        if hour == 0 && minute == 0 && second == 0 { return day }
        if second == 0 { return day + String(format: " %02d:%02d", hour, minute) }
        return day + String(format: " %02d:%02d:%02d", hour, minute, second)
    }

    /// `90 seconds` reads as `1 minute 30 seconds`; the largest units first.
    public static func duration(_ seconds: Double) -> String {
        // Below a millisecond reads as zero, so `now - now` is not "-0.0 seconds".
        if abs(seconds) < 0.0005 { return "0 seconds" }
        let sign = seconds < 0 ? "-" : ""
        var rest = abs(seconds)
        var parts: [String] = []
        for (unit, length) in [("week", 604_800.0), ("day", 86_400.0), ("hour", 3_600.0), ("minute", 60.0)] where rest >= length {
            let count = (rest / length).rounded(.down)
            rest -= count * length
            parts.append("\(Int(count)) \(unit)\(count == 1 ? "" : "s")")
        }
        if rest > 0 {
            let text = rest == rest.rounded() ? String(Int(rest)) : decimal((rest * 1000).rounded() / 1000)
            parts.append("\(text) second\(rest == 1 ? "" : "s")")
        }
        return sign + parts.joined(separator: " ")
    }

    /// Decimal units, as `ls --si` and file managers show: `1.5 MB`.
    public static func size(_ bytes: Int64) -> String {
        let units = ["bytes", "KB", "MB", "GB", "TB"]
        var value = Double(bytes), unit = 0
        while abs(value) >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        if unit == 0 { return bytes == 1 ? "1 byte" : "\(bytes) bytes" }
        let rounded = (value * 10).rounded() / 10
        return (rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)) + " " + units[unit]
    }

    // MARK: JSON

    /// Compact JSON: records keep their field order; entities are objects with `id`, `type` and every
    /// property; dates are ISO-8601 with the local offset; durations are seconds and sizes bytes.
    public static func json(_ value: Value) -> String {
        var out = ""
        writeJSON(value, to: &out)
        return out
    }

    static func writeJSON(_ value: Value, to out: inout String) {
        switch value {
        case .null: out += "null"
        case .bool(let flag): out += flag ? "true" : "false"
        case .int(let number): out += String(number)
        case .decimal(let number): out += number.isFinite ? decimal(number) : "null"
        case .text(let text): writeJSONString(text, to: &out)
        case .date(let date): writeJSONString(iso8601(date), to: &out)
        case .duration(let seconds): out += seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int(seconds)) : decimal(seconds)
        case .size(let bytes): out += String(bytes)
        case .file(let file): writeJSONString(file.path, to: &out)
        case .enumCase(let value): writeJSONString(value.identifier, to: &out)
        case .list(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                writeJSON(item, to: &out)
            }
            out += "]"
        case .record(let record):
            writeObject(zip(record.keys, record.values).map { ($0, $1) }, to: &out)
        case .entity(let entity):
            var fields: [(String, Value)] = [("id", .text(entity.id)), ("type", .text(entity.type.singular))]
            for (index, property) in entity.type.properties.enumerated() { fields.append((property.name, entity.property(index))) }
            writeObject(fields, to: &out)
        }
    }

    static func writeObject(_ fields: [(String, Value)], to out: inout String) {
        out += "{"
        for (index, (key, value)) in fields.enumerated() {
            if index > 0 { out += "," }
            writeJSONString(key, to: &out)
            out += ":"
            writeJSON(value, to: &out)
        }
        out += "}"
    }

    static func writeJSONString(_ text: String, to out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }

    public static func iso8601(_ date: Date) -> String {
        let zone = Calendars.local.timeZone
        let parts = Calendars.local.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let offset = zone.secondsFromGMT(for: date)
        let zoneText = offset == 0 ? "Z" : String(format: "%@%02d:%02d", offset < 0 ? "-" : "+", abs(offset) / 3600, abs(offset) % 3600 / 60)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0,
                      parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0) + zoneText
    }
}

/// The calendar dates are read and shown in: the machine's, made once.
public enum Calendars {
    public static let local: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone.current
        return calendar
    }()
}
