import ArgumentParser
import AutoIntents
import AutoLanguage
import AutoLSP
import AutoTerminal
import Foundation

/// `auto lsp`: the language server an editor starts, on standard input and output, with this host's intents.
struct LspCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lsp", abstract: "Serve editors: a language server (LSP) on standard input and output.",
        discussion: """
            An editor starts it and talks to it; each open .auto script is checked as `\(AutoCommandLine.host.name) check` \
            checks it, with this host's intents, after each change, and its errors and warnings are shown in place.
            """)

    func run() throws {
        let host = AutoCommandLine.host
        // The intents and the prelude's shortcuts, for a script that doesn't compile (one being typed, mostly).
        let preludeRegistry = (try? host.compile(SourceFile(name: "<lsp>", text: "")).get().registry) ?? host.registry
        let status = LanguageServer.serve(name: "\(host.name) lsp", version: host.version, check: { source in
            switch host.compile(source) {
            case .success(let compiled): compiled.warnings
            case .failure(let failure): failure.diagnostics
            }
        }, complete: { source, cursor in
            // A script that compiles offers its own shortcuts too.
            let registry = (try? host.compile(source).get().registry) ?? preludeRegistry
            let result = Completer(registry: registry).complete(source.text, cursor: cursor)
            guard let wanted = result.values else { return result }
            // The host's values first, within their time budget, as the REPL offers them.
            return CompletionResult(range: result.range, candidates: HostValues.completions(for: wanted, registry: registry) + result.candidates)
        }, describe: { source, offset in
            // An intent's name: what `intents describe` says of it (a script's own shortcuts too, when it compiles).
            let registry = (try? host.compile(source).get().registry) ?? preludeRegistry
            guard let (intent, span) = Completer(registry: registry).intent(at: offset, in: source.text) else { return nil }
            return (IntentDescriptionText.render(intent, appShortcuts: registry.appShortcuts, program: nil), span)
        })
        throw ExitCode(status)
    }
}
