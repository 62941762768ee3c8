import AutoTerminal
import ArgumentParser
import AutoIntents
import AutoLanguage
import AutoRuntime
import Foundation

struct IntentsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "intents", abstract: "List the intents and shortcuts scripts can use, or describe one.",
        subcommands: [ListIntents.self, DescribeIntent.self, IntentReference.self, IntentSchema.self, IntentSchemaDiff.self],
        defaultSubcommand: ListIntents.self)

    /// The host's registry with the prelude's shortcuts added, and those of the script at `path` when one is
    /// given, with their graphs: compiled as a run compiles it, so a script that would not run is reported as `check`
    /// reports it.
    static func compiled(script path: String?) throws -> CompiledScript {
        let host = AutoCommandLine.host
        let source = try path.map(ScriptSourceOptions.load) ?? SourceFile(name: "<intents>", text: "")
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
        let intents = try IntentsCommand.compiled(script: file).registry.intents.filter { all || $0.isListed }
        Console.standard.writeOut(IntentDescriptionText.lines(intents, detailed: true))
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
        Console.standard.writeOut(Self.markdown(compiled.registry.intents.filter(\.isListed), program: compiled.program))
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

/// `intents schema`: the host's schema as JSON, for a host to keep with each release.
struct IntentSchema: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema", abstract: "The host's intents, parameters, entities, enums and App Shortcuts, with identifiers, as JSON.",
        discussion: "Keys and lists come in a stable order, so that the file of each release diffs cleanly; 'intents diff' compares two.")

    @Flag(name: .long, help: "Print JSON (the only form; accepted for scripts that say so).")
    var json = false

    func run() throws {
        Console.standard.writeOut(HostSchema(try IntentsCommand.compiled(script: nil).registry).json())
    }
}

/// `intents diff OLD.json [NEW.json]`: what a host's new version changes, each change compatible or breaking.
struct IntentSchemaDiff: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff", abstract: "What changed since an older schema, compatible or breaking; exit 1 if anything breaks.",
        discussion: """
            Compares a schema written by 'intents schema' with another, or with the host's own when NEW is left out. \
            Breaking: an intent, parameter, entity type, property, enum case or App Shortcut phrase removed; a \
            rename that doesn't keep the old name as a former one; a parameter made required or given another type; \
            a new required parameter. Anything else is compatible.
            """)

    @Argument(help: "The older schema (JSON from 'intents schema').")
    var old: String

    @Argument(help: "The newer schema; the host's own when left out.")
    var new: String?

    func run() throws {
        let before = try Self.schema(at: old)
        let after = try new.map(Self.schema(at:)) ?? HostSchema(try IntentsCommand.compiled(script: nil).registry)
        let diff = SchemaDiff(from: before, to: after)
        let console = Console.standard
        if diff.changes.isEmpty { console.writeOut("no changes\n") }
        for change in diff.changes { console.writeOut("\(change)\n") }
        if diff.isBreaking { throw CommandExit(code: ExitCode.runtimeError) }
    }

    static func schema(at path: String) throws -> HostSchema {
        do {
            return try HostSchema.read(Data(try ScriptFile.read(path)), file: path)
        } catch let error as ScriptFile.Unreadable {
            throw ValidationError("\(error)")
        } catch let error as SchemaError {
            throw ValidationError(error.description)
        }
    }
}
