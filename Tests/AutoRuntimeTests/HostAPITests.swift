import AutoIntents
import AutoLanguage
import AutoRuntime
import AutoTestSupport
import Foundation
import Testing

// A host's own types, registered exactly as a host program does.

enum Transport: String, AppEnum {
    case train, plane, bike
    static let enumType = EnumType<Transport>("transport", displayNames: [.train: "Train", .plane: "Plane", .bike: "Bicycle"])
}

/// A transient entity: made by an intent, never looked up.
struct Trip: AppEntity {
    static let entityType = EntityType<Trip>(singular: "trip", properties: [
        .init("destination", \.destination), .init("days", \.days), .init("transport", \.transport), .init("note", \.note),
    ])
    var id: String { "\(destination)-\(days)" }
    var destination: String
    var days: Int
    var transport: Transport
    var note: String?
    var displayRepresentation: DisplayRepresentation { .init(title: "\(days) days in \(destination)") }
}

struct PlanTrip: AppIntent {
    static let title = "Plan trip"
    static let description = IntentDescription("Plans a trip.", category: "Travel", resultName: "trip")
    static let parameterSummary: ParameterSummary? = "Plan {days} days in {destination} by {transport}"
    @Parameter(question: "Where to?") var destination: String
    @Parameter(default: 3, range: 1...60) var days: Int
    @Parameter(default: .train) var transport: Transport
    @Parameter var note: String?

    func perform(_ context: IntentContext) async throws -> IntentResult<Trip> {
        .result(value: Trip(destination: destination, days: days, transport: transport, note: note))
    }
}

struct DescribeTrip: AppIntent {
    static let title = "Describe trip"
    @Parameter var trip: Trip

    func perform(_ context: IntentContext) async throws -> IntentResult<String> {
        .result(value: "\(trip.destination) by \(trip.transport.displayName)",
                dialog: "Describing \(trip.destination)")
    }
}

struct CancelTrip: AppIntent {
    static let title = "Cancel trip"
    static let sideEffect = SideEffect.destructive
    @Parameter var trip: Trip
    func perform(_ context: IntentContext) async throws -> IntentResult<NoValue> { .result(dialog: "Cancelled") }
}

/// Optional parameters with defaults: not given, a parameter has its default; given `nil`, it is nil.
struct PrintTickets: AppIntent {
    static let title = "Print tickets"
    @Parameter(default: 2) var copies: Int?
    @Parameter(default: nil) var note: String?
    func perform(_ context: IntentContext) async throws -> IntentResult<String> {
        .result(value: "\(copies.map(String.init) ?? "no") copies\(note.map { ", \($0)" } ?? "")")
    }
}

/// A host's own errors, of each kind: a `LocalizedError` (an enum, whose case name is what Swift prints), one whose
/// `errorDescription` is nil but which describes itself, and a plain enum.
enum BeanError: LocalizedError {
    case outOfBeans(left: Int)
    var errorDescription: String? {
        switch self {
        case .outOfBeans(let left): "out of beans, \(left) left"
        }
    }
}

struct GrinderJam: LocalizedError, CustomStringConvertible {
    var description: String { "the grinder is jammed" }
}

enum KettleError: Error {
    case cold
}

struct Brew: AppIntent {
    static let title = "Brew"
    @Parameter var trouble: String
    func perform(_ context: IntentContext) async throws -> IntentResult<NoValue> {
        switch trouble {
        case "beans": throw BeanError.outOfBeans(left: 0)
        case "grinder": throw GrinderJam()
        case "kettle": throw KettleError.cold
        default: return .result(dialog: "brewed")
        }
    }
}

@Suite struct HostAPITests {
    static func registry() throws -> Registry {
        var registry = Registry.standard
        try registry.register(PlanTrip.self)
        try registry.register(DescribeTrip.self)
        try registry.register(CancelTrip.self)
        try registry.register(Brew.self)
        try registry.register(PrintTickets.self)
        return registry
    }

    @Test func registrationReadsTheMetadataOnce() throws {
        let registry = try Self.registry()
        let plan = try #require(registry.intent(named: "plan trip"))
        #expect(plan.parameters.map(\.name) == ["destination", "days", "transport", "note"])
        #expect(plan.parameters.map(\.isRequired) == [true, false, false, false])
        #expect(plan.parameters[1].defaultValue.map(ValueFormatter.inline) == "3")
        #expect(plan.parameters[0].question == "Where to?")
        #expect(plan.parameters[3].type == .text)
        #expect(plan.outputType == .entity(Trip.entityType))
        #expect(plan.summary.description == "Plan {days} days in {destination} by {transport}")
        #expect(registry.entityType(named: "trips") === Trip.entityType)
        #expect(registry.enumType(named: "Transport") === Transport.enumType)
        #expect(Transport.enumType.caseIndex(named: "Bicycle") == 2)
    }

    @Test func aScriptUsesEveryKindOfParameterThroughAPipelineAndAMagicVariable() async throws {
        let outcome = await EngineHarness.run("""
            plan trip "Lyon" transport: plane days: 5 -> trip
            show trip.transport
            show trip.days + 1
            show trip.note == nil
            plan trip "Porto" | describe trip -> text
            show text
            show it
            plan trip "Oslo" transport: "Bicycle" note: "pack warm" | describe
            """, registry: try Self.registry())
        #expect(outcome.exitCode == 0, "\(outcome.standardError)")
        #expect(outcome.output == ["Plane", "6", "true", "Describing Porto", "Porto by Train", "Porto by Train", "Describing Oslo"], "a dialog says what the last action did; its value is not printed again")
    }

    @Test func aMissingRequiredParameterIsAskedWithItsQuestion() async throws {
        let outcome = await EngineHarness.run("plan trip -> t\nshow t.destination", registry: try Self.registry(), answers: ["Rome"])
        #expect(outcome.questions == ["Where to?"])
        #expect(outcome.output == ["Rome"])
    }

    @Test func whenNobodyCanAnswerTheErrorNamesTheIntentAndTheLine() async throws {
        let outcome = await EngineHarness.run("show 1\nplan trip", name: "trip.auto", registry: try Self.registry())
        #expect(outcome.exitCode == 1)
        #expect(outcome.standardError.contains("trip.auto:2:1: error: 'plan trip' needs 'destination'"))
    }

    @Test func rangesAndTypesAreCheckedBeforePerform() async throws {
        let constant = await EngineHarness.run("plan trip \"Lyon\" days: 90", registry: try Self.registry())
        #expect(constant.exitCode == 2)
        #expect(constant.diagnostics.first?.message == "'days' of 'plan trip' must be between 1 and 60")
        let computed = await EngineHarness.run("set d = 30 * 3\nplan trip \"Lyon\" days: d", registry: try Self.registry())
        #expect(computed.exitCode == 1)
        #expect(computed.standardError.contains("'days' of 'plan trip' must be between 1 and 60, got 90"))
        let wrongType = await EngineHarness.run("plan trip \"Lyon\" days: \"five\"", registry: try Self.registry())
        #expect(wrongType.diagnostics.first?.message == "'plan trip' expects Int for 'days', got Text")
    }

    @Test func destructiveIntentsAreConfirmedAndADeclineCancels() async throws {
        let script = "plan trip \"Lyon\" | cancel trip"
        let approved = await EngineHarness.run(script, registry: try Self.registry(), confirmations: [true])
        #expect(approved.exitCode == 0)
        #expect(approved.output == ["Cancelled"])
        let declined = await EngineHarness.run(script, registry: try Self.registry(), confirmations: [false])
        #expect(declined.exitCode == 130)
        #expect(declined.output.isEmpty)
        let nobody = await EngineHarness.run(script, registry: try Self.registry())
        #expect(nobody.exitCode == 1)
        #expect(nobody.standardError.contains("'cancel trip' needs a confirmation"))
    }

    @Test func intentErrorsCarryTheScriptLocation() async throws {
        let outcome = await EngineHarness.run("show 1\nfail politely reason: \"disk full\"", name: "f.auto", registry: EngineHarness.sampleRegistry)
        #expect(outcome.exitCode == 1)
        #expect(outcome.output == ["1"])
        #expect(outcome.standardError.contains("f.auto:2:1: error: fail politely: it failed: disk full"))
    }

    /// `Optional` being an `IntentValue` (for optional results) leaves `@Parameter var note: String?` optional, and an
    /// optional parameter may have a default.
    @Test func anOptionalParameterMayHaveADefault() async throws {
        let registry = try Self.registry()
        let print = try #require(registry.intent(named: "print tickets"))
        #expect(print.parameters.map(\.isRequired) == [false, false])
        #expect(print.parameters.map { $0.defaultValue.map(ValueFormatter.inline) } == ["2", nil])
        #expect(print.parameters.map(\.type) == [.int, .text])
        #expect(try #require(registry.intent(named: "plan trip")).parameters[3].isRequired == false)
        let outcome = await EngineHarness.run("""
            show print tickets
            show print tickets copies: nil
            show print tickets copies: 5 note: "window"
            """, registry: registry)
        #expect(outcome.exitCode == 0, "\(outcome.standardError)")
        #expect(outcome.output == ["2 copies", "no copies", "5 copies, window"])
    }

    /// A `LocalizedError` used to read as its case, `outOfBeans(left: 0)`.
    @Test func aHostsErrorReadsAsItsDescription() async throws {
        for (trouble, message) in [("beans", "out of beans, 0 left"), ("grinder", "the grinder is jammed"), ("kettle", "cold")] {
            let outcome = await EngineHarness.run("show 1\nbrew \"\(trouble)\"", name: "b.auto", registry: try Self.registry())
            #expect(outcome.exitCode == 1)
            #expect(outcome.standardError.contains("b.auto:2:1: error: brew: \(message)\n"), "\(outcome.standardError)")
        }
    }

    @Test func invalidMetadataIsARegistrationError() {
        struct Twice: AppIntent {
            static let title = "Twice"
            @Parameter("x") var a: Int
            @Parameter("x") var b: Int
            func perform(_ context: IntentContext) async throws -> IntentResult<NoValue> { .result() }
        }
        struct BadSummary: AppIntent {
            static let title = "Bad summary"
            static let parameterSummary: ParameterSummary? = "Do {nothing}"
            func perform(_ context: IntentContext) async throws -> IntentResult<NoValue> { .result() }
        }
        var registry = Registry.standard
        #expect(throws: RegistrationError.self) { try registry.register(Twice.self) }
        #expect(throws: RegistrationError.self) { try registry.register(BadSummary.self) }
        #expect(throws: RegistrationError.self) { try registry.register(PlanTrip.self); try registry.register(PlanTrip.self) }
    }
}

@Suite struct ExecutorTests {
    func script(_ text: String) throws -> CompiledScript {
        try ScriptCompiler.compile(SourceFile(name: "t.auto", text: text), registry: .standard).get()
    }

    @Test func stepLimitStopsARunawayLoop() async throws {
        await #expect(throws: RuntimeError.self) {
            try await script("repeat 1_000_000_000 times { }").run(limits: RunLimits(maxSteps: 10_000))
        }
    }

    @Test func timeLimitStopsALongRun() async throws {
        do {
            _ = try await script("set x = 0\nrepeat 1_000_000_000 times { set x = x + 1 }").run(limits: RunLimits(maxDuration: .milliseconds(50)))
            Issue.record("expected the time limit")
        } catch let error as RuntimeError {
            #expect(error.message.contains("time limit"))
        }
    }

    @Test func cancellationStopsTheRun() async throws {
        let flag = CancellationFlag()
        flag.cancel()
        await #expect(throws: RunCancelled.self) { try await script("repeat 1_000_000 times { }").run(cancellation: flag) }
    }

    @Test func runawayRecursionIsAnError() async throws {
        do {
            _ = try await script("shortcut \"forever\" (n: Int) { return forever n + 1 }\nforever 1").run()
            Issue.record("expected the call depth limit")
        } catch let error as RuntimeError {
            #expect(error.message.contains("call each other more than"))
        }
    }

    @Test func integerOverflowIsAnErrorNotATrap() async throws {
        do {
            _ = try await script("set x = 9223372036854775807\nx + 1").run()
            Issue.record("expected an overflow error")
        } catch let error as RuntimeError {
            #expect(error.message == "integer overflow: 9223372036854775807 + 1 does not fit in 64 bits")
            #expect(error.location?.line == 2)
        }
    }

    @Test func theResultIsTheLastStatementsValue() async throws {
        let result = try await script("set x = [1, 2]\nx + [3]").run()
        #expect(ValueFormatter.json(result) == "[1,2,3]")
    }
}
