import ArgumentParser
import AutoAutomation
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
        throw ExitCode(LanguageServer.serve(name: "\(host.name) lsp", version: host.version, services: HostDocumentServices(host: host)))
    }

    /// On an automation's line (from `automation` to its body's brace): its trigger and its next three fires, as
    /// `automations next` computes them before any daemon loaded it, in the trigger's zone.
    /// The header is compiled alone, with an empty body: a script with errors elsewhere (one being written) still
    /// says when its automations fire.
    static func automationHeader(at offset: Int, in source: SourceFile, host: ScriptHost) -> (text: String, span: Span)? {
        let (tree, _) = Parser.parse(source, skippingShortcutBodies: true)
        for statement in tree.statements {
            guard case .automation(let declaration) = statement.kind, statement.span.start <= offset, offset < declaration.body.span.start else { continue }
            let header = source.text(of: Span(statement.span.start, declaration.body.span.start)) + "{\n}\n"
            guard let automation = try? host.compile(SourceFile(name: source.name, text: header)).get().automations.first else { return nil }
            let trigger = automation.trigger
            var text = "automation \"\(automation.name)\" \(trigger)"
            if let schedule = try? Schedules.schedule(for: trigger) {
                let zone = AutomationScripts.zone(of: trigger)
                let fires = schedule.fires(after: Date(), count: 3)
                if case .interval = trigger {
                    text += "\n\ncounted from when a daemon first loads it (auto automations next gives its fires then)"
                } else if !fires.isEmpty {
                    text += "\n\nnext fires (\(zone.identifier)):\n" + fires.map { "  " + AutomationScripts.iso($0, in: zone) }.joined(separator: "\n")
                } else {
                    text += "\n\nit fires no more"
                }
            }
            return (text, Span(statement.span.start, declaration.body.span.start))
        }
        return nil
    }
}

/// What the language server asks of a host about a document, answered with its intents and prelude. The last check's
/// compile and index are kept: completion, hover and navigation ask for them at each request, and the text has not
/// changed since. The server handles one message at a time, so there is one caller.
final class HostDocumentServices: DocumentServices {
    let host: ScriptHost
    /// The intents and the prelude's shortcuts, for a script that doesn't compile (one being typed, mostly).
    let preludeRegistry: Registry
    /// Completion's scope before the cursor, kept between requests.
    let scopes = CompletionScopes()
    /// What the last check found, without the compiled program, which a long script's takes hundreds of megabytes for.
    private var lastCheck: (name: String, text: String, problems: [Diagnostic], registry: Registry?)?
    private var lastIndex: (name: String, text: String, index: SymbolIndex)?

    init(host: ScriptHost) {
        self.host = host
        preludeRegistry = (try? host.compile(SourceFile(name: "<lsp>", text: "")).get().registry) ?? host.registry
    }

    /// The script's problems, and its registry when it compiles.
    func checked(_ source: SourceFile) -> (problems: [Diagnostic], registry: Registry?) {
        if let last = lastCheck, last.name == source.name, last.text == source.text { return (last.problems, last.registry) }
        let found: (problems: [Diagnostic], registry: Registry?) = switch host.compile(source) {
        case .success(let compiled): (compiled.warnings, compiled.registry)
        case .failure(let failure): (failure.diagnostics, nil)
        }
        lastCheck = (source.name, source.text, found.problems, found.registry)
        return found
    }

    func check(_ source: SourceFile) -> [Diagnostic] {
        checked(source).problems
    }

    /// The registry a script sees: with its own shortcuts when it compiles.
    func registry(of source: SourceFile) -> Registry {
        checked(source).registry ?? preludeRegistry
    }

    func complete(_ source: SourceFile, at offset: Int) -> CompletionResult {
        let registry = registry(of: source)
        let result = Completer(registry: registry, scopes: scopes).complete(source.text, cursor: offset)
        guard let wanted = result.values else { return result }
        // The host's values first, within their time budget, as the REPL offers them.
        return CompletionResult(range: result.range, candidates: HostValues.completions(for: wanted, registry: registry) + result.candidates)
    }

    func describe(_ source: SourceFile, at offset: Int) -> (text: String, span: Span)? {
        if let automation = LspCommand.automationHeader(at: offset, in: source, host: host) { return automation }
        // An intent's name: what `intents describe` says of it (a script's own shortcuts too, when it compiles).
        let registry = registry(of: source)
        guard let (intent, span) = Completer(registry: registry).intent(at: offset, in: source.text) else { return nil }
        return (IntentDescriptionText.render(intent, appShortcuts: registry.appShortcuts, program: nil), span)
    }

    func index(_ source: SourceFile) -> SymbolIndex {
        if let last = lastIndex, last.name == source.name, last.text == source.text { return last.index }
        let index = host.index(source)
        lastIndex = (source.name, source.text, index)
        return index
    }
}
