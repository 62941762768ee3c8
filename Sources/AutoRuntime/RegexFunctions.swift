import AutoIntents
import Foundation

/// The built-in functions on regular expressions (Swift's `Regex` syntax, which is Perl's and ICU's):
/// `matches(t, p)` whether any part of `t` matches, `match(t, p)` the first match or nil, `allMatches(t, p)` every
/// match, `captures(t, p)` the groups of the first match (nil for a group that took no part; nil when nothing
/// matches), `replaceMatches(t, p, r)` every match replaced by `r`, where `$1` … `$99` are the groups, `$0` the
/// whole match and `$$` a dollar sign. A nil text gives nil (or false, or an empty list).
public enum RegexFunctions {
    static func call(_ function: BuiltinFunction, _ arguments: [Value], limits: ValueLimits) throws(EvaluationError) -> Value {
        let name = function.rawValue
        guard let pattern = try TextFunctions.text(arguments[1], "\(name)'s pattern") else {
            throw EvaluationError("\(name)'s pattern can't be nil")
        }
        let regex = try compile(pattern)
        guard let text = try TextFunctions.text(arguments[0], name) else {
            switch function {
            case .matches: return .bool(false)
            case .allMatches: return .list([])
            default: return .null
            }
        }
        switch function {
        case .matches:
            return .bool(text.contains(regex))
        case .match:
            return text.firstMatch(of: regex).map { .text(String(text[$0.range])) } ?? .null
        case .allMatches:
            var found: [Value] = []
            for match in text.matches(of: regex) {
                try Interruption.check()
                found.append(.text(String(text[match.range])))
                try limits.checkList(count: found.count)
            }
            return .list(found)
        case .captures:
            guard let match = text.firstMatch(of: regex) else { return .null }
            return .list(match.output.dropFirst().map { group in group.substring.map { .text(String($0)) } ?? .null })
        case .replaceMatches:
            let template = try TextFunctions.text(arguments[2], "replaceMatches's replacement") ?? ""
            var result = "", rest = text.startIndex
            for match in text.matches(of: regex) {
                try Interruption.check()
                result += text[rest..<match.range.lowerBound]
                result += try expand(template, match.output)
                rest = match.range.upperBound
                try limits.checkText(bytes: result.utf8.count)
            }
            result += text[rest...]
            try limits.checkText(bytes: result.utf8.count)
            return .text(result)
        default:
            throw EvaluationError("internal error: \(name) is not a regular expression function")
        }
    }

    static func compile(_ pattern: String) throws(EvaluationError) -> Regex<AnyRegexOutput> {
        do {
            return try Regex(pattern)
        } catch {
            throw EvaluationError("'\(pattern)' is not a regular expression: \(describe(error))")
        }
    }

    /// What is wrong with a pattern, or nil when it compiles: for the checker, on constant patterns.
    public static func problem(in pattern: String) -> String? {
        do {
            _ = try Regex(pattern)
            return nil
        } catch {
            return describe(error)
        }
    }

    static func describe(_ error: any Error) -> String {
        "\(error)".split(separator: "\n").first.map(String.init) ?? "it can't be read"
    }

    /// `r` with `$N` replaced by group N of the match and `$$` by a dollar sign.
    static func expand(_ template: String, _ groups: AnyRegexOutput) throws(EvaluationError) -> String {
        guard template.contains("$") else { return template }
        var result = ""
        var characters = template[...]
        while let dollar = characters.firstIndex(of: "$") {
            result += characters[..<dollar]
            characters = characters[characters.index(after: dollar)...]
            if characters.first == "$" {
                result += "$"
                characters = characters.dropFirst()
                continue
            }
            let digits = characters.prefix(while: { $0.isASCII && $0.isNumber }).prefix(2)
            guard let number = Int(digits) else {
                throw EvaluationError("in a replacement, '$' is followed by a group's number ($1) or another '$' ($$ for a dollar sign)")
            }
            guard number < groups.count else {
                throw EvaluationError("the replacement names group \(number), and the pattern has \(groups.count - 1)")
            }
            result += groups[number].substring.map(String.init) ?? ""
            characters = characters.dropFirst(digits.count)
        }
        return result + characters
    }
}
