import AutoIntents
@testable import AutoLanguage
import AutoRuntime
import AutoTestSupport
import Testing

/// A reading status (the enum `Status` in scripts) that shares the case name `read` with Shelf: the name alone is
/// ambiguous.
enum ReadingStatus: String, AppEnum {
    case unread, read
    static let enumType = EnumType<ReadingStatus>("status")
}

/// Enum cases named without a type to go by: alone when one enum has the name, with the enum's name otherwise.
@Suite struct EnumNameTests {
    func compile(_ text: String, ambiguous: Bool = false) -> Result<CompiledScript, CompilationFailure> {
        guard var registry = try? SampleLibrary.registry() else {
            return .failure(CompilationFailure(diagnostics: []))
        }
        if ambiguous { registry.register(enum: ReadingStatus.self) }
        return ScriptCompiler.compile(SourceFile(name: "t.auto", text: text), registry: registry)
    }

    func constant(_ result: Result<CompiledScript, CompilationFailure>) -> Value? {
        guard case .success(let script) = result, case .assign(_, let expression)? = script.graph.body.first?.kind else { return nil }
        return expression.constantValue
    }

    @Test func aCaseNameAloneIsTheCaseOfTheOneEnumThatHasIt() {
        guard case .enumCase(let value)? = constant(compile("set s = currentlyReading")) else {
            Issue.record("expected an enum case")
            return
        }
        #expect(value.type.typeName == "Shelf")
        #expect(value.identifier == "currentlyReading")
    }

    @Test func aNameTwoEnumsHaveIsAnErrorThatSaysHowToQualifyIt() throws {
        guard case .failure(let failure) = compile("set s = read", ambiguous: true) else {
            Issue.record("'read' is a case of Shelf and ReadingStatus: expected an error")
            return
        }
        let diagnostic = try #require(failure.diagnostics.first)
        #expect(diagnostic.message == "unknown name 'read'")
        #expect(diagnostic.location.column == 9)
        #expect(diagnostic.hint?.contains("Shelf.read") == true)
        #expect(diagnostic.hint?.contains("Status") == true)
    }

    @Test func theEnumsNameSettlesIt() {
        guard case .enumCase(let value)? = constant(compile("set s = Status.read", ambiguous: true)) else {
            Issue.record("expected Status.read")
            return
        }
        #expect(value.type.typeName == "Status")
        guard case .enumCase(let shelf)? = constant(compile("set s = Shelf.read", ambiguous: true)) else {
            Issue.record("expected Shelf.read")
            return
        }
        #expect(shelf.type.typeName == "Shelf")
    }

    @Test func anExpectedTypeStillDecidesWithoutTheEnumsName() {
        // The parameter's type says which enum: no ambiguity.
        if case .failure(let failure) = compile("open shelf read", ambiguous: true) {
            Issue.record("expected 'open shelf read' to compile: \(failure.diagnostics)")
        }
    }
}
