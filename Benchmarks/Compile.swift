import AutoIntents
import AutoLanguage
import AutoRuntime
import Foundation

// Workload 5: parse and check (and compile to a graph) a generated 100,000-line script with
// `ScriptCompiler.compile`. DESIGN.md sets no goal and names no anchor: the figure is lines per second.

/// "a", "b", …, "z", "ba", …: words for generated shortcut names (names may not contain digits).
func letters(_ number: Int) -> String {
    var number = number, word = ""
    repeat {
        word = String(UnicodeScalar(UInt8(97 + number % 26))) + word
        number /= 26
    } while number > 0
    return word
}

/// A script of at least `lines` lines that reads like real ones: variables set and updated, arithmetic,
/// if/else and for blocks, texts with interpolations, calls of a native intent, of shortcuts and of
/// built-in functions, records and lists, comments. Every line checks; the script is never run.
func generateScript(lines target: Int) -> String {
    var lines: [String] = [
        "# A generated script for the compile benchmark.",
        "shortcut \"double it\" (n: Int = 2) {",
        "  return n * 2",
        "}",
        "set total = 0",
        "set counter = 0",
        "set sum = 0",
        "set ratio = 0.5",
        "set label = \"\"",
        "set line = \"\"",
        "set names = [\"Ada\", \"Grace\", \"Linus\"]",
        "set prices = [{title: \"Circe\", price: 12}, {title: \"Emma\", price: 9}]",
    ]
    var block = 0
    while lines.count < target {
        let i = block
        if i % 50 == 0 {
            // A new shortcut now and then, called by the blocks that follow.
            lines += [
                "shortcut \"describe \(letters(i / 50))\" (n: Int, unit: Text = \"items\") {",
                "  if n < 0 { return \"negative\" }",
                "  if n % 2 == 0 { return \"\\(n) even \\(unit)\" } else { return \"\\(n) odd \\(unit)\" }",
                "}",
            ]
        }
        lines += [
            "# block \(i)",
            "set total = total + \(i % 97) * 3 - (counter % 7)",
            "set label = \"item \\(total) of \\(counter)\"",
            "if total > 1000 and counter < \(i % 50 + 10) {",
            "  set total = total - 1000",
            "  show \"wrapped at \\(counter)\"",
            "} else if total % 2 == 0 {",
            "  set counter = counter + 1",
            "} else {",
            "  set ratio = total / 3",
            "}",
            "for n in [1, 2, 3, \(i % 10)] {",
            "  set sum = sum + n * 2",
            "  add numbers a: n b: \(i % 1000) -> added",
            "  if added > 100 { show \"big: \\(added)\" }",
            "}",
            "double it counter -> doubled",
            "set line = \"\\(label): \\(doubled) — \\(round(ratio, 2))\"",
            "repeat \(i % 3 + 1) times { set counter = counter + 1 }",
            "for book in prices { set sum = sum + book.price }",
            "if count(names) > 2 and label contains \"item\" { show join(names, \", \") }",
            "show describe \(letters(i / 50)) total unit: \"books\"",
            "set ratio = sum(prices.price) / count(prices)",
            "show \"\\(line) \\(max(total, sum)) \\(first(names)) \\(counter % 4 == 0)\"",
        ]
        block += 1
    }
    return lines.joined(separator: "\n") + "\n"
}

@Sendable func compileWorkload(_ options: Options, _ anchors: Anchors, _ notes: Notes) async throws -> [ResultRow] {
    let registry = try benchRegistry()
    let text = generateScript(lines: options.scriptLines)
    let lineCount = text.split(separator: "\n", omittingEmptySubsequences: false).count - 1
    // The first compile reports any error (the generator must only write valid lines) and is not timed.
    _ = compileOrExit(text, name: "generated.auto", registry: registry)
    let elapsed = await measure(options.slowRepetitions) {
        _ = ScriptCompiler.compile(SourceFile(name: "generated.auto", text: text), registry: registry)
    }
    let rate = Double(lineCount) / (elapsed / 1000)
    notes.add("compile: ScriptCompiler.compile (parse, check, compile to a graph; no prelude) of a generated \(lineCount.formatted())-line "
        + "script (\(text.utf8.count.formatted()) bytes) of blocks of set, arithmetic, if/else, for, repeat, intent and shortcut calls, "
        + "interpolated texts and built-in functions; median of \(options.slowRepetitions) after one untimed compile.")
    return [ResultRow(workload: "parse and check a \(lineCount.formatted())-line script", engine: .milliseconds(elapsed),
                      engineText: "\(Int(rate).formatted()) lines/s (\(formatMilliseconds(elapsed)))",
                      anchors: [], goal: .none)]
}
