import ArgumentParser
import AutoIntents
import AutoLanguage
import AutoRuntime
import Foundation

struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run", abstract: "Run a script (or -e CODE); what follows the script is its `args`.")

    @OptionGroup var source: ScriptSourceOptions

    @OptionGroup(title: "Capabilities") var capabilities: CapabilityOptions

    @OptionGroup var interaction: RunInteractionOptions

    @Flag(name: .long, help: "Run up to the first intent that changes anything and say what it would do instead.")
    var whatIf = false

    // `.unconditional`: `--max-steps -1` is a value to refuse, not a missing one.
    @Option(name: .long, parsing: .unconditional, help: "Stop a run after this many steps (at least 1).")
    var maxSteps: Int = RunLimits().maxSteps

    @Option(name: .long, parsing: .unconditional, help: "Stop after this many seconds: compiling, running and writing the result.")
    var timeout: Double?

    @Option(name: .long, help: ArgumentHelp("The largest value a run may build, e.g. 512MB or 2GiB (default: a quarter of the memory the process may use: the machine's, or less under ulimit -v or a cgroup limit).", valueName: "SIZE"))
    var maxMemory: String?

    @Option(name: .long, help: "Reject scripts nested deeper than this (blocks, brackets, operator chains).")
    var maxDepth: Int = Parser.Limits().maxDepth

    @Argument(help: "The script, or '-' to read it from standard input.")
    var file: String?

    @Argument(parsing: .captureForPassthrough, help: "Arguments for the script, as `args`.")
    var arguments: [String] = []

    func run() async throws {
        let script = try source.load(path: source.expression == nil ? file : nil)
        var options = RunOptions()
        interaction.apply(to: &options)
        options.whatIf = whatIf
        options.grants = try capabilities.grants()
        guard maxSteps >= 1 else { throw ValidationError("--max-steps must be at least 1, not \(maxSteps)") }
        options.limits.maxSteps = maxSteps
        if let maxMemory {
            guard let bytes = Self.bytes(maxMemory), bytes >= 1_000 else {
                throw ValidationError("--max-memory must be a size of at least 1KB, such as 512MB or 2GiB, not '\(maxMemory)'")
            }
            options.limits.values = ValueLimits(maxDepth: options.limits.values.maxDepth, maxBytes: bytes)
        }
        // Nested expressions are evaluated recursively on the run's thread (a Swift concurrency worker): 500 levels
        // leave room on its stack in a debug build, where 1,000 overflowed it.
        guard maxDepth > 0, maxDepth <= 500 else { throw ValidationError("--max-depth must be from 1 to 500, not \(maxDepth)") }
        options.parseLimits.maxDepth = maxDepth
        if let timeout {
            // A billion seconds is 31 years: more is no limit worth a number, and its nanoseconds still fit in 64 bits.
            guard timeout.isFinite, timeout >= 0.001, timeout <= 1e9 else {
                throw ValidationError("--timeout must be a number of seconds from 0.001 to 1000000000, not \(timeout)")
            }
            options.limits.maxDuration = .nanoseconds(Int64((timeout * 1e9).rounded()))
        }
        options.arguments = (source.expression != nil ? (file.map { [$0] } ?? []) : []) + arguments
        throw CommandExit(code: await Self.run(script, options: options))
    }

    /// Runs `script` on the host, Ctrl-C cancelling it; the exit code. Also `DirectRun`'s, without the parser.
    static func run(_ script: SourceFile, options: RunOptions) async -> Int32 {
        let cancellation = CancellationFlag()
        let interrupts = await InterruptHandler.install(cancellation: cancellation)
        let code = await ScriptRunner(host: AutoCommandLine.host, console: .standard)
            .run(script, options: options, cancellation: cancellation)
        withExtendedLifetime(interrupts) {}
        return code
    }
}

extension RunCommand {
    /// `512MB`, `2 GiB`, `1000000`: a size in the language's units, as bytes; nil for anything else.
    static func bytes(_ text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let digits = trimmed.prefix { $0.isNumber || $0 == "_" }
        guard let count = Int(digits.filter { $0 != "_" }) else { return nil }
        let unitName = trimmed.dropFirst(digits.count).trimmingCharacters(in: .whitespaces)
        let unit = unitName.isEmpty ? 1 : Units.size(named: unitName).map { Int($0.bytes) }
        guard let unit else { return nil }
        let (bytes, overflow) = count.multipliedReportingOverflow(by: unit)
        return overflow ? nil : bytes
    }
}

/// Ctrl-C cancels the running script (the current intent sees it and the run stops at the next step);
/// a second Ctrl-C exits at once, and so does one while a question waits for its answer.
final class InterruptHandler: @unchecked Sendable {
    let source: any DispatchSourceSignal

    private init(cancellation: CancellationFlag) {
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler {
            if cancellation.isCancelled || TerminalInteraction.readingAnswer.load(ordering: .sequentiallyConsistent) {
                StandardStream.error.write("\ncancelled: interrupted\n")
                exit(ExitCode.cancelled)
            }
            cancellation.cancel()
        }
    }

    /// Returns once the handler is in place. libdispatch registers a signal source later, on its manager
    /// thread, and until then SIGINT is ignored: a Ctrl-C pressed at a prompt drawn in the first
    /// milliseconds of a run was lost on a busy machine (seen as a flaky terminal test).
    static func install(cancellation: CancellationFlag) async -> InterruptHandler {
        let handler = InterruptHandler(cancellation: cancellation)
        await withCheckedContinuation { (registered: CheckedContinuation<Void, Never>) in
            handler.source.setRegistrationHandler { registered.resume() }
            handler.source.resume()
        }
        return handler
    }
}
