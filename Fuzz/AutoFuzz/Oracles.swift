import Foundation

/// What a failing run broke.
public enum FailureKind: String, Sendable, CaseIterable, Comparable {
    /// Ended by a signal: a trap (SIGILL, SIGTRAP), an abort, a segfault, memory exhausted.
    case crash
    /// Exited with a code that is not 0, 1, 2 or 130.
    case exitCode = "exit-code"
    /// `--json` and exit 0, but standard output is not one line of JSON.
    case invalidJSON = "invalid-json"
    /// `--json` and a failure, yet something was written to standard output.
    case outputOnFailure = "json-output-on-failure"
    /// Exit 2 (nothing runs after a compile error), yet something was written to standard output.
    case outputAfterCompileError = "output-after-compile-error"
    /// With `--timeout T`, the process went on past T plus the slack.
    case timeoutOverrun = "timeout-overrun"
    /// With `--timeout T`, output arrived after T plus the slack.
    case outputAfterDeadline = "output-after-deadline"
    /// Still running at the hard deadline: killed.
    case hang

    /// Failures that depend on timing, which are confirmed by running the case again before counting.
    public var isTiming: Bool { self == .timeoutOverrun || self == .outputAfterDeadline || self == .hang }

    public static func < (a: FailureKind, b: FailureKind) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// One oracle's verdict on one run.
public struct Finding: Sendable {
    public let kind: FailureKind
    /// For people: which oracle, and what it saw.
    public let detail: String
    /// What makes two findings the same failure, for grouping and for minimising: the kind and a
    /// normalised message (a crash's fatal error without numbers, the non-JSON word in the output).
    public let signature: String
}

/// The margins of the timing oracles. Generous, because the debug binary on a loaded two-core machine
/// is slow to start and to compile a large script, and a fuzzer that cries wolf gets switched off.
public struct OracleSettings: Sendable {
    /// Output may still arrive this long after the timeout (covers start-up and compiling, which the
    /// timeout doesn't count, and the error message written when it fires).
    public var outputSlack = 1.5
    /// The process must have ended this long after the timeout.
    public var exitSlack = 3.0
    /// Killed, and reported as a hang, this long after the timeout; or after `hangAfter` without one.
    public var hangSlack = 10.0
    public var hangAfter = 30.0

    public init() {}

    /// When the harness gives up on a run.
    public func hardDeadline(for configuration: RunConfiguration) -> Double {
        configuration.timeoutSeconds.map { $0 + hangSlack } ?? hangAfter
    }
}

/// The checks every run must pass, whatever the program: the exit code, JSON on standard output, and the
/// deadline of `--timeout`.
public enum Oracles {
    public static let allowedExitCodes: Set<Int32> = [0, 1, 2, 130]

    public static func check(_ result: RunResult, _ configuration: RunConfiguration, settings: OracleSettings = OracleSettings()) -> Finding? {
        if result.killed {
            let limit = configuration.timeoutSeconds.map { "--timeout \($0) + \(settings.hangSlack) s" } ?? "\(settings.hangAfter) s"
            return Finding(kind: .hang, detail: "still running after \(limit): killed",
                           signature: "hang" + (configuration.timeoutSeconds == nil ? "" : " with --timeout"))
        }
        switch result.termination {
        case .notStarted(let reason):
            return Finding(kind: .exitCode, detail: "the harness could not start the binary: \(reason)", signature: "not started")
        case .signaled(let signal):
            let name = signalName(signal)
            // Ending by SIGPIPE when the reader of standard output has gone is what Unix tools do (`auto … | head`
            // stops at once and quietly): accepted. With SIGPIPE ignored, the write fails and the exit code is 1.
            if signal == SIGPIPE && configuration.output == .brokenPipe { return nil }
            let message = crashMessage(result.standardErrorText)
            return Finding(kind: .crash, detail: "killed by signal \(signal) (\(name), exit \(128 + signal))" + (message.map { ": \($0)" } ?? ""),
                           signature: "\(name): " + normalised(message ?? "no message"))
        case .exited(let code):
            if !allowedExitCodes.contains(code) {
                return Finding(kind: .exitCode, detail: "exit code \(code), not one of 0, 1, 2, 130", signature: "exit \(code)")
            }
        }
        if let timing = checkDeadline(result, configuration, settings) { return timing }
        guard configuration.output == .pipe, case .exited(let code) = result.termination else { return nil }
        // Output cut at the capture limit can't be judged as JSON (a 9 MB text is valid JSON).
        if configuration.json && code == 0 && result.hasWholeStandardOutput {
            if let problem = jsonProblem(result.standardOutput) {
                return Finding(kind: .invalidJSON, detail: "--json, exit 0, and standard output \(problem): \(excerpt(result.standardOutputText))",
                               signature: "invalid json: " + nonJSONWords(result.standardOutputText))
            }
        } else if configuration.json && code != 0 && !result.standardOutput.isEmpty {
            return Finding(kind: .outputOnFailure, detail: "--json, exit \(code), and standard output has \(excerpt(result.standardOutputText))",
                           signature: "json output on exit \(code)")
        }
        if code == 2 && !result.standardOutput.isEmpty {
            return Finding(kind: .outputAfterCompileError,
                           detail: "exit 2 (a compile or usage error: nothing runs), but standard output has \(excerpt(result.standardOutputText))",
                           signature: "output on exit 2")
        }
        return nil
    }

    /// With a real `--timeout T`: the process ends by T + exitSlack and writes nothing after T + outputSlack.
    static func checkDeadline(_ result: RunResult, _ configuration: RunConfiguration, _ settings: OracleSettings) -> Finding? {
        guard let timeout = configuration.timeoutSeconds else { return nil }
        // Stopped late by the time limit (a step that takes long), or never stopped by it (work the limit
        // doesn't cover, such as compiling): two different causes.
        let stopped = result.standardErrorText.contains("time limit")
        let how = stopped ? "stopped late by the time limit" : "not stopped by the time limit"
        if result.wallTime > timeout + settings.exitSlack {
            return Finding(kind: .timeoutOverrun,
                           detail: String(format: "--timeout %@ but the process ran %.2f s (allowed: %.1f s), %@, exit %d",
                                          configuration.timeout ?? "", result.wallTime, timeout + settings.exitSlack, how, result.shellStatus),
                           signature: "timeout overrun, " + how)
        }
        let late = result.chunks.filter { $0.time > timeout + settings.outputSlack }
        if let first = late.first {
            let bytes = late.reduce(0) { $0 + $1.count }
            return Finding(kind: .outputAfterDeadline,
                           detail: String(format: "--timeout %@ but %d bytes arrived after the deadline, the first at %.2f s (allowed: %.1f s)",
                                          configuration.timeout ?? "", bytes, first.time, timeout + settings.outputSlack),
                           signature: "output after deadline, " + how)
        }
        return nil
    }

    /// Nil when `bytes` is one JSON value on one line; otherwise what is wrong with it.
    public static func jsonProblem(_ bytes: [UInt8]) -> String? {
        guard bytes.last == 0x0A else { return bytes.isEmpty ? "is empty" : "does not end with a newline" }
        let body = bytes.dropLast()
        if body.contains(0x0A) { return "has more than one line" }
        // Both judges must agree (JSONValidator.swift says why): JSONSerialization also checks the UTF-8
        // in strings, and is overruled only on nesting deeper than it parses.
        let strict = JSONValidator.check(body)
        guard strict.isValid else { return "is not valid JSON" }
        if strict.depth > 500 { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed])) != nil ? nil : "is not valid JSON"
    }

    /// The line a Swift runtime failure leaves on standard error: `Fatal error: …`, a stack overflow,
    /// a failed allocation.
    static func crashMessage(_ standardError: String) -> String? {
        let markers = ["Fatal error", "fatal error", "Stack overflow", "Could not allocate", "Precondition failed", "Assertion failed",
                       "Illegal instruction", "Segmentation fault", "Aborted", "terminate called", "Crash:"]
        let lines = standardError.split(separator: "\n")
        guard let line = lines.first(where: { line in markers.contains { line.contains($0) } }) else { return nil }
        return String(line.prefix(300))
    }

    /// A message with its variable parts gone, so that one failure found with different numbers (or at
    /// a different line of the runtime) is one failure: `…/Foo.swift:123: Fatal error: 12 is bad` →
    /// `Foo.swift: Fatal error: N is bad`.
    static func normalised(_ message: String) -> String {
        var text = message
        if let range = text.range(of: #"[^ ]*/"#, options: .regularExpression) { text.removeSubrange(range) }
        text = text.replacingOccurrences(of: #"-?[0-9]+(\.[0-9]+)?(e[+-]?[0-9]+)?"#, with: "N", options: .regularExpression)
        text = text.replacingOccurrences(of: #"'[^']*'"#, with: "'…'", options: .regularExpression)
        return text
    }

    /// The words in a would-be JSON text that JSON doesn't have (`infinity`, `nan`): what tells two
    /// invalid-JSON failures apart.
    static func nonJSONWords(_ text: String) -> String {
        var outside = ""
        var inString = false
        var escaped = false
        for character in text {
            if inString {
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
                continue
            }
            if character == "\"" { inString = true; outside.append(" "); continue }
            outside.append(character)
        }
        let words = outside.split(whereSeparator: { !$0.isLetter }).map(String.init)
            .filter { !["true", "false", "null", "e", "E"].contains($0) }
        let unique = Array(Set(words)).sorted()
        return unique.isEmpty ? "malformed" : unique.joined(separator: ", ")
    }

    static func excerpt(_ text: String) -> String {
        let flat = text.replacingOccurrences(of: "\n", with: "⏎")
        return flat.count > 120 ? "'" + flat.prefix(120) + "…'" : "'\(flat)'"
    }

    static func signalName(_ signal: Int32) -> String {
        let names: [Int32: String] = [SIGILL: "SIGILL", SIGTRAP: "SIGTRAP", SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE",
                                      SIGKILL: "SIGKILL", SIGSEGV: "SIGSEGV", SIGPIPE: "SIGPIPE", SIGTERM: "SIGTERM", SIGXCPU: "SIGXCPU"]
        return names[signal] ?? "signal \(signal)"
    }
}
