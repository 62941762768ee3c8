import AutoLanguage
import Testing

/// The patterns of names a file trigger takes: fnmatch's, with braces, and errors that say where.
@Suite struct FileGlobTests {
    @Test(arguments: [
        ("*.pdf", "invoice.pdf", true), ("*.pdf", "invoice.PDF", false), ("*.pdf", ".hidden.pdf", false),
        ("report-??.csv", "report-07.csv", true), ("report-??.csv", "report-7.csv", false),
        ("{a,b}*", "apple", true), ("{a,b}*", "berry", true), ("{a,b}*", "cherry", false),
        ("*.{pdf,PDF}", "x.PDF", true), ("{a,b{c,d}}.txt", "bd.txt", true), ("{a,b{c,d}}.txt", "b.txt", false),
        ("[!a-c]*", "dog", true), ("[!a-c]*", "cat", false), ("[]x]", "]", true),
        ("\\*", "*", true), ("\\*", "a", false), ("new\nline", "new\nline", true), ("-*", "-dash", true),
    ])
    func matchesNamesAsAShellWould(_ pattern: String, _ name: String, _ expected: Bool) throws {
        #expect(try FileGlob(pattern).matches(name) == expected)
    }

    @Test(arguments: [
        ("*.{pdf", 2, "the '{' here is never closed"), ("a}", 1, "'}' closes no '{'"), ("[ab", 0, "the '[' here is never closed"),
        ("a/*.pdf", 1, "a pattern matches file names, and '/' is never in a name"), ("ab\\", 2, "'\\' at the end of the pattern escapes nothing"),
        ("{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}", 0, "the braces make more than 1000 patterns"),
    ])
    func aMalformedPatternSaysWhere(_ pattern: String, _ offset: Int, _ message: String) {
        #expect(throws: FileGlob.PatternError.self) { try FileGlob(pattern) }
        do {
            _ = try FileGlob(pattern)
        } catch {
            #expect(error.message == message && error.offset == offset, "\(error)")
        }
    }
}
