import AutoTerminal
import AutoRuntime
import ArgumentParser
import Foundation

/// How a run from the command line gives its result and talks to people: `--json`, `--no-input`, `--yes`, `--answer`.
/// Shared by `run` and `say`, which runs the intent a sentence names as a run of one call.
struct RunInteractionOptions: ParsableArguments {
    @Flag(name: .long, help: "Print the result as JSON on standard output; everything else goes to standard error.")
    var json = false

    @Flag(name: .long, help: "Never ask: a question or a choice is an error that names the intent and the line.")
    var noInput = false

    @Flag(name: .long, help: "Approve confirmations without asking (questions still need answers).")
    var yes = false

    @OptionGroup var answers: AnswerOptions

    func apply(to options: inout RunOptions) throws {
        options.json = json
        options.noInput = noInput
        options.approveConfirmations = yes
        options.answers = try answers.presetAnswers()
    }
}

/// `--answer` and `--answers`: answers given before a run, for a run nobody attends (`run`, `say`, `automations run`).
struct AnswerOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Answer a question, a choice or a confirmation before it is asked: the question's text or the parameter's name, '=', the answer (repeatable).",
        valueName: "QUESTION-OR-PARAMETER=VALUE"))
    var answer: [String] = []

    @Option(name: .long, help: ArgumentHelp("A JSON object of answers, as --answer gives them: {\"from\": \"books.csv\"}.", valueName: "file"))
    var answers: String?

    /// The answers given; nil when none was.
    func presetAnswers() throws -> PresetAnswers? {
        guard !answer.isEmpty || answers != nil else { return nil }
        do {
            var given = try answer.map { text throws(PresetAnswerError) in try PresetAnswers.parse(option: text) }
            if let file = answers {
                let bytes: [UInt8]
                do {
                    bytes = try ScriptFile.read(file)
                } catch {
                    throw ValidationError("--answers \(error)")
                }
                given += try PresetAnswers.parse(json: Data(bytes), file: file)
            }
            return PresetAnswers(given)
        } catch let error as PresetAnswerError {
            throw ValidationError(error.message)
        }
    }
}
