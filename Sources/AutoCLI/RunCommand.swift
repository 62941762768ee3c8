import AutoTerminal
import ArgumentParser
import AutoIntents
import AutoLanguage
import AutoRuntime
import Foundation
import Synchronization

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
        try interaction.apply(to: &options)
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
    /// On the caller's executor: a script of immediate calls starts no thread.
    nonisolated(nonsending) static func run(_ script: SourceFile, options: RunOptions) async -> Int32 {
        let cancellation = CancellationFlag()
        InterruptHandler.install(cancellation: cancellation)
        return await ScriptRunner(host: AutoCommandLine.host, console: .standard)
            .run(script, options: options, cancellation: cancellation)
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
///
/// A signal handler of its own (sigaction), not a Dispatch signal source: a source is registered later, by
/// libdispatch's manager thread, which it starts, and the run had to wait for that on every start (until then a
/// Ctrl-C pressed at a prompt drawn in the first milliseconds was lost). The handler is in place when `install`
/// returns, and does only what a handler may: atomic loads and stores, write(2) and _exit.
enum InterruptHandler {
    /// The address of the flag Ctrl-C sets, retained for as long as the process lives; 0 before there is one.
    private static let current = Atomic<Int>(0)

    static func install(cancellation: CancellationFlag) {
        let address = Int(bitPattern: Unmanaged.passRetained(cancellation).toOpaque())
        let previous = current.exchange(address, ordering: .sequentiallyConsistent)
        if let previous = UnsafeMutableRawPointer(bitPattern: previous) { Unmanaged<CancellationFlag>.fromOpaque(previous).release() }
        // Touched here so that the handler never runs their one-time initialisation.
        _ = TerminalInteraction.readingAnswer.load(ordering: .relaxed)
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in
            guard let pointer = UnsafeMutableRawPointer(bitPattern: InterruptHandler.current.load(ordering: .sequentiallyConsistent)) else { return }
            let cancellation = Unmanaged<CancellationFlag>.fromOpaque(pointer).takeUnretainedValue()
            if cancellation.isCancelled || TerminalInteraction.readingAnswer.load(ordering: .sequentiallyConsistent) {
                let message: StaticString = "\ncancelled: interrupted\n"
                _ = write(2, message.utf8Start, message.utf8CodeUnitCount)
                _exit(ExitCode.cancelled)
            }
            cancellation.cancel()
        }
        action.sa_flags = SA_RESTART
        sigemptyset(&action.sa_mask)
        sigaction(SIGINT, &action, nil)
    }
}
