import AutoIntents
import Testing

/// A host whose name is one typo from a word of its phrases (`trails` and a trail, `books` and a book, `notes` and a
/// note): the name said exactly is the name, wherever it is, and its near words are left to the phrase.

/// Something of a host's known by its name: each test host has one kind, found by the words of its name.
protocol NamedThing: AppEntity where ID == String {
    static var names: [String] { get }
    init(id: String)
}

extension NamedThing {
    var displayRepresentation: DisplayRepresentation { .init(title: id) }
}

struct NamedTrail: NamedThing {
    static let entityType = EntityType<NamedTrail>(singular: "trail")
    static let names = ["Eiger Trail", "Ridge Loop"]
    let id: String
}

struct NamedBook: NamedThing {
    static let entityType = EntityType<NamedBook>(singular: "book")
    static let names = ["Emma", "The Book of Dust"]
    let id: String
}

struct NamedNote: NamedThing {
    static let entityType = EntityType<NamedNote>(singular: "note")
    static let names = ["Shopping Note", "Ideas"]
    let id: String
}

/// Finds the things whose name contains the words, as a host's search would.
struct NameQuery<Thing: NamedThing>: EntityStringQuery {
    func entities(for identifiers: [String]) async throws -> [Thing] { identifiers.filter(Thing.names.contains).map(Thing.init) }
    func entities(matching text: String) async throws -> [Thing] {
        Thing.names.filter { $0.lowercased().contains(text.lowercased()) }.map(Thing.init)
    }
}

/// Its parameter is titled as the host is named, but for a letter: "Trail" to `trails`.
struct OpenNamedTrail: AppIntent {
    static let title = "Open trail"
    @Parameter var trail: NamedTrail
    func perform(_ context: IntentContext) async throws -> IntentResult<NamedTrail> { .result(value: trail) }
}

struct OpenNamedBook: AppIntent {
    static let title = "Open book"
    @Parameter var book: NamedBook
    func perform(_ context: IntentContext) async throws -> IntentResult<NamedBook> { .result(value: book) }
}

struct OpenNamedNote: AppIntent {
    static let title = "Open note"
    @Parameter var note: NamedNote
    func perform(_ context: IntentContext) async throws -> IntentResult<NamedNote> { .result(value: note) }
}

enum TrailPhrases: AppShortcutsProviderStandIn {
    static var shortcuts: [AppShortcut] {
        [AppShortcut(intent: OpenNamedTrail(), phrases: ["Open \(\.$trail) in \(.applicationName)"], shortTitle: "Open trail", systemImageName: "")]
    }
}
enum BookPhrases: AppShortcutsProviderStandIn {
    static var shortcuts: [AppShortcut] {
        [AppShortcut(intent: OpenNamedBook(), phrases: ["Open \(\.$book) in \(.applicationName)"], shortTitle: "Open book", systemImageName: "")]
    }
}
enum NotePhrases: AppShortcutsProviderStandIn {
    static var shortcuts: [AppShortcut] {
        [AppShortcut(intent: OpenNamedNote(), phrases: ["Open \(\.$note) in \(.applicationName)"], shortTitle: "Open note", systemImageName: "")]
    }
}

@Suite struct HostNamePhraseTests {
    enum Host: String, CaseIterable {
        case trails, books, notes
    }

    func registry(_ host: Host) throws -> Registry {
        var registry = Registry()
        switch host {
        case .trails:
            try registry.register(OpenNamedTrail.self)
            try registry.register(query: NameQuery<NamedTrail>())
            try registry.register(shortcuts: Phrases<TrailPhrases>.self, applicationName: "trails")
        case .books:
            try registry.register(OpenNamedBook.self)
            try registry.register(query: NameQuery<NamedBook>())
            try registry.register(shortcuts: Phrases<BookPhrases>.self, applicationName: "books")
        case .notes:
            try registry.register(OpenNamedNote.self)
            try registry.register(query: NameQuery<NamedNote>())
            try registry.register(shortcuts: Phrases<NotePhrases>.self, applicationName: "notes")
        }
        return registry
    }

    /// The phrase's own text, "Open Trail in trails", fills the parameter with "Trail": the host's name is the last
    /// word, said exactly, not the parameter's title a letter short of it.
    @Test(arguments: Host.allCases)
    func aParameterTitledLikeTheHostIsRegistered(_ host: Host) throws {
        let registry = try registry(host)
        #expect(registry.appShortcuts.count == 1)
    }

    static let sentences: [(host: Host, said: String, value: String)] = [
        (.trails, "open eiger trail in trails", "eiger trail"),
        // Any preposition joins the name.
        (.trails, "open eiger trail with trails", "eiger trail"),
        (.trails, "open eiger trail using trails", "eiger trail"),
        (.trails, "Open Eiger Trail on trails", "Eiger Trail"),
        // The name left unsaid: "trail" is the trail's, not a typo of the name.
        (.trails, "open eiger trail", "eiger trail"),
        // A typo in the name still names it.
        (.trails, "open eiger trail in trials", "eiger trail"),
        // Said exactly somewhere else than the phrase puts it, it wins over a typo of it at that place.
        (.trails, "in trails open eiger trail", "eiger trail"),
        (.books, "open the book of dust in books", "book of dust"),
        (.books, "open emma with books", "emma"),
        (.notes, "open shopping note in notes", "shopping note"),
        (.notes, "using notes open ideas", "ideas"),
    ]

    @Test(arguments: sentences)
    func theNameSaidExactlyIsTheName(_ host: Host, _ said: String, _ value: String) async throws {
        let found = try await PhraseMatcher(registry: registry(host)).match(said)
        guard case .found(let matches) = found else {
            Issue.record("\(said): \(found)")
            return
        }
        #expect(matches.map(\.valueText) == [value], "\(said)")
        #expect(matches.first?.cost == (said.hasSuffix("trials") ? 1 : 0), "\(said): only the typo costs")
    }
}
