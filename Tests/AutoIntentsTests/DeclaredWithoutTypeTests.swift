import AutoIntents
import Testing

/// Declared as App Intents' examples often write them, without a type: a `String` each.
struct DescribePlainly: AppIntent {
    static let title = "Describe plainly"
    static let description = "Says what a thing is"
    static let parameterSummary = "Describe {thing}"
    @Parameter var thing: String
    func perform(_ context: IntentContext) async throws -> IntentResult<String> { .result(value: thing) }
}

/// A summary without a type that names a parameter the intent doesn't have.
struct SummariseWrongly: AppIntent {
    static let title = "Summarise wrongly"
    static let parameterSummary = "Summarise {nothing}"
    @Parameter var thing: String
    func perform(_ context: IntentContext) async throws -> IntentResult<String> { .result(value: thing) }
}

/// `description` and `parameterSummary` written without their types are Strings, which the protocol's requirements
/// once ignored in silence (issue 30, item 5): they are now the intent's description and summary, checked alike.
@Suite struct DeclaredWithoutTypeTests {
    @Test func aDescriptionAndASummaryWithoutTheirTypesAreTheIntents() throws {
        var registry = Registry()
        try registry.register(DescribePlainly.self)
        let intent = try #require(registry.intent(named: "describe plainly"))
        #expect(intent.description.text == "Says what a thing is")
        #expect(intent.summary.description == "Describe {thing}")
    }

    @Test func aSummaryWithoutItsTypeIsCheckedAgainstTheParameters() {
        var registry = Registry()
        #expect(throws: RegistrationError.self) { try registry.register(SummariseWrongly.self) }
    }
}
