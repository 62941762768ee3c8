import AutoTestSupport
import Foundation
import Testing

/// `--answer` and `--answers` on the command line: questions, choices and confirmations answered before a run that
/// nobody attends (`run`, `-e`, `automations run`), and the hints of every refusal naming them.
@Suite struct AnswerOptionTests {
    let folder: TemporaryFolder
    init() throws {
        folder = try TemporaryFolder("auto-answers")
    }

    func auto(_ arguments: String...) async throws -> BinaryRunner.Result {
        try await BinaryRunner.runAwaiting(arguments, directory: folder.path)
    }

    static let asking = """
        ask "Your name?" -> name
        ask "How many?" as Int -> n
        choose "Which colour?" from ["red", "green"] -> colour
        confirm "Paint \\(n) walls \\(colour)?"
        show "\\(name): \\(n) \\(colour)"
        """

    @Test func answersGivenBeforeTheRunAnswerEveryKindOfQuestion() async throws {
        let run = try await auto("-e", Self.asking, "--answer", "your name=Ada", "--answer", "How many?=3", "--answer", "which colour=2",
                                 "--answer", "Paint 3 walls green?=yes")
        #expect(run.exitCode == 0, "\(run.standardError)")
        #expect(run.standardOutput == "Ada: 3 green\n")
        #expect(run.standardError == "")
        // Before the subcommand's name, as git reads options.
        let before = try await auto("--answer", "your name=Ada", "--answer", "How many?=3", "--answer", "which colour=red", "--yes", "run", "-e", Self.asking)
        #expect(before.standardOutput == "Ada: 3 red\n", "\(before.standardError)")
        let declined = try await auto("-e", Self.asking, "--answer", "your name=Ada", "--answer", "How many?=3", "--answer", "which colour=red",
                                      "--answer", "Paint 3 walls red?=no")
        #expect(declined.exitCode == 130 && declined.standardOutput == "", "\(declined.standardError)")
    }

    @Test func aFileOfAnswersIsJSON() async throws {
        let file = folder("answers.json")
        try #"{"Your name?": "Ada", "How many?": 2, "Which colour?": "red", "Paint 2 walls red?": true}"#.write(toFile: file, atomically: true, encoding: .utf8)
        let run = try await auto("-e", Self.asking, "--answers", file)
        #expect(run.exitCode == 0, "\(run.standardError)")
        #expect(run.standardOutput == "Ada: 2 red\n")
        let missing = try await auto("-e", "show 1", "--answers", "nope.json")
        #expect(missing.exitCode == 2)
        #expect(missing.standardError.contains("--answers nope.json: no such file"), "\(missing.standardError)")
        try "[1]".write(toFile: file, atomically: true, encoding: .utf8)
        let list = try await auto("-e", "show 1", "--answers", file)
        #expect(list.exitCode == 2 && list.standardError.contains("needs a JSON object of answers"), "\(list.standardError)")
    }

    @Test func anAnswerThatDoesntFitSaysWhichOptionGaveIt() async throws {
        let notInt = try await auto("-e", #"ask "How many?" as Int"#, "--answer", "How many?=lots")
        #expect(notInt.exitCode == 1)
        #expect(notInt.standardError.contains("-e:1:1: error: ask: --answer 'How many?=lots' answers 'How many?', which needs an Int"),
                "\(notInt.standardError)")
        let noSuchOption = try await auto("-e", #"choose "Which?" from ["a", "b"]"#, "--answer", "which=c")
        #expect(noSuchOption.standardError.contains("with 'c', which is none of its options: 'a', 'b'"), "\(noSuchOption.standardError)")
        let malformed = try await auto("-e", "show 1", "--answer", "Ada")
        #expect(malformed.exitCode == 2)
        #expect(malformed.standardError.contains("--answer 'Ada' needs the form QUESTION-OR-PARAMETER=VALUE"), "\(malformed.standardError)")
    }

    @Test func anAnswerNoQuestionAskedForIsAWarning() async throws {
        let run = try await auto("-e", #"ask "Name?""#, "--answer", "name=Ada", "--answer", "nmae=Bo")
        #expect(run.exitCode == 0)
        #expect(run.standardOutput == "Ada\n")
        #expect(run.standardError == "warning: --answer 'nmae=Bo' answered no question: no question or parameter 'nmae' was asked\n")
    }

    /// Without a terminal, each refusal says how to answer: `--answer` for a question, `--yes` for a confirmation.
    @Test func everyRefusalNamesTheOptionThatAnswersIt() async throws {
        let question = try await auto("-e", #"ask "Your name?""#)
        #expect(question.exitCode == 1)
        #expect(question.standardError.hasSuffix(
            "hint: answer it with --answer 'Your name?=VALUE', give the value in the script, or run it on a terminal without --no-input\n"),
            "\(question.standardError)")
        let confirmation = try await auto("--no-input", "-e", #"confirm "Go on?""#)
        #expect(confirmation.standardError.hasSuffix("hint: approve it with --yes, or this one alone with --answer 'Go on?=yes'\n"),
                "\(confirmation.standardError)")
    }

    @Test func aRunByHandOfAnAutomationTakesAnswersAndYes() async throws {
        let script = folder("a.auto")
        try """
            automation "greet" every day at 07:30 {
              ask "Your name?" -> name
              confirm "Greet \\(name)?"
              log "hello \\(name)"
            }
            """.write(toFile: script, atomically: true, encoding: .utf8)
        let store = folder("runs.sqlite")
        let unanswered = try await auto("automations", "run", script, "greet", "--store", store)
        #expect(unanswered.exitCode == 1)
        #expect(unanswered.standardError.contains(
            "error: \(script):2:3: ask: nobody can answer 'Your name?' (automations run unattended, even by hand; answer it with --answer 'Your name?=VALUE')"),
            "\(unanswered.standardError)")
        let unconfirmed = try await auto("automations", "run", script, "greet", "--store", store, "--answer", "your name=Ada")
        #expect(unconfirmed.standardError.contains("approve it with --yes, or write 'confirm automatically'"), "\(unconfirmed.standardError)")
        let run = try await auto("automations", "run", script, "greet", "--store", store, "--answer", "your name=Ada", "--yes")
        #expect(run.exitCode == 0, "\(run.standardError)")
        #expect(run.standardError.contains("hello Ada"), "\(run.standardError)")
        let history = try await auto("automations", "history", "greet", "--store", store, "--json")
        #expect(history.standardOutput.components(separatedBy: #""outcome":"succeeded""#).count == 2, "\(history.standardOutput)")
    }
}
