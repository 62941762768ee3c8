import AutoIntents
import Foundation

/// The built-in functions on regular expressions (ICU's syntax, which is Perl's): `matches(t, p)` whether any part of
/// `t` matches, `match(t, p)` the first match or nil, `allMatches(t, p)` every match, `captures(t, p)` the groups of
/// the first match (nil for a group that took no part; nil when nothing matches), `replaceMatches(t, p, r)` every
/// match replaced by `r`, where `$1` … `$99` are the groups, `$0` the whole match and `$$` a dollar sign. A nil text
/// gives nil (or false, or an empty list).
///
/// Why ICU's engine (Foundation's `NSRegularExpression`) and not Swift's `Regex`: both backtrack, so a pattern of
/// catastrophic shape (`^(a+)+$` on "aaaa…!") takes time exponential in the text, and Swift's `Regex` can't be
/// stopped once it starts — it held a thread past Ctrl-C and any time limit. ICU's engine calls back as it searches
/// and every 10,000 steps of backtracking (`.reportProgress`), where the match stops at Ctrl-C and the time limit,
/// and where its steps count against the run's step limit (`forEachMatch`), so that no pattern can hold a thread
/// forever.
package enum RegexFunctions {
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
            var found = false
            try forEachMatch(of: regex, in: text) { _ throws(EvaluationError) in
                found = true
                return false
            }
            return .bool(found)
        case .match, .captures:
            var first: Value = .null
            try forEachMatch(of: regex, in: text) { match throws(EvaluationError) in
                first = function == .match ? .text(String(match.group(0) ?? "")) : .list((1..<match.count).map { match.group($0).map { .text(String($0)) } ?? .null })
                return false
            }
            return first
        case .allMatches:
            var found: [Value] = []
            try forEachMatch(of: regex, in: text) { match throws(EvaluationError) in
                found.append(.text(String(match.group(0) ?? "")))
                try limits.checkList(count: found.count)
                return true
            }
            return .list(found)
        case .replaceMatches:
            let template = try TextFunctions.text(arguments[2], "replaceMatches's replacement") ?? ""
            var result = "", rest = text.startIndex
            try forEachMatch(of: regex, in: text) { match throws(EvaluationError) in
                result += text[rest..<match.range.lowerBound]
                result += try expand(template, match)
                rest = match.range.upperBound
                try limits.checkText(bytes: result.utf8.count)
                return true
            }
            result += text[rest...]
            try limits.checkText(bytes: result.utf8.count)
            return .text(result)
        default:
            throw EvaluationError("internal error: \(name) is not a regular expression function")
        }
    }

    /// One match in a text: its range and its groups' (group 0 is the whole match).
    struct Match {
        let text: String
        let result: NSTextCheckingResult
        /// The whole match.
        let range: Range<String.Index>

        /// Group 0 and the pattern's groups.
        var count: Int { result.numberOfRanges }

        /// Group `index`'s text, or nil when it took no part in the match.
        func group(_ index: Int) -> Substring? {
            Range(result.range(at: index), in: text).map { text[$0] }
        }
    }

    /// How many steps of the engine's backtracking lie between two of its progress calls while it matches at one
    /// place: ICU calls back each time its tick counter (`TIMER_INITIAL_VALUE` in `rematch.cpp`) counts down from
    /// 10,000.
    static let stepsPerMatchingCall = 10_000

    /// Calls `body` with each match of `regex` in `text`, in order, until it returns false. The match stops at Ctrl-C,
    /// the time limit and the step limit, which its backtracking counts against.
    ///
    /// Foundation gives the block two kinds of progress call, alike: one for each place in the text a search starts
    /// from (so at most one per UTF-16 unit, and one more after each match), and one each 10,000 steps of matching
    /// at one place. So the calls past that many are the second kind, and each counts 10,000 steps; the first are a
    /// scan of the text, and only look at Ctrl-C and the time limit, every 16th.
    static func forEachMatch(of regex: NSRegularExpression, in text: String,
                             _ body: (Match) throws(EvaluationError) -> Bool) throws(EvaluationError) {
        // Outside a run (nothing sets one), the default step limit still bounds the match.
        let interruption = Interruption.current ?? Interruption(cancellation: CancellationFlag(), deadline: nil)
        let places = text.utf16.count + 1
        var calls = 0, matches = 0
        var failure: EvaluationError?
        // Foundation declares the block escaping; it is only called during the enumeration.
        withoutActuallyEscaping(body) { body in
            regex.enumerateMatches(in: text, options: .reportProgress, range: NSRange(text.startIndex..., in: text)) { result, _, stop in
                do throws(EvaluationError) {
                    if let result {
                        matches += 1
                        guard let range = Range(result.range, in: text) else { return }
                        if try !body(Match(text: text, result: result, range: range)) { stop.pointee = true }
                        return
                    }
                    calls += 1
                    if calls > places + matches {
                        try interruption.charge(stepsPerMatchingCall, for: "matching the regular expression '\(regex.pattern)'")
                    } else if calls & 15 == 0, interruption.shouldStop {
                        throw EvaluationError.interrupted
                    }
                } catch {
                    failure = error
                    stop.pointee = true
                }
            }
        }
        if let failure { throw failure }
    }

    static func compile(_ pattern: String) throws(EvaluationError) -> NSRegularExpression {
        do {
            return try NSRegularExpression(pattern: pattern)
        } catch {
            throw EvaluationError("'\(pattern)' is not a regular expression: \(reason(pattern))")
        }
    }

    /// What is wrong with a pattern, or nil when it compiles: for the checker, on constant patterns.
    package static func problem(in pattern: String) -> String? {
        (try? NSRegularExpression(pattern: pattern)) == nil ? reason(pattern) : nil
    }

    /// Why ICU refused a pattern. ICU's own error says only that it is invalid; Swift's parser, which reads the same
    /// syntax, says what is wrong and where ("expected ')'"), so its word is given when it refuses the pattern too.
    static func reason(_ pattern: String) -> String {
        do {
            _ = try Regex(pattern)
            return "ICU's regular expressions don't accept it"
        } catch {
            return "\(error)".split(separator: "\n").first.map(String.init) ?? "it can't be read"
        }
    }

    /// `r` with `$N` replaced by group N of the match and `$$` by a dollar sign.
    static func expand(_ template: String, _ groups: Match) throws(EvaluationError) -> String {
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
            result += groups.group(number).map(String.init) ?? ""
            characters = characters.dropFirst(digits.count)
        }
        return result + characters
    }
}
