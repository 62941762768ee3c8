import AutoIntents
import AutoRuntime
import Foundation

/// A value a client sent that doesn't fit where it was given: said in the tool's result, for the assistant to correct.
struct ArgumentError: Error, CustomStringConvertible {
    let message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}

/// The engine's values as MCP's JSON and back.
enum JSONValues {
    /// Out: exactly what `--json` prints (`ValueFormatter.json`: entities as objects with `id` and `type`, dates in
    /// ISO 8601, durations in seconds), read back as JSON.
    static func json(_ value: AutoIntents.Value) -> JSON {
        // Inside an array, so that a scalar is a whole JSON text too; the formatter writes valid JSON.
        let text = "[" + ValueFormatter.json(value) + "]"
        guard case .array(let items)? = try? JSON.parse(Data(text.utf8)), let first = items.first else { return .null }
        return first
    }

    /// In: JSON read as the type a parameter or a property declares, since JSON has no dates, durations, sizes or enum
    /// cases of its own. An entity is a text here, its identifier or its name, which the caller looks up.
    static func value(_ json: JSON, as type: ValueType) throws(ArgumentError) -> AutoIntents.Value {
        switch (type, json) {
        case (_, .null): return .null
        case (.any, _), (.record, .object), (.recordOf, .object): return plain(json)
        case (.bool, .bool(let flag)): return .bool(flag)
        case (.int, .int(let number)): return .int(number)
        case (.int, .double(let number)) where number.rounded() == number && abs(number) < 9e15: return .int(Int(number))
        case (.decimal, .int(let number)): return .decimal(Decimal(number))
        case (.decimal, .double(let number)):
            guard let decimal = DecimalDomain.decimal(number) else { throw ArgumentError("\(number) is out of a Decimal's range") }
            return .decimal(decimal)
        case (.text, .string(let text)): return .text(text)
        case (.date, .string(let text)):
            guard let date = DateParsing.parse(text) else {
                throw ArgumentError("'\(text)' is not a date: write 2024-05-01, 2024-05-01T09:30 or 2024-05-01T09:30:00Z")
            }
            return .date(date)
        case (.duration, .int(let seconds)): return .duration(.seconds(seconds))
        case (.duration, .double(let seconds)) where seconds.isFinite && abs(seconds) < 1e15: return .duration(.seconds(seconds))
        case (.size, .int(let bytes)): return .size(Int64(bytes))
        case (.file, .string(let path)): return .file(FileRef(path: path))
        case (.enumeration(let enumeration), .string(let text)):
            guard let index = enumeration.caseIndex(named: text) else { throw ArgumentError(Coercion.notACase(text, of: enumeration).message) }
            return .enumCase(EnumCaseValue(type: enumeration, index: index))
        case (.entity, .string(let text)): return .text(text)
        case (.entity, .int(let identifier)): return .text(String(identifier))
        case (.list(let element), .array(let items)):
            var values: [AutoIntents.Value] = []
            for item in items { values.append(try value(item, as: element)) }
            return .list(values)
        default:
            throw ArgumentError("expected \(expectation(type)), got \(kind(of: json))")
        }
    }

    /// JSON as the engine's own: objects are records, their keys in order; numbers with a fraction are Decimals.
    static func plain(_ json: JSON) -> AutoIntents.Value {
        switch json {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .int(let number): return .int(number)
        case .double(let number): return DecimalDomain.decimal(number).map { .decimal($0) } ?? .null
        case .string(let text): return .text(text)
        case .array(let items): return .list(items.map(plain))
        case .object(let fields):
            let keys = fields.keys.sorted()
            return .record(Record(keys: keys, values: keys.map { fields[$0].map(plain) ?? .null }))
        }
    }

    /// How a message names what a type takes in JSON.
    static func expectation(_ type: ValueType) -> String {
        switch type {
        case .int: return "an integer"
        case .decimal: return "a number"
        case .bool: return "true or false"
        case .date: return "a date as text (ISO 8601)"
        case .duration: return "a number of seconds"
        case .size: return "a number of bytes"
        case .file: return "a path as text"
        case .entity(let entity): return "a \(entity.singular)'s identifier or name"
        case .enumeration(let enumeration): return "one of: \(Coercion.caseNames(of: enumeration))"
        case .list(let element): return "a list of \(expectation(element))"
        default: return "a \(type.description.lowercased())"
        }
    }

    static func kind(of json: JSON) -> String {
        switch json {
        case .null: return "null"
        case .bool(let flag): return "\(flag)"
        case .int(let number): return "\(number)"
        case .double(let number): return "\(number)"
        case .string(let text): return "\"\(text)\""
        case .array: return "a list"
        case .object: return "an object"
        }
    }
}
