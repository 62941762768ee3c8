import AutoRuntime
import Foundation
import Testing
@testable import AutoIntents

// Engine-side `find` scans stored properties in place (TypedScans). These tests hold every comparator of the
// scan against the engine's own comparison of values, property by property, on entities whose texts and
// missing values make the rules visible.

/// An entity with every kind of property a scan treats differently: stored texts and numbers, optional
/// ones, a date, and a computed property (declared by key path too, but with no offset to scan).
struct Gauge: AppEntity {
    static let entityType = EntityType<Gauge>(singular: "gauge", properties: [
        .init("name", \.name), .init("label", \.label), .init("reading", \.reading), .init("limit", \.limit),
        .init("taken", \.taken), .init("twice", \.twice),
    ])
    var id: Int
    var name: String
    var label: String?
    var reading: Int
    var limit: Double?
    var taken: Date
    var twice: Int { reading * 2 }
    var displayRepresentation: DisplayRepresentation { .init(title: name) }
}

/// The same kind of properties on a class: its instances are references, so no property has an offset to
/// scan and every comparison takes the per-entity path. And a nested stored property (`\.size.width`).
final class Panel: AppEntity {
    static let entityType = EntityType<Panel>(singular: "panel", properties: [
        .init("name", \.name), .init("width", \.size.width),
    ])
    let id: Int
    let name: String
    let size: Size
    init(id: Int, name: String, size: Size) {
        self.id = id
        self.name = name
        self.size = size
    }
    var displayRepresentation: DisplayRepresentation { .init(title: name) }

    struct Size: Sendable {
        var height: Int
        var width: Int
    }
}

/// A struct entity with the nested property, which does have an offset.
struct Window: AppEntity {
    static let entityType = EntityType<Window>(singular: "window", properties: [.init("width", \.size.width)])
    var id: Int
    var size: Panel.Size
    var displayRepresentation: DisplayRepresentation { .init(title: "\(id)") }
}

@Suite struct TypedScanTests {
    static let names = ["Kelvin", "kelvin", "\u{212A}elvin", "café", "cafe\u{301}", "Circe", "", "A long name that is not a small string"]

    static let gauges: [Gauge] = (0..<40).map(gauge)

    static func gauge(_ i: Int) -> Gauge {
        let label: String? = i % 3 == 0 ? nil : names[(i * 7) % names.count]
        let limit: Double? = i % 4 == 0 ? nil : Double(i % 5) / 2
        let taken = Date(timeIntervalSince1970: Double((i * 13) % 9) * 86_400)
        return Gauge(id: i, name: names[i % names.count], label: label, reading: (i * 37) % 11 - 5, limit: limit, taken: taken)
    }

    /// Values of every type on the right-hand side, the property's own and others.
    static let values: [Value] = [
        .text("Kelvin"), .text("kel"), .text("VIN"), .text("café"), .text(""), .text("Circe"),
        .int(0), .int(-3), .int(4), .decimal(1), .decimal(0.5), .null,
        .date(Date(timeIntervalSince1970: 4 * 86_400)),
        .list([.text("Circe"), .text("kelvin")]), .list([.int(-5), .int(0)]), .list([.decimal(0.5), .decimal(1.5)]),
        .list([.date(Date(timeIntervalSince1970: 86_400)), .date(Date(timeIntervalSince1970: 5 * 86_400))]),
    ]

    static func request(_ condition: EntityCondition, sort: [EntitySortKey] = [], limit: Int? = nil) -> FindRequest {
        FindRequest(source: .all, condition: condition, sort: sort, limit: limit,
                    compare: { op, a, b in (try? Operations.compare(op, a, b)) ?? false },
                    order: { a, b in
                        switch Operations.order(a, b) {
                        case .orderedAscending?: return -1
                        case .orderedDescending?: return 1
                        default: return 0
                        }
                    })
    }

    /// The same comparison on the entity as an engine value: the path a script's `published.year` takes.
    static func byValue(_ property: Int, _ op: ComparisonOperator, _ value: Value) -> EntityCondition {
        .valueTest { candidate in
            guard case .entity(let entity) = candidate else { return false }
            let left = entity.type.properties[property].get(entity.payload)
            return (try? Operations.compare(op, left, value)) ?? false
        }
    }

    @Test func storedPropertiesDeclaredByKeyPathScanInPlace() {
        let type = Gauge.entityType
        let stored = ["name", "label", "reading", "limit", "taken"]
        for (index, property) in type.typedProperties.enumerated() {
            let sample: Value = property.type == .text ? .text("x") : property.type == .date ? .date(Date()) : .int(1)
            let scans = property.makeScan(.equal, sample) != nil
            #expect(scans == stored.contains(property.name), "\(property.name) (\(index))")
        }
    }

    @Test(arguments: ComparisonOperator.allCases)
    func scanAgreesWithValueComparison(_ op: ComparisonOperator) {
        let type = Gauge.entityType
        for property in type.typedProperties.indices {
            for value in Self.values {
                let scanned = EngineQuery.run(Self.gauges, type, Self.request(.test(property: property, op, value))).map(\.id)
                let expected = EngineQuery.run(Self.gauges, type, Self.request(Self.byValue(property, op, value))).map(\.id)
                #expect(scanned == expected, "\(type.typedProperties[property].name) \(op.rawValue) \(value)")
            }
        }
    }

    @Test func scanNarrowsBeforeTheRestOfTheConditionSortAndLimit() {
        let type = Gauge.entityType
        let name = type.propertyIndex["name"]!, twice = type.propertyIndex["twice"]!, reading = type.propertyIndex["reading"]!
        // `name starts with "k" and twice > -4`: the scan finds the names, the computed property tests only those.
        let scanned = EntityCondition.and(.test(property: twice, .greater, .int(-4)), .test(property: name, .startsWith, .text("k")))
        let byValue = EntityCondition.and(Self.byValue(twice, .greater, .int(-4)), Self.byValue(name, .startsWith, .text("k")))
        for (sort, limit) in [([EntitySortKey](), nil), ([], 2), ([.property(reading, descending: true)], 3),
                              ([.property(reading, descending: false)], 30), ([.property(reading, descending: true)], nil)] as [([EntitySortKey], Int?)] {
            let fast = EngineQuery.run(Self.gauges, type, Self.request(scanned, sort: sort, limit: limit)).map(\.id)
            let slow = EngineQuery.run(Self.gauges, type, Self.request(byValue, sort: sort, limit: limit)).map(\.id)
            #expect(fast == slow, "sort \(sort.count) limit \(String(describing: limit))")
            #expect(!fast.isEmpty)
        }
    }

    @Test func classEntitiesAndNestedPathsGiveTheSameResults() {
        let panels = (0..<12).map { Panel(id: $0, name: Self.names[$0 % Self.names.count], size: .init(height: $0, width: ($0 * 5) % 7)) }
        let windows = (0..<12).map { Window(id: $0, size: .init(height: $0, width: ($0 * 5) % 7)) }
        #expect(Panel.entityType.typedProperties.allSatisfy { $0.makeScan(.equal, .int(1)) == nil && $0.makeScan(.equal, .text("x")) == nil })
        #expect(Window.entityType.typedProperties[0].makeScan(.equal, .int(1)) != nil)
        for op in ComparisonOperator.allCases {
            for value in Self.values {
                let panelWidth = EngineQuery.run(panels, Panel.entityType, Self.request(.test(property: 1, op, value))).map(\.id)
                let windowWidth = EngineQuery.run(windows, Window.entityType, Self.request(.test(property: 0, op, value))).map(\.id)
                let expected = EngineQuery.run(windows, Window.entityType, Self.request(Self.byValue(0, op, value))).map(\.id)
                #expect(windowWidth == expected, "window width \(op.rawValue) \(value)")
                #expect(panelWidth == expected, "panel width \(op.rawValue) \(value)")
                let panelName = EngineQuery.run(panels, Panel.entityType, Self.request(.test(property: 0, op, value))).map(\.id)
                let panelNameByValue = EngineQuery.run(panels, Panel.entityType, Self.request(Self.byValue(0, op, value))).map(\.id)
                #expect(panelName == panelNameByValue, "panel name \(op.rawValue) \(value)")
            }
        }
    }
}
