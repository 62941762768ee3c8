import AutoIntents
@testable import AutoLanguage
import AutoRuntime
import AutoTestSupport
import Testing

/// An intent renamed in a host's next version, with a parameter renamed, and one deprecated for it.
struct ShelveBook: AppIntent {
    static let title = "Shelve book"
    static let formerTitles = ["Put away", "Store book"]
    static let parameterSummary = "Shelve {title} on {shelf}"
    @Parameter var title: String
    @Parameter(formerNames: ["place"]) var shelf: String?

    func perform(_ context: IntentContext) async throws -> IntentResult<String> {
        .result(value: "\(title) on \(shelf ?? "the cart")")
    }
}

struct FileBook: AppIntent {
    static let title = "File book"
    static let deprecation: IntentDeprecation? = IntentDeprecation("books are shelved, not filed", replacedBy: ShelveBook.self)
    @Parameter var title: String

    func perform(_ context: IntentContext) async throws -> IntentResult<String> { .result(value: title) }
}

/// Where a book waits: `stacks` was called `shelves` before.
enum Spot: String, AppEnum {
    case cart, stacks
    static let enumType = EnumType<Spot>("spot", formerNames: [.stacks: ["shelves"]])
}

struct ParkBook: AppIntent {
    static let title = "Park book"
    @Parameter var spot: Spot

    func perform(_ context: IntentContext) async throws -> IntentResult<String> { .result(value: spot.rawValue) }
}

/// A script written against the former version keeps compiling and running, each former name a warning that gives the
/// new spelling; a deprecated intent runs with a warning naming its replacement and is left out of what lists offer.
@Suite struct IntentEvolutionTests {
    static func registry() throws -> Registry {
        var registry = Registry.standard
        try registry.register(ShelveBook.self)
        try registry.register(FileBook.self)
        try registry.register(ParkBook.self)
        return registry
    }

    func warnings(_ text: String) throws -> [Diagnostic] {
        switch ScriptCompiler.compile(SourceFile(name: "t.auto", text: text), registry: try Self.registry()) {
        case .success(let script): return script.warnings
        case .failure(let failure):
            Issue.record("\(failure.diagnostics.map { $0.rendered() }.joined())")
            return []
        }
    }

    @Test func aFormerTitleStillCallsTheIntentWithAWarning() async throws {
        let found = try warnings(#"put away "Emma""#)
        #expect(found.map(\.message) == ["'put away' is now called 'shelve book'"])
        #expect(found.first?.hint == "write 'shelve book'")
        #expect(found.first.map { $0.span.end - $0.span.start } == 8, "the span covers the two words")
        let run = await EngineHarness.run(#"store book "Emma" shelf: "Fiction""#, registry: try Self.registry())
        #expect(run.exitCode == 0 && run.output == ["Emma on Fiction"], "\(run.standardError)")
        // Only a whole former title names it: its first word offers nothing.
        guard case .failure = ScriptCompiler.compile(SourceFile(name: "t.auto", text: #"put "Emma""#), registry: try Self.registry()) else {
            Issue.record("'put' is no intent")
            return
        }
    }

    @Test func aFormerParameterNameStillLabelsItWithAWarning() async throws {
        let found = try warnings(#"shelve book "Emma" place: "Fiction""#)
        #expect(found.map(\.message) == ["'place' of 'shelve book' is now called 'shelf'"])
        #expect(found.first?.hint == "write 'shelf:'")
        let run = await EngineHarness.run(#"put away "Emma" place: "Fiction""#, registry: try Self.registry())
        #expect(run.exitCode == 0 && run.output == ["Emma on Fiction"], "\(run.standardError)")
        #expect(try warnings(#"shelve book "Emma" shelf: "Fiction""#).isEmpty)
    }

    @Test func anEnumCasesFormerNameStillNamesItWithAWarning() async throws {
        for (code, column) in [("park book shelves", 11), ("park book Spot.shelves", 16), ("set s = shelves\npark book s", 9)] {
            let found = try warnings(code)
            #expect(found.map(\.message) == ["'shelves' of Spot is now called 'stacks'"], "\(code)")
            #expect(found.first?.location.column == column, "\(code)")
            #expect(found.first?.fix?.replacement == "stacks")
        }
        let run = await EngineHarness.run("park book shelves", registry: try Self.registry())
        #expect(run.exitCode == 0 && run.output == ["stacks"], "\(run.standardError)")
        #expect(try warnings("park book stacks").isEmpty)
    }

    @Test func aDeprecatedIntentRunsWithAWarningThatNamesItsReplacement() async throws {
        let found = try warnings(#"file book "Emma""#)
        #expect(found.map(\.message) == ["'file book' is deprecated: books are shelved, not filed"])
        #expect(found.first?.hint == "use 'shelve book' instead")
        let run = await EngineHarness.run(#"file book "Emma""#, registry: try Self.registry())
        #expect(run.exitCode == 0 && run.output == ["Emma"])
        let registry = try Self.registry()
        #expect(registry.intent(named: "file book")?.isListed == false)
        #expect(registry.intent(named: "put away")?.name == "shelve book")
        func offered(_ text: String) -> [String] {
            Completer(registry: registry, scope: SessionScope(), commands: []).complete(text, cursor: text.utf8.count).candidates.map(\.text)
        }
        #expect(!offered("fil").contains("file book"), "\(offered("fil"))")
        #expect(offered("shel").contains("shelve book"))
        #expect(!offered("put").contains("put away"), "former names are not offered")
    }

    @Test func aFormerNameMustNotBeAnotherIntentsOrParametersName() {
        struct Taken: AppIntent {
            static let title = "Sort books"
            static let formerTitles = ["File book"]
            func perform(_ context: IntentContext) async throws -> IntentResult<NoValue> { .result() }
        }
        var registry = Registry.standard
        #expect(throws: RegistrationError.self) {
            try registry.register(FileBook.self)
            try registry.register(Taken.self)
        }
        struct Twice: AppIntent {
            static let title = "Lend book"
            @Parameter var to: String
            @Parameter(formerNames: ["to"]) var until: String?
            func perform(_ context: IntentContext) async throws -> IntentResult<NoValue> { .result() }
        }
        do {
            var fresh = Registry.standard
            try fresh.register(Twice.self)
            Issue.record("'to' would label two parameters")
        } catch {
            #expect(error.message.contains("'to', a former name of parameter 'until', is already the name or former name of a parameter"), "\(error.message)")
        }
    }

    /// `auto migrate --write`'s rewrite: each former name replaced where the checker found it, everything else as it
    /// was, and nothing left to do the second time.
    @Test func migratingReplacesFormerNamesAndKeepsEverythingElse() throws {
        let text = """
            # shelve the new ones
            put away "Emma"   # a comment stays
            for b in ["a", "b"] {
              store book b place: "Fiction"
            }
            """
        let source = SourceFile(name: "t.auto", text: text)
        guard case .success(let compiled) = ScriptCompiler.compile(source, registry: try Self.registry()) else {
            Issue.record("the script compiles")
            return
        }
        let migrated = ScriptMigration.applying(ScriptMigration.fixes(in: compiled.warnings, of: source), to: text)
        #expect(migrated == """
            # shelve the new ones
            shelve book "Emma"   # a comment stays
            for b in ["a", "b"] {
              shelve book b shelf: "Fiction"
            }
            """)
        guard case .success(let again) = ScriptCompiler.compile(SourceFile(name: "t.auto", text: migrated), registry: try Self.registry()) else {
            Issue.record("the migrated script compiles")
            return
        }
        #expect(again.warnings.isEmpty, "\(again.warnings.map(\.message))")
        #expect(ScriptMigration.applying([], to: migrated) == migrated)
    }
}
