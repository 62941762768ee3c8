import AutoIntents
import AutoLanguage
import AutoRuntime
import AutoTestSupport
import Foundation
import Testing

/// A new user's host (`TrailsHost.swift`): a UUID id, Decimal prices, an enum, five intents, two dependencies,
/// a query with a dependency of its own. Driven through the engine, not the command line.
@Suite struct TrailsHostTests {
    static let ridge = UUID(uuidString: "0F8FAD5B-D9CB-469F-A165-70867728950E")!

    static func store() -> TrailStore {
        TrailStore([
            Trail(id: ridge, name: "Ridge loop", region: "Alps", kilometres: 12.5, difficulty: .hard, permitPrice: 12.50, isOpen: true),
            Trail(id: UUID(), name: "Lake walk", region: "Jura", kilometres: 4.2, difficulty: .easy, permitPrice: 0, isOpen: true),
            Trail(id: UUID(), name: "Gorge path", region: "Alps", kilometres: 8, difficulty: .moderate, permitPrice: 3.10, isOpen: true),
            Trail(id: UUID(), name: "Summit push", region: "Alps", kilometres: 21.3, difficulty: .hard, permitPrice: 20, isOpen: true),
        ])
    }

    /// Runs a script against a fresh store: the result as JSON, or the error; and what was shown.
    func run(_ text: String, confirmations: [Bool] = []) async throws -> (result: String, shown: [String]) {
        let registry = try Trails.registry(store: Self.store(), hiker: Hiker(name: "Ada"))
        let compiled = try ScriptCompiler.compile(SourceFile(name: "trails.auto", text: text), registry: registry).get()
        let interaction = ScriptedInteraction(confirmations: confirmations)
        let outcome = await Engine(registry: compiled.registry).run(compiled.program, interaction: interaction)
        switch outcome.ending {
        case .completed(let value): return (ValueFormatter.json(value), interaction.shown)
        case .failed(let error): return ("error: \(error.message)", interaction.shown)
        case .cancelled(let reason): return ("cancelled: \(reason)", interaction.shown)
        case .stoppedBeforeChange: return ("stopped", interaction.shown)
        }
    }

    @Test func findsTrailsByTheirDiscoveredProperties() async throws {
        let found = try await run("find trails where difficulty == hard and isOpen sort by kilometres desc | open trail")
        #expect(found.shown == ["Summit push: 21.3 km, hard", "Ridge loop: 12.5 km, hard"])
        let named = try await run("(find trail matching \"ridge\").id")
        #expect(named.result == "[\"0f8fad5b-d9cb-469f-a165-70867728950e\"]", "a UUID id, as text in lower case")
    }

    @Test func pricesAreExactDecimals() async throws {
        let permit = try await run("buy permit \"Ridge loop\" days: 3")
        #expect(permit.result == "37.5")
        #expect(permit.shown == ["Ada, your permit for Ridge loop costs 37.5"], "the dependency reached the intent")
        let price = try await run("change price \"Gorge path\" price: 0.1 + 0.2 -> t\nt.permitPrice")
        #expect(price.result == "0.3")
        let outOfRange = try await run("set p = 250\nchange price \"Gorge path\" price: p")
        #expect(outOfRange.result == "error: 'price' of 'change price' must be between 0.0 and 100.0, got 250.0")
    }

    @Test func aDestructiveIntentIsConfirmedAndAnEnumIsAskedFor() async throws {
        let closed = try await run("close trail \"Ridge loop\" -> t\nt.isOpen", confirmations: [true])
        #expect(closed.result == "false")
        let declined = try await run("close trail \"Ridge loop\"", confirmations: [false])
        #expect(declined.result == "cancelled: 'close trail' was not confirmed")
        let plan = try await run("plan hike \"Moderate\" maxKilometres: 10")
        #expect(plan.shown == ["1 trails to choose from"])
    }

    @Test func aQueryWhoseDependencyIsMissingIsARegistrationError() throws {
        var registry = Registry.standard
        do {
            try registry.register(query: TrailQuery())
            Issue.record("expected a registration error")
        } catch {
            #expect(error.message == "the query of trails uses a dependency of type TrailStore ('store'), which is not registered; register it first: registry.register(dependency: …)")
        }
    }
}
