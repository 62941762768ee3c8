import AutoIntents

/// What a `post` or a `put` sends: a text as it is (text/plain, UTF-8); a record, a list or any other value as JSON,
/// written by the engine's own JSON rules (`IntentContext.json`, what `json(x)` gives); with `form: true`, a record's
/// fields as an HTML form sends them (application/x-www-form-urlencoded). `nil` sends no body.
struct RequestBody: Sendable {
    let bytes: [UInt8]
    let contentType: String

    static func make(_ value: Value, form: Bool, json: ValueCodec, failure: WebFailure) throws -> RequestBody? {
        if form {
            guard case .record(let record) = value else {
                throw failure.error("form: true sends a record's fields, and the body is \(Self.kind(of: value))")
            }
            return RequestBody(bytes: Array(try Self.form(record, json: json, failure: failure).utf8),
                               contentType: "application/x-www-form-urlencoded")
        }
        switch value {
        case .null: return nil
        case .text(let text): return RequestBody(bytes: Array(text.utf8), contentType: "text/plain; charset=utf-8")
        default: return RequestBody(bytes: Array(try json.write(value).utf8), contentType: "application/json")
        }
    }

    /// `name=Ann+Lee&tags=a&tags=b`: each field a name and a value, percent-encoded as browsers encode a form. A
    /// list repeats its field once per element, as a form's multiple choice does; a `nil` field is left out, as an
    /// unchecked box is; numbers are written as the language writes them.
    static func form(_ record: Record, json: ValueCodec, failure: WebFailure) throws -> String {
        var pairs: [String] = []
        for (key, value) in zip(record.keys, record.values) {
            let items: [Value]
            if case .list(let list) = value { items = list } else { items = [value] }
            for item in items {
                let text: String
                switch item {
                case .null: continue
                case .text(let string): text = string
                case .int, .decimal, .bool: text = try json.write(item)
                default:
                    throw failure.error("the form field '\(key)' is \(Self.kind(of: item)); a form sends texts, numbers and true or false")
                }
                pairs.append(encode(key) + "=" + encode(text))
            }
        }
        return pairs.joined(separator: "&")
    }

    /// application/x-www-form-urlencoded, as the WHATWG URL standard has it: letters, digits and `*-._` as they are,
    /// a space as `+`, every other byte of the UTF-8 as `%XX`.
    static func encode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "*"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: " "): out += "+"
            default:
                let hex = Array("0123456789ABCDEF".utf8)
                out += "%" + String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]], as: UTF8.self)
            }
        }
        return out
    }

    /// "a list", "a text", …: what a value is, for an error.
    static func kind(of value: Value) -> String {
        switch value {
        case .null: return "nil"
        case .list: return "a list"
        case .record: return "a record"
        case .text: return "a text"
        default: return "a \(value.type)"
        }
    }
}
