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
    /// Not an engine type: not a property.
    var waypoints: [(Double, Double)] = []
    var displayRepresentation: DisplayRepresentation { .init(title: name) }
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
