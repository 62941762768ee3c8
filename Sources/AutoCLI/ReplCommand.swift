import AutoTerminal
import ArgumentParser
import AutoIntents
import AutoRuntime
import Foundation

/// `auto repl` (and `auto` alone on a terminal): the interactive session. With standard input that is not a
/// terminal, entries are read line by line, with the same rule for unfinished entries and the same state.
struct ReplCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "repl", abstract: "Type statements and run them one entry at a time, keeping variables and shortcuts.")

    @Flag(name: [.customShort("y"), .long], help: "Approve confirmations without asking.")
    var yes = false

    @OptionGroup(title: "Capabilities") var capabilities: CapabilityOptions

    func run() async throws {
        let console = Console.standard
        let isTerminal = isatty(0) == 1
        let interrupts = await ReplInterrupts.install()
        // Answers are read so that Ctrl-C at a question cancels the entry, and the session goes on.
        let interaction = TerminalInteraction(
            console: console, showsOnStandardError: false, canAsk: isTerminal, approvesConfirmations: yes,
            noAnswerReason: "standard input is the session's entries, not a terminal", readAnswer: { try interrupts.readAnswer() })
        let host = AutoCommandLine.host
        var reader: any LineReader = PlainLineReader()
        let session = ReplSession(host: host, console: console, grants: try capabilities.grants())
        if isTerminal, let editor = EditLineReader(program: host.name, historyFile: HistoryFile.path(host: host.name).map { HistoryFile(path: $0) },
                                                   completer: { session.complete($0, cursor: $1) },
                                                   warn: { console.writeError("warning: \($0)\n") }) {
            reader = editor
        } else if isTerminal, let reason = EditLineReader.unavailableReason {
            console.writeError("warning: \(reason); lines are read without editing or history\n")
        }
        let repl = Repl(session: session, reader: reader,
                        interaction: interaction, limits: RunLimits(), interrupts: interrupts)
        await repl.run()
        throw CommandExit(code: ExitCode.success)
    }
}
