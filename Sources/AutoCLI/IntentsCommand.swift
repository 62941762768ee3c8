import ArgumentParser
import AutoIntents
import AutoLanguage
import AutoRuntime

struct IntentsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "intents", abstract: "List the intents and shortcuts scripts can use, or describe one.",
        subcommands: [ListIntents.self, DescribeIntent.self, IntentReference.self], defaultSubcommand: ListIntents.self)

    /// The host's registry with the prelude's shortcuts added, and those of the script at `path` when one is
    /// given, with their graphs: compiled as a run compiles it, so a script that would not run is reported as `check`
    /// reports it.
    static func compiled(script path: String?) throws -> CompiledScript {
        let host = AutoCommandLine.host
        let source = try path.map(ScriptFile.load) ?? SourceFile(name: "<intents>", text: "")
        switch host.compile(source) {
        case .success(let compiled): return compiled
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

    @Argument(help: ArgumentHelp("A script whose shortcuts are listed too ('-' for standard input).", valueName: "file"))
    var file: String?

    func run() throws {
        let intents = try IntentsCommand.compiled(script: file).registry.intents.filter { all || $0.isDiscoverable }
        Console.standard.writeOut(Self.lines(intents, detailed: true))
    }

    /// One line per intent, by name, with its input and result types; `detailed` adds the description and where
    /// a shortcut is declared (the REPL's `:intents` leaves them out).
    static func lines(_ intents: [IntentDescriptor], detailed: Bool) -> String {
        let width = intents.map(\.name.count).max() ?? 0
        var lines = ""
        for intent in intents.sorted(by: { $0.name < $1.name }) {
            let input = intent.input.map { "(\($0.type))" } ?? "()"
            let result = intent.outputType == .null ? "" : " → \(intent.outputType)"
            let about = !detailed || intent.description.text.isEmpty ? "" : "  \(intent.description.text)"
            let kind = detailed ? intent.origin.map { "  [shortcut, \($0)]" } ?? "" : ""
            lines += intent.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  \(input)\(result)\(about)\(kind)\n"
        }
        return lines
    }
}

struct DescribeIntent: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "describe", abstract: "Everything about one intent, entity type or enum.",
        discussion: "A script's shortcuts are described too: 'describe NAME script.auto', or 'describe NAME --file script'.")

    @Argument(help: "The name of an intent ('open book'), an entity type ('book') or an enum ('shelf'), then optionally a script ending in .auto.")
    var name: [String]

    @Option(name: [.customShort("f"), .long], help: ArgumentHelp(
        "A script whose shortcuts may be described too, named by any path ('-' for standard input); with it, every word given is the name.",
        valueName: "file"))
    var file: String?

    /// The name asked for and the script to look in. Names are several words, given unquoted (`describe numbers
    /// from`), so a last word can't be taken for a script by its place alone: it is one when it ends in `.auto`, as
    /// scripts are named and intents are not. `--file` names a script called anything else, and with it every word
    /// is the name (the way to describe a shortcut whose name does end in `.auto`).
    var request: (name: String, script: String?) {
        get throws {
            if file != nil || name.last?.hasSuffix(".auto") != true { return (name.joined(separator: " "), file) }
            let script = name[name.count - 1]
            guard name.count > 1 else {
                throw ValidationError("name what to describe before the script: '\(AutoCommandLine.host.name) intents describe NAME \(script)'")
            }
            return (name.dropLast().joined(separator: " "), script)
        }
    }

    func run() throws {
        let (wanted, script) = try request
        let compiled = try IntentsCommand.compiled(script: script), registry = compiled.registry
        guard let text = IntentDescriptionText.describe(wanted, in: registry, program: compiled.program) else {
            throw ValidationError("no intent, entity type or enum named '\(wanted)'; \(IntentDescriptionText.hint(for: wanted, in: registry) ?? "")")
        }
        Console.standard.writeOut(text)
    }
}

/// `intents reference`: every intent scripts can use, with no script, as Markdown, one section per category and each
/// intent described as `intents describe` does: docs/stdlib.md is this command's output, and a test keeps it so.
struct IntentReference: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reference", abstract: "Every intent, by category, as Markdown (docs/stdlib.md is made with it).")

    func run() throws {
        let compiled = try IntentsCommand.compiled(script: nil)
        Console.standard.writeOut(Self.markdown(compiled.registry.intents.filter(\.isDiscoverable), program: compiled.program))
    }

    static func markdown(_ intents: [IntentDescriptor], program: Program) -> String {
        let host = AutoCommandLine.host.name
        var text = "# The intents of `\(host)`\n\n"
            + "Made by `\(host) intents reference`; a test fails when this page and the intents differ. Each intent is described "
            + "as `\(host) intents describe NAME` does: the built-ins and the standard library by category, then the shortcuts of "
            + "the prelude (stdlib/*.auto).\n"
        let groups = Dictionary(grouping: intents) { intent -> String in
            if intent.origin != nil { return "Shortcuts" }
            return intent.description.category ?? "Built-in"
        }
        let order = ["Built-in"] + groups.keys.filter { $0 != "Built-in" && $0 != "Shortcuts" }.sorted() + ["Shortcuts"]
        for category in order {
            guard let members = groups[category] else { continue }
            text += "\n## \(category)\n"
            for intent in members.sorted(by: { $0.name < $1.name }) {
                text += "\n### \(intent.name)\n\n```\n" + IntentDescriptionText.render(intent, program: program) + "```\n"
            }
        }
        return text
    }
}

/// The text of `intents describe`: the title, the summary sentence, parameters and result.
enum IntentDescriptionText {
    /// The description of the intent, entity type or enum called `name`; nil when nothing is.
    /// `program`: the shortcuts' graphs, for what a shortcut needs (what the intents its body calls need); without it,
    /// what the intent declares.
    static func describe(_ name: String, in registry: Registry, program: Program?) -> String? {
        if let intent = registry.intent(named: name) { return render(intent, appShortcuts: registry.appShortcuts, program: program) }
        if let entity = registry.entityType(named: name) { return render(entity, query: registry.query(for: entity)) }
        if let enumeration = registry.enumType(named: name) { return render(enumeration) }
        return nil
    }

    /// The names nearest to one that names nothing.
    static func hint(for name: String, in registry: Registry) -> String? {
        let names = registry.intents.map(\.name) + registry.entityTypes.map(\.singular) + registry.enumTypes.map(\.name)
        return NearestNames.hint(for: name, in: names, listing: "intents and types")
    }

    /// `appShortcuts`: the host's and those of shortcuts written with `phrases`, for the sentences that run this intent
    /// through `say`.
    static func render(_ intent: IntentDescriptor, appShortcuts: [RegisteredShortcut] = [], program: Program?) -> String {
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
                if parameter.options != nil { facts.append("options from the host") }
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
        let needs = program?.capabilities(of: intent) ?? intent.capabilities
        if !needs.isEmpty {
            text += "Needs: " + needs.sorted().map { "\($0.summary) (\($0.flag))" }.joined(separator: ", ") + "\n"
        }
        if let category = intent.description.category { text += "Category: \(category)\n" }
        if !intent.description.searchKeywords.isEmpty { text += "Keywords: \(intent.description.searchKeywords.joined(separator: ", "))\n" }
        for registered in appShortcuts where registered.intent === intent {
            let phrases = registered.shortcut.phrases.map { "\"\($0.filled(applicationName: registered.applicationName) { "{\($0)}" })\"" }
            // A shortcut written in the language has phrases; the host's, declared in Swift, are App Shortcuts.
            let kind = intent.origin == nil ? "App Shortcut" : "Phrases"
            text += "\(kind) ('\(registered.applicationName) say …'): \(phrases.joined(separator: ", "))\n"
        }
        if let origin = intent.origin { text += "Declared at: \(origin)\n" }
        return text
    }

    /// An entity type: its properties, and how scripts find its entities (what the host's query does, and what the
    /// engine does itself).
    static func render(_ type: AnyEntityType, query: QueryDescriptor?) -> String {
        var text = "\(type.typeName)\n  an entity: '\(type.singular)' and '\(type.plural)' in scripts\n\nProperties:\n"
        for property in type.properties {
            var facts: [String] = []
            if property.title.lowercased() != property.name.lowercased() { facts.append(property.title) }
            if let query, query.isPropertyQuery {
                let operators = ComparisonOperator.allCases.filter { query.supports(property.name, $0) }.map(\.rawValue)
                if !operators.isEmpty { facts.append("the host filters with " + operators.joined(separator: " ")) }
                if query.sortableProperties.contains(property.name.lowercased()) { facts.append("the host sorts by it") }
            }
            text += "  \(property.name): \(property.type)" + (facts.isEmpty ? "" : " — " + facts.joined(separator: "; ")) + "\n"
        }
        guard let query else {
            return text + "Finding: none; \(type.plural) are made by intents, not looked up\n"
        }
        var ways = ["by id"]
        if query.canSearchText { ways.append("by text ('find \(type.plural) matching \"…\"', or a '\(type.singular)' parameter given as text)") }
        if query.canEnumerate {
            ways.append("all ('find \(type.plural)'); the engine filters and sorts by any property what the host doesn't")
        } else if query.isPropertyQuery {
            ways.append("by what the host filters; anything else in a where-clause or a sort is an error before the run")
        }
        return text + "Finding: " + ways.joined(separator: "; ") + "\n"
    }

    /// An enum: its cases, as scripts may write them.
    static func render(_ type: AnyEnumType) -> String {
        var text = "\(type.typeName)\n  an enum: a case is written as its name or its display name\n\nCases:\n"
        let width = type.cases.map(\.identifier.count).max() ?? 0
        for item in type.cases {
            text += "  " + item.identifier.padding(toLength: width, withPad: " ", startingAt: 0)
            text += item.displayName == item.identifier ? "\n" : "  \"\(item.displayName)\"\n"
        }
        return text
    }
}
