import AutoIntents
import AutoLanguage
import AutoRuntime
import Foundation

/// How a script is run from the command line.
public struct RunOptions: Sendable {
    public var json = false
    /// Questions fail instead of waiting for an answer.
    public var noInput = false
    /// Confirmations are approved without asking.
    public var approveConfirmations = false
    /// Stop before the first intent that changes anything, saying what it would do.
    public var whatIf = false
    public var limits = RunLimits()
    public var parseLimits = Parser.Limits()
    /// The script's `args`.
    public var arguments: [String] = []
    public init() {}
}

/// Exit codes of the CLI (DESIGN.md §4).
public enum ExitCode {
    public static let success: Int32 = 0
    public static let runtimeError: Int32 = 1
    public static let usageError: Int32 = 2
    public static let cancelled: Int32 = 130
}

/// Compiles and runs one script for the CLI, and reports what happened: diagnostics, runtime errors,
/// the result. Returns the exit code.
public struct ScriptRunner: Sendable {
    public let host: AutoHost
    public let console: Console

    public init(host: AutoHost, console: Console) {
        self.host = host
        self.console = console
    }

    public func run(_ source: SourceFile, options: RunOptions, interaction: (any Interaction)? = nil,
                    cancellation: CancellationFlag = CancellationFlag()) async -> Int32 {
        let compiled: CompiledScript
        switch host.compile(source, limits: options.parseLimits) {
        case .success(let script): compiled = script
        case .failure(let failure):
            report(failure.diagnostics)
            return ExitCode.usageError
        }
        let interaction = interaction ?? TerminalInteraction(
            console: console, showsOnStandardError: options.json,
            canAsk: !options.noInput && isatty(0) == 1, approvesConfirmations: options.approveConfirmations)
        let executor = Executor(interaction: interaction, cancellation: cancellation, limits: options.limits,
                                dependency: compiled.registry.dependency)
        executor.whatIf = options.whatIf
        do {
            let result = try await executor.run(compiled.graph, arguments: [.list(options.arguments.map(Value.text))])
            if options.json {
                console.writeOut(ValueFormatter.json(result) + "\n")
            } else if compiled.graph.endsWithValue, !result.isNull, !executor.lastStatementShowedDialog {
                // An action that answered with a dialog has said what it did; its value is there for --json.
                console.writeOut(ValueFormatter.display(result) + "\n")
            }
            return ExitCode.success
        } catch let error as RuntimeError {
            reportRuntimeError(error, source: source)
            return ExitCode.runtimeError
        } catch let error as RunCancelled {
            console.writeError("cancelled: \(error.reason)\n")
            return ExitCode.cancelled
        } catch {
            console.writeError("error: \(error)\n")
            return ExitCode.runtimeError
        }
    }

    public func report(_ diagnostics: [Diagnostic]) {
        for diagnostic in diagnostics { console.writeError(diagnostic.rendered(colour: console.colourError)) }
        let errors = diagnostics.filter { $0.severity == .error }.count
        if errors > 1 { console.writeError("\(errors) errors\n") }
    }

    /// `file:line:col: error: message`, the line and a caret, like a compile-time diagnostic.
    func reportRuntimeError(_ error: RuntimeError, source: SourceFile) {
        let colour = console.colourError
        let red = colour ? "\u{1B}[1;31m" : "", bold = colour ? "\u{1B}[1m" : "", reset = colour ? "\u{1B}[0m" : ""
        guard let location = error.location else {
            console.writeError("\(red)error:\(reset) \(bold)\(error.message)\(reset)\n")
            return
        }
        var text = "\(bold)\(location):\(reset) \(red)error:\(reset) \(bold)\(error.message)\(reset)\n"
        if location.file == source.name {
            let line = source.line(location.line)
            let indent = String(line.prefix(location.column - 1).map { $0 == "\t" ? "\t" : " " })
            text += "  \(line)\n  \(indent)^\n"
        }
        console.writeError(text)
    }
}
