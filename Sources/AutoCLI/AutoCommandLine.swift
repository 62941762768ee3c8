import ArgumentParser
import AutoIntents
import AutoLanguage
import Foundation

/// The entry point a host calls from its `main.swift` to get the whole CLI:
///
/// ```swift
/// var registry = Registry.standard
/// try registry.register(OpenBook.self)
/// await AutoCommandLine.main(AutoHost(name: "library", registry: registry))
/// ```
public enum AutoCommandLine {
    /// The host the commands work with. Set once, before the arguments are parsed; ArgumentParser
    /// builds the commands itself, so they can't be handed it any other way.
    nonisolated(unsafe) static var host = AutoHost()

    public static func main(_ host: AutoHost, arguments: [String]? = nil) async -> Never {
        Self.host = host
        var arguments = arguments ?? Array(CommandLine.arguments.dropFirst())
        // `auto script.auto` (as a shebang line runs it) means `auto run script.auto`.
        if let first = arguments.first, !first.hasPrefix("-"), !AutoCommand.subcommandNames.contains(first) {
            arguments.insert("run", at: 0)
        }
        do {
            var command = try AutoCommand.parseAsRoot(arguments)
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            exit(ExitCode.success)
        } catch let exit as CommandExit {
            Foundation.exit(exit.code)
        } catch {
            let code = AutoCommand.exitCode(for: error).rawValue
            // ArgumentParser's usage errors exit 64; the CLI promises 2 for every usage error.
            AutoCommand.exit(withError: code == 0 || code == 2 ? error : UsageError(error: error))
        }
    }
}

/// Ends a command with an exit code after it has reported what happened.
struct CommandExit: Error {
    let code: Int32
}

/// Wraps a parse error so it exits with 2, as DESIGN.md §4 asks, and keeps its message.
struct UsageError: Error, CustomStringConvertible {
    let error: Error
    var description: String { AutoCommand.message(for: error) }
}

extension UsageError: CustomNSError {
    static var errorDomain: String { "auto" }
    var errorCode: Int { 2 }
}

struct AutoCommand: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: AutoCommandLine.host.name,
            abstract: "Run .auto scripts against the intents of \(AutoCommandLine.host.name).",
            discussion: """
                \(AutoCommandLine.host.name) -e 'show "hi \\(1 + 2)"'     run code
                \(AutoCommandLine.host.name) script.auto [args…]          run a script (also: run -, from stdin)
                \(AutoCommandLine.host.name) check script.auto            report every error, exit 2 if any
                \(AutoCommandLine.host.name) graph script.auto | dot -Tsvg > g.svg
                \(AutoCommandLine.host.name) intents [describe NAME]
                """,
            subcommands: [RunCommand.self, CheckCommand.self, GraphCommand.self, IntentsCommand.self],
            defaultSubcommand: RunCommand.self)
    }

    static let subcommandNames: Set<String> = ["run", "check", "graph", "intents", "help"]
}
