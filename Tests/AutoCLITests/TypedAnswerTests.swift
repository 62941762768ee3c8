@testable import AutoTerminal
import AutoCLI
import AutoRuntime
import Testing

/// The terminal reads a typed answer as the language reads a literal of that type.
@Suite struct TypedAnswerTests {
    @Test func aTypedAnswerIsReadExactly() {
        #expect(TypedAnswer.parse("1.10", as: .decimal).map(ValueFormatter.inline) == "1.1")
        #expect(TypedAnswer.parse("1.5abc", as: .decimal) == nil)
        #expect(TypedAnswer.parse("1e999", as: .decimal) == nil)
    }
}
