import AutoIntents
@testable import AutoRuntime
import AutoTestSupport
import Foundation
import Testing

/// Answers given before a run (`--answer`, `--answers`): how they are read, which question each answers, and what
/// an answer that doesn't fit says.
@Suite struct PresetAnswersTests {
    func answers(_ options: String...) throws -> PresetAnswers {
        PresetAnswers(try options.map { text throws(PresetAnswerError) in try PresetAnswers.parse(option: text) })
    }

    @Test func anOptionSplitsAtItsFirstEqualsSign() throws {
        let answer = try PresetAnswers.parse(option: "query=a=b")
        #expect(answer.key == "query" && answer.value == "a=b")
        #expect(answer.origin == "--answer 'query=a=b'")
        #expect(try PresetAnswers.parse(option: "title=").value == "")
        #expect(throws: PresetAnswerError.self) { try PresetAnswers.parse(option: "from books.csv") }
        #expect(throws: PresetAnswerError.self) { try PresetAnswers.parse(option: " ?=x") }
    }

    @Test func aJSONFileGivesTextsNumbersAndYesOrNo() throws {
        let parsed = try PresetAnswers.parse(json: Data(#"{"from": "books.csv", "How many?": 3, "ok": true, "ratio": 1.5}"#.utf8),
                                             file: "a.json")
        #expect(parsed.map(\.key) == ["How many?", "from", "ok", "ratio"])
        #expect(parsed.map(\.value) == ["3", "books.csv", "yes", "1.5"])
        #expect(parsed[1].origin == #"a.json: "from""#)
        #expect(throws: PresetAnswerError.self) { try PresetAnswers.parse(json: Data("[1]".utf8), file: "a.json") }
        #expect(throws: PresetAnswerError.self) { try PresetAnswers.parse(json: Data("{".utf8), file: "a.json") }
        do {
            _ = try PresetAnswers.parse(json: Data(#"{"from": ["a", "b"]}"#.utf8), file: "a.json")
            Issue.record("a list is not an answer")
        } catch {
            #expect(error.message == #"a.json: the answer to "from" must be a text, a number or true/false"#)
        }
    }

    @Test func aQuestionsTextWinsOverItsParametersName() throws {
        let given = try answers("from=other.csv", "which CSV   FILE=books.csv")
        let answer = given.answer(question: "Which CSV file?", parameter: "from", intent: "import books")
        #expect(answer?.value == "books.csv")
        // Asked again after the reason the value was refused, on the line before.
        #expect(given.answer(question: "more.csv: no such file\nWhich CSV file?", parameter: "from", intent: nil)?.value == "books.csv")
        #expect(given.answer(question: "Which file?", parameter: "from", intent: nil)?.value == "other.csv")
        #expect(given.answer(question: "Which file?", parameter: "to", intent: nil) == nil)
    }

    @Test func theAnswersNoQuestionAskedForAreKnown() throws {
        let given = try answers("from=books.csv", "colour=red")
        _ = given.answer(question: "Which CSV file?", parameter: "from", intent: nil)
        #expect(given.unused.map(\.key) == ["colour"])
    }

    @Test func aHintsOptionCanBePastedIntoAShell() {
        #expect(PresetAnswers.option(key: "from", value: "VALUE") == "--answer 'from=VALUE'")
        #expect(PresetAnswers.option(key: "Delete 'a $b' for good?", value: "yes") == #"--answer "Delete 'a \$b' for good?=yes""#)
    }

    // MARK: Answering

    @Test func aValueIsReadAsTheTypeAsked() async throws {
        let interaction = AnsweringInteraction(ScriptedInteraction(), answers: try answers("How many?=1_000", "when=2026-11-26"))
        #expect(ValueFormatter.inline(try await interaction.requestValue(ValueRequest(prompt: "How many?", type: .int))) == "1000")
        let date = try await interaction.requestValue(ValueRequest(prompt: "Due?", type: .date, parameter: "when"))
        #expect(ValueFormatter.inline(date) == ValueFormatter.inline(.date(DateParsing.parse("2026-11-26")!)))
        do {
            _ = try await AnsweringInteraction(ScriptedInteraction(), answers: try answers("How many?=many"))
                .requestValue(ValueRequest(prompt: "How many?", type: .int))
            Issue.record("'many' is not an Int")
        } catch let error as IntentError {
            #expect(error.message == "--answer 'How many?=many' answers 'How many?', which needs an Int (a whole number, e.g. 3), not 'many'")
        }
    }

    @Test func aQuestionNoAnswerCoversGoesToTheInteractionUnder() async throws {
        let under = ScriptedInteraction(answers: ["Ada"])
        let interaction = AnsweringInteraction(under, answers: try answers("from=books.csv"))
        #expect(ValueFormatter.inline(try await interaction.requestValue(ValueRequest(prompt: "Name?", type: .text))) == ValueFormatter.inline(.text("Ada")))
        #expect(under.questions == ["Name?"])
    }

    /// The intent refused the answer and asks again with why: the same answer would be refused for ever.
    @Test func anAnswerTheIntentRefusedEndsTheRunWithItsReason() async throws {
        let interaction = AnsweringInteraction(ScriptedInteraction(), answers: try answers("from=more.csv"))
        let request = ValueRequest(prompt: "Which CSV file?", type: .file, intent: "import books", parameter: "from")
        #expect(ValueFormatter.inline(try await interaction.requestValue(request)) == ValueFormatter.inline(.file(FileRef(path: "more.csv"))))
        let again = ValueRequest(prompt: "Which CSV file?", type: .file, intent: "import books", parameter: "from", reason: "more.csv: no such file")
        do {
            _ = try await interaction.requestValue(again)
            Issue.record("the refused answer was given again")
        } catch let error as IntentError {
            #expect(error.message == "the answer given with --answer 'from=more.csv' can't be used: more.csv: no such file")
        }
    }

    @Test func aChoiceIsAnsweredByItsTitleOrNumber() async throws {
        let options = [Choice(title: "Emma"), Choice(title: "Persuasion")]
        let byTitle = AnsweringInteraction(ScriptedInteraction(), answers: try answers("book=persuasion"))
        #expect(try await byTitle.choose(ChoiceRequest(prompt: "Which book?", options: options, parameter: "book")) == 1)
        let byNumber = AnsweringInteraction(ScriptedInteraction(), answers: try answers("Which book=1"))
        #expect(try await byNumber.choose(ChoiceRequest(prompt: "Which book?", options: options)) == 0)
        do {
            _ = try await AnsweringInteraction(ScriptedInteraction(), answers: try answers("book=Dune"))
                .choose(ChoiceRequest(prompt: "Which book?", options: options, parameter: "book"))
            Issue.record("Dune is not an option")
        } catch let error as IntentError {
            #expect(error.message == "--answer 'book=Dune' answers 'Which book?' with 'Dune', which is none of its options: 'Emma', 'Persuasion' (or a number from 1 to 2)")
        }
    }

    @Test func aConfirmationIsAnsweredByItsQuestionOrItsIntent() async throws {
        let request = ConfirmationRequest(prompt: "Delete 'a.txt' for good?", actionName: "Delete", isDestructive: true, intent: "delete file")
        #expect(try await AnsweringInteraction(ScriptedInteraction(), answers: try answers("delete file=yes")).confirm(request))
        #expect(try await AnsweringInteraction(ScriptedInteraction(), answers: try answers("Delete 'a.txt' for good?=no")).confirm(request) == false)
        await #expect(throws: IntentError.self) {
            try await AnsweringInteraction(ScriptedInteraction(), answers: try answers("delete file=maybe")).confirm(request)
        }
        // Not answered: the interaction under it decides, and this one can't.
        await #expect(throws: NoAnswerError.self) {
            try await AnsweringInteraction(ScriptedInteraction(), answers: try answers("from=x")).confirm(request)
        }
    }
}
