import AutoIntents
import AutoTestSupport
import Testing

// A type whose query lists all its entities but has no text search of its own (an EnumerableEntityQuery): a text
// still names one, by the engine's match of their titles, as `find regions matching …` already did. A trail-guide
// host written from the documentation alone had its shortcut phrase refused at start for want of an
// EntityStringQuery.

struct Region: AppEntity {
    static let entityType = EntityType<Region>(singular: "region")
    let id: String
    let country: String
    var displayRepresentation: DisplayRepresentation { .init(title: id, subtitle: country) }
}

struct RegionQuery: EnumerableEntityQuery {
    static let all = [Region(id: "Valais", country: "Switzerland"), Region(id: "Bernese Oberland", country: "Switzerland"),
                      Region(id: "Dolomites", country: "Italy")]
    func entities(for identifiers: [String]) async throws -> [Region] { Self.all.filter { identifiers.contains($0.id) } }
    func allEntities() async throws -> [Region] { Self.all }
}

struct VisitRegion: AppIntent {
    static let title = "Visit region"
    @Parameter var region: Region
    func perform(_ context: IntentContext) async throws -> IntentResult<String> {
        .result(value: region.id, dialog: "Off to \(region.id)")
    }
}

struct RegionShortcuts: AppShortcutsProvider {
    static var appShortcuts: [AppShortcut] {
        [AppShortcut(intent: VisitRegion(), phrases: ["Visit \(\.$region) with \(.applicationName)"], shortTitle: "Visit", systemImageName: "map")]
    }
}

@Suite struct FoundByTitleTests {
    static func registry() throws -> Registry {
        var registry = Registry.standard
        try registry.register(VisitRegion.self)
        try registry.register(query: RegionQuery())
        try registry.register(shortcuts: RegionShortcuts.self, applicationName: "trails")
        return registry
    }

    @Test func aTextNamesAnEntityByItsTitle() async throws {
        let outcome = await EngineHarness.run("""
            visit region "valais"
            visit region "Oberland"
            show count(find regions matching "switz")
            """, registry: try Self.registry())
        #expect(outcome.exitCode == 0, "\(outcome.standardError)")
        #expect(outcome.output == ["Off to Valais", "Off to Bernese Oberland", "2"])
    }

    @Test func aTextThatNamesNoneOrSeveralSaysSo() async throws {
        let none = await EngineHarness.run(#"visit region "Alps""#, registry: try Self.registry())
        #expect(none.standardError.contains("no region matches 'Alps' for 'region' of 'visit region'"), "\(none.standardError)")
        let several = await EngineHarness.run(#"visit region "s""#, registry: try Self.registry())
        #expect(several.standardError.contains("several regions match 's'"), "\(several.standardError)")
    }

    @Test func aPhraseNamesOne() async throws {
        let found = try await PhraseMatcher(registry: try Self.registry()).match("visit valais with trails")
        guard case .found(let matches) = found else {
            Issue.record("\(found)")
            return
        }
        #expect(matches.map(\.valueText) == ["valais"])
        #expect(matches.first?.cost == 0, "the title said exactly costs nothing")
    }
}
