@testable import AutoLanguage
import Testing

@Suite struct ParserTests {
    func parse(_ text: String) -> (SyntaxTree, [Diagnostic]) {
        Parser.parse(SourceFile(name: "t.auto", text: text))
    }

    func expression(_ text: String) -> Expression? {
        let (program, diagnostics) = parse(text)
        guard diagnostics.isEmpty, case .expression(let expression)? = program.statements.first?.kind else { return nil }
        return expression
    }

    @Test func actionWordsAndArguments() {
        guard case .action(let words, let arguments)? = expression("open book b rating: 5")?.kind else {
            Issue.record("expected an action")
            return
        }
        #expect(words.map(\.name) == ["open", "book", "b"])
        #expect(arguments.count == 1)
        #expect(arguments[0].label?.name == "rating")
    }

    @Test func wordLabelsReadLikeASentence() {
        guard case .action(let words, let arguments)? = expression("choose \"Which?\" from books")?.kind else {
            Issue.record("expected an action")
            return
        }
        #expect(words.map(\.name) == ["choose"])
        #expect(arguments.map { $0.label?.name } == [nil, "from"])
    }

    @Test func operandsAreNotActionWords() {
        guard case .action(let words, let arguments)? = expression("show x + 1")?.kind else {
            Issue.record("expected an action")
            return
        }
        #expect(words.map(\.name) == ["show"])
        guard case .binary(.add, _, _) = arguments[0].value.kind else {
            Issue.record("expected x + 1 as the argument")
            return
        }
        guard case .binary(.subtract, _, _)? = expression("x - 1")?.kind else {
            Issue.record("'x - 1' subtracts")
            return
        }
        guard case .action(_, let negative)? = expression("show -1")?.kind, case .unary(.negate, _) = negative[0].value.kind else {
            Issue.record("'show -1' passes minus one")
            return
        }
    }

    @Test func functionCallsNeedTheParenthesisRightAfterTheName() {
        guard case .function(let name, _)? = expression("count(x)")?.kind else {
            Issue.record("expected a function call")
            return
        }
        #expect(name.name == "count")
    }

    @Test func pipelinesContinueOnTheNextLine() {
        guard case .pipeline(let stages)? = expression("[1, 2] |\n  show")?.kind else {
            Issue.record("expected a pipeline")
            return
        }
        #expect(stages.count == 2)
        guard case .pipeline(let leading)? = expression("[1, 2]\n  | show")?.kind else {
            Issue.record("a line starting with '|' continues the pipeline")
            return
        }
        #expect(leading.count == 2)
    }

    @Test func aLineContinuesAfterAnOperatorAndNotBeforeOne() {
        // A '-' that ends the line subtracts: it is not the negative argument of an action 'x'.
        guard case .binary(.subtract, _, _)? = expression("x -\n  1")?.kind else {
            Issue.record("'x -' then '1' subtracts")
            return
        }
        guard case .member(_, let member)? = expression("book.\n  title")?.kind else {
            Issue.record("'book.' then 'title' reads a property")
            return
        }
        #expect(member.name == "title")
        let (named, namedDiagnostics) = parse("1 + 2 ->\n\n  three")
        #expect(namedDiagnostics.isEmpty, "\(namedDiagnostics)")
        #expect(named.statements.count == 1)
        #expect(named.statements.first?.resultName?.name == "three")
        guard case .unary(.not, _)? = expression("not\n  true")?.kind else {
            Issue.record("'not' then 'true' negates")
            return
        }
        // The other way round is two statements, and the second is an error that says why.
        for text in ["x\n+ 1", "x\n.title", "x\n-> y", "x\nand y"] {
            let (_, diagnostics) = parse(text)
            #expect(diagnostics.count == 1, "\(text): \(diagnostics)")
            #expect(diagnostics.first?.message.contains("can't start a line") == true, "\(text): \(diagnostics)")
            #expect(diagnostics.first?.location.line == 2)
        }
        // A negative argument stays one when its number is on the same line.
        guard case .action(_, let arguments)? = expression("show -1")?.kind, arguments.count == 1 else {
            Issue.record("'show -1' passes minus one")
            return
        }
    }

    @Test func statementsAndResultNames() {
        let (program, diagnostics) = parse("""
            set x = 1; x + 1 -> y
            if x > 1 { stop } else if x < 0 { return 3 }
            else { show x }
            for b in books { show b }
            repeat 3 times { show 1 }
            shortcut "double it" (n: Int = 2, label: Text?)
                phrases ["double \\(n)"] {
              return n * 2
            }
            """)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(program.statements.count == 6)
        #expect(program.statements[1].resultName?.name == "y")
        guard case .ifElse(let branches, let otherwise) = program.statements[2].kind else {
            Issue.record("expected if")
            return
        }
        #expect(branches.count == 2)
        #expect(otherwise != nil)
        guard case .shortcut(let declaration) = program.statements[5].kind else {
            Issue.record("expected a shortcut")
            return
        }
        #expect(declaration.name == "double it")
        #expect(declaration.parameters.map(\.name.name) == ["n", "label"])
        #expect(declaration.phrases.count == 1)
    }

    @Test func findAndListStages() {
        guard case .pipeline(let stages)? = expression(
            "find books where author == \"X\" and not (rating < 3) sort by published desc, title ignoring case limit 3 | filter where pages > 100 | sort by title | limit 2")?.kind,
            case .find(let find) = stages[0].kind else {
            Issue.record("expected a find pipeline")
            return
        }
        #expect(find.typeName.name == "books")
        #expect(find.sort.map { $0.path.map(\.name).joined(separator: ".") } == ["published", "title"])
        #expect(find.sort.map(\.descending) == [true, false])
        #expect(find.sort.map { $0.ignoringCase != nil } == [false, true])
        #expect(find.limit != nil)
        #expect(stages.count == 4)
    }

    @Test func recoversAtStatementBoundaries() {
        let (program, diagnostics) = parse("""
            set = 1
            show "fine"
            show (1 +
            show [1, 2
            set y = 3
            """)
        #expect(diagnostics.count == 2, "\(diagnostics.map(\.description))")
        #expect(diagnostics.first?.location.line == 1)
        #expect(program.statements.contains { if case .set(let name, _) = $0.kind { name.name == "y" } else { false } })
    }

    @Test func deepNestingIsADiagnosticNotACrash() {
        let deep = "show " + String(repeating: "(", count: 10_000) + "1" + String(repeating: ")", count: 10_000)
        let (_, diagnostics) = parse(deep)
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.message.contains("nested too deeply") == true)
        let chain = "show 1" + String(repeating: " + 1", count: 10_000)
        #expect(parse(chain).1.first?.message.contains("nested too deeply") == true)
    }

    @Test func strayClosersDoNotLoop() {
        let (_, diagnostics) = parse(")))\n]]]\n}}}\nshow 1")
        #expect(!diagnostics.isEmpty)
    }

    @Test func everyTruncationOfAScriptParsesWithoutTrapping() {
        let script = """
            shortcut "s" (a: Int = 1) { return "\\(a + 1)" }
            set x = [1, {k: "v"}, 2.5] | show
            if x == nil or not (x contains 1) { for i in x { show i.k } } else { repeat 2 times { stop } }
            find books where title starts with "A" sort by title desc limit 2
            """
        for length in 0...script.count {
            let prefix = String(script.prefix(length))
            _ = parse(prefix)
        }
        #expect(parse(script).1.isEmpty)
    }
}
