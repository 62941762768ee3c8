@testable import AutoTerminal
import Testing

/// The diff `auto migrate --dry-run` prints, in the format `patch` reads.
@Suite struct UnifiedDiffTests {
    @Test func changedLinesAreHunksWithThreeLinesOfContext() {
        let old = (1...12).map { "line \($0)" }.joined(separator: "\n") + "\n"
        var lines = (1...12).map { "line \($0)" }
        lines[1] = "LINE 2"
        lines[10] = "LINE 11"
        let new = lines.joined(separator: "\n") + "\n"
        #expect(UnifiedDiff.render(old: old, new: new, path: "s.auto") == """
            --- a/s.auto
            +++ b/s.auto
            @@ -1,5 +1,5 @@
             line 1
            -line 2
            +LINE 2
             line 3
             line 4
             line 5
            @@ -8,5 +8,5 @@
             line 8
             line 9
             line 10
            -line 11
            +LINE 11
             line 12

            """)
        #expect(UnifiedDiff.render(old: old, new: old, path: "s.auto") == "")
    }

    @Test func nearChangesShareAHunk() {
        let old = "a\nb\nc\nd\ne\nf\ng\nh\n"
        let new = "A\nb\nc\nd\ne\nf\nG\nh\n"
        let diff = UnifiedDiff.render(old: old, new: new, path: "x")
        #expect(diff.components(separatedBy: "@@ -").count == 2, "\(diff)")
        #expect(diff.contains("@@ -1,8 +1,8 @@"), "\(diff)")
    }
}
