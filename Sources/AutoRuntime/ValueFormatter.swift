import AutoIntents
import Foundation

/// How values read for people (`show`, interpolation) and for machines (`--json`).
package enum ValueFormatter {
    /// The text `show` prints and `"\(x)"` inserts: texts as they are, numbers in shortest form,
    /// entities by their title, lists of entities or records one per line. A big list stops early, cut short, when
    /// its run is cancelled or out of time; whoever shows it looks at `Interruption` after.
    package static func display(_ value: Value) -> String {
        switch value {
        case .text(let text): return text
        case .entity(let entity):
            let display = entity.display
            return display.subtitle.map { "\(display.title) — \($0)" } ?? display.title
        case .list(let items) where items.contains(where: { if case .entity = $0 { return true }; if case .record = $0 { return true }; return false }):
            var lines: [String] = []
            for index in items.indices {
                if index % Interruption.stride == 0, Interruption.isRequested { break }
                lines.append(display(items[index]))
            }
            return lines.joined(separator: "\n")
        default: return inline(value)
        }
    }

    /// What `"\(x)"` inserts: like `display`, but an entity is its title alone and a list stays on one line.
    package static func interpolated(_ value: Value) -> String {
        switch value {
        case .text(let text): return text
        default: return inline(value)
        }
    }

    /// The compact form used inside lists and records: texts quoted, `[1, 2]`, `{title: "Circe"}`.
    package static func inline(_ value: Value) -> String {
        // Lists and records here, everything else in `scalar`: this frame is the one repeated per level of a
        // nested value, so it is kept small, and loops stand for `map` and `zip` (see `ValueLimits`).
        switch value {
        case .list(let items):
            var text = "["
            for index in items.indices {
                if index % Interruption.stride == Interruption.stride - 1, Interruption.isRequested { return text + "…]" }
                if index > 0 { text += ", " }
                text += inline(items[index])
            }
            return text + "]"
        case .record(let record):
            var text = "{"
            for index in record.keys.indices {
                if index > 0 { text += ", " }
                text += record.keys[index] + ": " + inline(record.values[index])
            }
            return text + "}"
        default:
            return scalar(value)
        }
    }

    static func scalar(_ value: Value) -> String {
        switch value {
        case .null: return "nil"
        case .bool(let flag): return flag ? "true" : "false"
        case .int(let number): return String(number)
        case .decimal(let number): return decimal(number)
        case .text(let text): return quoted(text)
        case .date(let date): return self.date(date)
        case .duration(let duration): return self.duration(duration)
        case .period(let period): return self.period(period)
        case .size(let bytes): return size(bytes)
        case .file(let file): return file.path
        case .entity(let entity): return entity.display.title
        case .enumCase(let value): return value.displayName
        case .list, .record: return inline(value)
        }
    }

    /// `text` with its control characters written as escapes (`\n`, `\t`, `\r`, `\u{1B}`): for messages, where
    /// a raw ESC or NUL from a value would reach the terminal and could rewrite what it shows.
    /// A byte of a file name that isn't UTF-8 is written `\xHH` (`FileNameBytes`).
    package static func escapingControlCharacters(_ text: String) -> String {
        let text = FileNameBytes.escaped(text)
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case _ where isControl(scalar): out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// C0 and C1 controls and DEL.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// A text as a literal writes it, so that it reads back as the same text: a byte of a file name that isn't
    /// UTF-8 as `\xHH`, and so is any other C0 control or DEL (a raw one would end the literal's line or hide in it).
    /// Scalar by scalar: `"\r\n"` is one Character, and its two controls are escaped each.
    package static func quoted(_ text: String) -> String {
        var out = "\""
        let bytes = FileNameBytes.holdsBytes(text)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                out += (scalar.value < 0x10 ? "\\x0" : "\\x") + String(scalar.value, radix: 16, uppercase: true)
            case _ where bytes: out += FileNameBytes.escaped(String(scalar))
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// As written, with a fractional part and no trailing zeros past it: `3.0`, `0.1`, `3.3` (for `3.30`).
    package static func decimal(_ number: Decimal) -> String {
        // A Decimal made outside the engine may be NaN; no value the engine makes is.
        if number.isNaN { return "nan" }
        if let (isNegative, significand, exponent) = DecimalDomain.parts(number) {
            // From the significand's digits, a tenth of the time of `description`.
            var digits = String(significand)
            if exponent >= 0 {
                if significand != 0 { digits += String(repeating: "0", count: exponent) }
                return (isNegative ? "-" : "") + digits + ".0"
            }
            let fractionLength = -exponent
            if digits.count <= fractionLength { digits = String(repeating: "0", count: fractionLength - digits.count + 1) + digits }
            var fraction = digits.suffix(fractionLength)
            while fraction.count > 1, fraction.last == "0" { fraction.removeLast() }
            return (isNegative ? "-" : "") + digits.dropLast(fractionLength) + "." + fraction
        }
        var text = number.description
        guard let point = text.firstIndex(of: ".") else { return text + ".0" }
        while text.last == "0" { text.removeLast() }
        if text.index(after: point) == text.endIndex { text += "0" }
        return text
    }

    /// A host's Double (a parameter's range), read as the Decimal its shortest form writes.
    package static func decimal(_ number: Double) -> String {
        if let exact = DecimalDomain.decimal(number) { return decimal(exact) }
        return number.isNaN ? "nan" : (number < 0 ? "-infinity" : "infinity")
    }

    /// `2024-05-01` at midnight, `2024-05-01 07:30` otherwise, in the machine's time zone.
    package static func date(_ date: Date) -> String {
        let parts = Calendars.local.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let day = String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
        let (hour, minute, second) = (parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
        if hour == 0 && minute == 0 && second == 0 { return day }
        if second == 0 { return day + String(format: " %02d:%02d", hour, minute) }
        return day + String(format: " %02d:%02d:%02d", hour, minute, second)
    }

    /// `90 seconds` reads as `1 minute 30 seconds`: the largest units first, to the millisecond.
    package static func duration(_ duration: Duration) -> String {
        // Whole milliseconds, rounded half away from zero, in integers: exact for every duration in range.
        let attosecondsPerMillisecond = UInt128(1_000_000_000_000_000)
        let magnitude = duration.attoseconds.magnitude
        var milliseconds = magnitude / attosecondsPerMillisecond
        if (magnitude % attosecondsPerMillisecond) * 2 >= attosecondsPerMillisecond { milliseconds += 1 }
        // Below half a millisecond reads as zero, so `now - now` is not "-0.0 seconds".
        if milliseconds == 0 { return "0 seconds" }
        var parts: [String] = []
        for unit in Units.durations.reversed() where unit.attoseconds >= 60 * Units.second {
            let length = UInt128(unit.attoseconds) / attosecondsPerMillisecond
            guard milliseconds >= length else { continue }
            let count = milliseconds / length
            milliseconds -= count * length
            parts.append("\(count) \(count == 1 ? unit.singular : unit.plural)")
        }
        if milliseconds > 0 {
            let (seconds, fraction) = milliseconds.quotientAndRemainder(dividingBy: 1000)
            var text = String(seconds)
            if fraction > 0 {
                var digits = String(fraction)
                digits = String(repeating: "0", count: 3 - digits.count) + digits
                while digits.last == "0" { digits.removeLast() }
                text += "." + digits
            }
            parts.append("\(text) \(milliseconds == 1000 ? "second" : "seconds")")
        }
        return (duration.attoseconds < 0 ? "-" : "") + parts.joined(separator: " ")
    }

    /// `1 month`, `2 years`, `1 year 3 months`, `-1 month`.
    package static func period(_ period: CalendarPeriod) -> String {
        let (years, months) = period.months.magnitude.quotientAndRemainder(dividingBy: 12)
        var parts: [String] = []
        if years > 0 { parts.append("\(years) \(years == 1 ? "year" : "years")") }
        if months > 0 || years == 0 { parts.append("\(months) \(months == 1 ? "month" : "months")") }
        return (period.months < 0 ? "-" : "") + parts.joined(separator: " ")
    }

    static func iso8601(_ period: CalendarPeriod) -> String {
        let (years, months) = period.months.magnitude.quotientAndRemainder(dividingBy: 12)
        let sign = period.months < 0 ? "-" : ""
        if years == 0 { return "P\(sign)\(months)M" }
        return "P\(sign)\(years)Y" + (months > 0 ? "\(sign)\(months)M" : "")
    }

    /// Decimal units, as `ls --si` and file managers show: `1.5 MB`.
    package static func size(_ bytes: Int64) -> String {
        let units = Units.sizeDisplay
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
    package static func json(_ value: Value) -> String {
        var out = ""
        writeJSON(value, to: &out)
        return out
    }

    static func writeJSON(_ value: Value, to out: inout String) {
        // Lists and records here, everything else in `writeJSONScalar`, as in `inline`.
        switch value {
        case .list(let items):
            out += "["
            for index in items.indices {
                if index > 0 { out += "," }
                writeJSON(items[index], to: &out)
            }
            out += "]"
        case .record(let record):
            out += "{"
            for index in record.keys.indices {
                if index > 0 { out += "," }
                writeJSONString(record.keys[index], to: &out)
                out += ":"
                writeJSON(record.values[index], to: &out)
            }
            out += "}"
        default:
            writeJSONScalar(value, to: &out)
        }
    }

    static func writeJSONScalar(_ value: Value, to out: inout String) {
        switch value {
        case .null: out += "null"
        case .bool(let flag): out += flag ? "true" : "false"
        case .int(let number): out += String(number)
        // JSON numbers as the language writes them: `3.3`, `2.0`; only a host's NaN has none.
        case .decimal(let number): out += number.isNaN ? "null" : decimal(number)
        case .text(let text): writeJSONString(text, to: &out)
        case .date(let date): writeJSONString(iso8601(date), to: &out)
        case .duration(let duration): out += jsonSeconds(duration)
        // ISO 8601's form for a period of the calendar: P1Y2M, P-1M.
        case .period(let period): writeJSONString(iso8601(period), to: &out)
        case .size(let bytes): out += String(bytes)
        case .file(let file): writeJSONString(file.path, to: &out)
        case .enumCase(let value): writeJSONString(value.identifier, to: &out)
        case .entity(let entity):
            var fields: [(String, Value)] = [("id", .text(entity.id)), ("type", .text(entity.type.singular))]
            for (index, property) in entity.type.properties.enumerated() { fields.append((property.name, entity.property(index))) }
            writeObject(fields, to: &out)
        case .list, .record: writeJSON(value, to: &out)
        }
    }

    /// Seconds, exactly: `90`, `1.5`, `0.000000001`.
    static func jsonSeconds(_ duration: Duration) -> String {
        let text = decimal(DurationArithmetic.seconds(duration))
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
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
            // A byte of a file name that isn't UTF-8 (`FileNameBytes`), escaped so that it stays visible and comes
            // back as the same byte when the JSON is given to the engine again (an MCP tool's arguments).
            case _ where FileNameBytes.byte(standingFor: scalar) != nil: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }

    /// `2026-11-27T16:20:00+01:00`, in the machine's zone; `Z` when its offset is zero. Foundation's format style,
    /// made once: the calendar's components and two `String(format:)` took 4–7 µs, and each run's "run started" line
    /// says when it was scheduled (0.3–0.4 µs now).
    package static func iso8601(_ date: Date) -> String {
        iso8601Style.format(date)
    }

    private static let iso8601Style = Date.ISO8601FormatStyle(timeZone: Calendars.local.timeZone).timeZoneSeparator(.colon)
}

/// The calendar dates are read and shown in: the machine's, made once.
package enum Calendars {
    package static let local: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone.current
        return calendar
    }()
}
