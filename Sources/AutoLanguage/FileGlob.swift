#if canImport(Glibc)
import Glibc
#endif

/// A pattern of file names, as a shell reads one: `*` any characters, `?` one, `[abc]`, `[a-z]`, `[!a-z]`, `{pdf,txt}`
/// alternatives (nested too) and `\` before a character taken as it is. Names only, never paths: a `/` is an error.
/// Braces are expanded here, and each alternative is matched by `fnmatch`, which has the rest and no braces.
public struct FileGlob: Sendable, Equatable {
    public let pattern: String
    let alternatives: [String]

    /// What is wrong with a pattern, and where: the offset in it of the character at fault.
    public struct PatternError: Error, Sendable, CustomStringConvertible {
        public let message: String
        public let offset: Int
        public var description: String { "\(message) (at character \(offset + 1) of the pattern)" }
    }

    /// More alternatives than this (`{a,b}{c,d}…` multiplies them) is an error, not a slow match.
    static let maxAlternatives = 1_000

    public init(_ pattern: String) throws(PatternError) {
        self.pattern = pattern
        let characters = Array(pattern)
        try Self.validate(characters)
        alternatives = try Self.expand(characters).map { String($0) }
    }

    /// Whether `name` (a file's name, not its path) matches.
    public func matches(_ name: String) -> Bool {
        alternatives.contains { fnmatch($0, name, FNM_PERIOD) == 0 }
    }

    /// Brackets closed, braces balanced, no `/`, no `\` at the end.
    static func validate(_ characters: [Character]) throws(PatternError) {
        var index = 0
        var braces: [Int] = []
        while index < characters.count {
            switch characters[index] {
            case "\\":
                guard index + 1 < characters.count else { throw PatternError(message: "'\\' at the end of the pattern escapes nothing", offset: index) }
                index += 1
            case "/":
                throw PatternError(message: "a pattern matches file names, and '/' is never in a name", offset: index)
            case "[":
                index = try closingBracket(characters, from: index)
            case "{":
                braces.append(index)
            case "}":
                guard braces.popLast() != nil else { throw PatternError(message: "'}' closes no '{'", offset: index) }
            default:
                break
            }
            index += 1
        }
        if let open = braces.last { throw PatternError(message: "the '{' here is never closed", offset: open) }
    }

    /// The index of the `]` that closes the bracket expression opening at `start` (a `]` first inside it, or after
    /// `!`, is a member, as in the shell).
    static func closingBracket(_ characters: [Character], from start: Int) throws(PatternError) -> Int {
        var index = start + 1
        if index < characters.count, characters[index] == "!" || characters[index] == "^" { index += 1 }
        if index < characters.count, characters[index] == "]" { index += 1 }
        while index < characters.count {
            if characters[index] == "]" { return index }
            if characters[index] == "/" { throw PatternError(message: "a pattern matches file names, and '/' is never in a name", offset: index) }
            index += 1
        }
        throw PatternError(message: "the '[' here is never closed", offset: start)
    }

    /// The pattern with its first brace group replaced by each of its alternatives, expanded again.
    static func expand(_ characters: [Character]) throws(PatternError) -> [[Character]] {
        var index = 0
        var open: Int?
        var depth = 0
        var commas: [Int] = []
        while index < characters.count {
            switch characters[index] {
            case "\\": index += 1
            case "[": index = (try? closingBracket(characters, from: index)) ?? index
            case "{":
                if depth == 0 { open = index }
                depth += 1
            case "," where depth == 1:
                commas.append(index)
            case "}" where depth > 0:
                depth -= 1
                if depth == 0, let start = open {
                    let bounds = [start] + commas + [index]
                    var results: [[Character]] = []
                    for (from, to) in zip(bounds, bounds.dropFirst()) {
                        let alternative = Array(characters[..<start]) + characters[(from + 1)..<to] + characters[(index + 1)...]
                        results += try expand(alternative)
                        if results.count > maxAlternatives {
                            throw PatternError(message: "the braces make more than \(maxAlternatives) patterns", offset: start)
                        }
                    }
                    return results
                }
            default:
                break
            }
            index += 1
        }
        return [characters]
    }
}
