import Foundation

/// A JSON value, as MCP's messages, tool arguments, schemas and results hold them. Numbers are integers when they are
/// written as one and fit 64 bits, otherwise doubles, so that an argument `5` is an Int for the engine.
enum JSON: Hashable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSON])
    case object([String: JSON])

    var stringValue: String? { if case .string(let text) = self { text } else { nil } }
    var boolValue: Bool? { if case .bool(let flag) = self { flag } else { nil } }
    var arrayValue: [JSON]? { if case .array(let items) = self { items } else { nil } }
    var objectValue: [String: JSON]? { if case .object(let fields) = self { fields } else { nil } }

    /// The member `key` of an object; nil for a missing member and for anything but an object.
    subscript(key: String) -> JSON? { objectValue?[key] }

    /// Reads one JSON text; throws `DecodingError.dataCorrupted` when it isn't one.
    static func parse(_ data: Data) throws -> JSON {
        try JSONDecoder().decode(JSON.self, from: data)
    }

    /// The value as one line of JSON text, its keys sorted (so that the same value is always the same text) and `/`
    /// unescaped (MCP's URIs read as written).
    var encoded: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding the enum can't fail: it holds no value JSON lacks but a non-finite double, which the engine's
        // numbers (Decimals) never become; such a double is written as null rather than failing a whole response.
        return (try? encoder.encode(self)) ?? Data("null".utf8)
    }
}

extension JSON: Codable {
    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let number = try? container.decode(Int.self) {
            self = .int(number)
        } else if let number = try? container.decode(Double.self) {
            self = .double(number)
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if let items = try? container.decode([JSON].self) {
            self = .array(items)
        } else {
            self = .object(try container.decode([String: JSON].self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let flag): try container.encode(flag)
        case .int(let number): try container.encode(number)
        case .double(let number):
            if number.isFinite { try container.encode(number) } else { try container.encodeNil() }
        case .string(let text): try container.encode(text)
        case .array(let items): try container.encode(items)
        case .object(let fields): try container.encode(fields)
        }
    }
}

extension JSON: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByStringInterpolation, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    init(nilLiteral: ()) { self = .null }
    init(booleanLiteral value: Bool) { self = .bool(value) }
    init(integerLiteral value: Int) { self = .int(value) }
    init(floatLiteral value: Double) { self = .double(value) }
    init(stringLiteral value: String) { self = .string(value) }
    init(stringInterpolation: DefaultStringInterpolation) { self = .string(String(stringInterpolation: stringInterpolation)) }
    init(arrayLiteral elements: JSON...) { self = .array(elements) }
    init(dictionaryLiteral elements: (String, JSON)...) { self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last })) }
}
