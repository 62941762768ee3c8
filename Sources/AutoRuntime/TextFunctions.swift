import AutoIntents
import Foundation

/// The built-in functions on texts: `split`, `words`, `lines`, `characters`, `trim`, `upper`, `lower`,
/// `capitalize`, `replace`, `padLeft`, `padRight`, and `first`/`last` with a count.
///
/// Texts are counted as people see them, in characters (Swift's grapheme clusters): `"é"` written as `e` and a
/// combining accent is one character, and a flag is one. A nil text gives nil (or an empty list): an entity's
/// optional property can be passed without a test first. A result larger than a value may be is an error before
/// it is built (`ValueLimits`).
enum TextFunctions {
    static func call(_ function: BuiltinFunction, _ arguments: [Value], limits: ValueLimits) throws(EvaluationError) -> Value {
        let name = function.rawValue
        guard let text = try text(arguments[0], name) else {
            switch function {
            case .split, .words, .lines, .characters: return .list([])
            default: return .null
            }
        }
        switch function {
        case .split:
            guard let separator = try self.text(arguments[1], "split's separator"), !separator.isEmpty else {
                throw EvaluationError("split's separator can't be empty")
            }
            return try pieces(text.components(separatedBy: separator), limits: limits)
        case .words:
            return try pieces(words(of: text), limits: limits)
        case .lines:
            // A final line break ends the last line; it doesn't start an empty one.
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if lines.last == "" { lines.removeLast() }
            return try pieces(lines, limits: limits)
        case .characters:
            try limits.checkList(count: text.count)
            return .list(text.map { .text(String($0)) })
        case .trim:
            return .text(text.trimmingCharacters(in: .whitespacesAndNewlines))
        case .upper:
            return .text(try fitting(text.uppercased(), limits))
        case .lower:
            return .text(try fitting(text.lowercased(), limits))
        case .capitalize:
            return .text(try fitting(text.capitalized, limits))
        case .replace:
            guard let old = try self.text(arguments[1], "replace's text to find"), !old.isEmpty else {
                throw EvaluationError("replace's text to find can't be empty")
            }
            let new = try self.text(arguments[2], "replace's new text") ?? ""
            // At most this many bytes: every occurrence replaced, each as long as it can be.
            let most = text.utf8.count + (text.utf8.count / old.utf8.count) * max(0, new.utf8.count - old.utf8.count)
            try limits.checkText(bytes: most)
            return .text(text.replacingOccurrences(of: old, with: new))
        case .padLeft, .padRight:
            let width = try count(arguments[1], "\(name)'s width")
            let fill = arguments.count > 2 ? try self.text(arguments[2], "\(name)'s fill") ?? " " : " "
            guard fill.count == 1 else { throw EvaluationError("\(name)'s fill must be one character, not '\(fill)'") }
            let missing = width - text.count
            guard missing > 0 else { return .text(text) }
            let (fillBytes, overflow) = missing.multipliedReportingOverflow(by: fill.utf8.count)
            try limits.checkText(bytes: overflow ? Int.max : text.utf8.count &+ fillBytes)
            let padding = String(repeating: fill, count: missing)
            return .text(function == .padLeft ? padding + text : text + padding)
        case .first, .last:
            let n = try count(arguments[1], "\(name)'s count")
            return .text(String(function == .first ? text.prefix(n) : text.suffix(n)))
        default:
            throw EvaluationError("internal error: \(name) is not a text function")
        }
    }

    /// The text an argument holds, nil for nil, or an error naming what it was given.
    static func text(_ value: Value, _ what: String) throws(EvaluationError) -> String? {
        switch value {
        case .text(let text): return text
        case .null: return nil
        default: throw EvaluationError("\(what) needs a text, not \(value.type)")
        }
    }

    /// A count or a width: a whole number, not negative.
    static func count(_ value: Value, _ what: String) throws(EvaluationError) -> Int {
        guard case .int(let count) = value else { throw EvaluationError("\(what) must be a whole number, not \(value.type)") }
        guard count >= 0 else { throw EvaluationError("\(what) can't be negative (\(count))") }
        return count
    }

    /// The words of a text as people count them: runs of letters and digits, with an apostrophe or a hyphen
    /// inside one kept (`don't`, `well-known`); spaces and punctuation (`dog;`, `"quoted"`) separate them.
    static func words(of text: String) -> [String] {
        func isWordCharacter(_ character: Character) -> Bool { character.isLetter || character.isNumber }
        var words: [String] = []
        var word = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            let next = text.index(after: index)
            if isWordCharacter(character) {
                word.append(character)
            } else if !word.isEmpty, "'’-".contains(character), next < text.endIndex, isWordCharacter(text[next]) {
                word.append(character)
            } else if !word.isEmpty {
                words.append(word)
                word = ""
            }
            index = next
        }
        if !word.isEmpty { words.append(word) }
        return words
    }

    static func pieces(_ texts: [String], limits: ValueLimits) throws(EvaluationError) -> Value {
        try limits.checkList(count: texts.count)
        return .list(texts.map(Value.text))
    }

    /// Upper and lower case can lengthen a text (`ß` becomes `SS`).
    static func fitting(_ text: String, _ limits: ValueLimits) throws(EvaluationError) -> String {
        try limits.checkText(bytes: text.utf8.count)
        return text
    }
}
