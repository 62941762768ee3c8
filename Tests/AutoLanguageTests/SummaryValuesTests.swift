import AutoIntents
import AutoLanguage
import AutoRuntime
import AutoTestSupport
import Foundation
import Testing

/// A file format: the summary of `export notes` follows it.
enum NoteFormat: String, AppEnum {
    case csv, json, markdown
    static let enumType = EnumType<NoteFormat>("note format")
}

/// Writes notes out; its summary has a sentence per format, one of them with a secondary parameter, and a parameter
/// shown only when another has a value.
struct ExportNotes: AppIntent {
    static let title = "Export notes"
    static let sideEffect = SideEffect.changes
    static let parameterSummary: ParameterSummary? = .switch("format", [
        .case(NoteFormat.csv, ParameterSummary("Export {notes} as CSV separated by {separator}", secondary: ["header"], hidden: ["indent"])),
        .case(NoteFormat.json, ParameterSummary("Export {notes} as JSON indented by {indent}", hidden: ["separator", "header"])),
    ], default: .when("title", .hasAnyValue, "Export {notes} as {format} titled {title}", otherwise: "Export {notes} as {format}"))
    @Parameter var notes: [String]
    @Parameter(default: .markdown) var format: NoteFormat
    @Parameter(default: ",") var separator: String
    @Parameter(default: true) var header: Bool
    @Parameter(default: 2) var indent: Int
    @Parameter var title: String?
    @Parameter(title: "Destination", default: "out") var to: String

    func perform(_ context: IntentContext) async throws -> IntentResult<String> {
        .result(value: "\(format.rawValue) \(notes.count)")
    }
}

/// Summaries that follow the values (custom intents' parameter relationships): the sentence and the parameters shown
/// depend on what a call gives, in completion, `--what-if` and graphs; registration checks every branch.
@Suite struct SummaryValuesTests {
    let registry: Registry

    init() throws {
        var registry = Registry.standard
        try registry.register(ExportNotes.self)
        self.registry = registry
    }

    var intent: IntentDescriptor { registry.intent(named: "export notes")! }

    func labels(_ entry: String) -> [String] {
        Completer(registry: registry).complete(entry, cursor: entry.utf8.count).candidates.filter { $0.kind == .label }.map(\.text)
    }

    func shown(_ given: [String: Value], unknown: Set<String> = []) -> [String] {
        intent.applicableParameters(intent.summaryValue(given: given, unknown: unknown)).map(\.name)
    }

    @Test func theSentenceFollowsTheValuesAndEveryBranchIsOneWhenAValueIsUnknown() {
        let csv = NoteFormat.csv.autoValue, json = NoteFormat.json.autoValue
        #expect(intent.summary.sentence(intent.summaryValue(given: ["format": csv])).description == "Export {notes} as CSV separated by {separator}")
        #expect(intent.summary.sentence(intent.summaryValue(given: ["format": json])).description == "Export {notes} as JSON indented by {indent}")
        // The default (markdown) and no title: the last sentence; a title: the one before it.
        #expect(intent.summary.sentence(intent.summaryValue(given: [:])).description == "Export {notes} as {format}")
        #expect(intent.summary.sentence(intent.summaryValue(given: ["title": .text("Week")])).description == "Export {notes} as {format} titled {title}")
        // A format named by a text, as `--answer` gives it, is the case it names.
        #expect(intent.summary.sentence(intent.summaryValue(given: ["format": .text("json")])).description.contains("JSON"))
        // Each case's sentence, and the default's for no title.
        #expect(intent.summary.sentences(intent.summaryValue(given: [:], unknown: ["format"])).map(\.description)
                    == ["Export {notes} as CSV separated by {separator}", "Export {notes} as JSON indented by {indent}", "Export {notes} as {format}"])
    }

    @Test func onlyTheParametersThatApplyAreShown() {
        #expect(shown(["format": NoteFormat.csv.autoValue]) == ["notes", "format", "separator", "header", "to"])
        #expect(shown(["format": NoteFormat.json.autoValue]) == ["notes", "format", "indent", "to"])
        // For another format `title` is tested, so it is shown: giving it is what changes the sentence.
        #expect(shown([:]) == ["notes", "format", "title", "to"])
        // Not known before the run: whatever any branch shows.
        #expect(shown([:], unknown: ["format"]) == ["notes", "format", "separator", "header", "indent", "title", "to"])
    }

    @Test func completionOffersTheLabelsThatApplyToTheLiteralsGiven() {
        #expect(labels("export notes [\"a\"] ") == ["format: ", "title: ", "to: "])
        #expect(labels("export notes [\"a\"] format: csv ") == ["header: ", "separator: ", "to: "])
        #expect(labels("export notes [\"a\"] format: json ") == ["indent: ", "to: "])
        #expect(labels("export notes [\"a\"] format: markdown t") == ["title: ", "to: "])
        #expect(labels("export notes [\"a\"] title: \"Week\" ") == ["format: ", "to: "])
        // A format given by a variable is known only when the script runs: every label that any format shows.
        #expect(labels("export notes [\"a\"] format: f ") == ["header: ", "indent: ", "separator: ", "title: ", "to: "])
    }

    @Test func whatIfSaysTheSentenceFilledWithTheCallsValues() async {
        let csv = await EngineHarness.run(#"export notes ["a", "b"] format: csv separator: ";""#, registry: registry, whatIf: true)
        #expect(csv.output == [#"What if: Export ["a", "b"] as CSV separated by ";""#], "\(csv.standardError)")
        let titled = await EngineHarness.run(#"export notes ["a"] title: "Week""#, registry: registry, whatIf: true)
        #expect(titled.output == [#"What if: Export ["a"] as Markdown titled "Week""#], "\(titled.standardError)")
    }

    @Test func theGraphsLabelReadsTheConstantsTheScriptGives() throws {
        let compiled = try ScriptCompiler.compile(SourceFile(name: "g.auto", text: #"export notes ["a"] format: json indent: 4"#),
                                                  prelude: [], registry: registry).get()
        let labels = compiled.program.main.body.map(\.label)
        #expect(labels.contains(#"Export ["a"] as JSON indented by 4"#), "\(labels)")
    }
}

/// Registration refuses a summary any branch of which is wrong, naming the intent and the branch's fault.
@Suite struct SummaryRegistrationTests {
    func refusal<I: AppIntent>(_ type: I.Type) -> String {
        var registry = Registry.standard
        do {
            try registry.register(type)
            return ""
        } catch {
            return "\(error)"
        }
    }

    struct UnknownInBranch: AppIntent {
        static let title = "Unknown in branch"
        static let parameterSummary: ParameterSummary? = .when("flag", .hasAnyValue, "Do {thing}", otherwise: "Do {thing} with {nothing}")
        @Parameter var thing: String
        @Parameter var flag: Bool?
        func perform(_ context: IntentContext) async throws -> IntentResult<NoValue> { .result() }
    }

    struct WrongType: AppIntent {
        static let title = "Wrong type"
        static let parameterSummary: ParameterSummary? = .when("count", .equalTo("three"), "Do {count}", otherwise: "Do it")
        @Parameter var count: Int
        func perform(_ context: IntentContext) async throws -> IntentResult<NoValue> { .result() }
    }

    struct HiddenRequired: AppIntent {
        static let title = "Hidden required"
        static let parameterSummary: ParameterSummary? = ParameterSummary("Do {thing}", hidden: ["key"])
        @Parameter var thing: String
        @Parameter var key: String
        func perform(_ context: IntentContext) async throws -> IntentResult<NoValue> { .result() }
    }

    struct TwiceInASentence: AppIntent {
        static let title = "Twice in a sentence"
        static let parameterSummary: ParameterSummary? = ParameterSummary("Do {thing}", secondary: ["thing"])
        @Parameter var thing: String
        func perform(_ context: IntentContext) async throws -> IntentResult<NoValue> { .result() }
    }

    struct CaseTwice: AppIntent {
        static let title = "Case twice"
        static let parameterSummary: ParameterSummary? = .switch("format", [.case(NoteFormat.csv, "A {format}"), .case(NoteFormat.csv, "B")],
                                                                 default: "C")
        @Parameter var format: NoteFormat
        func perform(_ context: IntentContext) async throws -> IntentResult<NoValue> { .result() }
    }

    struct SwitchOnNothing: AppIntent {
        static let title = "Switch on nothing"
        static let parameterSummary: ParameterSummary? = .switch("mode", [.case(NoteFormat.csv, "A")], default: "B")
        @Parameter var format: NoteFormat
        func perform(_ context: IntentContext) async throws -> IntentResult<NoValue> { .result() }
    }

    @Test func everyBranchIsChecked() {
        #expect(refusal(UnknownInBranch.self) == "the summary of 'Unknown in branch' names '{nothing}', which is not one of its parameters")
        #expect(refusal(WrongType.self) == "the summary of 'Wrong type' compares 'count' (Int) with a value of type Text")
        #expect(refusal(HiddenRequired.self) == "the summary of 'Hidden required' hides 'key', which a call must give: give it a default or make it optional")
        #expect(refusal(TwiceInASentence.self) == "the summary of 'Twice in a sentence' names 'thing' twice in one sentence (in braces, as secondary or as hidden)")
        #expect(refusal(CaseTwice.self) == "the summary of 'Case twice' has the case csv of 'format' twice")
        #expect(refusal(SwitchOnNothing.self) == "the summary of 'Switch on nothing' switches on 'mode', which is not one of its parameters")
        #expect(refusal(ExportNotes.self) == "")
    }
}
