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
            good matches are a choice; none is an error with the three closest phrases (exit 2).
            """)

    @OptionGroup var interaction: RunInteractionOptions

    @Argument(help: "The sentence, quoted or as several words.")
    var words: [String]

    func validate() throws {
        guard words.contains(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }) else {
            throw ValidationError("say what to do, such as '\(AutoCommandLine.host.name) say \"open …\"'")
        }
    }

    func run() async throws {
        var options = RunOptions()
        interaction.apply(to: &options)
        let cancellation = CancellationFlag()
        InterruptHandler.install(cancellation: cancellation)
        throw CommandExit(code: await SpokenShortcut(host: AutoCommandLine.host, console: .standard)
            .run(words.joined(separator: " "), options: options, cancellation: cancellation))
    }
}
