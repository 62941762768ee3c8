import AutoIntents
@testable import AutoLanguage
import AutoRuntime
import AutoTestSupport
import Testing

@Suite struct CompilerTests {
    func compile(_ text: String) throws -> CompiledScript {
        try ScriptCompiler.compile(SourceFile(name: "t.auto", text: text), registry: SampleLibrary.registry()).get()
    }

    func actions(_ graph: ActionGraph) -> [String] {
        graph.allNodes.compactMap { node in
            if case .action(let call) = node.kind { return call.intent.name }
            return nil
        }
    }

    @Test func anAmbiguousActionListsFiveCandidatesAndCountsTheRest() throws {
        let shortcuts = (1...7).map { "shortcut \"zap number \($0)\" (n: Int) { return n }" }.joined(separator: "\n")
        let result = ScriptCompiler.compile(SourceFile(name: "t.auto", text: shortcuts + "\n3 | zap"), registry: try SampleLibrary.registry())
        guard case .failure(let failure) = result else { Issue.record("compiled"); return }
        let message = failure.diagnostics.map(\.message).first { $0.contains("ambiguous") } ?? "\(failure.diagnostics)"
        #expect(message.contains("'zap number 5' (Int)") && !message.contains("'zap number 6'"), "\(message)")
        #expect(message.hasSuffix(" and 2 more"), "\(message)")
    }

    @Test func pipelineBecomesTwoActionNodesJoinedByAPipeEdge() throws {
        let graph = try compile("list books | open -> opened\nshow opened.title").graph
        #expect(actions(graph) == ["list books", "open book", "show"])
        let nodes = graph.allNodes
        #expect(graph.edges.contains(Edge(from: nodes[0].id, to: nodes[1].id, label: "pipe")))
        #expect(graph.edges.contains(Edge(from: nodes[1].id, to: nodes[2].id, label: "opened.title")))
    }

    @Test func actionsInsideExpressionsRunFirstIntoTemporaries() throws {
        let graph = try compile("if count(list books) > 1 { show \"many\" }").graph
        guard case .action(let call) = graph.body[0].kind, case .branch = graph.body[1].kind else {
            Issue.record("expected the hoisted action before the branch")
            return
        }
        #expect(call.intent.name == "list books")
        #expect(call.resultSlots.count == 1)
        #expect(graph.slotNames[call.resultSlots[0]].hasPrefix("$"))
        #expect(graph.edges.contains { $0.from == graph.body[0].id && $0.to == graph.body[1].id && $0.label == "result" })
    }

    @Test func aLaterConditionsActionRunsOnlyWhenReached() throws {
        let graph = try compile("set x = 1\nif x == 1 { show 1 } else if count(list books) > 1 { show 2 }").graph
        guard case .branch(let branches, let otherwise) = graph.body[1].kind else {
            Issue.record("expected a branch")
            return
        }
        #expect(branches.count == 1)
        // The else branch holds the hoisted `list books` and then the nested branch.
        guard let otherwise, case .action(let call) = otherwise[0].kind, case .branch = otherwise[1].kind else {
            Issue.record("expected the second condition's action inside the else branch")
            return
        }
        #expect(call.intent.name == "list books")
    }

    @Test func overloadsArePickedByTheInputType() throws {
        #expect(actions(try compile("first(list books) | open").graph).last == "open book")
        #expect(actions(try compile("open currentlyReading").graph) == ["open shelf"])
        #expect(actions(try compile("open \"Want to Read\"").graph) == ["open shelf"])
    }

    @Test func argumentsAreBoundToParameterIndicesWithDefaultsLeftToTheRun() throws {
        let graph = try compile("add book \"Dune\" shelf: read").graph
        guard case .action(let call) = graph.body[0].kind else {
            Issue.record("expected an action")
            return
        }
        #expect(call.arguments.count == 4)
        #expect(call.arguments[1] == nil && call.arguments[2] == nil)
        guard case .enumCase(let shelf)? = call.arguments[3]?.constantValue else {
            Issue.record("the enum case is resolved at compile time")
            return
        }
        #expect(shelf.identifier == "read")
        #expect(call.summary == "Add \"Dune\" by … to Read")
    }

    @Test func dotShowsSummariesAndLabelledEdges() throws {
        let compiled = try compile("""
            shortcut "twice" (n: Int) { return n * 2 }
            set books = list books
            for b in books { b | open }
            twice 4 -> eight
            show eight
            """)
        let dot = compiled.graph.dot(shortcuts: compiled.shortcuts)
        #expect(dot.hasPrefix("digraph"))
        #expect(dot.contains("label=\"Open the piped value"))
        #expect(dot.contains("label=\"books\""))
        #expect(dot.contains("label=\"eight\""))
        #expect(dot.contains("style=dashed, label=\"each\""))
        #expect(dot.contains("cluster_0"))
    }

    @Test func checkerFindsEveryMistakeBeforeAnythingRuns() throws {
        let result = try ScriptCompiler.compile(SourceFile(name: "t.auto", text: """
            set b = first(list books)
            show b.titel
            opne book b
            rate book b ratin: 3
            open 42
            """), registry: SampleLibrary.registry())
        guard case .failure(let failure) = result else {
            Issue.record("expected errors")
            return
        }
        let messages = failure.diagnostics.map { "\($0.location.line):\($0.location.column) \($0.message) | \($0.hint ?? "")" }
        #expect(messages == [
            "2:8 book has no property 'titel' | did you mean 'title'?",
            "3:1 unknown action 'opne book' | did you mean 'open book'?",
            "4:13 'rate book' has no parameter 'ratin' | did you mean 'rating'?",
            "5:6 no 'open' action takes Int as its input | the candidates: 'open book' (Book), 'open shelf' (Shelf)",
        ])
    }
}
