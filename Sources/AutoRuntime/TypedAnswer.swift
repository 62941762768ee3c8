import AutoIntents

/// An answer given as text — typed at a prompt, or given before the run with `--answer` — read as the type asked
/// for, as the language reads a literal of that type. The one owner of that rule for every front end.
package enum TypedAnswer {
    /// The value `text` stands for as a `type`; nil when it is not one.
    package static func parse(_ text: String, as type: ValueType) -> Value? {
        let text = text.trimmingCharacters(in: .whitespaces)
        switch type {
        case .int: return Int(text.replacingOccurrences(of: "_", with: "")).map(Value.int)
        case .decimal: return (try? DecimalArithmetic.parse(text)).flatMap { $0 }.map(Value.decimal)
        case .bool: return yesOrNo(text).map(Value.bool)
        case .date: return DateParsing.parse(text).map(Value.date)
        case .file: return text.isEmpty ? nil : .file(FileRef(path: text))
        case .enumeration(let enumeration):
            return enumeration.caseIndex(named: text).map { .enumCase(EnumCaseValue(type: enumeration, index: $0)) }
        case .text, .any: return text.isEmpty ? nil : .text(text)
        // An entity is answered by its name; the engine finds it with its type's text search.
        case .entity: return text.isEmpty ? nil : .text(text)
        default: return nil
        }
    }

    /// `yes`/`y`/`true` or `no`/`n`/`false`, in any case; nil for anything else.
    package static func yesOrNo(_ text: String) -> Bool? {
        switch text.trimmingCharacters(in: .whitespaces).lowercased() {
        case "y", "yes", "true": return true
        case "n", "no", "false": return false
        default: return nil
        }
    }

    /// What was expected, for a message about an answer that isn't one: "an Int (a whole number, e.g. 3)".
    package static func expected(_ type: ValueType) -> String {
        article(type) + " \(type)" + example(type)
    }

    static func article(_ type: ValueType) -> String {
        "aeiouAEIOU".contains(type.description.first ?? "x") ? "an" : "a"
    }

    static func example(_ type: ValueType) -> String {
        switch type {
        case .int: return " (a whole number, e.g. 3)"
        case .date: return " (e.g. 2024-05-01 or 2024-05-01 07:30)"
        case .bool: return " (yes or no)"
        case .enumeration(let enumeration): return " (one of: " + enumeration.cases.map(\.displayName).joined(separator: ", ") + ")"
        case .entity(let entity): return " (type the name of a \(entity.singular))"
        default: return ""
        }
    }
}
