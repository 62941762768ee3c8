import AutoIntents
import AutoLanguage
import AutoRuntime
import AutoTestSupport
import Testing

/// `find … | count by p` and `| group by p` on a property of the entity found: the find groups what the host returns
/// before its entities are values (`FindRequest.group`). Each must give what grouping the list of values gives.
@Suite struct GroupedFindTests {
    let registry = EngineHarness.sampleRegistry

    func lines(_ script: String) async -> [String] {
        let outcome = await EngineHarness.run(script, registry: registry)
        #expect(outcome.exitCode == 0, "\(outcome.standardError)")
        return outcome.output
    }

    @Test(arguments: [
        "count by author", "count by shelf", "count by rating", "count by readDate", "group by author",
        "count by author | sort by count desc, key | limit 2",
    ])
    func aGroupedFindGivesWhatGroupingTheFoundListGives(_ stage: String) async {
        let fused = await lines("show (find books | \(stage))")
        let apart = await lines("set found = find books\nshow (found | \(stage))")
        #expect(!fused.isEmpty)
        #expect(fused == apart)
        // With the find's own clauses, which run before the grouping, in their order.
        let clauses = "where pages > 100 sort by published desc limit 5"
        let fusedClauses = await lines("show (find books \(clauses) | \(stage))")
        let apartClauses = await lines("set found = find books \(clauses)\nshow (found | \(stage))")
        #expect(fusedClauses == apartClauses)
    }

    @Test func theGraphSaysTheEngineGroups() throws {
        let script = try ScriptCompiler.compile(SourceFile(name: "t.auto", text: "find books | count by author"), registry: registry).get()
        let labels = script.program.main.allNodes.map(\.label)
        #expect(labels.contains { $0.contains("engine: count by author") }, "\(labels)")
        // Not fused: a path beyond one property, and `distinct`, group the list of values.
        let year = try ScriptCompiler.compile(SourceFile(name: "t.auto", text: "find books | count by published.year"), registry: registry).get()
        #expect(!year.program.main.allNodes.contains { $0.label.contains("count by") && $0.label.contains("engine:") })
    }
}
