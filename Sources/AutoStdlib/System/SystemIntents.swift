import AutoIntents
import Foundation

/// `environment variable "HOME"`: its value; empty when it is not set, as a shell's `$HOME` would be.
struct EnvironmentVariable: ImmediateIntent {
    static let title = "Environment variable"
    static let description = IntentDescription("The value of an environment variable; empty when it is not set.", category: "System",
                                               searchKeywords: ["env", "getenv", "variable"], resultName: "value")
    static let parameterSummary: ParameterSummary? = "Environment variable {name}"
    static let capabilities: Set<Capability> = [.env]
    @Parameter(title: "Name", question: "Which variable?") var name: String

    func performNow(_ context: IntentContext) throws -> IntentResult<String> {
        try context.authorizeEnvironment()
        return .result(value: ProcessInfo.processInfo.environment[name] ?? "")
    }
}

/// `wait 2 seconds`: does nothing for a while; Ctrl-C and a run's time limit end it at once.
struct Wait: AppIntent {
    static let title = "Wait"
    static let description = IntentDescription("Waits for a duration; Ctrl-C or the run's time limit stops it at once.", category: "System",
                                               searchKeywords: ["sleep", "pause", "delay"])
    static let parameterSummary: ParameterSummary? = "Wait {duration}"
    @Parameter(title: "Duration", question: "How long?") var duration: Duration

    /// How often the run's cancellation is looked at: Ctrl-C sets a flag, it doesn't cancel this task.
    static let step = Duration.milliseconds(50)

    func perform(_ context: IntentContext) async throws -> IntentResult<NoValue> {
        guard duration >= .zero else { throw IntentError("can't wait a negative duration") }
        let end = ContinuousClock.now + duration
        while ContinuousClock.now < end {
            try context.checkCancellation()
            try await Task.sleep(until: min(end, ContinuousClock.now + Self.step), clock: .continuous)
        }
        return .result()
    }
}

/// `notify "Backup done"`: a desktop notification through `notify-send` where it is installed (and a desktop
/// session is there to show it); otherwise a line on standard error, so a message is never lost.
struct Notify: AppIntent {
    static let title = "Notify"
    static let description = IntentDescription(
        "Shows a desktop notification (notify-send); where there is none, writes the message on standard error.",
        category: "System", searchKeywords: ["notification", "alert", "message", "toast"])
    static let parameterSummary: ParameterSummary? = "Notify {message}"
    @Parameter(title: "Message", question: "What message?") var message: String
    @Parameter(title: "Title", default: "auto") var title: String

    func perform(_ context: IntentContext) async throws -> IntentResult<NoValue> {
        if let notifySend = Self.notifySend(), Self.hasDesktop() {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: notifySend)
            // `--` ends the options: a message starting with a dash is a message.
            process.arguments = ["--", title, message]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            if (try? process.run()) != nil {
                process.waitUntilExit()
                if process.terminationStatus == 0 { return .result() }
            }
        }
        FileHandle.standardError.write(Data("\(title): \(message)\n".utf8))
        return .result()
    }

    static func notifySend() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/notify-send" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static func hasDesktop() -> Bool {
        let environment = ProcessInfo.processInfo.environment
        return environment["DISPLAY"] != nil || environment["WAYLAND_DISPLAY"] != nil || environment["DBUS_SESSION_BUS_ADDRESS"] != nil
    }
}

/// `fail "no files to back up"`: stops the run with that error, as an intent that fails does; `try` catches it.
struct Fail: ImmediateIntent {
    static let title = "Fail"
    static let description = IntentDescription("Stops the run with an error saying the message; a try … otherwise around it catches it.",
                                               category: "System", searchKeywords: ["error", "throw", "raise", "abort"])
    static let parameterSummary: ParameterSummary? = "Fail with {message}"
    @Parameter(title: "Message", question: "What went wrong?") var message: String

    func performNow(_ context: IntentContext) throws -> IntentResult<NoValue> {
        throw ScriptFailure(message)
    }
}

/// `log "backed up 12 files"`: a line on standard error, apart from what the script shows on standard output; under
/// `auto daemon`, a line of the daemon's log, in its format, with the run's automation and id (`Interaction.log`).
struct Log: ImmediateIntent {
    static let title = "Log"
    static let description = IntentDescription(
        "Writes a line on standard error (the daemon's log under auto daemon), apart from the script's output.",
        category: "System", searchKeywords: ["print", "stderr", "debug", "trace"])
    static let parameterSummary: ParameterSummary? = "Log {message}"
    @Parameter(title: "Message", question: "What should be logged?") var message: String

    func performNow(_ context: IntentContext) throws -> IntentResult<NoValue> {
        context.interaction.log(message)
        return .result()
    }
}
