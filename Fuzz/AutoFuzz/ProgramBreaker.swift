/// Turns a well-typed program into one the checker or the parser must reject (exit 2, with diagnostics,
/// never a crash): the error recovery and the diagnostics are code paths a well-typed program never takes.
struct ProgramBreaker {
    var random: FuzzRandom

    /// Statements that are wrong in one way each: a type error, an unknown name, a wrong argument.
    static let illTyped = [
        "show 1 + \"a\"", "show \"a\" - 1", "show true * 2", "show [1] + 1", "show date(\"2024-05-01\") + 3",
        "if 3 { show 1 }", "if [1] { show 1 }", "for x in 5 { show x }", "repeat 2.5 times { show 1 }", "repeat \"3\" times { }",
        "show count(1, 2)", "show min()", "show round(1, 2, 3)", "show undefinedName", "set it = 3", "set now = 1", "set nil = 2",
        "show date(\"2024-13-45\")", "show 99999999999999999999", "show 1 < \"a\"", "show date(\"2024-05-01\") < 3",
        "show not 3", "show -\"a\"", "show 1 == \"1\"", "show 1 < 2 < 3", "show 1 = 2", "show !true", "show 9300000 TB",
        "show {a: 1}.b", "show {a: 1, a: 2}", "show 3.year", "show \"a\".weekday", "show (1 hour).months", "show sum(3)",
        "show join(5)", "shout 3", "plural \"x\" word: 2", "clamp \"a\" low: 1 high: 2", "show shout", "numbers from", "fz alpha",
        "show average 3", "show [1, 2] | filter where n > 1", "show [{a: 1}] | sort by b", "show [{a: [1]}] | sort by a",
        "show 1 | limit 2", "x | shout", "show 1 -> it", "stop\nshow 1", "return 1\nshow 2", "show \"a\\q\"",
        "shortcut \"fz twice\" (x: Unknown) { return x }", "shortcut \"shout\" (x: Int) { return x }",
        "shortcut \"fz dup\" (x: Int, x: Int) { return x }", "shortcut \"fz bad default\" (x: Int = \"a\") { return x }",
        "if true { shortcut \"fz inner\" () { return 1 } }", "show args.title", "show find books",
    ]

    mutating func illTyped(_ program: FuzzProgram) -> FuzzProgram {
        var lines = program.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let statement = random.pick(Self.illTyped)
        // Every line boundary of a generated program is a statement boundary.
        lines.insert(statement, at: random.int(0...max(0, lines.count - 1)))
        return FuzzProgram(text: lines.joined(separator: "\n"), origin: "ill-typed: \(statement)", isBounded: program.isBounded)
    }

    static let junk = ["(", ")", "{", "}", "[", "]", "\"", "\\(", "->", "|", ",", ":", "=", "!", "@", "..", "#", ";", "\n", "else",
                       "if", "for", "set", "shortcut", "between", "not", "sort by", "filter where", "limit", "-", "\t", "\r", "\u{0}"]

    mutating func broken(_ program: FuzzProgram) -> FuzzProgram {
        var text = Array(program.text.unicodeScalars)
        guard !text.isEmpty else { return program }
        let what: String
        switch random.int(0..<4) {
        case 0:
            let at = random.int(0..<text.count)
            text.removeSubrange(at...)
            what = "truncated at \(at)"
        case 1:
            let brackets = text.indices.filter { "(){}[]\"".unicodeScalars.contains(text[$0]) }
            if let at = brackets.randomElement(using: &random) {
                what = "removed '\(text[at])' at \(at)"
                text.remove(at: at)
            } else {
                let at = random.int(0..<text.count)
                text.removeSubrange(at...)
                what = "truncated at \(at)"
            }
        case 2:
            let token = random.pick(Self.junk)
            let at = random.int(0...text.count)
            text.insert(contentsOf: token.unicodeScalars, at: at)
            what = "inserted \(token.debugDescription) at \(at)"
        default:
            let at = random.int(0..<text.count)
            let length = random.int(1...min(20, text.count - at))
            let piece = text[at..<(at + length)]
            text.insert(contentsOf: piece, at: random.int(0...text.count))
            what = "duplicated \(length) characters"
        }
        var result = ""
        result.unicodeScalars.append(contentsOf: text)
        // Not bounded: a cut or a `#` can leave a loop that still compiles without the line that ends it
        // (`set w = w` for `set w = w + 1`), so the run gets a time limit.
        return FuzzProgram(text: result, origin: "broken: \(what)", isBounded: false)
    }
}
