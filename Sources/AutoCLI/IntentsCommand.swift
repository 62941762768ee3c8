import ArgumentParser
import AutoIntents
import AutoLanguage
import AutoRuntime

struct IntentsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "intents", abstract: "List the intents and shortcuts scripts can use, or describe one.",
        subcommands: [ListIntents.self, DescribeIntent.self], defaultSubcommand: ListIntents.self)

    /// The host's registry with the prelude's shortcuts added.
    static func registry() throws -> Registry {
        let host = AutoCommandLine.host
        switch host.compile(SourceFile(name: "<intents>", text: "")) {
        case .success(let compiled): return compiled.registry
        case .failure(let failure):
            ScriptRunner(host: host, console: .standard).report(failure.diagnostics)
            throw CommandExit(code: ExitCode.usageError)
        }
    }
}

struct ListIntents: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "One line per intent.")

    @Flag(name: .long, help: "Include intents hidden from listings.")
    var all = false

    func run() throws {
        let intents = try IntentsCommand.registry().intents.filter { all || $0.isDiscoverable }
        let width = intents.map(\.name.count).max() ?? 0
        var lines = ""
        for intent in intents.sorted(by: { $0.name < $1.name }) {
            let input = intent.input.map { "(\($0.type))" } ?? "()"
            let result = intent.outputType == .null ? "" : " → \(intent.outputType)"
            let about = intent.description.text.isEmpty ? "" : "  \(intent.description.text)"
            let kind = intent.origin.map { "  [shortcut, \($0)]" } ?? ""
            lines += intent.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  \(input)\(result)\(about)\(kind)\n"
        }
        Console.standard.writeOut(lines)
    }
}

struct DescribeIntent: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "describe", abstract: "Everything about one intent.")

    @Argument(help: "The intent's name, e.g. 'open book'.")
    var name: [String]

    func run() throws {
        let registry = try IntentsCommand.registry()
        let wanted = name.joined(separator: " ")
        guard let intent = registry.intent(named: wanted) else {
            let hint = NearestNames.hint(for: wanted, in: registry.intents.map(\.name), listing: "intents") ?? ""
            throw ValidationError("no intent named '\(wanted)'; \(hint)")
        }
        Console.standard.writeOut(IntentDescriptionText.render(intent))
    }
}

/// The text of `intents describe`: the title, the summary sentence, parameters and result.
enum IntentDescriptionText {
    static func render(_ intent: IntentDescriptor) -> String {
        var text = "\(intent.title)\n"
        text += "  \(intent.summary)\n"
        if !intent.description.text.isEmpty { text += "\n  \(intent.description.text)\n" }
        text += "\n"
        if intent.parameters.isEmpty {
            text += "Parameters: none\n"
        } else {
            text += "Parameters:\n"
            for (index, parameter) in intent.parameters.enumerated() {
                var facts = [parameter.type.description]
                facts.append(parameter.isRequired ? "required" : "optional")
                if let value = parameter.defaultValue { facts.append("default \(ValueFormatter.inline(value))") }
                if let range = parameter.range { facts.append(Coercion.describe(range)) }
                if index == 0 { facts.append("input") }
                text += "  \(parameter.name): \(facts.joined(separator: ", "))"
                if parameter.title.lowercased() != parameter.name.lowercased() { text += " — \(parameter.title)" }
                text += "\n"
                if let question = parameter.question { text += "      asks: \(question)\n" }
            }
        }
        text += "Result: \(intent.outputType == .null ? "nothing" : intent.outputType.description)"
        if let name = intent.description.resultName { text += " (\(name))" }
        text += "\n"
        if intent.sideEffect != .none { text += "Side effect: \(intent.sideEffect == .destructive ? "destructive, confirmed before it runs" : "changes things")\n" }
        if let category = intent.description.category { text += "Category: \(category)\n" }
        if !intent.description.searchKeywords.isEmpty { text += "Keywords: \(intent.description.searchKeywords.joined(separator: ", "))\n" }
        if !intent.phrases.isEmpty { text += "Phrases: \(intent.phrases.map { "\"\($0)\"" }.joined(separator: ", "))\n" }
        if let origin = intent.origin { text += "Declared at: \(origin)\n" }
        return text
    }
}
