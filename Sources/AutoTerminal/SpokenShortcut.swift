import AutoIntents
import AutoLanguage
import AutoRuntime

/// Runs the App Shortcut a sentence names, for `say` on the command line and at the REPL: the phrase matcher finds it,
/// people choose when several match equally, and the intent runs as a script's call of it runs (its questions,
/// confirmations, progress and result), through `ScriptRunner`. Shortcuts written in the language with `phrases` are
/// matched too: the prelude's, and those of `shortcuts`.
package struct SpokenShortcut {
    package let host: ScriptHost
    package let console: Console
    /// Files of shortcut declarations besides the prelude: the REPL session's, or the script given to `say --file`.
    package var shortcuts: [SourceFile] = []

    package init(host: ScriptHost, console: Console, shortcuts: [SourceFile] = []) {
        self.host = host
        self.console = console
        self.shortcuts = shortcuts
    }

    /// Finds and runs the shortcut; the exit code: 2 when no shortcut matches or nobody can choose among several.
    package func run(_ sentence: String, options: RunOptions, interaction: (any Interaction)? = nil,
             cancellation: CancellationFlag = CancellationFlag()) async -> Int32 {
        let runner = ScriptRunner(host: host, console: console)
        let interaction = interaction ?? runner.commandLineInteraction(options)
        let found: PhraseMatch
        guard let registry = registry(reportingTo: runner) else { return ExitCode.usageError }
        do {
            found = try await PhraseMatcher(registry: registry).match(sentence)
        } catch {
            fail("matching '\(sentence)' failed: \(error)")
            return ExitCode.runtimeError
        }
        let match: ShortcutMatch
        switch found {
        case .none(let closest):
            fail(registry.appShortcuts.isEmpty ? "\(host.name) has no App Shortcuts" : "no shortcut matches '\(sentence)'",
                 hint: closest.isEmpty ? nil : "closest: " + closest.map { "\"\($0)\"" }.joined(separator: ", "))
            return ExitCode.usageError
        case .found(let matches):
            guard let chosen = await choose(among: matches, for: sentence, interaction: interaction) else { return ExitCode.usageError }
            match = chosen
        }
        var options = options
        options.shortcuts = shortcuts
        return await runner.run(SourceFile(name: "say", text: Self.call(match)), options: options, interaction: interaction,
                                cancellation: cancellation)
    }

    /// The call of the matched intent, written as a person would write it (`plan hike trail: "five lakes"`), since an
    /// error quotes it back: the value as a literal the checker reads as the same value. A phrase's value is a number,
    /// an enum case (written by its display name, which the checker turns back into the case) or an entity's words
    /// (a text, by which the call finds the entity as it finds any entity named by text), quoted and escaped.
    static func call(_ match: ShortcutMatch) -> String {
        let name = match.shortcut.intent.name
        guard let parameter = match.parameter, let value = match.value else { return name }
        let literal: String
        switch value {
        case .int(let number): literal = String(number)
        case .enumCase(let item): literal = ValueFormatter.quoted(item.displayName)
        case .text(let words): literal = ValueFormatter.quoted(words)
        default: literal = ValueFormatter.quoted(ValueFormatter.inline(value))
        }
        return "\(name) \(parameter.name): \(literal)"
    }

    /// The phrases to match: the host's App Shortcuts and those of the shortcuts of the prelude and of `shortcuts`,
    /// compiled whole, as `intents` compiles them, so that a shortcut that could not run is said before anything is
    /// matched; nil, with the diagnostics reported, when they don't compile.
    package func registry(reportingTo runner: ScriptRunner) -> Registry? {
        switch host.compile(SourceFile(name: "say", text: ""), shortcuts: shortcuts) {
        case .success(let compiled): return compiled.registry
        case .failure(let failure):
            runner.report(failure.diagnostics)
            return nil
        }
    }

    /// The one match, or the one people choose; nil (said) when nobody can choose.
    package func choose(among matches: [ShortcutMatch], for sentence: String, interaction: any Interaction) async -> ShortcutMatch? {
        if matches.count == 1 { return matches[0] }
        let request = ChoiceRequest(prompt: "Which did you mean by '\(sentence)'?",
                                    options: matches.map { Choice(title: $0.sentence, subtitle: $0.shortcut.intent.name) })
        if let index = try? await interaction.choose(request), matches.indices.contains(index) { return matches[index] }
        fail("'\(sentence)' matches several shortcuts: " + matches.map { "\"\($0.sentence)\"" }.joined(separator: ", "),
             hint: "say more of the one you mean, or choose with \(PresetAnswers.option(key: request.prompt, value: "PHRASE"))")
        return nil
    }

    package func fail(_ message: String, hint: String? = nil) {
        console.writeError(DiagnosticText.render("error", message, at: nil, line: nil, hint: hint, colour: console.colourError))
    }
}
