/// A pattern on a file's name, as a shell matches names: `*` any run of characters, `?` one character, `[abc]`
/// `[a-z]` `[!a-z]` (or `[^a-z]`) `[[:digit:]]` one character of a set, `{pdf,png}` any of the alternatives (they
/// may nest and hold patterns themselves), and `\` makes the next character plain. `*` and `?` match a leading dot
/// too, since a file trigger sees hidden files. Case matters, as it does in Linux names.
///
/// Names are matched by characters, so `?` is one `é` whether the name stores it composed or not. That is why this
/// is not `fnmatch(3)`: it matches bytes in the C locale a Swift program runs in (`?` would be half an `é`), it has
/// no braces (GLOB_BRACE belongs to glob(3)), and it takes a malformed pattern as plain text where a trigger should
/// say what is wrong and where.
package struct FileGlob: Sendable, Hashable, CustomStringConvertible {
    package let pattern: String
    /// The pattern with its braces expanded: a name matches when one of these matches it whole.
    private let alternatives: [[GlobPiece]]

    package init(_ pattern: String) throws(FileGlobError) {
        var parser = GlobParser(pattern)
        self.pattern = pattern
        alternatives = try parser.parse()
    }

    package func matches(_ name: String) -> Bool {
        let characters = Array(name)
        return alternatives.contains { Self.match($0, characters) }
    }

    package static func == (a: FileGlob, b: FileGlob) -> Bool { a.pattern == b.pattern }
    package func hash(into hasher: inout Hasher) { hasher.combine(pattern) }
    package var description: String { pattern }

    /// One brace-free pattern against a whole name. Every piece but `*` takes one character, so the classic
    /// two-cursor walk does it: on a mismatch, the last `*` takes one character more. At worst pieces × characters
    /// steps, whatever the pattern: no backtracking blow-up.
    static func match(_ pieces: [GlobPiece], _ name: [Character]) -> Bool {
        var piece = 0, character = 0
        var star: (piece: Int, character: Int)? = nil
        while character < name.count {
            if piece < pieces.count {
                if case .anyRun = pieces[piece] {
                    star = (piece, character)
                    piece += 1
                    continue
                }
                if pieces[piece].matches(name[character]) {
                    piece += 1
                    character += 1
                    continue
                }
            }
            guard let last = star else { return false }
            star = (last.piece, last.character + 1)
            piece = last.piece + 1
            character = last.character + 1
        }
        while piece < pieces.count, case .anyRun = pieces[piece] { piece += 1 }
        return piece == pieces.count
    }
}

/// A malformed pattern: where (counting characters from 1) and what to write instead.
package struct FileGlobError: Error, Sendable, Equatable, CustomStringConvertible {
    package let pattern: String
    package let column: Int
    package let reason: String

    package var description: String { "in the pattern '\(pattern)', column \(column): \(reason)" }
}

/// One step of a brace-free pattern.
enum GlobPiece: Sendable {
    case character(Character)
    case anyCharacter
    case anyRun
    case oneOf(GlobSet)

    /// Whether this piece takes `character` (`*` is the matcher's business).
    func matches(_ character: Character) -> Bool {
        switch self {
        case .character(let expected): return character == expected
        case .anyCharacter: return true
        case .anyRun: return true
        case .oneOf(let set): return set.contains(character)
        }
    }
}

/// `[…]`: characters, ranges and named classes, or everything but them.
struct GlobSet: Sendable {
    var characters: [Character] = []
    var ranges: [ClosedRange<Character>] = []
    var classes: [GlobClass] = []
    var negated = false

    func contains(_ character: Character) -> Bool {
        let listed = characters.contains(character) || ranges.contains { $0.contains(character) }
            || classes.contains { $0.contains(character) }
        return listed != negated
    }
}

/// The POSIX classes a set may name, `[[:digit:]]`, on Unicode characters.
enum GlobClass: String, Sendable, CaseIterable {
    case alpha, digit, alnum, upper, lower, space, punct

    func contains(_ character: Character) -> Bool {
        switch self {
        case .alpha: return character.isLetter
        case .digit: return character.isASCII && character.isWholeNumber
        case .alnum: return character.isLetter || character.isNumber
        case .upper: return character.isUppercase
        case .lower: return character.isLowercase
        case .space: return character.isWhitespace
        case .punct: return character.isPunctuation || character.isSymbol
        }
    }
}

/// Reads a pattern into its brace-free alternatives, or says where it is malformed. The one owner of the
/// pattern's errors and their wording.
struct GlobParser {
    /// Braces multiply: `{a,b}{c,d}` is four patterns. Past this many, the pattern is refused rather than slow.
    static let alternativeLimit = 1000
    /// Nesting is parsed by recursion; a pattern can't nest deeper than this.
    static let depthLimit = 32

    let pattern: String
    let characters: [Character]
    var index = 0

    init(_ pattern: String) {
        self.pattern = pattern
        characters = Array(pattern)
    }

    // pattern -> sequence END
    mutating func parse() throws(FileGlobError) -> [[GlobPiece]] {
        guard !characters.isEmpty else { throw error(at: 0, "the pattern is empty; leave it out to match every file") }
        let alternatives = try sequence(depth: 0)
        guard index == characters.count else { throw error(at: index, "'}' closes no '{'; write '\\}' to match a '}' itself") }
        return alternatives
    }

    // sequence -> item*          (inside braces, up to the ',' or '}' that ends the alternative)
    mutating func sequence(depth: Int) throws(FileGlobError) -> [[GlobPiece]] {
        var alternatives: [[GlobPiece]] = [[]]
        while index < characters.count {
            let character = characters[index]
            if character == "}" || (character == "," && depth > 0) { break }
            let start = index
            let item = try self.item(depth: depth)
            if item.count == 1 {
                for position in alternatives.indices { alternatives[position] += item[0] }
            } else {
                guard alternatives.count * item.count <= Self.alternativeLimit else { throw tooMany(at: start) }
                alternatives = alternatives.flatMap { head in item.map { head + $0 } }
            }
        }
        return alternatives
    }

    // item -> '*' | '?' | set | braces | '\' CHARACTER | CHARACTER
    mutating func item(depth: Int) throws(FileGlobError) -> [[GlobPiece]] {
        switch characters[index] {
        case "*":
            index += 1
            return [[.anyRun]]
        case "?":
            index += 1
            return [[.anyCharacter]]
        case "[":
            return [[.oneOf(try set())]]
        case "{":
            return try braces(depth: depth)
        default:
            return [[.character(try element())]]
        }
    }

    // braces -> '{' sequence (',' sequence)* '}'
    mutating func braces(depth: Int) throws(FileGlobError) -> [[GlobPiece]] {
        let open = index
        guard depth < Self.depthLimit else { throw error(at: open, "braces nest deeper than \(Self.depthLimit)") }
        index += 1
        var alternatives: [[GlobPiece]] = []
        while true {
            alternatives += try sequence(depth: depth + 1)
            guard alternatives.count <= Self.alternativeLimit else { throw tooMany(at: open) }
            guard index < characters.count else { throw error(at: open, "'{' is never closed; write '\\{' to match a '{' itself") }
            index += 1
            if characters[index - 1] == "}" { return alternatives }
        }
    }

    // set -> '[' ('!' | '^')? setItem+ ']'           (a ']' first is a member, not the end)
    // setItem -> '[:' NAME ':]' | element ('-' element)?
    mutating func set() throws(FileGlobError) -> GlobSet {
        let open = index
        let unclosed = error(at: open, "'[' is never closed; write '\\[' to match a '[' itself")
        index += 1
        var set = GlobSet()
        if index < characters.count, characters[index] == "!" || characters[index] == "^" {
            set.negated = true
            index += 1
        }
        var first = true
        while true {
            guard index < characters.count else { throw unclosed }
            if characters[index] == "]", !first {
                index += 1
                return set
            }
            first = false
            if characters[index] == "[", index + 1 < characters.count, characters[index + 1] == ":" {
                set.classes.append(try namedClass())
                continue
            }
            let start = index
            let low = try element(unclosed: unclosed)
            if index + 1 < characters.count, characters[index] == "-", characters[index + 1] != "]" {
                index += 1
                let high = try element(unclosed: unclosed)
                guard low <= high else { throw error(at: start, "the range '\(low)-\(high)' is backwards; write '\(high)-\(low)'") }
                set.ranges.append(low...high)
            } else {
                set.characters.append(low)
            }
        }
    }

    // namedClass -> '[:' NAME ':]'
    mutating func namedClass() throws(FileGlobError) -> GlobClass {
        let start = index
        var end = index + 2
        while end + 1 < characters.count, !(characters[end] == ":" && characters[end + 1] == "]") { end += 1 }
        guard end + 1 < characters.count else { throw error(at: start, "'[:' is never closed by ':]'") }
        let name = String(characters[(start + 2)..<end])
        guard let named = GlobClass(rawValue: name) else {
            let known = GlobClass.allCases.map { "[:\($0.rawValue):]" }.joined(separator: " ")
            throw error(at: start, "there is no class '[:\(name):]'; the classes are \(known)")
        }
        index = end + 2
        return named
    }

    // element -> '\' CHARACTER | CHARACTER          (never '/', which no name holds)
    mutating func element(unclosed: FileGlobError? = nil) throws(FileGlobError) -> Character {
        var character = characters[index]
        if character == "\\" {
            guard index + 1 < characters.count else {
                throw unclosed ?? error(at: index, "'\\' at the end escapes nothing; write '\\\\' to match a '\\' itself")
            }
            index += 1
            character = characters[index]
        }
        guard character != "/" else {
            throw error(at: index, "a pattern matches a file's name, not its path, so it can't hold '/'; "
                        + "watch the folder that holds the files (recursive for the folders inside it)")
        }
        index += 1
        return character
    }

    func tooMany(at position: Int) -> FileGlobError {
        error(at: position, "the braces make more than \(Self.alternativeLimit) patterns; write fewer alternatives")
    }

    func error(at position: Int, _ reason: String) -> FileGlobError {
        FileGlobError(pattern: pattern, column: position + 1, reason: reason)
    }
}
