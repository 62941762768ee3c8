@testable import AutoAutomation
import AutoLanguage
import Testing

/// Patterns on file names: the shell's wildcards, sets and braces, matched by characters, and malformed patterns
/// refused with the column and what to write instead.
@Suite struct FileEventGlobTests {
    func matching(_ pattern: String, _ names: [String]) throws -> [String] {
        let glob = try FileGlob(pattern)
        return names.filter(glob.matches)
    }

    @Test func starMatchesAnyRunIncludingALeadingDot() throws {
        #expect(try matching("*.pdf", ["a.pdf", "b.PDF", ".hidden.pdf", "a.pdf.part", "pdf", ".pdf", "x y.pdf"])
                == ["a.pdf", ".hidden.pdf", ".pdf", "x y.pdf"])
        #expect(try matching("*", ["a", "", ".x"]) == ["a", "", ".x"])
        #expect(try matching("a*b*c", ["abc", "aXbYc", "aXbY", "acb", "abcbc"]) == ["abc", "aXbYc", "abcbc"])
        #expect(try matching("**x", ["x", "abx", "xa"]) == ["x", "abx"])
    }

    @Test func questionMarkIsOneCharacterEvenOneStoredDecomposed() throws {
        #expect(try matching("report-??.csv", ["report-01.csv", "report-1.csv", "report-001.csv", "report-ab.csv", "report-é1.csv"])
                == ["report-01.csv", "report-ab.csv", "report-é1.csv"])
        // "é" as e + combining acute is one character, and equal to the composed one.
        #expect(try matching("caf?", ["cafe\u{301}", "café"]) == ["cafe\u{301}", "café"])
        #expect(try matching("café.txt", ["cafe\u{301}.txt"]) == ["cafe\u{301}.txt"])
    }

    @Test func setsRangesNegationAndClasses() throws {
        #expect(try matching("[abc]1", ["a1", "b1", "d1", "ab1"]) == ["a1", "b1"])
        #expect(try matching("[!a-z]*", ["a", "Z", "1x", "-rf", ""]) == ["Z", "1x", "-rf"])
        #expect(try matching("[^a-z]", ["a", "Z"]) == ["Z"])
        #expect(try matching("[]x]", ["]", "x", "["]) == ["]", "x"])
        #expect(try matching("[a-]", ["a", "-", "b"]) == ["a", "-"])
        #expect(try matching("IMG_[[:digit:]][[:digit:]].jpg", ["IMG_12.jpg", "IMG_1a.jpg"]) == ["IMG_12.jpg"])
        #expect(try matching("[[:upper:]]*", ["Read", "read", "Élan"]) == ["Read", "Élan"])
        #expect(try matching("[\\]]", ["]"]) == ["]"])
    }

    @Test func bracesAreAlternativesThatNestAndHoldPatterns() throws {
        #expect(try matching("{a,b}*", ["apple", "banana", "cherry", "a"]) == ["apple", "banana", "a"])
        #expect(try matching("*.{jpg,jpe{g,}}", ["x.jpg", "x.jpeg", "x.jpe", "x.png"]) == ["x.jpg", "x.jpeg", "x.jpe"])
        #expect(try matching("{report-??,summary}.csv", ["report-01.csv", "summary.csv", "report-1.csv"]) == ["report-01.csv", "summary.csv"])
        #expect(try matching("x{,.bak}", ["x", "x.bak", "x.b"]) == ["x", "x.bak"])
        #expect(try matching("a,b", ["a,b", "a"]) == ["a,b"], "a comma outside braces is itself")
    }

    @Test func aBackslashMakesTheNextCharacterPlain() throws {
        #expect(try matching("\\*.txt", ["*.txt", "a.txt"]) == ["*.txt"])
        #expect(try matching("what\\?", ["what?", "whats"]) == ["what?"])
        #expect(try matching("\\{a,b\\}", ["{a,b}", "a"]) == ["{a,b}"])
        #expect(try matching("back\\\\slash", ["back\\slash"]) == ["back\\slash"])
    }

    @Test func oddNamesAreJustCharacters() throws {
        #expect(try matching("-*", ["-rf", "--help", "a-"]) == ["-rf", "--help"])
        #expect(try matching("*line*", ["new\nline", "a line"]) == ["new\nline", "a line"])
        #expect(try matching("a b", ["a b", "ab"]) == ["a b"])
    }

    @Test(arguments: [
        ("[abc", 1, "'[' is never closed; write '\\[' to match a '[' itself"),
        ("x{a,b", 2, "'{' is never closed; write '\\{' to match a '{' itself"),
        ("a}b", 2, "'}' closes no '{'; write '\\}' to match a '}' itself"),
        ("abc\\", 4, "'\\' at the end escapes nothing; write '\\\\' to match a '\\' itself"),
        ("docs/*.pdf", 5, "a pattern matches a file's name, not its path"),
        ("[z-a].txt", 2, "the range 'z-a' is backwards; write 'a-z'"),
        ("", 1, "the pattern is empty"),
        ("[[:letter:]]", 2, "there is no class '[:letter:]'"),
        ("[!]", 1, "'[' is never closed"),
    ])
    func aMalformedPatternSaysWhereAndWhatToWrite(pattern: String, column: Int, reason: String) {
        #expect {
            _ = try FileGlob(pattern)
        } throws: { error in
            guard let error = error as? FileGlobError else { return false }
            return error.column == column && error.reason.hasPrefix(reason) && error.description.contains("column \(column)")
        }
    }

    @Test func bracesThatMultiplyTooFarAreRefusedNotSlow() throws {
        let pattern = String(repeating: "{a,b,c}", count: 8)
        #expect(throws: FileGlobError.self) { _ = try FileGlob(pattern) }
        let deep = String(repeating: "{", count: 10_000)
        #expect(throws: FileGlobError.self) { _ = try FileGlob(deep) }
        // The matcher never backtracks into a blow-up.
        let stars = try FileGlob(String(repeating: "*a", count: 30) + "b")
        #expect(!stars.matches(String(repeating: "a", count: 5_000)))
    }
}
