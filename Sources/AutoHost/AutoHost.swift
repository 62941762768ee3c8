import AutoCLI
import AutoIntents
import AutoLanguage
import AutoStdlib
import AutoTerminal
import Foundation

/// A program that embeds the engine: `AutoHost.main` is the whole of its `main.swift`.
///
/// ```swift
/// await AutoHost.main(name: "library") { registry in
///     try registry.register(dependency: Store())
///     try registry.register(AddBook.self)
/// }
/// ```
///
/// The program is then the whole command line, named after the host: `library script.auto`, `library -e '…'`,
/// the REPL, `check`, `graph`, `intents`, `say`, `shortcuts`, `daemon`, `automations` and `mcp`.
public enum AutoHost {
    /// The engine's version (semantic versioning), which `--version` reports for a host that gives none.
    public static let engineVersion = ScriptHost.engineVersion

    /// Builds the host's registry with `register`, then runs the command line on the process's arguments; never
    /// returns.
    ///
    /// `register` is given a registry that holds the built-in intents (`show`, `ask`, `choose`, `confirm`); with
    /// `standardLibrary`, the standard library's intents (files, programs, data, the web) are added when a script
    /// first needs them, and its shortcuts are in the prelude. Whatever `register` throws — a `RegistrationError`,
    /// or the host's own (a database that can't be opened) — ends the program with its message and exit status 2,
    /// never a trap; so does an intent of the host named as one of the standard library's.
    ///
    /// It runs on the caller's executor: called from a program's top-level code, the command starts where that code
    /// runs, without first waiting for a thread of the cooperative pool to start (half a millisecond of every start).
    /// `auto -e CODE` and `auto SCRIPT` then run the script on that thread too, until its first call that awaits:
    /// an `ImmediateIntent`'s `performNow` may run on the main thread; an `AppIntent`'s `perform` runs where its own
    /// isolation says (a nonisolated one on the cooperative pool). Every signal is unblocked on that thread, so that
    /// Ctrl-C and SIGTERM reach the run whatever the parent blocked.
    ///
    /// - Parameters:
    ///   - name: the command's name, in its help, messages, prompts and MCP resource addresses (`library://book/42`).
    ///   - version: what `--version` prints; by default the name and the engine's version.
    ///   - standardLibrary: whether scripts may use the standard library's intents and shortcuts.
    ///   - mcpTools: which intents `mcp` offers as tools; by default the host's own (all of them for `auto`).
    ///   - arguments: the command line, without the program's name; by default the process's (a host that reads
    ///     options of its own first passes what is left).
    ///   - register: registers the host's dependencies, intents, queries and App Shortcuts.
    public nonisolated(nonsending) static func main(name: String, version: String? = nil, standardLibrary: Bool = true, mcpTools: McpTools? = nil,
                            arguments: [String]? = nil, register: (inout Registry) throws -> Void) async -> Never {
        var registry = Registry.standard
        let standardCount = registry.intents.count
        do {
            try register(&registry)
            try Self.checkTitles(of: registry.intents.dropFirst(standardCount))
            // A host that registered no intent has no name to clash (`auto` itself): its start skips the check.
            if standardLibrary, registry.intents.count > standardCount { try Self.checkNames(of: registry, against: StandardLibrary.intents) }
        } catch {
            StandardStream.error.write("\(name): can't start: \(IntentError.message(of: error))\n")
            exit(ExitCode.usageError)
        }
        var host = standardLibrary
            ? ScriptHost(name: name, version: version, registry: registry, adding: StandardLibrary.intents,
                         prelude: ScriptHost.standardPrelude(adding: StandardLibrary.prelude))
            : ScriptHost(name: name, version: version, registry: registry)
        host.mcpTools = mcpTools
        await AutoCommandLine.main(host, arguments: arguments)
    }

    /// Refuses an intent of the host's (`intents`: those registered after the standard ones) whose title scripts can't
    /// call (`CallableTitle`): one that starts with `find` registers and is listed, and every script, `say` and MCP
    /// call that names it fails to parse.
    package static func checkTitles(of intents: ArraySlice<IntentDescriptor>) throws(RegistrationError) {
        for intent in intents {
            if let problem = CallableTitle.problem(intent.title) {
                throw RegistrationError("intent '\(intent.title)'\(intent.declaredAs.map { " (\($0))" } ?? "") can't be called by its title: \(problem)")
            }
        }
    }

    /// Refuses a registry that has an intent named as one of `bundle`'s, which would be registered later, when a
    /// script first needs it, and fail then, in every script that names either.
    package static func checkNames(of registry: Registry, against bundle: IntentBundle) throws(RegistrationError) {
        for entry in bundle.entries {
            let name = IntentDescriptor.name(of: entry.title)
            if let intent = registry.intent(named: name) {
                throw RegistrationError("an intent named '\(name)' is registered (\(intent.declaredAs ?? "an intent")), and the standard library has one of that name "
                                        + "(\(entry.swiftType)): give the host's another title, or start with standardLibrary: false")
            }
        }
    }
}
