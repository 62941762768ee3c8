@testable import AutoLanguage
import AutoTestSupport
import Foundation
import Testing

/// `Formatter`: the canonical layout rule by rule, its safety (syntax errors refused, meaning kept, no trap on any
/// input), idempotence on every script there is, and the repository's own scripts already in the layout.
@Suite struct FormatterTests {
    /// The formatted text, or nil when the formatter refused.
    static func format(_ text: String) -> String? {
        if case .success(let formatted) = Formatter.format(text: text, name: "t.auto") { return formatted }
        return nil
    }

    /// `input` formats to `expected`, which formats to itself.
    func check(_ input: String, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let formatted = Self.format(input)
        #expect(formatted == expected, "formatted:\n\(formatted ?? "(refused)")", sourceLocation: sourceLocation)
        #expect(Self.format(expected) == expected, "the expected text is not a fixed point", sourceLocation: sourceLocation)
    }

    // MARK: Indentation

    @Test func blocksIndentByTwo() {
        check("for x in [1, 2] {\nif x > 1 {\n        show x\n}\n\t}\n",
              "for x in [1, 2] {\n  if x > 1 {\n    show x\n  }\n}\n")
        check("shortcut \"s\" (n: Int) {\n    return n\n    }\n", "shortcut \"s\" (n: Int) {\n  return n\n}\n")
        check("  show 1\n", "show 1\n")
    }

    @Test func elseAndOtherwiseOnTheirOwnLineAreNotContinuations() {
        check("if true {\nshow 1\n}\n   else {\nshow 2\n}\n", "if true {\n  show 1\n}\nelse {\n  show 2\n}\n")
        check("if true { show 1 } else if false { show 2 }\n", "if true { show 1 } else if false { show 2 }\n")
        check("try {\nshow 1\n}\n  otherwise {\nshow error\n}\n", "try {\n  show 1\n}\notherwise {\n  show error\n}\n")
    }

    @Test func aContinuedStatementIndentsByFourMore() {
        // After an operator, `=`, `->`, `.`, a label's `:`; a line starting with `|`.
        check("set x = 1 +\n2\nshow x\n", "set x = 1 +\n    2\nshow x\n")
        check("set x =\n  1\n", "set x =\n    1\n")
        check("\"a\"\n| shout\n  | shout -> b\n", "\"a\"\n    | shout\n    | shout -> b\n")
        check("1 ->\nx\n", "1 ->\n    x\n")
        check("if true {\n  show 1 +\n2\n}\n", "if true {\n  show 1 +\n      2\n}\n")
        // The block of a header that continues is indented from the header's first line.
        check("if 1 < 2 and\n2 < 3 {\nshow 1\n}\n", "if 1 < 2 and\n    2 < 3 {\n  show 1\n}\n")
        // `phrases` and an automation's trigger and options go on the declaration; its `{` alone starts the block.
        check("shortcut \"d\" (n: Int)\nphrases [\"d \\(n)\"] {\nreturn n\n}\n",
              "shortcut \"d\" (n: Int)\n    phrases [\"d \\(n)\"] {\n  return n\n}\n")
        check("automation \"a\"\nevery 2 hours\n  mode queued\n{\nshow 1\n}\n",
              "automation \"a\"\n    every 2 hours\n    mode queued\n{\n  show 1\n}\n")
    }

    @Test func bracketsLeftOpenIndentTheirLinesByTwo() {
        check("set xs = [\n1,\n      2,\n        ]\n", "set xs = [\n  1,\n  2,\n]\n")
        check("set r = {a: 1,\nb:\n2}\n", "set r = {a: 1,\n  b:\n      2}\n")
        check("show count(\nf(\n1)\n)\n", "show count(\n  f(\n    1)\n)\n")
        check("for x in [\n1,\n] {\nshow x\n}\n", "for x in [\n  1,\n] {\n  show x\n}\n")
        // Two brackets opened on one line: their lines go 2 deeper, not 4, and the line closing both comes back.
        check("show max([\n1,\n])\n", "show max([\n  1,\n])\n")
        // A `,` starting a line starts an item.
        check("set xs = [1\n, 2]\n", "set xs = [1\n  , 2]\n")
    }

    // MARK: Spaces

    @Test func spacesBetweenTokens() {
        check("set x=1+2*3-4/5%6\n", "set x = 1 + 2 * 3 - 4 / 5 % 6\n")
        check("show x==1 and y!=2 or z<=3\n", "show x == 1 and y != 2 or z <= 3\n")
        check("show max( 1 ,2 )\n", "show max(1, 2)\n")
        check("show [ 1,2 , 3 ]\n", "show [1, 2, 3]\n")
        check("show {a:1 , b : [ ]}\n", "show {a: 1, b: []}\n")
        check("show {}\n", "show {}\n")
        check("show r . title\n", "show r.title\n")
        check("show r.\"first name\"\n", "show r.\"first name\"\n")
        check("xs|each it*2->doubled\n", "xs | each it * 2 -> doubled\n")
        check("shortcut \"p\" (a:Int,b:[Text]=[],c:Text?=nil) { return a }\n",
              "shortcut \"p\" (a: Int, b: [Text] = [], c: Text? = nil) { return a }\n")
        check("show 2hours\n", "show 2 hours\n")
    }

    @Test func oneLineBlocksHaveASpaceInsideTheirBraces() {
        check("if n < 0 {return \"negative\"}\n", "if n < 0 { return \"negative\" }\n")
        check("if n < 0 {   return \"negative\"   }\n", "if n < 0 { return \"negative\" }\n")
        check("repeat 2 times{}\n", "repeat 2 times { }\n")
    }

    @Test func aSpaceBeforeAParenthesisOrABracketIsKept() {
        // `count(x)` calls the function, `count (x)` is an action given (x): both stay as written.
        check("show count(x)\nshow count (x)\n", "show count(x)\nshow count (x)\n")
        check("show(1)\nshow (1)\n", "show(1)\nshow (1)\n")
        check("show xs[0]\nshow xs [0]\n", "show xs[0]\nshow xs [0]\n")
        check("show (f(x)) [1]\n", "show (f(x)) [1]\n")
        // After something that isn't a value, the space means nothing: it follows the layout.
        check("show max( (1), [ 2 ][0])\n", "show max((1), [2][0])\n")
        check("shortcut \"o\" (t: Text?) { return t }\n", "shortcut \"o\" (t: Text?) { return t }\n")
    }

    @Test func aMinusKeepsItsReading() {
        check("set y = - x\nshow f(- 1)\nshow [1, -2]\n", "set y = -x\nshow f(-1)\nshow [1, -2]\n")
        // After a value: a subtraction gets its spaces; `show -1` (space before, none after) passes minus one.
        check("show x-1\nshow x -1\nshow x - 1\nshow x- 1\n", "show x - 1\nshow x -1\nshow x - 1\nshow x - 1\n")
        check("show x - -1\nshow 1 - - 1\n", "show x - -1\nshow 1 - -1\n")
        check("show (x) -1\n", "show (x) -1\n")
        // A `-` that ends the line subtracts the next line.
        check("show x -\n1\n", "show x -\n    1\n")
        check("show -9223372036854775808\n", "show -9223372036854775808\n")
    }

    @Test func aTimeOfDayStaysWhole() {
        check("automation \"m\" every day at 07:30 { show 1 }\n", "automation \"m\" every day at 07:30 { show 1 }\n")
    }

    @Test func literalsAreCopiedAsWritten() {
        check("show 1_000   +  0.10\n", "show 1_000 + 0.10\n")
        check("show \"a  \\(x+1)  b \\( f( 2 ) )\"\n", "show \"a  \\(x+1)  b \\( f( 2 ) )\"\n")
        check("show \"tab\\tquote\\\" # not a comment\"\n", "show \"tab\\tquote\\\" # not a comment\"\n")
    }

    @Test func semicolonsStay() {
        check("set a = 1 ;set b = 2\n", "set a = 1; set b = 2\n")
        check("; ;show 1\n", "; ; show 1\n")
    }

    // MARK: Lines

    @Test func blankLines() {
        check("\n\n\nshow 1\n\n\n\nshow 2\n\n\n", "show 1\n\nshow 2\n")
        check("if true {\n\n  show 1\n\n}\n", "if true {\n  show 1\n}\n")
        check("set xs = [\n\n1,\n\n]\n", "set xs = [\n  1,\n]\n")
        check("show 1", "show 1\n")
        check("", "")
        check("\n  \n\t\n", "")
        check("show 1   \n", "show 1\n")
    }

    @Test func carriageReturnsGo() {
        check("show 1\r\nif true {\r\n  show 2\r\n}\r\n", "show 1\nif true {\n  show 2\n}\n")
        check("show 1 # note\r\n", "show 1  # note\n")
    }

    @Test func theShebangLineIsKeptAsWritten() {
        check("#!/usr/bin/env  auto  \nshow 1\n", "#!/usr/bin/env  auto  \nshow 1\n")
        check("#!/usr/bin/env auto\r\n\n\nshow 1\n", "#!/usr/bin/env auto\n\nshow 1\n")
        check("#!/usr/bin/env auto", "#!/usr/bin/env auto\n")
    }

    // MARK: Comments

    @Test func wholeLineCommentsAreIndentedAsTheNextLine() {
        check("# top\nif true {\n# inside\nshow 1\n        # before the end\n}\n# last\n",
              "# top\nif true {\n  # inside\n  show 1\n  # before the end\n}\n# last\n")
        check("set x = 1 +\n# the rest\n2\n", "set x = 1 +\n    # the rest\n    2\n")
        check("set xs = [\n1,\n# more\n]\n", "set xs = [\n  1,\n  # more\n]\n")
        check("#no space, kept   \n", "#no space, kept\n")
    }

    @Test func trailingCommentsKeepTwoSpacesAndAlignInRuns() {
        check("show 1 # one\n", "show 1  # one\n")
        check("show 1 # one\nshow 22 # two\nshow 333 # three\n",
              "show 1    # one\nshow 22   # two\nshow 333  # three\n")
        // A blank line, a comment-only line or a line without a comment ends a run.
        check("show 1 # one\n\nshow 333 # three\n", "show 1  # one\n\nshow 333  # three\n")
        check("show 1 # one\n# between\nshow 333 # three\n", "show 1  # one\n# between\nshow 333  # three\n")
        check("show 1 # one\nshow 4444\nshow 333 # three\n", "show 1  # one\nshow 4444\nshow 333  # three\n")
        // A column chosen by hand, further right, is kept, and the run joins it.
        check("show 1            # one\nshow 22  # two\n", "show 1            # one\nshow 22           # two\n")
        // Comments after `{` and `}` are trailing comments too.
        check("if true { # why\nshow 1\n} # done\n", "if true {  # why\n  show 1\n}  # done\n")
        // The two spaces are counted in characters, whatever their bytes.
        check("show \"é🇫🇷\" # x\nshow 1 # y\n", "show \"é🇫🇷\"  # x\nshow 1     # y\n")
    }

    @Test func runsAreFoundAfterBlankLinesGo() {
        // The blank line before `}` goes, so the two commented lines become one run: formatting again must not move
        // them once more.
        let once = Self.format("if true {\n  show 1 # a\n\n} # b\n")
        #expect(once == "if true {\n  show 1  # a\n}         # b\n")
        #expect(once.flatMap(Self.format) == once)
    }

    // MARK: Safety

    @Test func aScriptWithSyntaxErrorsIsRefusedWithItsErrors() throws {
        let result = Formatter.format(text: "show 1\nset x = (1 +\nshow 2\n", name: "broken.auto")
        guard case .failure(.syntaxErrors(let diagnostics)) = result else {
            Issue.record("expected the syntax errors, got \(result)")
            return
        }
        let (_, parsed) = Parser.parse(SourceFile(name: "broken.auto", text: "show 1\nset x = (1 +\nshow 2\n"))
        #expect(diagnostics.map(\.description) == parsed.map(\.description))
        #expect(diagnostics.first?.description.hasPrefix("broken.auto:2:") == true, "\(diagnostics)")
        // The lexer's errors too.
        guard case .failure(.syntaxErrors(let lexed)) = Formatter.format(text: "show 0x1F\n", name: "hex.auto") else {
            Issue.record("a hexadecimal literal should be refused")
            return
        }
        #expect(lexed.map(\.message) == ["hexadecimal literals aren't supported"])
    }

    @Test func theCheckFindsAChangedToken() {
        let original = LexedSource(SourceFile(name: "a", text: "show count(x) -1 # c\n"))
        #expect(LexedSource(SourceFile(name: "b", text: "show count(x) -1  # c\n\n")).difference(from: original) == nil)
        // A call become an argument, a negative argument become a subtraction, a lost comment, another word.
        for changed in ["show count (x) -1 # c\n", "show count(x) - 1 # c\n", "show count(x) -1\n", "show count(y) -1 # c\n",
                        "show count(x)\n-1 # c\n", "show count(x) -1 # d\n"] {
            let difference = LexedSource(SourceFile(name: "b", text: changed)).difference(from: original)
            #expect(difference?.hint?.contains("bug of the formatter") == true, "\(changed) should differ")
        }
    }

    // MARK: Every script

    /// The scripts of the repository outside Tests/: examples, the standard library's, anything else.
    static let repositoryScripts: [String] = {
        let root = URL(fileURLWithPath: Fixture.repositoryRoot).standardizedFileURL
        guard let walk = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
        var scripts: [String] = []
        for case let url as URL in walk {
            let relative = String(url.standardizedFileURL.path.dropFirst(root.path.count + 1))
            // Hidden folders (.build, .git) and the tests' own scripts, many of them broken on purpose, are left out.
            if url.lastPathComponent.hasPrefix(".") || relative == "Tests" {
                walk.skipDescendants()
                continue
            }
            if relative.hasSuffix(".auto") { scripts.append(relative) }
        }
        return scripts.sorted()
    }()

    static func read(_ relativePath: String) -> String {
        (try? String(contentsOfFile: Fixture.repositoryRoot + "/" + relativePath, encoding: .utf8)) ?? ""
    }

    @Test func theRepositoryHasScriptsToCheck() {
        #expect(Self.repositoryScripts.count >= 40, "\(Self.repositoryScripts)")
        #expect(Self.repositoryScripts.contains("examples/shortcuts.auto"))
        #expect(Self.repositoryScripts.contains { $0.hasPrefix("Sources/AutoStdlib/") })
        #expect(Self.repositoryScripts.contains { $0.hasPrefix("stdlib/") })
    }

    /// Every script outside Tests/ is in the canonical layout (`auto format` them when this fails).
    @Test(arguments: repositoryScripts)
    func theRepositoryScriptIsFormatted(_ path: String) {
        let text = Self.read(path)
        #expect(!text.isEmpty)
        let formatted = Self.format(text)
        #expect(formatted == text, "\(path) is not formatted: run `auto format \(path)`")
    }

    /// The golden fixtures that parse, the repository's scripts and the `auto` blocks of the docs: each formats
    /// (never refused as a change of meaning), and formatting the result changes nothing.
    @Test func everyScriptFormatsToAFixedPoint() {
        var formattedCount = 0
        for (name, text) in Self.allScripts() {
            switch Formatter.format(text: text, name: name) {
            case .success(let once):
                formattedCount += 1
                #expect(Self.format(once) == once, "\(name): formatting twice changes it again")
            case .failure(.changedMeaning(let diagnostic)):
                Issue.record("\(name): \(diagnostic.rendered())")
            case .failure(.syntaxErrors):
                break
            }
        }
        #expect(formattedCount >= 200, "only \(formattedCount) scripts formatted")
    }

    static func allScripts() -> [(name: String, text: String)] {
        let fixtures = Fixture.all(under: Fixture.repositoryRoot + "/Tests").map { ($0.path, $0.text) }
        let repository = repositoryScripts.map { ($0, read($0)) }
        var blocks: [(String, String)] = []
        for document in ["README.md", "docs/LANGUAGE.md"] {
            let parts = read(document).components(separatedBy: "```auto\n")
            for (index, part) in parts.enumerated().dropFirst() {
                blocks.append(("\(document) block \(index)", part.components(separatedBy: "```").first ?? ""))
            }
        }
        return fixtures + repository + blocks
    }

    /// A canonical script with its layout spoiled — indentation, spaces that mean nothing, blank lines, trailing
    /// whitespace, line ends — formats back to itself. Lines with a comment after code keep their layout, whose
    /// column counts.
    @Test func aSpoiledLayoutComesBack() {
        var random = SeededRandom(seed: 7)
        var compared = 0, spoiledCount = 0
        for (name, text) in Self.allScripts() {
            guard let canonical = Self.format(text), !canonical.isEmpty else { continue }
            compared += 1
            for _ in 0..<3 {
                let spoiled = Self.spoil(canonical, &random)
                if spoiled != canonical { spoiledCount += 1 }
                let formatted = Self.format(spoiled)
                #expect(formatted == canonical, "\(name), spoiled as:\n\(spoiled)\nformats to:\n\(formatted ?? "(refused)")")
                if formatted != canonical { return }
            }
        }
        #expect(compared >= 200 && spoiledCount >= compared * 2, "\(spoiledCount) spoiled of \(compared) scripts")
    }

    /// `canonical` with its layout spoiled where the layout means nothing.
    static func spoil(_ canonical: String, _ random: inout SeededRandom) -> String {
        let file = SourceFile(name: "s", text: canonical)
        let source = LexedSource(file)
        let tokens = source.tokens
        let layout = Layout(source: source, marks: SyntaxMarks(Parser.parse(file).0))
        let lines = layout.sourceLines()
        var spoiled: [String] = []
        for (number, line) in lines.enumerated() {
            let written = file.line(number + 1)
            if number == 0, source.shebang != nil {
                spoiled.append(written)
                continue
            }
            if line.isBlank {
                // A blank line may become several, with spaces in them.
                for _ in 0..<random.int(1...3) { spoiled.append(random.pick(["", " ", "\t"])) }
                continue
            }
            if !line.tokens.isEmpty, line.comment != nil {
                // A comment after code keeps its column: the line stays as it is.
                spoiled.append(written)
                continue
            }
            var text = random.pick(["", " ", "\t", "   ", "      ", "\t  "])
            for (position, index) in line.tokens.enumerated() {
                let token = tokens[index]
                if position > 0 {
                    let previous = tokens[index - 1]
                    // Where a space means something it stays as it is: before a `(`, `[` or `?` after a value, around
                    // a `-`.
                    let meaningful = LexedSource.endsValue(previous) && (token.isSymbol(.leftParen) || token.isSymbol(.leftBracket)
                        || token.isSymbol(.question)) || token.isSymbol(.minus) || previous.isSymbol(.minus)
                    let space = token.spaceBefore ? " " : ""
                    text += meaningful ? space : space + random.pick(["", "", " ", "\t", "  "])
                }
                text += source.text(index)
            }
            if let comment = line.comment { text += source.file.text(of: comment) }
            text += random.pick(["", "", " ", "\t", "  "])
            spoiled.append(text)
            // A blank line after an opening bracket goes away, as one before a closing bracket does.
            let opens = line.tokens.last.map { layout.isOpener(tokens[$0]) } ?? false
            let nextCloses = lines.indices.contains(number + 1) && (lines[number + 1].tokens.first.map { layout.isCloser(tokens[$0]) } ?? false)
            if opens || nextCloses, random.chance(0.5) { spoiled.append("") }
        }
        var text = spoiled.joined(separator: "\n")
        if source.shebang == nil, random.chance(0.5) { text = "\n \n" + text }
        if random.chance(0.5) { text += "\n\n" }
        if random.chance(0.3) { text = text.replacingOccurrences(of: "\n", with: "\r\n") }
        return text
    }

    /// Any input, cut and spliced from the fixtures with stray brackets, minus signs, comments and line breaks: the
    /// formatter never traps, never takes it for a change of meaning, and what it formats is a fixed point.
    @Test func arbitraryInputIsFormattedOrRefusedNeverBroken() {
        var random = SeededRandom(seed: 2024)
        let texts = Self.allScripts().map(\.text).filter { !$0.isEmpty }
        let noise = ["(", ")", "[", "]", "{", "}", "-", " -", "- ", "\n", "\r\n", "#", "# x\n", ",", ":", ";", "|", "\"", "\\(", " ",
                     "\t", "?", ".", "->", "=", "if ", "else", "é", "0", "1_0", "9223372036854775808", "#!"]
        var formatted = 0
        for _ in 0..<3000 {
            var bytes = Array(random.pick(texts).utf8)
            for _ in 0..<random.int(1...4) {
                let at = random.int(0...bytes.count)
                switch random.next(3) {
                case 0: bytes.insert(contentsOf: Array(random.pick(noise).utf8), at: at)
                case 1: bytes.removeSubrange(at..<min(bytes.count, at + random.int(1...8)))
                default:
                    let other = Array(random.pick(texts).utf8)
                    let start = random.int(0...other.count)
                    bytes.insert(contentsOf: other[start..<min(other.count, start + random.int(1...40))], at: at)
                }
            }
            let text = String(decoding: bytes, as: UTF8.self)
            switch Formatter.format(text: text, name: "m.auto") {
            case .success(let once):
                formatted += 1
                #expect(Self.format(once) == once, "not a fixed point:\n\(text)")
            case .failure(.changedMeaning(let diagnostic)):
                Issue.record("the formatter would change the meaning of:\n\(text)\n\(diagnostic.rendered())")
            case .failure(.syntaxErrors(let diagnostics)):
                #expect(!diagnostics.isEmpty)
            }
        }
        #expect(formatted >= 300, "only \(formatted) of the inputs formatted")
    }

    // MARK: A real example

    /// examples/shortcuts.auto written carelessly: tabs and odd indentation, no spaces or too many, blank lines
    /// where they don't belong, CRLF line ends, trailing spaces, and comments where a run doesn't align them.
    @Test func aMessyExampleFormatsToTheExample() {
        /// `code`, then `comment` at column 47, where the example has its `# expect:` comments.
        func at47(_ code: String, _ comment: String) -> String {
            code + String(repeating: " ", count: max(1, 46 - code.count)) + comment
        }
        let lines = [
            "", "",
            "# Shortcuts: intents written in .auto. They are called like any action, take labeled parameters with   \r",
            "# defaults, and may call each other.\r",
            "\r",
            "\r",
            "shortcut \"greeting\" (name:Text=\"friend\",punctuation : Text = \"!\"){\r",
            "\r",
            "\treturn \"Hello, \\(name)\\(punctuation)\"\r",
            "\r",
            "}",
            at47("show greeting", "# expect: Hello, friend!"),
            "show   greeting \"Ada\" # expect: Hello, Ada!",
            "  show greeting \"Ada\" punctuation:\"?\"   # expect: Hello, Ada?\t",
            "",
            "  # The first parameter is the input: a value piped in fills it.",
            at47("\"Grace\"|greeting|show", "# expect: Hello, Grace!"),
            "", "", "",
            "# One shortcut calling another (and the stdlib's `shout`).",
            "shortcut \"welcome\" (names: [ Text ]) {",
            "    for name in names {",
            "            greeting name punctuation: \".\" | show",
            "    }",
            "    return shout \"welcome, all \\(count(names))\"",
            "}",
            "welcome [\"Ada\" , \"Linus\"]->message",
            "# expect: Hello, Ada.",
            "  # expect: Hello, Linus.",
            at47("show message", "# expect: welcome, all 2!"),
            "",
            "# An optional parameter (`Int?`) is nil unless given.",
            "shortcut \"price\" (amount: Int, discount: Int? = nil) {",
            " if discount==nil {return amount}",
            " return amount-amount*discount/100",
            "}",
            "show price 80 # expect: 80",
            at47("show price 80 discount:25", "# expect: 60.0"),
            "",
            "# `return` leaves early; phrases say how people ask for a shortcut (`auto say -f examples/shortcuts.auto \"what is 7\"`).",
            "shortcut \"describe number\" (n: Int)",
            "  phrases [\"describe \\(n)\", \"what is \\(n)\"] {",
            "  if n < 0 { return \"negative\" }",
            "  if n == 0 { return \"zero\" }",
            "  if n % 2 == 0 { return \"even\" }",
            "  return \"odd\"",
            "}",
            "for n in [- 3, 0, 4, 7] { show \"\\(n) is \\(describe number n)\" }",
            "# expect: -3 is negative", "# expect: 0 is zero", "# expect: 4 is even", "# expect: 7 is odd",
            "",
            "# `stop` ends the shortcut (not the script) successfully.",
            "shortcut \"count down\" (from: Int = 3) {",
            "  set n = from",
            "  repeat from times {",
            "    if n == 1 {",
            "      show \"liftoff\"",
            "      stop",
            "",
            "    }",
            "    show n",
            "    set n = n - 1",
            "  }",
            "}",
            "count down",
            "# expect: 3", "# expect: 2", "# expect: liftoff",
            at47("show \"still running\"", "# expect: still running"),
            "", "",
        ]
        let messy = lines.joined(separator: "\n")
        let example = Self.read("examples/shortcuts.auto")
        #expect(messy != example)
        let formatted = Self.format(messy)
        #expect(formatted == example, "formatted:\n\(formatted ?? "(refused)")")
    }
}
