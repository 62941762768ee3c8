/// What `--dry-run` shows of a rewrite, in the unified format `diff -u` and `patch` read: `--- a/FILE`, `+++ b/FILE`,
/// then hunks of changed lines with three lines of context. Made for rewrites that change lines in place (a name for
/// another), which keep the number of lines; a rewrite that doesn't is shown as one hunk of the whole file.
package enum UnifiedDiff {
    package static let context = 3

    /// The diff of `old` to `new` for `path`; empty when they are equal.
    package static func render(old: String, new: String, path: String) -> String {
        guard old != new else { return "" }
        let before = lines(old), after = lines(new)
        var text = "--- a/\(path)\n+++ b/\(path)\n"
        guard before.count == after.count else {
            text += "@@ -1,\(before.count) +1,\(after.count) @@\n"
            text += before.map { "-" + $0 + "\n" }.joined() + after.map { "+" + $0 + "\n" }.joined()
            return text
        }
        let changed = before.indices.filter { before[$0] != after[$0] }
        // Changed lines closer than twice the context share a hunk, as diff makes them.
        var hunks: [ClosedRange<Int>] = []
        for line in changed {
            let range = max(0, line - context)...min(before.count - 1, line + context)
            if let last = hunks.last, range.lowerBound <= last.upperBound + 1 {
                hunks[hunks.count - 1] = last.lowerBound...range.upperBound
            } else {
                hunks.append(range)
            }
        }
        for hunk in hunks {
            text += "@@ -\(hunk.lowerBound + 1),\(hunk.count) +\(hunk.lowerBound + 1),\(hunk.count) @@\n"
            // A run of changed lines reads as diff writes it: the old lines, then the new ones.
            var removed = "", added = ""
            for line in hunk {
                if before[line] == after[line] {
                    text += removed + added + " " + before[line] + "\n"
                    removed = ""
                    added = ""
                } else {
                    removed += "-" + before[line] + "\n"
                    added += "+" + after[line] + "\n"
                }
            }
            text += removed + added
        }
        return text
    }

    /// The lines of a text, without their line ends; a final line end makes no empty last line.
    static func lines(_ text: String) -> [Substring] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if text.hasSuffix("\n") { lines.removeLast() }
        return lines
    }
}
