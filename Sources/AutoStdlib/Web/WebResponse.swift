import AutoIntents
import Foundation

/// What `get`, `post`, `put` and `delete` give: `{status, headers, body}`. `status` is the HTTP status (200, 404);
/// `headers` a record of texts by lower-case name (`r.headers."content-type"`), a header sent several times joined
/// with ", " as HTTP allows; `body` the value the JSON holds when the response says it is JSON (application/json,
/// or a type ending in +json), otherwise the text (nil when there is no body at all).
struct WebResponse: IntentValue {
    let status: Int
    let headers: Record
    let body: Value

    static var valueType: ValueType { .recordOf(RecordShape(names: ["status", "headers", "body"], types: [.int, .record, .any])) }

    init(status: Int, headers: Record, body: Value) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    init?(autoValue value: Value) {
        guard case .record(let record) = value, case .int(let status)? = record["status"], case .record(let headers)? = record["headers"]
        else { return nil }
        self.init(status: status, headers: headers, body: record["body"] ?? .null)
    }

    var autoValue: Value { .record(Record(["status": .int(status), "headers": .record(headers), "body": body])) }

    /// The response's headers as a record, in the order they came, names in lower case.
    static func headers(_ fields: [(name: String, value: String)]) -> Record {
        var record = Record()
        for (name, value) in fields {
            let key = name.lowercased()
            if case .text(let earlier)? = record[key] { record.set(key, .text(earlier + ", " + value)) } else { record.set(key, .text(value)) }
        }
        return record
    }

    /// The body as a value: JSON read by the engine's rules when the content type says JSON, otherwise text in the
    /// charset the content type names (UTF-8 when it names none or one this doesn't know).
    static func body(_ bytes: [UInt8], contentType: String?, json: ValueCodec, failure: WebFailure) throws -> Value {
        let type = MediaType(contentType ?? "")
        if type.isJSON {
            // An empty body (a 204, a HEAD-like answer) holds no value, whatever it is labelled.
            if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return .null }
            do {
                return try json.read(String(decoding: bytes, as: UTF8.self))
            } catch let error as IntentError {
                throw failure.error("the answer says it is JSON (\(type.essence)), and it is \(error.message)")
            }
        }
        if bytes.isEmpty { return .null }
        if let encoding = type.encoding, encoding != .utf8, let text = String(bytes: bytes, encoding: encoding) { return .text(text) }
        return .text(String(decoding: bytes, as: UTF8.self))
    }
}

/// A Content-Type header read as far as the body needs it: `application/json; charset=utf-8`.
struct MediaType {
    /// The type and subtype, in lower case: `application/json`.
    let essence: String
    let charset: String?

    init(_ header: String) {
        let parts = header.split(separator: ";")
        essence = parts.first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        charset = parts.dropFirst().lazy.map { $0.trimmingCharacters(in: .whitespaces) }
            .first { $0.lowercased().hasPrefix("charset=") }
            .map { String($0.dropFirst("charset=".count)).trimmingCharacters(in: CharacterSet(charactersIn: "\"' ")).lowercased() }
    }

    var isJSON: Bool { essence == "application/json" || essence.hasSuffix("+json") }

    var encoding: String.Encoding? {
        switch charset {
        case "iso-8859-1", "latin1", "latin-1": return .isoLatin1
        case "windows-1252", "cp1252": return .windowsCP1252
        case "us-ascii", "ascii": return .ascii
        case "utf-16": return .utf16
        default: return nil
        }
    }
}
