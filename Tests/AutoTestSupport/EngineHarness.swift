import AutoIntents
import AutoLanguage
import AutoPrelude
import AutoRuntime

/// Runs scripts on the engine alone — compiled with the prelude, run by an `Engine`, talking to a
/// `ScriptedInteraction` — for tests of the runtime that should not go through the command line. It reports what
/// a run did as `ScriptHarness` does: the lines shown, the result printed, and an exit code for how it ended.
package enum EngineHarness {
    package static let prelude: [SourceFile] = Prelude.sources.map { SourceFile(name: $0.name, text: $0.text) }

    /// The sample library's registry: the standard intents, SampleLibrary's intents and queries.
    package static let sampleRegistry: Registry = (try? SampleLibrary.registry()) ?? .standard

    package static func run(_ text: String, name: String = "test.auto", registry: Registry, answers: [String] = [], choices: [Int] = [],
                           confirmations: [Bool] = [], arguments: [String] = [], json: Bool = false, whatIf: Bool = false,
                           grants: Grants = .all) async -> ScriptOutcome {
        let source = SourceFile(name: name, text: text)
        let compiled: CompiledScript
        switch ScriptCompiler.compile(source, prelude: prelude, registry: registry, grants: grants) {
        case .success(let script): compiled = script
        case .failure(let failure):
            return ScriptOutcome(exitCode: 2, output: [], standardError: failure.diagnostics.map { $0.rendered() }.joined(),
                                 diagnostics: failure.diagnostics, questions: [])
        }
        let interaction = ScriptedInteraction(answers: answers, choices: choices, confirmations: confirmations)
        let outcome = await Engine(registry: compiled.registry, grants: grants).run(
            compiled.program, arguments: [.list(arguments.map(Value.text))], interaction: interaction, whatIf: whatIf)
        var output = json ? [] : interaction.shown
        var standardError = json ? interaction.shown.map { $0 + "\n" }.joined() : ""
        let code: Int32
        switch outcome.ending {
        case .completed(let value):
            if json { output.append(ValueFormatter.json(value)) }
            else if let printed = outcome.printedResult(of: compiled.program) { output.append(ValueFormatter.display(printed)) }
            code = 0
        case .stoppedBeforeChange:
            if json { output.append("null") }
            code = 0
        case .failed(let error):
            standardError += "\(error)\n"
            code = 1
        case .cancelled(let reason):
            standardError += "cancelled: \(reason)\n"
            code = 130
        }
        return ScriptOutcome(exitCode: code, output: output.flatMap { $0.components(separatedBy: "\n") }, standardError: standardError,
                             diagnostics: [], questions: interaction.questions)
    }
}
