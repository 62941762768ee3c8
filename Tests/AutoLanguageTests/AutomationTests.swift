import AutoIntents
@testable import AutoLanguage
import AutoRuntime
import AutoTestSupport
import Foundation
import Testing

/// Automations as the compiler gives them to the daemon: each trigger and option resolved, each body a graph
/// of its own in which `it` is a date, none of them part of the script's own graph.
@Suite struct AutomationTests {
    func compile(_ text: String, session: SessionScope? = nil) -> Result<CompiledScript, CompilationFailure> {
        ScriptCompiler.compile(SourceFile(name: "a.auto", text: text), registry: (try? SampleLibrary.registry()) ?? .standard, session: session)
    }

    @Test func triggersAndOptionsAreResolved() throws {
        let compiled = try compile("""
            automation "digest" every day at 07:30 { show it.hour }
            automation "poll" every 90 seconds mode queued catch up { show 1 }
            automation "office" cron "*/10 9-17 * * mon-fri" in "Europe/Paris" mode parallel 3 { show 2 }
            automation "review" every fri, monday at 09:05 confirm automatically timeout 5 minutes mode restart { show 3 }
            automation "workdays" every weekday at 23:59 { show 4 }
            automation "once" at "2030-01-01 00:00" { show 5 }
            show "main"
            """).get()
        let automations = compiled.automations
        #expect(automations.map(\.name) == ["digest", "poll", "office", "review", "workdays", "once"])
        #expect(automations[0].trigger == .weekly(days: nil, hour: 7, minute: 30) && automations[0].mode == .single)
        #expect(automations[1].trigger == .interval(.seconds(90)) && automations[1].mode == .queued(Automation.defaultBound) && automations[1].catchUp)
        #expect(automations[2].trigger == .cron(expression: "*/10 9-17 * * mon-fri", zone: "Europe/Paris") && automations[2].mode == .parallel(3))
        #expect(automations[3].trigger == .weekly(days: [1, 5], hour: 9, minute: 5) && automations[3].mode == .restart)
        #expect(automations[3].confirmsAutomatically && automations[3].timeout == .seconds(300))
        #expect(automations[4].trigger.description == "every weekday at 23:59")
        #expect(automations[5].trigger == .once(try #require(DateParsing.parse("2030-01-01 00:00"))))
        #expect(automations.map(\.origin) == (1...6).map { "a.auto:\($0)" })
        #expect(automations[3].trigger.description == "every monday, friday at 09:05")
        let cron = automations[2]
        #expect(cron.file.text(of: cron.triggerSpans.expression) == "*/10 9-17 * * mon-fri")
        #expect(cron.triggerSpans.zone.map { cron.file.text(of: $0) } == "Europe/Paris")
    }

    @Test func eachBodyIsAGraphOfItsOwnAndTheScriptsGraphHasNone() throws {
        let compiled = try compile("""
            automation "a" every hour { show "in a" }
            show "main"
            """).get()
        let shown: (ActionGraph) -> [String] = { graph in
            graph.allNodes.compactMap { node in if case .action(let call) = node.kind { return call.intent.name } else { return nil } }
        }
        #expect(shown(compiled.graph) == ["show"] && compiled.graph.allNodes.count == 1)
        #expect(try shown(compiled.automations[0].graph()) == ["show"])
        #expect(try compiled.automations[0].graph().name == "a")
    }

    @Test func aBodySeesTheScriptsShortcutsButNotItsVariables() throws {
        let seen = compile("""
            shortcut "salute" (name: Text) { return "hi \\(name)" }
            set secret = 3
            automation "a" every hour { salute "x" | show }
            automation "b" every hour { show secret }
            """)
        guard case .failure(let failure) = seen else { Issue.record("expected an error for 'secret'"); return }
        #expect(failure.diagnostics.map(\.message) == ["unknown name 'secret'"], "\(failure.diagnostics.map(\.message))")
    }

    /// A body is compiled from its place in the script when first asked for, against the script's final registry:
    /// a call to the script's shortcut has the result type the shortcut's body gave, and the graph is kept.
    @Test func aBodyIsCompiledFromItsPlaceWhenFirstAskedFor() throws {
        let compiled = try compile("""
            shortcut "salute" (name: Text) { return "hi \\(name)" }
            automation "first" every hour { show 1 }
            automation "second" every day at 08:00 {
                set greeting = salute "x"
                show greeting
            }
            """).get()
        let graph = try compiled.automations[1].graph()
        let calls = graph.allNodes.compactMap { node -> IntentDescriptor? in if case .action(let call) = node.kind { return call.intent } else { return nil } }
        #expect(calls.map(\.name) == ["salute", "show"])
        #expect(calls.first?.outputType == ValueType.text)
        #expect(graph.name == "second")
        #expect(try compiled.automations[1].graph() === graph)
        #expect(try compiled.automations[0].graph() !== graph)
        #expect(compiled.automations.map(\.origin) == ["a.auto:2", "a.auto:3"])
    }

    @Test func atAPromptThereAreNoAutomations() {
        guard case .failure(let failure) = compile("automation \"a\" every hour { show 1 }", session: SessionScope()) else {
            Issue.record("expected an error")
            return
        }
        #expect(failure.diagnostics.first?.message == "an automation runs under the daemon, not at the prompt")
    }
}
