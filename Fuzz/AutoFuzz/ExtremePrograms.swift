/// Programs at the edges the limits are meant to guard (README: "Limits keep any input from crashing or
/// hanging the process"): nesting around and far beyond the depth limit, very long operator chains,
/// pipelines, lists, texts and scripts, shortcut chains deeper than the call limit, and the extreme
/// values of each kind of number (Int.max, durations of 2^63 weeks, sizes near 2^63 bytes, decimals that
/// overflow to infinity or become NaN).
struct ExtremePrograms {
    var random: FuzzRandom
    let mayRunAway: Bool

    /// Nesting depths: below, at and just past the default limit of 256, and far past it, where a
    /// recursive parser, checker or compiler would overflow its stack. The largest are rarer: a program
    /// of 100 000 levels or lines takes seconds to run in a debug build, and a quick run has 100.
    static let depths = [50, 200, 255, 256, 257, 300, 1000, 3000, 5000, 9999, 20000, 100_000]
    static let depthWeights = [3, 2, 2, 3, 2, 2, 3, 2, 2, 1, 1, 1]

    mutating func program() -> FuzzProgram {
        let n = random.weighted(Array(zip(Self.depthWeights, Self.depths)))
        let (name, text): (String, String)
        switch random.weighted([(3, 0), (2, 1), (2, 2), (2, 3), (1, 4), (1, 5), (1, 6), (2, 7), (1, 8), (1, 9), (1, 10), (1, 11),
                                (1, 12), (1, 13), (1, 14), (8, 15)]) {
        case 0: (name, text) = ("deep parentheses", "show " + String(repeating: "(", count: n) + "1" + String(repeating: ")", count: n))
        case 1: (name, text) = ("deep lists", String(repeating: "[", count: n) + String(repeating: "]", count: n))
        case 2: (name, text) = ("deep records", String(repeating: "{a: ", count: n) + "1" + String(repeating: "}", count: n))
        case 3:
            let depth = min(n, 20000)
            (name, text) = ("deep blocks", String(repeating: "if true {\n", count: depth) + "show 1\n" + String(repeating: "}\n", count: depth))
        case 4: (name, text) = ("deep not", "show " + String(repeating: "not ", count: n) + "true")
        case 5: (name, text) = ("deep negation", "show " + String(repeating: "-(", count: n) + "1" + String(repeating: ")", count: n))
        case 6:
            var inner = "1"
            for _ in 0..<min(n, 5000) { inner = "\"\\(" + inner + ")\"" }
            (name, text) = ("deep interpolation", "show " + inner)
        case 7:
            let op = random.pick([" + 1", " * 1", " - 1", " and true", " or false", " + \"a\"", " % 7"])
            let start = op.contains("true") || op.contains("false") ? "true" : (op.contains("\"") ? "\"a\"" : "1")
            (name, text) = ("long chain of '\(op.trimmingCharacters(in: .whitespaces))'", "show " + start + String(repeating: op, count: n))
        case 8: (name, text) = ("long pipeline", "\"a\"" + String(repeating: " | shout", count: min(n, 20000)) + " | count")
        case 9:
            let lines = (0..<min(n, 50000)).map { "set v\($0) = \($0)" }
            (name, text) = ("many statements", lines.joined(separator: "\n") + "\nshow v0")
        case 10:
            let items = (0..<n).map(String.init).joined(separator: ", ")
            (name, text) = ("long list", "set xs = [\(items)]\nshow count(xs)\nshow sum(xs)\nshow max(xs)\nxs")
        case 11:
            (name, text) = ("long text", "set t = \"" + String(repeating: "x", count: n * 10) + "\"\nshow count(t)\nt")
        case 12:
            // Each shortcut calls the next: deeper than the call depth limit (200) when n is large.
            let count = min(n, 3000)
            var lines = (0..<count).map { "shortcut \"fz chain\($0)\" (x: Int) { return fz chain\($0 + 1) x + 1 }" }
            lines.append("shortcut \"fz chain\(count)\" (x: Int) { return x }")
            (name, text) = ("shortcut chain", lines.joined(separator: "\n") + "\nshow fz chain0 1")
        case 13:
            (name, text) = ("deep list of records", "set r = " + String(repeating: "[{a: ", count: min(n, 5000)) + "1"
                                + String(repeating: "}]", count: min(n, 5000)) + "\nshow r\nr")
        case 14:
            (name, text) = ("long record", "set r = {" + (0..<min(n, 20000)).map { "f\($0): \($0)" }.joined(separator: ", ") + "}\nshow count(r)\nr")
        default:
            return extremeValues()
        }
        return FuzzProgram(text: text + "\n", origin: "extreme: \(name), n = \(n)", isBounded: true)
    }

    /// A few statements on extreme values, each on its own line (so that minimising keeps the one that
    /// fails), and an extreme value as the result, for `--json`.
    mutating func extremeValues() -> FuzzProgram {
        var lines: [String] = []
        var bounded = true
        for _ in 0..<random.int(1...4) {
            if mayRunAway && random.chance(0.08) {
                lines.append(random.pick(Self.runaway))
                bounded = false
            } else {
                lines.append(random.pick(Self.statements))
            }
        }
        lines.append(random.pick(Self.results))
        return FuzzProgram(text: lines.joined(separator: "\n") + "\n", origin: "extreme: values", isBounded: bounded)
    }

    static let big = "1" + String(repeating: "0", count: 400) + ".0"

    static let statements = [
        "show 9223372036854775807 + 1",
        "show (-9223372036854775808) % (-1)",
        "show (-9223372036854775808) / (-1)",
        "show (-9223372036854775808) * (-1)",
        "show abs(-9223372036854775808)",
        "show 9223372036854775807 weeks",
        "show (9223372036854775807 weeks).weeks",
        "show 100000000000000 days",
        "show 9223372036854775807 seconds",
        "show -(9223372036854775807 weeks)",
        "show 9000000 TB * 2",
        "show 9000000 TB + 9000000 TB",
        "show 1 byte - 2 bytes",
        "show 9000000 TB / 0.000001",
        "show 8000000 TiB * 1.5",
        "show sum([9000000 TB, 9000000 TB])",
        "show number(9000000 TB)",
        "show round(99999999999999999999.5)",
        "show round(\(big), 15)",
        "show round(0.5, 15)",
        "show date(\"9999-12-31\") + 1000000 weeks",
        "show date(\"2024-05-01\") + 9223372036854775807 seconds",
        "show date(\"0001-01-01\") - 100000 weeks",
        "show (date(\"9999-12-31\") - date(\"0001-01-01\")).weeks",
        "show date(\"0000-01-01\").weekday",
        "show (date(\"2024-05-01\") + 1000000000 weeks).year",
        "show text(date(\"9999-12-31 23:59:59\") + 1 second)",
        "show date(text(date(\"9999-12-31\") + 1 day))",
        "show 1 second / 0.0000000000000000000001",
        "show (1 second * \(big)).seconds",
        "show \(big) * \(big)",
        "show \(big) - \(big)",
        "show (\(big) * 1 second) - (\(big) * 1 second)",
        "show (\(big) - \(big)) * 1 second",
        "show 1 KB * \(big)",
        "show round(\(big) - \(big))",
        "show number(\"99999999999999999999999\")",
        "show number(\"1e400\")",
        "show number(\"nan\")",
        "show number(\"-0\")",
        "show min(9223372036854775807, 1.5)",
        "show max(9223372036854775807 weeks, 1 second)",
        "show sum([9223372036854775807 weeks, 9223372036854775807 weeks])",
        "show sum([9223372036854775807, 0.5])",
        "show count(numbers from 1 to: 3 step: 9223372036854775807)",
        "show numbers from 9223372036854775807 to: 9223372036854775806",
        "show numbers from (-9223372036854775808) to: 9223372036854775807 step: 9223372036854775807",
        "show plural 9223372036854775807 word: \"x\"",
        "show repeat text \"a\" count: (-9223372036854775808)",
        "show clamp \(big) low: 0 high: 1",
        "show percent 1 of: 0.0000000000000000000000000000001",
        "show average [9223372036854775807, 9223372036854775807]",
        "show days from date(\"0001-01-01\") to: date(\"9999-12-31\")",
        "show (\"x\" + \"\") * 1",
        "show [1, 2, 3] | limit 9223372036854775807",
        "show ([{a: 1}, {a: 2}] | sort by a desc | limit (-9223372036854775808))",
        "show join([9223372036854775807 weeks, 9000000 TB, \(big)], \"\")",
        "show \"\\(9223372036854775807 weeks)\"",
        "show -0.0",
        "show 0.1 + 0.2",
        "show 1 / 3 * 3",
        "show 2 hours % 7",
        "repeat 3 times { show 9223372036854775807 weeks / 3 }",
    ]

    /// Statements that only a step or time limit ends.
    static let runaway = [
        "repeat 9223372036854775807 times { }",
        "repeat 9223372036854775807 times { show 1 }",
        "show count(numbers from 0 to: 9223372036854775807)",
        "show repeat text \"ab\" count: 9223372036854775807",
        "set t = \"ab\"\nrepeat 64 times { set t = t + t }",
        // Regular expressions of catastrophic shape: exponential backtracking, stopped only by the limits.
        #"show matches("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "(x+x+)+y")"#,
        #"show replaceMatches("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!", "(a|aa)+$", "x")"#,
        #"show count(allMatches("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxy", "(x+x+)+z"))"#,
        #"show captures("ababababababababababababababababababab!", "^((ab)*)*$")"#,
    ]

    static let results = [
        "9223372036854775807 weeks", "9000000 TB", big, "\(big) - \(big)", "(-9223372036854775808)", "[9223372036854775807 weeks]",
        "{d: 100000000000000 days, s: 9000000 TB}", "date(\"9999-12-31 23:59:59\")", "date(\"0001-01-01\")", "1 second * \(big)",
        "(\(big) - \(big)) * 1 second", "0.1 + 0.2", "1 / 3", "\"\\u0000\"", "\"\\n\\t\\\"\"", "-0.0", "0.000000000000000000000001 seconds",
    ]
}
