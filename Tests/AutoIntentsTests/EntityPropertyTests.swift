import AutoIntents
import Foundation
import Testing

enum Difficulty: String, AppEnum {
    case easy, moderate, hard
    static let enumType = EnumType<Difficulty>("difficulty")
}

/// An entity that names no properties: they are its stored properties of engine types.
struct Trail: AppEntity {
    static let entityType = EntityType<Trail>(singular: "trail")
    var id: UUID
    var name: String
    var lengthKilometres: Int
    var difficulty: Difficulty
    var closedSince: Date?
    /// Not an engine type: registering the type is an error that names it.
    var waypoints: [(Double, Double)] = []
    var displayRepresentation: DisplayRepresentation { .init(title: name) }
}

/// The same trail with its waypoints kept out by name.
struct QuietTrail: AppEntity {
    static let entityType = EntityType<QuietTrail>(singular: "quiet trail")
    var id: Int
    var name: String
    var _waypoints: [(Double, Double)] = []
    var displayRepresentation: DisplayRepresentation { .init(title: name) }
}

/// Opens a trail: an intent that makes its entity type registered.
struct OpenTrail: AppIntent {
    static let title = "Open trail"
    @Parameter var trail: Trail
    func perform(_ context: IntentContext) async throws -> IntentResult<String> { .result(value: trail.name) }
}

enum Pace: String, AppEnum {
    case slowAndSteady, brisk, in_a_hurry
    static let enumType = EnumType<Pace>("pace", displayNames: [.brisk: "Quick"])
}

@Suite struct EntityPropertyTests {
    let trail = Trail(id: UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")!, name: "Ridge loop", lengthKilometres: 12,
                      difficulty: .hard, closedSince: nil)

    @Test func storedPropertiesOfEngineTypesAreTheProperties() {
        let type = Trail.entityType
        #expect(type.properties.map(\.name) == ["name", "lengthKilometres", "difficulty", "closedSince"])
        #expect(type.properties.map(\.title) == ["Name", "Length kilometres", "Difficulty", "Closed since"])
        #expect(type.properties.map(\.type) == [.text, .int, .enumeration(Difficulty.enumType), .date])
        #expect(type.plural == "trails")
    }

    /// A stored property of a type the engine can't show is not dropped without a word: registering the type says
    /// which, and how to keep it out or show it.
    @Test func aPropertyOfATypeTheEngineCantShowIsARegistrationError() {
        var registry = Registry()
        #expect {
            try registry.register(OpenTrail.self)
        } throws: { error in
            let message = "\(error)"
            return message.contains("Trail.waypoints (Array<(Double, Double)>) can't be shown by the engine")
                && message.contains("properties: [.init(\"name\", \\.name), …]") && message.contains("_waypoints")
        }
        #expect(registry.intent(named: "open trail") == nil)
        #expect(throws: RegistrationError.self) { try registry.register(entity: Trail.self) }
        #expect(throws: Never.self) { try registry.register(entity: QuietTrail.self) }
        #expect(QuietTrail.entityType.properties.map(\.name) == ["name"])
    }

    /// A case without a display name is named from its raw value as a title is, never shown raw.
    @Test func anEnumCaseWithoutADisplayNameIsNamedFromItsRawValue() {
        #expect(Pace.enumType.cases.map(\.displayName) == ["Slow and steady", "Quick", "In a hurry"])
        #expect(Difficulty.enumType.cases.map(\.displayName) == ["Easy", "Moderate", "Hard"])
        #expect(Pace.enumType.caseIndex(named: "slow and steady") == 0)
    }

    @Test func theyAreReadFromTheEntity() throws {
        guard case .entity(let entity) = trail.autoValue else {
            Issue.record("expected an entity")
            return
        }
        #expect(entity.id == "6f9619ff-8b86-d011-b42d-00c04fc964ff", "a UUID id, in lower case")
        guard case .text("Ridge loop") = entity.property(0), case .int(12) = entity.property(1),
              case .enumCase(let difficulty) = entity.property(2), case .null = entity.property(3) else {
            Issue.record("unexpected values: \((0..<4).map(entity.property))")
            return
        }
        #expect(difficulty.identifier == "hard")
        var closed = trail
        closed.closedSince = Date(timeIntervalSince1970: 0)
        guard case .entity(let closedEntity) = closed.autoValue, case .date(let since) = closedEntity.property(3) else {
            Issue.record("expected the date a trail closed")
            return
        }
        #expect(since == Date(timeIntervalSince1970: 0))
    }
}

/// Properties declared by key path: a struct's stored ones are read at their offsets, a computed one and a class's
/// through the key path. Padding (an Int8 first) and optionals put the fields where a wrong offset would read garbage.
struct Summit: AppEntity {
    static let entityType = EntityType<Summit>(singular: "summit", properties: [
        .init("name", \.name), .init("alias", \.alias), .init("height", \.height), .init("firstClimbed", \.firstClimbed),
        .init("shout", \.shout),
    ])
    var flag: Int8 = 1
    var id: Int
    var name: String
    var alias: String?
    var height: Int
    var firstClimbed: Int?
    var shout: String { name.uppercased() }
    var displayRepresentation: DisplayRepresentation { .init(title: name) }
}

final class Hut: AppEntity {
    static let entityType = EntityType<Hut>(singular: "hut", properties: [.init("name", \.name), .init("beds", \.beds)])
    let id: Int
    let name: String
    let beds: Int?
    init(id: Int, name: String, beds: Int?) {
        self.id = id
        self.name = name
        self.beds = beds
    }
    var displayRepresentation: DisplayRepresentation { .init(title: name) }
}

@Suite struct KeyPathPropertyTests {
    /// The entity's properties, written out: texts quoted, numbers, `nil`.
    func properties(of value: Value) -> [String] {
        guard case .entity(let entity) = value else { return [] }
        return entity.type.properties.indices.map { index in
            switch entity.property(index) {
            case .text(let text): "\"\(text)\""
            case .int(let number): "\(number)"
            case .null: "nil"
            default: "another value"
            }
        }
    }

    @Test func aStructsStoredPropertiesAreReadAtTheirOffsetsAndOthersThroughTheKeyPath() throws {
        let summit = Summit(id: 7, name: "Eiger", alias: nil, height: 3_967, firstClimbed: 1858)
        #expect(MemoryLayout<Summit>.offset(of: \Summit.name) != nil && MemoryLayout<Summit>.offset(of: \Summit.shout) == nil)
        #expect(properties(of: summit.autoValue) == ["\"Eiger\"", "nil", "3967", "1858", "\"EIGER\""])
        let other = Summit(id: 8, name: "Mönch", alias: "Monk", height: 4_110, firstClimbed: nil)
        #expect(properties(of: other.autoValue) == ["\"Mönch\"", "\"Monk\"", "4110", "nil", "\"MÖNCH\""])
        #expect(Summit(autoValue: other.autoValue)?.name == "Mönch")
        #expect(Summit(autoValue: Hut(id: 1, name: "x", beds: 2).autoValue) == nil, "another entity type's value is no Summit")
    }

    @Test func aClasssPropertiesAreReadThroughTheKeyPath() {
        let hut = Hut(id: 1, name: "Hörnli", beds: 130)
        #expect(properties(of: hut.autoValue) == ["\"Hörnli\"", "130"])
        guard case .entity(let entity) = hut.autoValue else { return }
        #expect(entity.id == "1" && entity.display.title == "Hörnli")
    }
}
