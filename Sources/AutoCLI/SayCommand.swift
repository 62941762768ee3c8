import AutoTerminal
import ArgumentParser
import AutoIntents
import Foundation

/// `library say "open currently reading"`: runs the App Shortcut whose phrase the sentence matches.
struct SayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "say", abstract: "Run the App Shortcut a sentence names ('shortcuts' lists their phrases).",
        discussion: """
            Case, punctuation and words such as 'my', 'the' and 'please' don't count; a phrase's words may come in any \
            order, with a typo or two, or as a synonym the host gives; the app's name may be left out. Several equally \
            good matches are a choice; none is an error with the three closest phrases (exit 2). The phrases of \
            shortcuts written in a script ('shortcut "…" (…) phrases ["…"] { … }') are matched too with --file.
            """)

    @OptionGroup var interaction: RunInteractionOptions

    @Option(name: [.customShort("f"), .long], help: ArgumentHelp(
        "A script whose shortcuts' phrases are matched too ('-' for standard input); its other statements don't run.",
        valueName: "file"))
    var file: String?

    @Argument(help: "The sentence, quoted or as several words.")
    var words: [String]

    func validate() throws {
        guard words.contains(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }) else {
            throw ValidationError("say what to do, such as '\(AutoCommandLine.host.name) say \"open …\"'")
        }
    }

    func run() async throws {
        var options = RunOptions()
        try interaction.apply(to: &options)
        let cancellation = CancellationFlag()
        InterruptHandler.install(cancellation: cancellation)
        let shortcuts = try file.map { ReplSession.shortcutDeclarations(in: try ScriptSourceOptions.load($0)).map(\.file) } ?? []
        throw CommandExit(code: await SpokenShortcut(host: AutoCommandLine.host, console: .standard, shortcuts: shortcuts)
            .run(words.joined(separator: " "), options: options, cancellation: cancellation))
    }
}
