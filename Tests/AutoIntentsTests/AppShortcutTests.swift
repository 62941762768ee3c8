import AutoIntents
import Testing

/// Registration refuses an App Shortcut phrase the matcher could not use, with a message that says why.
enum Mood: String, AppEnum {
    case calm, cheerful, sleepy
    static let enumType = EnumType<Mood>("mood", displayNames: [.calm: "Calm", .cheerful: "Very Cheerful", .sleepy: "Sleepy"])
}

/// "You" is a filler word ("can you …"): a phrase's own text can't name that case.
enum Whom: String, AppEnum {
    case everyone, you
    static let enumType = EnumType<Whom>("whom", displayNames: [.everyone: "Everyone", .you: "You"])
}

struct Wave: AppIntent {
    static let title = "Wave"
    @Parameter var whom: Whom
    func perform(_ context: IntentContext) async throws -> IntentResult<NoValue> { .result() }
}

struct SetMood: AppIntent {
    static let title = "Set mood"
    @Parameter var mood: Mood
    @Parameter var note: String?
    @Parameter var level: Int?
    func perform(_ context: IntentContext) async throws -> IntentResult<String> { .result(value: mood.rawValue) }
}

struct Unregistered: AppIntent {
    static let title = "Unregistered"
    func perform(_ context: IntentContext) async throws -> IntentResult<NoValue> { .result() }
}

struct Phrases<P: AppShortcutsProviderStandIn>: AppShortcutsProvider {
    static var appShortcuts: [AppShortcut] { P.shortcuts }
    static var synonyms: [String: [String]] { P.synonyms }
}

/// A provider's shortcuts given as a value, so that each test declares only its phrases.
protocol AppShortcutsProviderStandIn {
    static var shortcuts: [AppShortcut] { get }
    static var synonyms: [String: [String]] { get }
}

extension AppShortcutsProviderStandIn {
    static var synonyms: [String: [String]] { [:] }
}

enum Good: AppShortcutsProviderStandIn {
    static var shortcuts: [AppShortcut] {
        [AppShortcut(intent: SetMood(), phrases: ["Set my mood to \(\.$mood) in \(.applicationName)", "I feel \(\.$mood) with \(.applicationName)"], shortTitle: "Mood", systemImageName: "face.smiling")]
    }
    static var synonyms: [String: [String]] { ["Very Cheerful": ["happy", "glad"], "set": ["make"]] }
}
enum FillerCase: AppShortcutsProviderStandIn {
    static var shortcuts: [AppShortcut] { [AppShortcut(intent: Wave(), phrases: ["Wave at \(\.$whom) in \(.applicationName)"], shortTitle: "Wave", systemImageName: "")] }
}
enum LevelPhrase: AppShortcutsProviderStandIn {
    static var shortcuts: [AppShortcut] { [AppShortcut(intent: SetMood(), phrases: ["Set my level to \(\.$level) in \(.applicationName)"], shortTitle: "Level", systemImageName: "")] }
}
enum NoAppName: AppShortcutsProviderStandIn {
    static var shortcuts: [AppShortcut] { [AppShortcut(intent: SetMood(), phrases: ["Set mood to \(\.$mood)"], shortTitle: "Mood", systemImageName: "")] }
}
enum TextParameter: AppShortcutsProviderStandIn {
    static var shortcuts: [AppShortcut] { [AppShortcut(intent: SetMood(), phrases: ["Note \(\.$note) in \(.applicationName)"], shortTitle: "Mood", systemImageName: "")] }
}
enum TwoParameters: AppShortcutsProviderStandIn {
    static var shortcuts: [AppShortcut] {
        [AppShortcut(intent: SetMood(), phrases: ["Set \(\.$mood) at \(\.$level) in \(.applicationName)"], shortTitle: "Mood", systemImageName: "")]
    }
}
enum NotRegistered: AppShortcutsProviderStandIn {
    static var shortcuts: [AppShortcut] { [AppShortcut(intent: Unregistered(), phrases: ["Go \(.applicationName)"], shortTitle: "Go", systemImageName: "")] }
}
enum OnlyFillers: AppShortcutsProviderStandIn {
    static var shortcuts: [AppShortcut] { [AppShortcut(intent: SetMood(), phrases: ["Please \(\.$mood) \(.applicationName)"], shortTitle: "Mood", systemImageName: "")] }
}
enum Twins: AppShortcutsProviderStandIn {
    static var shortcuts: [AppShortcut] {
        [AppShortcut(intent: SetMood(), phrases: ["Feel \(\.$mood) in \(.applicationName)", "Please feel my \(\.$mood) in \(.applicationName)"],
                     shortTitle: "Mood", systemImageName: "")]
    }
}

@Suite struct AppShortcutTests {
    func registry() throws -> Registry {
        var registry = Registry()
        try registry.register(SetMood.self)
        try registry.register(Wave.self)
        return registry
    }

    static let sentences: [(said: String, mood: String?)] = [
        ("Set my mood to Calm in moods", "Calm"),
        ("set mood to very cheerful", "Very Cheerful"),
        ("Please, make my mood to happy", "Very Cheerful"),
        ("to calm set mood", "Calm"),
        ("Set mood to Slepy!", "Sleepy"),
        ("i feel glad with moods", "Very Cheerful"),
        ("I feel grumpy", nil),
        ("feel sleepy", nil),
    ]

    @Test(arguments: sentences)
    func enumPhrasesMatchWithoutAQuery(_ said: String, _ mood: String?) async throws {
        var registry = try registry()
        try registry.register(shortcuts: Phrases<Good>.self, applicationName: "moods")
        switch try await PhraseMatcher(registry: registry).match(said) {
        case .found(let matches):
            #expect(matches.map(\.valueText) == [mood], "\(said)")
            #expect(matches.first?.shortcut.intent.name == "set mood")
        case .none(let closest):
            #expect(mood == nil, "\(said): none; closest \(closest)")
            #expect(closest.first?.hasPrefix("I feel {mood}") == true || closest.first?.hasPrefix("Set my mood") == true, "\(closest)")
        }
    }

    /// An Int parameter takes one number said in digits, and nothing else.
    @Test func anIntParameterTakesANumber() async throws {
        var registry = try registry()
        try registry.register(shortcuts: Phrases<LevelPhrase>.self, applicationName: "moods")
        let matcher = PhraseMatcher(registry: registry)
        guard case .found(let matches) = try await matcher.match("set level to 12 using moods"), case .int(12)? = matches.first?.value else {
            Issue.record("12 was not the level")
            return
        }
        #expect(matches.count == 1)
        for said in ["set level to twelve", "set level to 1 2", "set level to 99999999999999999999"] {
            guard case .none = try await matcher.match(said) else {
                Issue.record("\(said) matched")
                continue
            }
        }
    }

    static var refused: [(provider: any AppShortcutsProvider.Type, message: String)] { [
        (Phrases<FillerCase>.self, "doesn't match its own text \"Wave at You in moods\""),
        (Phrases<NoAppName>.self, "doesn't say the app's name"),
        (Phrases<TextParameter>.self, "a phrase's parameter is an enum, an entity or an Int"),
        (Phrases<TwoParameters>.self, "names 2 parameters (mood, level)"),
        (Phrases<NotRegistered>.self, "runs 'Unregistered', which is not registered"),
        (Phrases<OnlyFillers>.self, "has no words of its own"),
        (Phrases<Twins>.self, "has the same words as"),
    ] }

    @Test(arguments: 0..<7)
    func registrationRefuses(_ index: Int) throws {
        var registry = try registry()
        let (provider, message) = Self.refused[index]
        do {
            try registry.register(shortcuts: provider, applicationName: "moods")
            Issue.record("\(provider) was registered")
        } catch {
            #expect(error.message.contains(message), "\(error.message)")
        }
        #expect(registry.appShortcuts.isEmpty)
    }
}
