@testable import AutoTerminal
@testable import AutoCLI
import AutoIntents
import AutoRuntime
import AutoTestSupport
import Foundation
import Synchronization
import Testing

/// The engine's side of interaction, with scripted answers; and the terminal front end with an injected
/// console, input and clock.
@Suite struct InteractionTests {
    @Test func progressIsReportedNestedAndFinished() async throws {
        let interaction = ScriptedInteraction()
        let compiled = try ScriptHarness.sampleHost.compile(.init(name: "p.auto", text: "count to 2")).get()
        _ = try await compiled.run(interaction: interaction)
        let events = interaction.progressEvents
        guard case .started(let outer, nil, "Counting", 2)? = events.first else {
            Issue.record("expected the outer task first: \(events)")
            return
        }
        #expect(events.contains { if case .started(_, outer?, "One step", nil) = $0 { true } else { false } })
        #expect(events.filter { if case .advanced(outer, _) = $0 { true } else { false } }.count == 2)
        #expect(events.last == .finished(id: outer))
    }

    @Test func whatIfStopsBeforeTheFirstChangeAndSaysWhatItWouldDo() async throws {
        let outcome = await ScriptHarness.run("""
            show "before"
            list books | rate book rating: 3
            show "after"
            """, host: ScriptHarness.sampleHost, whatIf: true)
        #expect(outcome.exitCode == 0)
        #expect(outcome.output == ["before", "What if: Rate book 'Where the Crawdads Sing' rating: 3",
                                   "What if: Rate book 'Emma' rating: 3", "What if: Rate book 'Circe' rating: 3"])
    }

    @Test func declinedConfirmationInsidePerformCancels() async throws {
        let outcome = await ScriptHarness.run("pick favourite", host: ScriptHarness.sampleHost, choices: [0], confirmations: [false])
        #expect(outcome.exitCode == 130)
        #expect(outcome.questions.last == "Use 'Where the Crawdads Sing' for favourite?")
    }

    func terminal(answers: [String], canAsk: Bool = true, yes: Bool = false, inPlace: Bool = false) -> (TerminalInteraction, OutputCapture) {
        let capture = OutputCapture()
        let queue = Mutex(answers)
        let interaction = TerminalInteraction(
            console: capture.console, showsOnStandardError: false, canAsk: canAsk, approvesConfirmations: yes,
            drawsInPlace: inPlace, readAnswer: { queue.withLock { $0.isEmpty ? nil : $0.removeFirst() } })
        return (interaction, capture)
    }

    @Test func typedAnswersAreRetriedWithAnExample() async throws {
        let (interaction, capture) = terminal(answers: ["many", "12"])
        let value = try await interaction.requestValue(ValueRequest(prompt: "How many?", type: .int))
        #expect(ValueFormatter.inline(value) == "12")
        #expect(capture.standardError == "? How many? That is not an Int (a whole number, e.g. 3).\n? How many? ")
    }

    @Test func choicesAreNumberedAndAcceptANumberOrATitle() async throws {
        let (interaction, capture) = terminal(answers: ["9", "green"])
        let index = try await interaction.choose(ChoiceRequest(prompt: "Pick one", options: [Choice(title: "red"), Choice(title: "green", subtitle: "leafy")]))
        #expect(index == 1)
        #expect(capture.standardError.contains("  1) red\n  2) green — leafy\n"))
        #expect(capture.standardError.contains("Type a number from 1 to 2."))
    }

    @Test func confirmationsDefaultToNoAndYesApprovesWithoutAsking() async throws {
        let (plain, _) = terminal(answers: [""])
        #expect(try await plain.confirm(ConfirmationRequest(prompt: "Delete?")) == false)
        let (approving, capture) = terminal(answers: [], yes: true)
        #expect(try await approving.confirm(ConfirmationRequest(prompt: "Delete?")) == true)
        #expect(capture.standardError.isEmpty)
        let (nobody, _) = terminal(answers: ["y"], canAsk: false)
        await #expect(throws: NoAnswerError.self) { try await nobody.confirm(ConfirmationRequest(prompt: "Delete?")) }
        await #expect(throws: NoAnswerError.self) { try await nobody.requestValue(ValueRequest(prompt: "Name?", type: .text)) }
    }

    @Test func withoutATerminalProgressIsPlainLinesAtEachTenth() async throws {
        let (interaction, capture) = terminal(answers: [])
        await interaction.progress(.started(id: 1, parent: nil, label: "Importing", total: 20))
        for step in 1...20 { await interaction.progress(.advanced(id: 1, completed: step)) }
        await interaction.progress(.finished(id: 1))
        let lines = capture.standardError.split(separator: "\n")
        #expect(lines.first == "Importing…")
        #expect(lines.contains("Importing: 10/20 (50%)"))
        #expect(lines.count == 1 + 11 + 1, "one line a tenth, not one a step: \(lines)")
        #expect(lines.last?.hasPrefix("Importing: done, 20/20 in 0:0") == true)
        #expect(!capture.standardError.contains("\r"))
    }

    @Test func theBarShowsLabelsPercentCountElapsedAndEstimate() {
        let task = TerminalInteraction.Task(label: "rows", total: 200, parent: 1, started: .now, completed: 50, lastLine: .now)
        let line = TerminalInteraction.barLine(labels: ["Importing", "rows"], task: task, elapsed: .seconds(10), width: 100)
        #expect(line == "Importing › rows [#####---------------]  25%  50/200  0:10, about 0:30 left")
        let narrow = TerminalInteraction.barLine(labels: [String(repeating: "long label ", count: 10)], task: task, elapsed: .seconds(10), width: 60)
        #expect(narrow.count <= 60)
    }

    @Test func shownTextClearsAndRedrawsTheBar() async throws {
        let (interaction, capture) = terminal(answers: [], inPlace: true)
        await interaction.progress(.started(id: 1, parent: nil, label: "Work", total: 4))
        await interaction.show(Dialog("hello"))
        #expect(capture.standardOutput == "hello\n")
        // The bar was cleared before the text and drawn again after it.
        #expect(capture.standardError.components(separatedBy: "\r\u{1B}[2K").count >= 3)
    }
}
