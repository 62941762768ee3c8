import AutoIntents
import AutoLanguage
import AutoRuntime
import AutoTestSupport
import Foundation
import Testing

/// The host's timetable: which places each transport reaches. A dependency, as a host's database is.
final class Timetable: Sendable {
    let places: [Transport: [String]]
    init(_ places: [Transport: [String]]) { self.places = places }
}

/// The destinations the timetable knows, only those the given transport reaches when there is one.
struct DestinationOptions: DynamicOptionsProvider {
    @Dependency var timetable: Timetable

    func results(for request: OptionsRequest) async throws -> [String] {
        if let transport = request.argument("transport", as: Transport.self) { return timetable.places[transport] ?? [] }
        return Transport.allCases.flatMap { timetable.places[$0] ?? [] }
    }
}

struct BookTrip: AppIntent {
    static let title = "Book trip"
    @Parameter(question: "Where to?", optionsProvider: DestinationOptions()) var destination: String
    @Parameter var transport: Transport?
    @Parameter(default: 2, optionsProvider: SeatOptions()) var seats: Int

    func perform(_ context: IntentContext) async throws -> IntentResult<String> {
        .result(value: "\(seats) to \(destination)")
    }
}

/// Options that are no texts: written as literals by completion.
struct SeatOptions: DynamicOptionsProvider {
    func results(for request: OptionsRequest) async throws -> [Int] { [1, 2, 4] }
}

/// A provider that fails, as a host's query may.
struct BrokenOptions: DynamicOptionsProvider {
    struct Unreachable: Error, CustomStringConvertible { var description: String { "the timetable server is unreachable" } }
    func results(for request: OptionsRequest) async throws -> [String] { throw Unreachable() }
}

struct BookAnyTrip: AppIntent {
    static let title = "Book any trip"
    @Parameter(question: "Where to?", optionsProvider: BrokenOptions()) var destination: String
    func perform(_ context: IntentContext) async throws -> IntentResult<String> { .result(value: destination) }
}

/// A parameter's options from the host (App Intents' `DynamicOptionsProvider`): registered with its dependencies,
/// asked with the arguments given so far, offered as a choice for a missing value and by completion.
@Suite struct DynamicOptionsTests {
    static let timetable = Timetable([.train: ["Lyon", "Turin"], .plane: ["Lisbon", "Oslo", "Rome"], .bike: []])

    static func registry() throws -> Registry {
        var registry = Registry.standard
        try registry.register(dependency: timetable)
        try registry.register(BookTrip.self)
        try registry.register(BookAnyTrip.self)
        return registry
    }

    @Test func aMissingValueIsAChoiceAmongTheOptionsForTheOtherArguments() async throws {
        let outcome = await EngineHarness.run("book trip transport: plane", registry: try Self.registry(), choices: [2])
        #expect(outcome.questions == ["Where to? Lisbon | Oslo | Rome"], "only the plane's destinations")
        #expect(outcome.output == ["2 to Rome"], "\(outcome.standardError)")
        let anyTransport = await EngineHarness.run("book trip seats: 1", registry: try Self.registry(), choices: [0])
        #expect(anyTransport.questions == ["Where to? Lyon | Turin | Lisbon | Oslo | Rome"])
        #expect(anyTransport.output == ["1 to Lyon"])
    }

    @Test func withNoOptionsTheQuestionIsAPlainOne() async throws {
        let outcome = await EngineHarness.run("book trip transport: bike", registry: try Self.registry(), answers: ["Ghent"])
        #expect(outcome.questions == ["Where to?"])
        #expect(outcome.output == ["2 to Ghent"])
    }

    @Test func aGivenValueNeedNotBeAnOption() async throws {
        let outcome = await EngineHarness.run("book trip \"Ghent\" transport: plane", registry: try Self.registry())
        #expect(outcome.output == ["2 to Ghent"], "options are suggestions")
    }

    @Test func whenNobodyCanChooseOrTheProviderFailsTheErrorSaysSo() async throws {
        let unanswered = await EngineHarness.run("book trip", name: "trip.auto", registry: try Self.registry())
        #expect(unanswered.exitCode == 1)
        #expect(unanswered.standardError.contains("trip.auto:1:1: error: 'book trip' needs 'destination' (Text) and nobody can answer 'Where to?'"),
                "\(unanswered.standardError)")
        let broken = await EngineHarness.run("book any trip", name: "trip.auto", registry: try Self.registry())
        #expect(broken.exitCode == 1)
        #expect(broken.standardError.contains(
            "trip.auto:1:1: error: finding the options for 'destination' of 'book any trip': the timetable server is unreachable"),
            "\(broken.standardError)")
    }

    @Test func aProvidersDependencyMustBeRegisteredFirst() throws {
        var registry = Registry.standard
        #expect {
            try registry.register(BookTrip.self)
        } throws: { error in
            "\(error)".contains("the options of 'destination' of intent 'Book trip' uses a dependency of type Timetable")
        }
    }

    // MARK: Completion

    func complete(_ marked: String) throws -> CompletionResult {
        let cursor = marked.range(of: "‸").map { marked[..<$0.lowerBound].utf8.count } ?? marked.utf8.count
        return Completer(registry: try Self.registry()).complete(marked.replacingOccurrences(of: "‸", with: ""), cursor: cursor)
    }

    /// The arguments completion would ask the provider with, and whether the cursor is in a text.
    func asked(_ marked: String) throws -> (parameter: String, arguments: [String: String], inText: Bool, typed: String)? {
        guard let wanted = try complete(marked).values, case .options(let parameter, let arguments, let inText) = wanted.wanted else { return nil }
        return (parameter.name, arguments.mapValues(ValueFormatter.inline), inText, wanted.typed)
    }

    @Test func completionAsksForTheOptionsWithTheLiteralArgumentsOnBothSidesOfTheCursor() throws {
        let inText = try #require(try asked("book trip \"Li‸"))
        #expect(inText.parameter == "destination" && inText.inText && inText.typed == "Li" && inText.arguments.isEmpty)
        let after = try #require(try asked("book trip \"L‸\" transport: plane seats: 3"))
        #expect(after.arguments == ["transport": "Plane", "seats": "3"], "arguments after the cursor count too")
        let labelled = try #require(try asked("book trip transport: train destination: \"‸"))
        #expect(labelled.parameter == "destination" && labelled.arguments == ["transport": "Train"])
        let computed = try #require(try asked("book trip transport: t seats: 1 + 1 destination: \"‸"))
        #expect(computed.arguments.isEmpty, "a variable or an expression is not known while typing: \(computed.arguments)")
        let code = try #require(try asked("book trip \"Oslo\" seats: ‸"))
        #expect(code.parameter == "seats" && !code.inText && code.arguments == ["destination": "\"Oslo\""])
        let input = try #require(try asked("book trip ‸"))
        #expect(input.parameter == "destination" && !input.inText)
        #expect(try asked("book trip \"Oslo\" transport: ‸") == nil, "an enum's cases are the language's own")
        let cases = try complete("book trip \"Oslo\" transport: ‸").candidates.map(\.text)
        #expect(["bike", "plane", "train"].allSatisfy(cases.contains), "\(cases)")
    }

    @Test func registrationKeepsTheOptionsOfEachParameter() throws {
        let registry = try Self.registry()
        let intent = try #require(registry.intent(named: "book trip"))
        #expect(intent.parameters.map { $0.options != nil } == [true, false, true])
    }
}
