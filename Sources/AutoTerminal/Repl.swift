import AutoIntents
import AutoLanguage
import AutoRuntime
import Foundation
import Synchronization

/// The read-eval-print loop: reads an entry — a line, or more while the parser finds it unfinished (an open
/// bracket or block, a trailing operator or `|`) — runs it in the session, and answers the `:` commands.
/// A blank line abandons an unfinished entry; the end of input ends the loop.
package struct Repl {
    package let session: ReplSession
    package let reader: any LineReader
    package let interaction: any Interaction
    package let limits: RunLimits
    package let interrupts: ReplInterrupts

    package init(session: ReplSession, reader: any LineReader, interaction: any Interaction, limits: RunLimits, interrupts: ReplInterrupts) {
        self.session = session
        self.reader = reader
        self.interaction = interaction
        self.limits = limits
        self.interrupts = interrupts
    }

    package var host: ScriptHost { session.host }
    package var console: Console { session.console }

    /// Bold on a terminal that takes colour; `\u{1}` around the escapes tells libedit they take no width.
    package var prompt: String { emphasized("\(host.name)>") + " " }
    /// As wide as the prompt, so that a continued entry's lines line up.
    package var continuationPrompt: String { String(repeating: " ", count: max(0, host.name.count - 2)) + emphasized("...>") + " " }

    package func emphasized(_ text: String) -> String {
        guard console.colourOut, reader is EditLineReader else { return text }
        return "\u{1}\u{1B}[1m\u{1}" + text + "\u{1}\u{1B}[0m\u{1}"
    }

    /// Runs until the input ends or `:quit`; the exit code is 0.
    package func run() async {
        var lines: [String] = []
        while let line = reader.readLine(prompt: lines.isEmpty ? prompt : continuationPrompt) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if lines.isEmpty, trimmed.hasPrefix(":") {
                reader.remember(line)
                if await command(trimmed) == .quit { return }
                continue
            }
            if lines.isEmpty, let sentence = Self.spoken(trimmed) {
                reader.remember(line)
                await say(sentence)
                continue
            }
            if trimmed.isEmpty {
                // A blank line abandons an unfinished entry, as Ctrl-C does; at the prompt it is nothing.
                lines = []
                continue
            }
            lines.append(line)
            let entry = lines.joined(separator: "\n")
            if Parser.isUnfinished(entry) { continue }
            lines = []
            // An entry starting with a space is not kept, as bash's `ignorespace` does.
            if !entry.hasPrefix(" ") { reader.remember(entry) }
            await runEntry(entry)
        }
        // The input ended in the middle of an entry: run what there is, so its error is said.
        if !lines.isEmpty { await runEntry(lines.joined(separator: "\n")) }
    }

    package func runEntry(_ text: String, name: String? = nil) async {
        let cancellation = interrupts.begin()
        await session.run(text, name: name, interaction: interaction, cancellation: cancellation, limits: limits)
        interrupts.end()
    }

    /// The sentence of an entry `say SENTENCE`, which runs an App Shortcut (or a shortcut declared at the prompt with
    /// `phrases`) as `\(host.name) say` does; nil for any other entry. `say` is no word of the language, so no
    /// statement starts with it.
    package static func spoken(_ entry: String) -> String? {
        guard entry.hasPrefix("say") else { return nil }
        let rest = entry.dropFirst(3)
        // `say` alone is said too: the answer lists the closest phrases, where the language would only say it knows no `say`.
        guard rest.isEmpty || rest.first == " " || rest.first == "\t" else { return nil }
        return rest.trimmingCharacters(in: .whitespaces)
    }

    package func say(_ sentence: String) async {
        let cancellation = interrupts.begin()
        var options = RunOptions()
        options.limits = limits
        options.grants = session.grants
        _ = await SpokenShortcut(host: host, console: console, shortcuts: session.shortcuts.map(\.file))
            .run(sentence, options: options, interaction: interaction, cancellation: cancellation)
        interrupts.end()
    }

    package enum Next { case goOn, quit }

    /// `:help`, `:intents`, `:vars`, `:graph`, `:load`, `:history`, `:reset`, `:quit`.
    package func command(_ line: String) async -> Next {
        let words = line.dropFirst().split(separator: " ", maxSplits: 1).map(String.init)
        let name = words.first ?? ""
        let argument = words.count > 1 ? words[1].trimmingCharacters(in: .whitespaces) : ""
        switch name {
        case "quit", "q", "exit":
            return .quit
        case "help", "h", "?":
            console.writeOut(argument.isEmpty ? Self.help : describe(argument))
        case "intents":
            console.writeOut(intents(matching: argument))
        case "vars":
            let lines = session.variables.map { "\($0.name): \($0.type) = \(Self.short($0.value))\n" }
            console.writeOut(lines.isEmpty ? "no variables yet\n" : lines.joined())
        case "graph":
            guard !argument.isEmpty else {
                console.writeError(":graph needs an entry: ':graph find books | open'\n")
                return .goOn
            }
            graph(argument)
        case "load":
            guard !argument.isEmpty else {
                console.writeError(":load needs a file: ':load script.auto'\n")
                return .goOn
            }
            do {
                await runEntry(try ScriptFile.load(argument).text, name: argument)
            } catch {
                console.writeError("\(error)\n")
            }
        case "history":
            let count = Int(argument) ?? 20
            let kept = reader.history.suffix(max(0, count))
            let first = reader.history.count - kept.count + 1
            let lines = kept.enumerated().map { index, entry in
                String(format: "%5d  ", first + index) + entry.replacingOccurrences(of: "\n", with: "\n       ") + "\n"
            }
            console.writeOut(lines.joined())
        case "reset":
            session.reset()
            console.writeOut("the session starts afresh: no variables, no shortcuts of its own\n")
        default:
            console.writeError("unknown command ':\(name)'; ':help' lists the commands\n")
        }
        return .goOn
    }

    /// The commands, for completion.
    package static let commands = [":help", ":intents", ":vars", ":graph", ":load", ":history", ":reset", ":quit"]

    package static let help = """
        Type a statement to run it; an entry that isn't finished (an open bracket or block, a trailing
        operator or '|') goes on on the next line, and a blank line abandons it. Variables, shortcuts and
        'it' stay from one entry to the next.

          say SENTENCE       run the App Shortcut the sentence names, as the command 'say' does
          :help [NAME]       this, or an intent, entity type or enum described
          :intents [TEXT]    the intents and shortcuts, or those whose name contains TEXT
          :vars              the variables, their types and values
          :graph ENTRY       the action graph of an entry, without running it
          :load FILE         run a script in the session
          :history [N]       the last N entries (20)
          :reset             forget every variable and shortcut of the session
          :quit              leave (so does Ctrl-D on an empty line)

        """

    package func describe(_ name: String) -> String {
        let (registry, program) = session.declared
        if let text = IntentDescriptionText.describe(name, in: registry, program: program) { return text }
        return "nothing is named '\(name)'" + (IntentDescriptionText.hint(for: name, in: registry).map { "; \($0)" } ?? "") + "\n"
    }

    package func intents(matching text: String) -> String {
        let intents = session.registry.intents.filter { $0.isListed && (text.isEmpty || $0.name.localizedCaseInsensitiveContains(text)) }
        if intents.isEmpty { return "no intent's name contains '\(text)'\n" }
        return IntentDescriptionText.lines(intents, detailed: false)
    }

    /// The graph as text: a node per line (what it does, where), then the data that flows between them.
    package func graph(_ text: String) {
        switch session.compile(text) {
        case .failure(let failure):
            session.report(failure.diagnostics)
        case .success(let compiled):
            let graph = compiled.graph
            var out = ""
            for node in graph.allNodes { out += "n\(node.id)  \(node.label)  (\(node.location.line):\(node.location.column))\n" }
            for edge in graph.edges { out += "n\(edge.from) → n\(edge.to)  \(edge.label)\n" }
            console.writeOut(out)
        }
    }

    /// A value on one line, cut to 60 characters.
    package static func short(_ value: Value) -> String {
        let text = ValueFormatter.inline(value)
        return text.count > 60 ? String(text.prefix(59)) + "…" : text
    }
}

/// Ctrl-C in a REPL cancels the entry running, also while it waits at a question, and the REPL goes on; at the
/// prompt it is the line editor's. Unchecked: the signal source and the pipe are set up once, before it is shared,
/// and the flag is behind a mutex.
package final class ReplInterrupts: @unchecked Sendable {
    private let current = Mutex<CancellationFlag?>(nil)
    private let source: any DispatchSourceSignal
    /// A byte for each Ctrl-C, which wakes a question waiting for its answer: the read can't see the flag.
    private var pressed: [Int32] = [-1, -1]

    private init() {
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        if pipe(&pressed) == 0 {
            for descriptor in pressed {
                _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
                _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            }
        }
    }

    deinit {
        source.cancel()
        for descriptor in pressed where descriptor >= 0 { close(descriptor) }
    }

    /// Returns once the handler is in place: libdispatch registers a signal source later, on its manager thread,
    /// and until then SIGINT is ignored (a Ctrl-C pressed at a prompt drawn in the first milliseconds was lost).
    package static func install() async -> ReplInterrupts {
        let interrupts = ReplInterrupts()
        let writer = interrupts.pressed[1]
        interrupts.source.setEventHandler { [interrupts] in
            interrupts.current.withLock { $0?.cancel() }
            var byte: UInt8 = 1
            _ = write(writer, &byte, 1)  // a full pipe already says Ctrl-C was pressed
        }
        await withCheckedContinuation { (registered: CheckedContinuation<Void, Never>) in
            interrupts.source.setRegistrationHandler { registered.resume() }
            interrupts.source.resume()
        }
        return interrupts
    }

    /// A fresh flag for the entry about to run.
    package func begin() -> CancellationFlag {
        let flag = CancellationFlag()
        current.withLock { $0 = flag }
        return flag
    }

    package func end() {
        current.withLock { $0 = nil }
    }

    /// The answer typed at a question of the entry running, without its line break; nil at the end of input
    /// (Ctrl-D). Ctrl-C while it waits (or before, during the entry) cancels the entry: `RunCancelled`.
    package func readAnswer() throws -> String? {
        // A Ctrl-C pressed between entries is not for this one; one pressed during it has cancelled its flag.
        drainPressed()
        if current.withLock({ $0?.isCancelled }) == true { throw RunCancelled() }
        var line: [UInt8] = []
        while true {
            var watched = [pollfd(fd: 0, events: Int16(POLLIN), revents: 0), pollfd(fd: pressed[0], events: Int16(POLLIN), revents: 0)]
            if poll(&watched, 2, -1) < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if watched[1].revents & Int16(POLLIN) != 0 {
                drainPressed()
                // The terminal echoed `^C` after the question; what the REPL says next goes on a line of its own.
                FileHandle.standardError.write(Data("\n".utf8))
                throw RunCancelled()
            }
            guard watched[0].revents != 0 else { continue }
            var byte: UInt8 = 0
            let count = read(0, &byte, 1)
            if count == 1 {
                if byte == UInt8(ascii: "\n") { return String(decoding: line, as: UTF8.self) }
                line.append(byte)
            } else if count < 0, errno == EINTR || errno == EAGAIN {
                continue
            } else {
                return line.isEmpty ? nil : String(decoding: line, as: UTF8.self)
            }
        }
    }

    private func drainPressed() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while read(pressed[0], &bytes, bytes.count) > 0 {}
    }
}
