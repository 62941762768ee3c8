import Foundation
import Testing
@testable import AutoLanguage

/// Keeps `grammar/auto.ebnf` and the parser in agreement: the grammar names exactly the parser's
/// productions, the fixtures and examples exercise every production, the examples parse cleanly, and so
/// do the `.auto` code blocks of the language reference, `docs/LANGUAGE.md`.
@Suite struct GrammarTests {
    /// The repository's top folder: this file is `Tests/AutoLanguageTests/GrammarTests.swift`.
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    static let grammarPath = root + "/grammar/auto.ebnf"
    static let lexicalMarker = "(* lexical *)"

    // MARK: The grammar names the parser's productions

    @Test func grammarHasOneLexicalSection() throws {
        let text = try String(contentsOfFile: Self.grammarPath, encoding: .utf8)
        let markers = text.components(separatedBy: "\n").filter { Grammar.isMarker($0, Self.lexicalMarker) }.count
        #expect(markers == 1, "grammar/auto.ebnf should have exactly one '\(Self.lexicalMarker)' line, found \(markers)")
    }

    @Test func grammarRulesAreTheProductions() throws {
        let grammar = try Grammar(contentsOf: Self.grammarPath, lexicalMarker: Self.lexicalMarker)
        let defined = grammar.productionRules.map(\.name)
        let expected = Set(Production.allCases.map(\.rawValue))
        let missing = expected.subtracting(defined).sorted()
        let extra = Set(defined).subtracting(expected).sorted()
        #expect(missing.isEmpty, "productions of the parser with no rule in grammar/auto.ebnf: \(missing.joined(separator: ", "))")
        #expect(extra.isEmpty, """
            rules before '\(Self.lexicalMarker)' that are no Production case: \(extra.joined(separator: ", ")) \
            (add the case to Production.swift, or move a helper rule into the lexical section)
            """)
    }

    @Test func grammarRulesAreDefinedOnceAndEveryReferenceIsDefined() throws {
        let grammar = try Grammar(contentsOf: Self.grammarPath, lexicalMarker: Self.lexicalMarker)
        let all = grammar.productionRules + grammar.lexicalRules
        #expect(all.count > Production.allCases.count, "the grammar should have its productions and lexical rules")
        var seen: [String: Int] = [:]
        for rule in all { seen[rule.name, default: 0] += 1 }
        let duplicates = seen.filter { $0.value > 1 }.keys.sorted()
        #expect(duplicates.isEmpty, "rules defined more than once: \(duplicates.joined(separator: ", "))")
        let names = Set(seen.keys)
        for rule in all {
            let undefined = rule.references.subtracting(names).sorted()
            #expect(undefined.isEmpty, "rule '\(rule.name)' uses undefined rules: \(undefined.joined(separator: ", "))")
        }
    }

    /// The parser reads the grammar's split itself: a sanity check that the reader of the EBNF is right, so
    /// the tests above can fail for the right reasons.
    @Test func grammarReaderFindsRulesAndIgnoresCommentsAndLiterals() throws {
        let sample = """
            (* a = b ; a nested (* comment *) ends here: c = d ; *)
            first = "x;" second | 'y=' ;   (* not_a_rule = z ; *)
            second = ? any; thing ? ;
            (* lexical *)
            third = "(*" first ;
            """
        let grammar = try Grammar(text: sample, lexicalMarker: Self.lexicalMarker)
        #expect(grammar.productionRules.map(\.name) == ["first", "second"])
        #expect(grammar.lexicalRules.map(\.name) == ["third"])
        #expect(grammar.productionRules.first?.references == ["second"])
        #expect(grammar.lexicalRules.first?.references == ["first"])
    }

    // MARK: Fixtures and examples exercise every production

    static func autoFiles(under folder: String) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: folder) else { return [] }
        return enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".auto") }.sorted().map { folder + "/" + $0 }
    }

    static let fixtures = autoFiles(under: root + "/Tests/Fixtures")
    static let examples = autoFiles(under: root + "/examples")

    static func relative(_ path: String) -> String {
        path.hasPrefix(root + "/") ? String(path.dropFirst(root.count + 1)) : path
    }

    @Test func fixturesAndExamplesCoverEveryProduction() throws {
        let files = Self.fixtures + Self.examples
        #expect(!Self.fixtures.isEmpty, "no fixtures found under Tests/Fixtures")
        #expect(!Self.examples.isEmpty, "no examples found under examples/")
        var covered: Set<Production> = []
        for path in files {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            var parser = Parser(file: SourceFile(name: path, text: text))
            parser.coverage = []
            _ = parser.parseProgram()
            covered.formUnion(parser.coverage ?? [])
        }
        let uncovered = Production.allCases.filter { !covered.contains($0) }.map(\.rawValue)
        #expect(uncovered.isEmpty, """
            no fixture under Tests/Fixtures and no script under examples/ exercises these productions: \
            \(uncovered.joined(separator: ", ")) (\(files.count) files parsed)
            """)
    }

    /// Tracking must see what a script uses, or the coverage test above proves nothing.
    @Test func coverageTracksTheProductionsEntered() {
        var parser = Parser(file: SourceFile(name: "coverage.auto", text: "set x = [1, 2] | show\n"))
        parser.coverage = []
        _ = parser.parseProgram()
        let covered = parser.coverage ?? []
        #expect(covered.isSuperset(of: [.program, .statement, .setStatement, .pipeline, .stage, .action, .list]))
        #expect(!covered.contains(.ifStatement))
        #expect(!covered.contains(.findQuery))
    }

    // MARK: The examples parse without diagnostics

    @Test func examplesExist() {
        #expect(Self.examples.count >= 5, "expected at least five example scripts under examples/")
    }

    @Test(arguments: examples.map(relative))
    func exampleParsesWithoutDiagnostics(_ path: String) throws {
        let text = try String(contentsOfFile: Self.root + "/" + path, encoding: .utf8)
        let (_, diagnostics) = Parser.parse(SourceFile(name: path, text: text))
        #expect(diagnostics.isEmpty, "\(path) has syntax errors:\n\(diagnostics.map { $0.rendered() }.joined(separator: "\n"))")
    }

    // MARK: The language reference's code parses

    /// The language reference lives in the repository, at `docs/LANGUAGE.md`. It is read from there only, so
    /// the test fails when the file is missing or moved.
    static let languageReferencePath = root + "/docs/LANGUAGE.md"

    /// Which code blocks are checked is said by each block's fence, so the rule needs no guessing:
    /// - ```` ```auto ```` (or a fence with no language) is `.auto` code and must parse with today's parser;
    /// - ```` ```auto-planned ```` shows a feature the reference specifies but the parser does not have yet
    ///   (automations, §9), and is skipped;
    /// - any other language (```` ```sh ````, ```` ```text ```` for output and diagnostics, ```` ```json ````) is
    ///   not `.auto` code, and is skipped.
    /// When a planned feature is built, its blocks are fenced ```` ```auto ```` again and this test checks them.
    static func isSkipped(_ block: CodeBlock) -> Bool {
        !["", "auto"].contains(block.language)
    }

    struct CodeBlock {
        let section: String
        let line: Int
        /// The fence's info string: `auto` for ```` ```auto ````, empty for a bare fence.
        let language: String
        let text: String
    }

    static func codeBlocks(in markdown: String) -> [CodeBlock] {
        var blocks: [CodeBlock] = []
        var section = ""
        var current: [String]?
        var language = ""
        var start = 0
        for (number, line) in markdown.components(separatedBy: "\n").enumerated() {
            if line.hasPrefix("```") {
                if let lines = current {
                    blocks.append(CodeBlock(section: section, line: start, language: language,
                                            text: lines.joined(separator: "\n") + "\n"))
                    current = nil
                } else {
                    current = []
                    language = line.dropFirst(3).trimmingCharacters(in: .whitespaces)
                    start = number + 2
                }
            } else if current != nil {
                current!.append(line)
            } else if line.hasPrefix("## ") {
                section = String(line.dropFirst(3))
            }
        }
        return blocks
    }

    @Test func languageReferenceBlocksParse() throws {
        let path = Self.languageReferencePath
        try #require(FileManager.default.fileExists(atPath: path), "the language reference docs/LANGUAGE.md is missing")
        let blocks = Self.codeBlocks(in: try String(contentsOfFile: path, encoding: .utf8))
        let checked = blocks.filter { !Self.isSkipped($0) }
        #expect(checked.count >= 10, "expected docs/LANGUAGE.md's .auto code blocks, found \(checked.count) of \(blocks.count) blocks")
        // The language's first look is always among the blocks checked.
        #expect(checked.contains { $0.section.hasPrefix("1.") }, "the §1 block of docs/LANGUAGE.md should be parsed by this test")
        for block in checked {
            let file = SourceFile(name: "docs/LANGUAGE.md (the block at line \(block.line))", text: block.text)
            let (program, diagnostics) = Parser.parse(file)
            #expect(diagnostics.isEmpty, """
                the code block at docs/LANGUAGE.md:\(block.line) (§\(block.section)) does not parse \
                (fence it as ```auto-planned if it shows a feature not built yet):
                \(diagnostics.map { $0.rendered() }.joined(separator: "\n"))
                """)
            #expect(!program.statements.isEmpty, "the code block at docs/LANGUAGE.md:\(block.line) parsed to nothing")
        }
    }

    @Test func skippingIsByTheFenceLanguage() {
        let markdown = """
            ## 1. First
            ```auto
            show 1
            ```
            ```
            show 2
            ```
            ## 2. Later
            ```auto-planned
            automation "a" every day at 07:30 { show 3 }
            ```
            ```sh
            auto -e 'show 4'
            ```
            """
        let blocks = Self.codeBlocks(in: markdown)
        #expect(blocks.map(\.language) == ["auto", "", "auto-planned", "sh"])
        #expect(blocks.map(\.section) == ["1. First", "1. First", "2. Later", "2. Later"])
        #expect(blocks.map(\.line) == [3, 6, 10, 13])
        #expect(blocks.map(Self.isSkipped) == [false, false, true, true])
        #expect(blocks[0].text == "show 1\n")
    }
}

/// Just enough of an ISO EBNF reader for the tests: the rules (`name = body ;`) of the part before the
/// lexical marker and of the part after it, with the rule names each body refers to. Comments `(* *)` (nested),
/// terminals in `"…"` or `'…'` and special sequences `? … ?` are skipped.
struct Grammar {
    struct Rule {
        let name: String
        let references: Set<String>
    }

    struct FormatError: Error, CustomStringConvertible {
        let description: String
    }

    let productionRules: [Rule]
    let lexicalRules: [Rule]

    init(contentsOf path: String, lexicalMarker: String) throws {
        try self.init(text: try String(contentsOfFile: path, encoding: .utf8), lexicalMarker: lexicalMarker)
    }

    /// The lexical section starts at a line that holds only the marker comment.
    init(text: String, lexicalMarker: String) throws {
        let lines = text.components(separatedBy: "\n")
        guard let marker = lines.firstIndex(where: { Self.isMarker($0, lexicalMarker) }) else {
            throw FormatError(description: "no '\(lexicalMarker)' line in the grammar")
        }
        productionRules = try Self.rules(in: lines[..<marker].joined(separator: "\n"))
        lexicalRules = try Self.rules(in: lines[(marker + 1)...].joined(separator: "\n"))
    }

    static func isMarker(_ line: String, _ marker: String) -> Bool {
        line.trimmingCharacters(in: .whitespaces) == marker
    }

    /// The text with comments, terminals and special sequences replaced by spaces.
    static func skeleton(_ text: String) throws -> String {
        let characters = Array(text)
        var out = ""
        var i = 0
        func skip(to closer: [Character], from start: Int, what: String) throws -> Int {
            var j = start
            while j + closer.count <= characters.count {
                if Array(characters[j..<(j + closer.count)]) == closer { return j + closer.count }
                j += 1
            }
            throw FormatError(description: "unterminated \(what) in the grammar")
        }
        while i < characters.count {
            let c = characters[i]
            if c == "(", i + 1 < characters.count, characters[i + 1] == "*" {
                // Comments nest, as ISO 14977 allows: the header explains "(* ... *)" inside one.
                var depth = 0
                repeat {
                    if i + 1 < characters.count, characters[i] == "(", characters[i + 1] == "*" {
                        depth += 1
                        i += 2
                    } else if i + 1 < characters.count, characters[i] == "*", characters[i + 1] == ")" {
                        depth -= 1
                        i += 2
                    } else if i < characters.count {
                        i += 1
                    } else {
                        throw FormatError(description: "unterminated comment in the grammar")
                    }
                } while depth > 0
                out += " "
            } else if c == "\"" || c == "'" {
                i = try skip(to: [c], from: i + 1, what: "terminal")
                out += " \"\" "
            } else if c == "?" {
                i = try skip(to: ["?"], from: i + 1, what: "special sequence")
                out += " \"\" "
            } else {
                out.append(c)
                i += 1
            }
        }
        return out
    }

    static func rules(in text: String) throws -> [Rule] {
        let skeleton = try skeleton(text)
        var rules: [Rule] = []
        let statements = skeleton.split(separator: ";", omittingEmptySubsequences: false)
        for (index, statement) in statements.enumerated() {
            let trimmed = statement.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty {
                // Only the text after the last ';' may be empty.
                continue
            }
            guard index < statements.count - 1 else {
                throw FormatError(description: "text after the last ';': \(trimmed.prefix(60))")
            }
            guard let equals = trimmed.firstIndex(of: "=") else {
                throw FormatError(description: "a rule without '=': \(trimmed.prefix(60))")
            }
            let name = trimmed[..<equals].trimmingCharacters(in: .whitespaces)
            guard isIdentifier(name) else {
                throw FormatError(description: "a rule's name is not an identifier: '\(name)'")
            }
            let body = trimmed[trimmed.index(after: equals)...]
            let references = body.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init).filter(isIdentifier)
            rules.append(Rule(name: name, references: Set(references)))
        }
        return rules
    }

    static func isIdentifier(_ word: String) -> Bool {
        guard let first = word.first, first.isLetter || first == "_" else { return false }
        return word.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
    }
}
