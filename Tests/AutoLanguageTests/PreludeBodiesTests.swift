import AutoIntents
import AutoLanguage
import AutoRuntime
import AutoTestSupport
import Testing

/// `PreludeBodies.whenCalled`, what a run uses: the prelude's shortcuts are declared, and their bodies checked and
/// compiled only when the script calls one.
@Suite struct PreludeBodiesTests {
    let good = SourceFile(name: "good.auto", text: """
        shortcut "double it" (n: Int) { return n * 2 }
        shortcut "greet" (name: Text) { return "hi " + name }
        """)
    /// A body with an error: found only when bodies are checked.
    let broken = SourceFile(name: "broken.auto", text: #"shortcut "broken" () { return undefinedName }"#)

    func compile(_ text: String, prelude: [SourceFile], _ bodies: PreludeBodies) -> Result<CompiledScript, CompilationFailure> {
        ScriptCompiler.compile(SourceFile(name: "s.auto", text: text), prelude: prelude, registry: .standard, preludeBodies: bodies)
    }

    @Test func aScriptThatCallsNoneLeavesTheBodiesUnchecked() {
        guard case .failure = compile("show 1", prelude: [broken], .all) else {
            Issue.record("checking every body finds the broken one")
            return
        }
        guard case .success = compile("show 1", prelude: [broken], .whenCalled) else {
            Issue.record("the broken body is not checked when nothing calls it")
            return
        }
    }

    @Test func aCallCompilesThePreludeAsAWholeCompileDoes() async throws {
        let script = "set x = double it n: 21\nshow x + 1"
        let lazy = try compile(script, prelude: [good], .whenCalled).get()
        let whole = try compile(script, prelude: [good], .all).get()
        // The result type comes from the body: checked, as in a whole compile.
        #expect(lazy.registry.intent(named: "double it")?.outputType == .int)
        #expect(lazy.registry.intent(named: "greet")?.outputType == whole.registry.intent(named: "greet")?.outputType)
        let interaction = ScriptedInteraction(answers: [], choices: [], confirmations: [])
        let outcome = await Engine(registry: lazy.registry).run(lazy.program, arguments: [.list([])], interaction: interaction)
        guard case .completed = outcome.ending else {
            Issue.record("expected the run to complete: \(outcome.ending)")
            return
        }
        #expect(interaction.shown == ["43"])
    }

    @Test func errorsAreReportedAsAWholeCompileReportsThem() {
        for script in ["show doble it n: 2", "set x = greet name: 3", "show undefinedName"] {
            guard case .failure(let lazy) = compile(script, prelude: [good], .whenCalled),
                  case .failure(let whole) = compile(script, prelude: [good], .all) else {
                Issue.record("'\(script)' should not compile")
                continue
            }
            #expect(lazy.diagnostics.map { $0.rendered() } == whole.diagnostics.map { $0.rendered() }, "\(script)")
        }
    }

    @Test func theScriptsNamesStillClashWithThePreludes() {
        guard case .failure(let failure) = compile(#"shortcut "double it" (n: Int) { return n }"#, prelude: [good], .whenCalled) else {
            Issue.record("a script's shortcut named like a prelude's is an error")
            return
        }
        #expect(failure.diagnostics.contains { $0.message.contains("double it") })
    }

    /// A script that mentions no first word of a prelude shortcut can neither call one nor clash with one: it is
    /// compiled without the prelude, whose shortcuts are then not in its registry.
    @Test func aScriptThatMentionsNoneIsCompiledWithoutThePrelude() throws {
        let alone = try compile("show 1 + 1", prelude: [good, broken], .whenCalled).get()
        #expect(alone.registry.intent(named: "greet") == nil && alone.registry.intent(named: "broken") == nil)
        // "Greet" in any case, even inside a comment, counts as a mention; the broken body is still left unchecked.
        let mentioning = try compile("show 1 # GREETings", prelude: [good, broken], .whenCalled).get()
        #expect(mentioning.registry.intent(named: "greet") != nil)
        // An error is reported as a whole compile reports it, with the prelude's names among the suggestions.
        guard case .failure(let lazy) = compile("show gret", prelude: [good], .whenCalled),
              case .failure(let whole) = compile("show gret", prelude: [good], .all) else {
            Issue.record("'show gret' should not compile")
            return
        }
        #expect(lazy.diagnostics.map { $0.rendered() } == whole.diagnostics.map { $0.rendered() })
    }

    @Test func theFirstWordsOfAPreludesShortcutsAreReadFromItsText() {
        let words = ScriptCompiler.firstWordsOfShortcuts(in: """
            shortcut "Double it" (n: Int) { return n * 2 }
            # shortcuts "listed" in a comment are not a declaration; this one counts: shortcut "extra word"
            	shortcut	"tabbed" () { return 1 }
            """)
        #expect(words.map { $0.map { String(decoding: $0, as: UTF8.self) } } == ["double", "extra", "tabbed"])
        #expect(ScriptCompiler.firstWordsOfShortcuts(in: #"shortcut "a\"b" () { return 1 }"#) == nil)
    }
}
