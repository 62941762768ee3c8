import AutoIntents
import AutoLanguage
import AutoRuntime
import AutoStdlib
import AutoTestSupport
import Foundation
import Testing

/// YAML and CSV through their libraries (Yams, CSV.swift), read into the language's values and written back.
@Suite struct DataIntentsTests {
    let registry: Registry

    init() throws {
        registry = try stdlibRegistry()
    }

    func run(_ text: String) async -> ScriptOutcome {
        await EngineHarness.run(text, registry: registry)
    }

    @Test func yamlBecomesRecordsListsNumbersAndTexts() async {
        let outcome = await run(#"""
            set y = parse yaml "name: auto\nversion: 1.50\ncount: 3\nquoted: \"123\"\nflag: yes\nnothing: ~\nitems:\n  - a\n  - {b: 2}\nbase: &b {x: 1}\nref: *b\n"
            show json(y)
            show y.version + 1
            """#)
        #expect(outcome.output == [#"{"name":"auto","version":1.5,"count":3,"quoted":"123","flag":true,"nothing":null,"items":["a",{"b":2}],"base":{"x":1},"ref":{"x":1}}"#,
                                   "2.5"], "\(outcome.standardError)")
    }

    @Test func badOrExplodingYamlIsAnError() async {
        let broken = await run(#"parse yaml "a: [1""#)
        #expect(broken.exitCode == 1)
        #expect(broken.standardError.contains("the text is not YAML: 2:1"), "\(broken.standardError)")
        // Each level names the one below nine times: 9^8 values from a few hundred bytes.
        var laughs = "a: &a [x, x, x, x, x, x, x, x, x]\n"
        for level in 1...8 { laughs += "l\(level): &l\(level) [" + Array(repeating: level == 1 ? "*a" : "*l\(level - 1)", count: 9).joined(separator: ", ") + "]\n" }
        let escaped = laughs.replacingOccurrences(of: "\n", with: "\\n")
        let exploding = await run("parse yaml \"\(escaped)\"")
        #expect(exploding.standardError.contains("stands for more than 1000000 values"), "\(exploding.standardError)")
    }

    @Test func csvRowsAreRecordsAndComeBackTheSame() async {
        let outcome = await run(#"""
            set rows = parse csv "title,author,pages\n\"Emma, a novel\",Jane Austen,474\nCirce,\"Madeline \"\"M\"\" Miller\",393\n\n\"Two\nlines\",,1\n"
            show count(rows)
            show rows[0].title
            show rows[1].author
            show rows[2].title
            show rows[2].author == ""
            show csv rows
            show parse csv "a;b\n1;2" separator: ";"
            """#)
        #expect(outcome.output == ["3", "Emma, a novel", "Madeline \"M\" Miller", "Two", "lines", "true",
                                   "title,author,pages", "\"Emma, a novel\",Jane Austen,474", "Circe,\"Madeline \"\"M\"\" Miller\",393",
                                   "\"Two", "lines\",,1", "", #"{a: "1", b: "2"}"#], "\(outcome.standardError)")
    }

    @Test func csvOfRecordsWithOtherFieldsAndBadValues() async {
        let written = await run(#"show csv [{a: 1, b: "x,y"}, {a: 2.5, c: true}] separator: ";""#)
        #expect(written.output == ["a;b;c", "1;x,y;", "2.5;;true", ""], "\(written.standardError)")
        let nested = await run(#"csv [{a: [1, 2]}]"#)
        #expect(nested.standardError.contains("the field 'a' holds List"), "\(nested.standardError)")
        let ragged = await run(#"parse csv "a,b\n1,2,3""#)
        #expect(ragged.standardError.contains("the text is not CSV: line 2, column 5: this line has 3 fields and the first line names 2"),
                "\(ragged.standardError)")
        // Bad quoting is an error at its place, never a field that swallows the rows after it.
        let stray = await run(#"parse csv "title,author\n\"Emma\" 2,Jane Austen\nB,C\n""#)
        #expect(stray.standardError.contains("line 2, column 7: ' ' after the closing quote at column 6"), "\(stray.standardError)")
        let unclosed = await run(#"parse csv "title,author\n\"Unclosed,B\nC,D\n""#)
        #expect(unclosed.standardError.contains("line 2, column 1: the quote opened here is never closed"), "\(unclosed.standardError)")
        let separator = await run(#"parse csv "a" separator: "ab""#)
        #expect(separator.standardError.contains("the separator is one character"), "\(separator.standardError)")
    }
}
