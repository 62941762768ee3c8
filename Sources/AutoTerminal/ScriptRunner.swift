import AutoIntents
import AutoLanguage
import AutoRuntime
import Foundation
import Synchronization

/// How a script is run from the command line.
package struct RunOptions: Sendable {
    package var json = false
    /// Questions fail instead of waiting for an answer.
    package var noInput = false
    /// Confirmations are approved without asking.
    package var approveConfirmations = false
    /// Answers given before the run (`--answer`, `--answers`): they answer their questions whether or not a terminal
    /// could.
    package var answers: PresetAnswers?
    /// Stop before the first intent that changes anything, saying what it would do.
    package var whatIf = false
    package var limits = RunLimits()
    package var parseLimits = Parser.Limits()
    /// What the run may touch outside the engine: a call needing more is a compile error, or the intent's at run time.
    package var grants = Grants.all
    /// The script's `args`.
    package var arguments: [String] = []
    /// Files of shortcut declarations the script sees after the prelude's: how `say` calls a shortcut declared at the
    /// REPL's prompt or in the script given to `say --file`.
    package var shortcuts: [SourceFile] = []
    package init() {}
}

/// Exit codes of the CLI (DESIGN.md §4).
package enum ExitCode {
    package static let success: Int32 = 0
    package static let runtimeError: Int32 = 1
    package static let usageError: Int32 = 2
    package static let cancelled: Int32 = 130
}

/// Compiles and runs one script for the CLI, and reports what happened: diagnostics, runtime errors,
/// the result. Returns the exit code.
package struct ScriptRunner: Sendable {
    package let host: ScriptHost
    package let console: Console

    package init(host: ScriptHost, console: Console) {
        self.host = host
        self.console = console
    }

    /// On the caller's executor, as `Engine.run`.
    nonisolated(nonsending) package func run(_ source: SourceFile, options: RunOptions, interaction: (any Interaction)? = nil,
                    cancellation: CancellationFlag = CancellationFlag()) async -> Int32 {
        let timeLimit = options.limits.maxDuration.map { TimeLimit(limit: $0, deadline: ContinuousClock.now + $0) }
        // The `Result` is taken apart where it is made: copying it out of `finish` made its type's metadata, whose
        // `Failure: Error` requirement cost a scan of every conformance record of the binary, on every run.
        var errors: [Diagnostic] = []
        let script: CompiledScript? = finish("compiling", within: timeLimit) {
            // Running needs the bodies of only the prelude's shortcuts the script calls.
            switch host.compile(source, limits: options.parseLimits, grants: options.grants, preludeBodies: .whenCalled,
                                shortcuts: options.shortcuts) {
            case .success(let script): return script
            case .failure(let failure):
                errors = failure.diagnostics
                return nil
            }
        }
        guard let compiled = script else {
            report(errors)
            return ExitCode.usageError
        }
        report(compiled.warnings)
        // The time limit covers compiling, running and writing the result together.
        var limits = options.limits
        limits.maxDuration = timeLimit.map { max(.zero, $0.deadline - ContinuousClock.now) }
        let interaction = interaction ?? commandLineInteraction(options)
        let outcome = await Engine(registry: compiled.registry, limits: limits, grants: options.grants).run(
            compiled.program, arguments: [.list(options.arguments.map(Value.text))], interaction: interaction,
            cancellation: cancellation, whatIf: options.whatIf)
        switch outcome.ending {
        case .completed:
            let text: String? = finish("writing the result", within: timeLimit) {
                if options.json { return ValueFormatter.json(outcome.result(of: compiled.program) ?? .null) + "\n" }
                guard let result = outcome.printedResult(of: compiled.program) else { return nil }
                // On a terminal, as the REPL shows it; piped, on the lines a script's output always has.
                if let width = console.outputColumns() { return TerminalLayout.render(result, width: width) }
                return ValueFormatter.display(result) + "\n"
            }
            if let text { console.writeOut(text) }
            Self.reportUnused(options.answers, to: console)
            return ExitCode.success
        case .stoppedBeforeChange:
            if options.json { console.writeOut("null\n") }
            return ExitCode.success
        case .failed(let error):
            report(error, source: source)
            return ExitCode.runtimeError
        case .cancelled(let reason):
            console.writeError("cancelled: \(reason)\n")
            return ExitCode.cancelled
        }
    }

    /// How a run from the command line talks to people: on the terminal, unless standard input is not one or
    /// `--no-input` was given; the answers given before the run first.
    package func commandLineInteraction(_ options: RunOptions) -> any Interaction {
        let terminal = terminalInteraction(options)
        guard let answers = options.answers else { return terminal }
        return AnsweringInteraction(terminal, answers: answers)
    }

    package func terminalInteraction(_ options: RunOptions) -> TerminalInteraction {
        TerminalInteraction(
            console: console, showsOnStandardError: options.json,
            canAsk: !options.noInput && isatty(0) == 1, approvesConfirmations: options.approveConfirmations,
            noAnswerReason: options.noInput ? "--no-input was given" : "standard input is not a terminal")
    }

    /// A warning for each answer given that no question asked for: its key is likely misspelt.
    package static func reportUnused(_ answers: PresetAnswers?, to console: Console) {
        for answer in answers?.unused ?? [] {
            console.writeError(DiagnosticText.render("warning", "\(answer.origin) answered no question: no question or parameter '\(answer.key)' was asked",
                                                     at: nil, line: nil, hint: nil, colour: console.colourError))
        }
    }

    /// `--timeout`: how long, and when that is over for this command.
    package struct TimeLimit {
        let limit: Duration
        let deadline: ContinuousClock.Instant
    }

    /// Does work that can't be interrupted — compiling, formatting a big result — ending the process if the time
    /// limit runs out first: a command line that was given `--timeout` must not outlive it, nor write after it.
    package func finish<T>(_ what: String, within timeLimit: TimeLimit?, _ work: () -> T) -> T {
        guard let timeLimit else { return work() }
        let done = Atomic<Bool>(false)
        let console = self.console
        let wait = max(.zero, timeLimit.deadline - ContinuousClock.now)
        let nanoseconds = wait.components.seconds * 1_000_000_000 + wait.components.attoseconds / 1_000_000_000
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(nanoseconds))) {
            guard !done.load(ordering: .acquiring) else { return }
            console.writeError(DiagnosticText.render("error", "\(what) took longer than the time limit (\(timeLimit.limit)) and was stopped",
                                                     at: nil, line: nil, hint: Self.hint(for: .timeLimit(timeLimit.limit)), colour: console.colourError))
            // `_exit`, not `exit`: the working thread is still running, and `exit` would run the process's
            // destructors under it (a crash, seen by the fuzzer). The message went out unbuffered.
            _exit(ExitCode.runtimeError)
        }
        let result = work()
        done.store(true, ordering: .releasing)
        return result
    }

    package func report(_ diagnostics: [Diagnostic]) {
        for diagnostic in diagnostics { console.writeError(diagnostic.rendered(colour: console.colourError)) }
        let errors = diagnostics.filter { $0.severity == .error }.count
        if errors > 1 { console.writeError("\(errors) errors\n") }
    }

    /// A runtime error as a diagnostic reads: the place, the source line with a caret, and what the command line
    /// can do about it.
    package func report(_ error: RuntimeError, source: SourceFile) {
        report(error, in: [source] + host.prelude)
    }

    /// The same, for an error that may be in any of `files` (a REPL's entries).
    package func report(_ error: RuntimeError, in files: [SourceFile]) {
        let line = error.location.flatMap { location in files.first { $0.name == location.file }?.line(location.line) }
        console.writeError(DiagnosticText.render("error", error.message, at: error.location, line: line,
                                                 hint: Self.hint(for: error.kind), colour: console.colourError))
    }

    /// What the command line offers for an error of this kind: the option that raises a limit or approves.
    package static func hint(for kind: RuntimeError.Kind) -> String? {
        switch kind {
        case .stepLimit: return "raise the limit with --max-steps"
        case .timeLimit: return "raise it with --timeout SECONDS"
        case .unconfirmed(_, let question):
            return "approve it with --yes" + (question.map { ", or this one alone with \(PresetAnswers.option(key: $0, value: "yes"))" } ?? "")
        case .memoryLimit: return "raise it with --max-memory SIZE"
        case .unanswered(_, let parameter, let question):
            let key = parameter ?? question ?? "QUESTION"
            return "answer it with \(PresetAnswers.option(key: key, value: "VALUE")), give the value in the script, or run it on a terminal without --no-input"
        case .failed, .callDepth: return nil
        }
    }
}
