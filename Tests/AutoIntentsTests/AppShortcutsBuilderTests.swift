import AutoIntents
import Testing

/// `appShortcuts` written as App Intents writes it: one shortcut per line, chosen with `if` and repeated with `for`;
/// a list in brackets is taken too (the trail-guide host written from the docs wrote the lines and got "missing
/// return").
struct BuiltShortcuts: AppShortcutsProvider {
    nonisolated(unsafe) static var withWave = true
    static var moodPhrases: [AppShortcutPhrase<SetMood>] { ["Feel \(\.$mood) in \(.applicationName)", "Be \(\.$mood) in \(.applicationName)"] }
    static var appShortcuts: [AppShortcut] {
        AppShortcut(intent: SetMood(), phrases: ["Set my mood to \(\.$mood) in \(.applicationName)"], shortTitle: "Mood", systemImageName: "")
        if withWave {
            AppShortcut(intent: SetMood(), phrases: ["Make me \(\.$mood) in \(.applicationName)"], shortTitle: "Wave", systemImageName: "")
        } else {
            AppShortcut(intent: SetMood(), phrases: ["Turn \(\.$mood) in \(.applicationName)"], shortTitle: "Greet", systemImageName: "")
        }
        for (title, phrase) in zip(["Feel", "Be"], moodPhrases) {
            AppShortcut(intent: SetMood(), phrases: [phrase], shortTitle: title, systemImageName: "")
        }
        [AppShortcut(intent: SetMood(), phrases: ["Mood \(\.$mood) in \(.applicationName)"], shortTitle: "Listed", systemImageName: "")]
    }
}

@Suite(.serialized) struct AppShortcutsBuilderTests {
    @Test func theLinesAreTheShortcutsInOrder() throws {
        for withWave in [true, false] {
            BuiltShortcuts.withWave = withWave
            var registry = Registry()
            try registry.register(SetMood.self)
            try registry.register(shortcuts: BuiltShortcuts.self, applicationName: "moods")
            #expect(BuiltShortcuts.appShortcuts.map(\.shortTitle) == ["Mood", withWave ? "Wave" : "Greet", "Feel", "Be", "Listed"])
            #expect(registry.appShortcuts.count == 5)
        }
        BuiltShortcuts.withWave = true
    }
}
