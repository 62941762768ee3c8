import ArgumentParser
import Foundation

/// `auto mcp`: serves the host's intents, finds and entities to an AI assistant over MCP on standard input and output.
/// Unlike a script, which the person running it wrote, the calls come from an assistant: so nothing outside the
/// engine is granted unless the command line says so (`--allow-read=~/Books`), and a tool needing more is left out.
///
/// The server is in a binary of its own beside the host's (`auto-mcp`, `library-mcp`): this command, in the host's
/// binary, executes it with the same arguments, so that its options (a host's `--db`) mean what they meant here.
struct McpCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mcp", abstract: "Serve the intents to AI assistants: an MCP server on standard input and output.",
        discussion: """
            Each discoverable intent is a tool, each entity type with a query a find_<plural> tool, each entity a \
            resource (auto://book/42). Questions and confirmations go to the person through the client (elicitation). \
            Nothing outside the engine is granted unless --allow-… says so. The server is the binary \
            \(AutoCommandLine.host.name)-mcp, installed beside \(AutoCommandLine.host.name).
            """)

    @OptionGroup(title: "Capabilities") var capabilities: CapabilityOptions

    func run() async throws {
        let host = AutoCommandLine.host
        let grants = try capabilities.grants(unflagged: .none)
        if let serve = host.serveMCP { return try await serve(host, grants) }
        let companion = Self.companion(of: host.name)
        guard FileManager.default.isExecutableFile(atPath: companion) else {
            StandardStream.error.write("error: the MCP server of \(host.name) is the binary '\(host.name)-mcp', and there is none at \(companion)\n"
                + "  hint: build it with 'swift build --product \(host.name)-mcp', or install it with scripts/install\n")
            throw CommandExit(code: ExitCode.runtimeError)
        }
        // The arguments as they were given, byte for byte.
        let argv = [strdup(companion)] + (1..<Int(CommandLine.argc)).map { strdup(CommandLine.unsafeArgv[$0]!) } + [nil]
        execv(companion, argv)
        let reason = String(cString: strerror(errno))
        StandardStream.error.write("error: \(companion) could not be started: \(reason)\n")
        throw CommandExit(code: ExitCode.runtimeError)
    }

    /// `<folder of the running binary>/<host>-mcp`: the binary itself, links resolved, so that a symlink on PATH
    /// (`~/.local/bin/auto` → the build folder) finds the companion built beside the real one.
    static func companion(of name: String) -> String {
        let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return binary.deletingLastPathComponent().appendingPathComponent(name + "-mcp").path
    }
}
