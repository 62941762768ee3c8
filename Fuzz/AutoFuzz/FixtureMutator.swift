import Foundation

/// Mutates the golden fixtures (Tests/Fixtures/**/*.auto): real scripts written by people, so their
/// mutants are near-misses of valid programs — a line gone, a token doubled, a number made extreme, a
/// bracket or quote inserted, the file cut short, a byte that is not UTF-8. Works on bytes, so that what
/// reaches the binary is exactly what a broken file on disk would hold.
public struct FixtureMutator: Sendable {
    public struct Corpus: Sendable {
        /// Paths relative to the folder they were read from, and their bytes, in path order.
        public let files: [(path: String, bytes: [UInt8])]

        public init(files: [(path: String, bytes: [UInt8])]) {
            self.files = files
        }

        /// Every `.auto` file under `folder`, recursively, sorted by path so that a seed picks the same
        /// file on every machine.
        public static func load(under folder: String) -> Corpus {
            guard let enumerator = FileManager.default.enumerator(atPath: folder) else { return Corpus(files: []) }
            let paths = enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".auto") }.sorted()
            return Corpus(files: paths.compactMap { path in
                FileManager.default.contents(atPath: folder + "/" + path).map { (path, [UInt8]($0)) }
            })
        }
    }

    public let corpus: Corpus

    public init(corpus: Corpus) {
        self.corpus = corpus
    }

    /// Mutant `index` of campaign `seed`: one fixture with one to four mutations.
    public func program(seed: UInt64, index: Int) -> FuzzProgram? {
        guard !corpus.files.isEmpty else { return nil }
        var random = FuzzRandom(seed: seed, index: index, stream: 2)
        let file = random.pick(corpus.files)
        var bytes = file.bytes
        var applied: [String] = []
        for _ in 0..<random.weighted([(4, 1), (3, 2), (2, 3), (1, 4)]) {
            applied.append(mutate(&bytes, &random))
        }
        // A mutant may loop for ever (a `repeat` count made Int.max): it gets a limit like any runaway program.
        return FuzzProgram(bytes: bytes, origin: "mutated: \(file.path) (\(applied.joined(separator: "; ")))", isBounded: false)
    }

    // MARK: Tokens

    /// A rough token: enough to cut and paste source at token boundaries without a real lexer.
    enum TokenKind { case word, number, text, space, symbol }

    struct Token {
        let range: Range<Int>
        let kind: TokenKind
    }

    static func isWordByte(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F || byte >= 0x80
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    static func tokens(_ bytes: [UInt8]) -> [Token] {
        var tokens: [Token] = []
        var i = 0
        while i < bytes.count {
            let start = i
            let byte = bytes[i]
            let kind: TokenKind
            if isDigit(byte) {
                while i < bytes.count && (isDigit(bytes[i]) || bytes[i] == 0x5F || bytes[i] == 0x2E) { i += 1 }
                kind = .number
            } else if isWordByte(byte) {
                while i < bytes.count && (isWordByte(bytes[i]) || isDigit(bytes[i])) { i += 1 }
                kind = .word
            } else if byte == 0x22 {
                i += 1
                while i < bytes.count && bytes[i] != 0x22 && bytes[i] != 0x0A {
                    i += bytes[i] == 0x5C ? 2 : 1
                }
                i = min(i + 1, bytes.count)
                kind = .text
            } else if byte == 0x20 || byte == 0x09 {
                while i < bytes.count && (bytes[i] == 0x20 || bytes[i] == 0x09) { i += 1 }
                kind = .space
            } else {
                i += 1
                kind = .symbol
            }
            tokens.append(Token(range: start..<i, kind: kind))
        }
        return tokens
    }

    static func lines(_ bytes: [UInt8]) -> [[UInt8]] {
        bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
    }

    static func joined(_ lines: [[UInt8]]) -> [UInt8] {
        Array(lines.joined(separator: [0x0A]))
    }

    // MARK: Mutations

    static let extremeNumbers = ["9223372036854775807", "9223372036854775808", "0", "-1", "99999999999999999999",
                                 "1" + String(repeating: "0", count: 400) + ".0", "0.0000000000000000000001", "4294967296",
                                 "9223372036854775807.5", "1_", "00000", "1.", "-9223372036854775808"]
    static let units = ["seconds", "weeks", "milliseconds", "days", "bytes", "KB", "TB", "TiB", "times"]
    static let operators = ["+", "-", "*", "/", "%", "==", "!=", "<", ">=", "and", "or", "not", "contains", "in", "|", "->", "."]
    static let insertions = ["(", ")", "{", "}", "[", "]", "\"", "\\(", "\\", "->", "|", ",", ":", "=", "#", ";", "\n", " ",
                             "else", "if true {", "for x in", "repeat 3 times {", "set", "return", "stop", "shortcut \"s\"",
                             "between 1 and", "filter where", "sort by", "limit", "it", "nil", "args", "-", "?", "\r"]
    static let words = ["it", "nil", "true", "now", "today", "args", "show", "set", "if", "else", "for", "in", "repeat", "times",
                        "stop", "return", "shortcut", "find", "filter", "where", "sort", "by", "limit", "between", "and", "not",
                        "count", "first", "date", "shout", "plural", "average", "clamp"]

    func insert(_ bytes: inout [UInt8], _ random: inout FuzzRandom) -> String {
        let insertion = random.pick(Self.insertions)
        let at = random.int(0...bytes.count)
        bytes.insert(contentsOf: Array(insertion.utf8), at: at)
        return "inserted \(insertion.debugDescription) at \(at)"
    }

    /// Replaces one of `candidates`, chosen at random, with one of `choices`, and says what it did; with no
    /// candidate, inserts something instead.
    func replaceOne(of candidates: [Token], with choices: [String], naming what: String,
                    _ bytes: inout [UInt8], _ random: inout FuzzRandom) -> String {
        guard let token = candidates.randomElement(using: &random) else { return insert(&bytes, &random) }
        let choice = random.pick(choices)
        bytes.replaceSubrange(token.range, with: Array(choice.utf8))
        return "\(what) at \(token.range.lowerBound) → \(choice.prefix(24))"
    }

    func mutate(_ bytes: inout [UInt8], _ random: inout FuzzRandom) -> String {
        let tokens = Self.tokens(bytes)
        var lines = Self.lines(bytes)
        switch random.int(0..<16) {
        case 0 where lines.count > 1:
            let at = random.int(0..<lines.count)
            lines.remove(at: at)
            bytes = Self.joined(lines)
            return "deleted line \(at + 1)"
        case 1:
            let at = random.int(0..<lines.count)
            lines.insert(lines[at], at: at)
            bytes = Self.joined(lines)
            return "duplicated line \(at + 1)"
        case 2 where lines.count > 1:
            let (a, b) = (random.int(0..<lines.count), random.int(0..<lines.count))
            lines.swapAt(a, b)
            bytes = Self.joined(lines)
            return "swapped lines \(a + 1) and \(b + 1)"
        case 3 where !tokens.isEmpty:
            let token = random.pick(tokens)
            bytes.removeSubrange(token.range)
            return "deleted a token at \(token.range.lowerBound)"
        case 4 where !tokens.isEmpty:
            let token = random.pick(tokens)
            bytes.insert(contentsOf: bytes[token.range], at: token.range.upperBound)
            return "duplicated a token at \(token.range.lowerBound)"
        case 5 where tokens.count > 1:
            let meaningful = tokens.filter { $0.kind != .space }
            guard meaningful.count > 1 else { return "nothing to swap" }
            var (a, b) = (random.pick(meaningful), random.pick(meaningful))
            if a.range.lowerBound > b.range.lowerBound { swap(&a, &b) }
            guard a.range.upperBound <= b.range.lowerBound else { return "nothing to swap" }
            let (first, second) = (Array(bytes[a.range]), Array(bytes[b.range]))
            bytes.replaceSubrange(b.range, with: first)
            bytes.replaceSubrange(a.range, with: second)
            return "swapped tokens at \(a.range.lowerBound) and \(b.range.lowerBound)"
        case 6:
            return replaceOne(of: tokens.filter { $0.kind == .number }, with: Self.extremeNumbers, naming: "number", &bytes, &random)
        case 7:
            return insert(&bytes, &random)
        case 8 where !bytes.isEmpty:
            let at = random.int(0..<bytes.count)
            bytes.removeSubrange(at...)
            return "truncated at \(at)"
        case 9 where !bytes.isEmpty:
            let at = random.int(0..<bytes.count)
            let byte = random.pick([0x00, 0xFF, 0xC0, 0xE2, 0x80, 0x0D, 0x22, 0x5C, 0x7B, UInt8(random.int(0...255))] as [UInt8])
            bytes[at] = byte
            return "byte at \(at) → 0x\(String(byte, radix: 16))"
        case 10:
            // A line of another fixture, pasted in: statements meet names and types they were not written for.
            let other = Self.lines(random.pick(corpus.files).bytes)
            let line = random.pick(other)
            lines.insert(line, at: random.int(0...lines.count))
            bytes = Self.joined(lines)
            return "spliced a line from another fixture"
        case 11:
            let units = tokens.filter { $0.kind == .word && Self.units.contains(String(decoding: bytes[$0.range], as: UTF8.self)) }
            return replaceOne(of: units, with: Self.units, naming: "unit", &bytes, &random)
        case 12:
            let symbols = tokens.filter { $0.kind == .symbol || Self.operators.contains(String(decoding: bytes[$0.range], as: UTF8.self)) }
            return replaceOne(of: symbols, with: Self.operators, naming: "operator", &bytes, &random)
        case 13:
            let operands = tokens.filter { $0.kind == .number || $0.kind == .word || $0.kind == .text }
            guard let token = operands.randomElement(using: &random) else { return insert(&bytes, &random) }
            let depth = random.pick(ExtremePrograms.depths)
            bytes.insert(contentsOf: [UInt8](repeating: 0x29, count: depth), at: token.range.upperBound)
            bytes.insert(contentsOf: [UInt8](repeating: 0x28, count: depth), at: token.range.lowerBound)
            return "wrapped a token at \(token.range.lowerBound) in \(depth) parentheses"
        case 14:
            return replaceOne(of: tokens.filter { $0.kind == .word }, with: Self.words, naming: "word", &bytes, &random)
        default:
            // A block repeated inside itself: nesting the fixture never had.
            let at = random.int(0..<lines.count)
            let depth = random.pick([10, 100, 300, 3000])
            lines.insert(contentsOf: Array(repeating: Array("if true {".utf8), count: depth), at: at)
            lines.insert(contentsOf: Array(repeating: Array("}".utf8), count: depth), at: min(lines.count, at + depth + 1))
            bytes = Self.joined(lines)
            return "line \(at + 1) nested in \(depth) blocks"
        }
    }
}
