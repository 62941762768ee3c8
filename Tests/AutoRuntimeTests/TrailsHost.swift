import AutoIntents
import Foundation
import Synchronization

// A new user's host, written as its App Intents version would be: trails (an entity with a UUID id and a
// Decimal price), a difficulty enum, five intents and two dependencies. Its length is the measure of the
// embedding API; `TrailsHostTests` drives it.

enum Difficulty: String, AppEnum {
    case easy, moderate, hard
    static let enumType = EnumType<Difficulty>("difficulty", displayNames: [.easy: "Easy", .moderate: "Moderate", .hard: "Hard"])
}

struct Trail: AppEntity {
    static let entityType = EntityType<Trail>(singular: "trail")
    var id: UUID
    var name: String
    var region: String
    var kilometres: Decimal
    var difficulty: Difficulty
    var permitPrice: Decimal
    var isOpen: Bool
    var displayRepresentation: DisplayRepresentation { .init(title: name, subtitle: region) }
}

/// The trails, kept in memory by the host.
final class TrailStore: Sendable {
    private let trails: Mutex<[Trail]>
    init(_ trails: [Trail]) { self.trails = Mutex(trails) }
    var all: [Trail] { trails.withLock { $0 } }
    func update(_ id: UUID, _ change: (inout Trail) -> Void) throws -> Trail {
        try trails.withLock { trails in
            guard let index = trails.firstIndex(where: { $0.id == id }) else { throw IntentError("that trail is gone") }
            change(&trails[index])
            return trails[index]
        }
    }
}

/// Where the user is, for distances and greetings.
struct Hiker: Sendable {
    let name: String
}

struct TrailQuery: EnumerableEntityQuery, EntityStringQuery {
    @Dependency var store: TrailStore
    func entities(for identifiers: [UUID]) async throws -> [Trail] { store.all.filter { identifiers.contains($0.id) } }
    func allEntities() async throws -> [Trail] { store.all }
    func entities(matching text: String) async throws -> [Trail] {
        store.all.filter { $0.name.localizedCaseInsensitiveContains(text) }
    }
}

struct OpenTrail: AppIntent {
    static let title = "Open trail"
    static let parameterSummary: ParameterSummary? = "Open {trail}"
    @Parameter(question: "Which trail?") var trail: Trail
    func perform(_ context: IntentContext) async throws -> IntentResult<Trail> {
        .result(value: trail, dialog: "\(trail.name): \(trail.kilometres) km, \(trail.difficulty.rawValue)")
    }
}

struct BuyPermit: AppIntent {
    static let title = "Buy permit"
    static let sideEffect = SideEffect.changes
    static let parameterSummary: ParameterSummary? = "Buy {days} days of permit for {trail}"
    @Parameter var trail: Trail
    @Parameter(default: 1, range: 1...14) var days: Int
    @Dependency var hiker: Hiker
    func perform(_ context: IntentContext) async throws -> IntentResult<Decimal> {
        let total = trail.permitPrice * Decimal(days)
        return .result(value: total, dialog: "\(hiker.name), your permit for \(trail.name) costs \(total)")
    }
}

struct CloseTrail: AppIntent {
    static let title = "Close trail"
    static let sideEffect = SideEffect.destructive
    @Parameter var trail: Trail
    @Dependency var store: TrailStore
    func perform(_ context: IntentContext) async throws -> IntentResult<Trail> {
        let closed = try store.update(trail.id) { $0.isOpen = false }
        return .result(value: closed, dialog: "Closed \(trail.name)")
    }
}

struct ChangePrice: AppIntent {
    static let title = "Change price"
    static let sideEffect = SideEffect.changes
    @Parameter var trail: Trail
    @Parameter(range: 0...100) var price: Decimal
    @Dependency var store: TrailStore
    func perform(_ context: IntentContext) async throws -> IntentResult<Trail> {
        .result(value: try store.update(trail.id) { $0.permitPrice = price })
    }
}

struct PlanHike: AppIntent {
    static let title = "Plan hike"
    @Parameter(question: "How hard?") var difficulty: Difficulty
    @Parameter(range: 1...100) var maxKilometres: Decimal?
    @Dependency var store: TrailStore
    func perform(_ context: IntentContext) async throws -> IntentResult<[Trail]> {
        let trails = store.all.filter { $0.isOpen && $0.difficulty == difficulty && $0.kilometres <= (maxKilometres ?? 100) }
        guard !trails.isEmpty else { throw IntentError("no open \(difficulty.rawValue) trail") }
        return .result(value: trails, dialog: "\(trails.count) trails to choose from")
    }
}

enum Trails {
    static func registry(store: TrailStore, hiker: Hiker) throws -> Registry {
        var registry = Registry.standard
        try registry.register(dependency: store)
        try registry.register(dependency: hiker)
        for intent in [OpenTrail.self, BuyPermit.self, CloseTrail.self, ChangePrice.self, PlanHike.self] as [any AppIntent.Type] {
            try registry.register(intent)
        }
        try registry.register(query: TrailQuery())
        return registry
    }
}
