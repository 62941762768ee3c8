import AutoIntents
import Testing

/// A database and a clock a host might hand its intents.
final class Ledger: Sendable {
    let owner: String
    init(owner: String) { self.owner = owner }
}

struct Clock: Sendable {
    let hour: Int
}

/// Parameters and dependencies are found from the intent's properties: no list to keep in step with them.
struct Deposit: AppIntent {
    static let title = "Deposit"
    @Parameter(question: "How much?", range: 1...1_000) var amount: Int
    @Parameter("to", title: "Account") var account: String?
    @Parameter(default: "thanks") var memo: String
    @Dependency var ledger: Ledger
    @Dependency var clock: Clock
    var notAParameter = 7

    func perform(_ context: IntentContext) async throws -> IntentResult<String> {
        .result(value: "\(ledger.owner) at \(clock.hour): \(amount) to \(account ?? "savings") (\(memo))")
    }
}

/// Nothing shown and nothing answered.
struct Nobody: Interaction {
    func show(_ dialog: Dialog) async {}
    func requestValue(_ request: ValueRequest) async throws -> Value { throw NoAnswerError(question: request.prompt) }
    func choose(_ request: ChoiceRequest) async throws -> Int { throw NoAnswerError(question: request.prompt) }
    func confirm(_ request: ConfirmationRequest) async throws -> Bool { throw NoAnswerError(question: request.prompt) }
    func progress(_ event: ProgressEvent) async {}
}

@Suite struct RegistrationTests {
    func registry() throws -> Registry {
        var registry = Registry()
        try registry.register(dependency: Ledger(owner: "Ada"))
        try registry.register(dependency: Clock(hour: 9))
        try registry.register(Deposit.self)
        return registry
    }

    @Test func parametersAreThePropertiesInTheirOrder() throws {
        let intent = try #require(try registry().intent(named: "deposit"))
        #expect(intent.parameters.map(\.name) == ["amount", "to", "memo"], "the given name wins over the property's")
        #expect(intent.parameters.map(\.title) == ["Amount", "Account", "Memo"])
        #expect(intent.parameters.map(\.isRequired) == [true, false, false])
        #expect(intent.parameters[0].question == "How much?")
        guard case .int(1)? = intent.parameters[0].range?.lowerBound, case .int(1_000)? = intent.parameters[0].range?.upperBound else {
            Issue.record("an Int parameter's range is kept in Ints: \(String(describing: intent.parameters[0].range))")
            return
        }
        guard case .text("thanks")? = intent.parameters[2].defaultValue else {
            Issue.record("the default is kept: \(String(describing: intent.parameters[2].defaultValue))")
            return
        }
    }

    @Test func aCallSetsTheParametersAndDependencies() async throws {
        let intent = try #require(try registry().intent(named: "deposit"))
        guard case .native(let perform) = intent.implementation else {
            Issue.record("expected a native intent")
            return
        }
        let context = IntentContext(interaction: Nobody(), cancellation: CancellationFlag())
        let output = try await perform([.int(50), .text("checking"), nil], context)
        guard case .text(let text) = output.value else {
            Issue.record("expected a text, got \(output.value)")
            return
        }
        #expect(text == "Ada at 9: 50 to checking (thanks)")
        // Each call starts from the prototype: what one call set is not carried into the next.
        let second = try await perform([.int(5), nil, .text("again")], context)
        guard case .text("Ada at 9: 5 to savings (again)") = second.value else {
            Issue.record("expected the second call's own arguments, got \(second.value)")
            return
        }
    }

    @Test func aMissingDependencyIsARegistrationErrorThatNamesItsType() throws {
        var registry = Registry()
        try registry.register(dependency: Ledger(owner: "Ada"))
        do {
            try registry.register(Deposit.self)
            Issue.record("expected a registration error")
        } catch {
            #expect(error.message.contains("dependency of type Clock ('clock'), which is not registered"), "\(error.message)")
        }
    }

    @Test func aSecondDependencyOfATypeIsAnError() throws {
        var registry = Registry()
        try registry.register(dependency: Clock(hour: 1))
        #expect(throws: RegistrationError.self) { try registry.register(dependency: Clock(hour: 2)) }
        try registry.register(dependency: Ledger(owner: "Bo"))
    }
}
