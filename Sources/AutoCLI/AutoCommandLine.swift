import ArgumentParser
import AutoIntents
import AutoLanguage
import AutoTerminal
import Foundation

/// The whole command line (`run`, `-e`, the REPL, `check`, `daemon`, `mcp`, …) over one host's scripts: what
/// `AutoHost.main` ends with.
package enum AutoCommandLine {
    /// The host the commands work with: the one `main` was given, set before the arguments are parsed (ArgumentParser
    /// builds the commands itself, so they can't be handed it any other way); before that, a host with nothing in it.
    static var host: ScriptHost { givenHost ?? unsetHost }

    /// Nil until `main` sets it. Not a host to replace: as `ScriptHost()`, an initial host registered the built-in
    /// intents once more on every start, and as an empty one it was destroyed when replaced, 1% of `auto -e 'show 1'`.
    nonisolated(unsafe) private static var givenHost: ScriptHost?
    private static let unsetHost = ScriptHost(registry: Registry(), prelude: [])

    /// The process's arguments, its name left out, as given: a byte that isn't UTF-8 (a file's name) is kept as
    /// `FileNameBytes` says, where `CommandLine.arguments` would make it U+FFFD and name no file.
    static func givenArguments() -> [String] {
        (1..<Int(CommandLine.argc)).map { FileNameBytes.text(cString: CommandLine.unsafeArgv[$0]!) }
    }

    /// Unblocks every signal on this thread. A process starts with the signals its parent's spawning thread had
    /// blocked (Foundation's `Process` passes them on), and a script of immediate calls runs on this, the main, thread:
    /// with SIGINT blocked, Ctrl-C would never reach its handler, nor SIGTERM end it. libdispatch's main loop, where
    /// the main thread used to wait while the command ran on the pool, unblocked them the same way.
    static func acceptSignals() {
        var none = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, nil)
    }

    /// The options of the default command (`run`) that take their value as the next argument; any other option
    /// before a subcommand's name is a flag, or carries its value after `=` (`--allow-read=~/Books`).
    /// An array: the first `Set<String>` of a start made its metadata and hashed each option, 1% of `auto -e 'show 1'`.
    static let optionsWithValues = ["-e", "--answer", "--answers", "--max-steps", "--timeout", "--max-memory", "--max-depth"]

    /// `auto --json run f.auto`, `library --no-input say …`: options written before a subcommand's name are that
    /// subcommand's, as git and nushell read them, so the name moves to the front. Only when every argument before
    /// it is an option or an option's value; an option the subcommand doesn't take is then its error, which names the
    /// option. A script named like a subcommand is run as `auto run ./check`.
    static func subcommandFirst(_ arguments: [String]) -> [String] {
        var index = 0
        while index < arguments.count, arguments[index].hasPrefix("-"), arguments[index] != "-", arguments[index] != "--" {
            index += optionsWithValues.contains(arguments[index]) ? 2 : 1
        }
        guard index > 0, index < arguments.count, AutoCommand.subcommandNames.contains(arguments[index]), arguments[index] != "help" else {
            return arguments
        }
        var moved = arguments
        let name = moved.remove(at: index)
        moved.insert(name, at: 0)
        return moved
    }

    /// On the caller's executor, as `AutoHost.main`: no hop to the cooperative pool before the command starts.
    nonisolated(nonsending) package static func main(_ host: ScriptHost, arguments: [String]? = nil) async -> Never {
        givenHost = host
        acceptSignals()
        var arguments = arguments ?? givenArguments()
        // `auto` alone on a terminal opens the REPL; without a terminal it stays a usage error.
        if arguments.isEmpty, isatty(0) == 1 { arguments = ["repl"] }
        arguments = subcommandFirst(arguments)
        // `auto script.auto` (as a shebang line runs it) means `auto run script.auto`.
        if let first = arguments.first, !first.hasPrefix("-"), !AutoCommand.subcommandNames.contains(first) {
            arguments.insert("run", at: 0)
        }
        if let (script, scriptArguments) = DirectRun.plain(arguments) {
            var options = RunOptions()
            options.arguments = scriptArguments
            exit(StandardStream.exitCode(await RunCommand.run(script, options: options)))
        }
        arguments = CapabilityOptions.expandBareFlags(arguments)
        do {
            var command = try AutoCommand.parseAsRoot(arguments)
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            exit(StandardStream.exitCode(ExitCode.success))
        } catch let exit as CommandExit {
            Foundation.exit(StandardStream.exitCode(exit.code))
        } catch {
            // Help and version requests exit 0 through ArgumentParser; every other parse or validation
            // error is a usage error, which this CLI reports with exit code 2 (ArgumentParser would use 64).
            if AutoCommand.exitCode(for: error).rawValue == 0 { AutoCommand.exit(withError: error) }
            StandardStream.error.write(AutoCommand.fullMessage(for: error) + "\n")
            Foundation.exit(ExitCode.usageError)
        }
    }
}

/// Ends a command with an exit code after it has reported what happened.
struct CommandExit: Error {
    let code: Int32
}

struct AutoCommand: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: AutoCommandLine.host.name,
            abstract: "Run .auto scripts against the intents of \(AutoCommandLine.host.name).",
            discussion: examples(host: AutoCommandLine.host.name, hasAppShortcuts: !AutoCommandLine.host.registry.appShortcuts.isEmpty),
            version: AutoCommandLine.host.version,
            subcommands: [RunCommand.self, CheckCommand.self, FormatCommand.self, GraphCommand.self, IntentsCommand.self, ReplCommand.self,
                          DaemonCommand.self, AutomationsCommand.self, SayCommand.self, ShortcutsCommand.self, McpCommand.self, MigrateCommand.self,
                          StoreCommand.self, LspCommand.self],
            defaultSubcommand: RunCommand.self)
    }

    /// The examples of the root `--help`, which argument-parser's `generate-manual` makes the manual page's
    /// DESCRIPTION too (scripts/install). Each says what it does, with its commands under it. Every line starts with
    /// spaces, because man fills the lines that start at the margin into one paragraph; no line relies on spaces to
    /// line up columns; none is so wide that `--help` or man (80 columns, less man's indent of 5) wraps it; and all
    /// are ASCII, since generate-manual drops every other character. `say` is shown as the host can use it: a host
    /// without App Shortcuts (`auto`) matches the phrases of a script's shortcuts.
    static func examples(host name: String, hasAppShortcuts: Bool) -> String {
        let say = hasAppShortcuts
            ? """
                Run the App Shortcut a sentence names; list them and their phrases:
                    \(name) say SENTENCE
                    \(name) shortcuts [--json]
              """
            : """
                Run a script's shortcut by one of its phrases:
                    \(name) say -f script.auto "what is 7"
              """
        return """
              Open the REPL, on a terminal (also: \(name) repl):
                  \(name)
              Run code, or a script with its args (\(name) run - reads stdin):
                  \(name) -e 'show "hi \\(1 + 2)"'
                  \(name) script.auto a b c
              Report every error of a script without running it (exit 2 if any):
                  \(name) check script.auto
              Format scripts in place (--check: only list those that would change):
                  \(name) format scripts/
              Draw a script's action graph with Graphviz:
                  \(name) graph script.auto | dot -Tsvg > g.svg
              List the intents and shortcuts (the script's too), or describe one:
                  \(name) intents [script.auto]
                  \(name) intents describe NAME [script.auto]
            \(say)
              Run the automations of the scripts in a folder, and look at them:
                  \(name) daemon scripts/
                  \(name) automations list|next|history|trace|run|enable|disable
              Serve the intents to AI assistants (MCP, on stdin and stdout):
                  \(name) mcp --allow-read=~/Books
            """
    }

    /// The words that name a subcommand rather than a script to run: read from the configuration, so that a command
    /// added there is one too.
    static let subcommandNames: Set<String> = Set(configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"])
}
