import AutoIntents
import Foundation
import Subprocess
#if canImport(System)
import System
#else
import SystemPackage
#endif

/// What a program did: its exit status (128 + the signal's number when a signal ended it, as shells say), and
/// what it wrote to standard output and standard error.
struct CommandResult: IntentValue {
    let status: Int
    let stdout: String
    let stderr: String

    static var valueType: ValueType { .recordOf(RecordShape(names: ["status", "stdout", "stderr"], types: [.int, .text, .text])) }
    init(status: Int, stdout: String, stderr: String) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }
    init?(autoValue value: Value) {
        guard case .record(let record) = value, case .int(let status)? = record["status"], case .text(let stdout)? = record["stdout"],
              case .text(let stderr)? = record["stderr"] else { return nil }
        self.init(status: status, stdout: stdout, stderr: stderr)
    }
    var autoValue: Value { .record(Record(["status": .int(status), "stdout": .text(stdout), "stderr": .text(stderr)])) }
}

/// `run command "git" arguments: ["status", "--short"] folder: "~/src/auto"`: starts a program, never through a
/// shell, and waits for it. `environment: {LANG: "C", TZ: nil}` sets (or, with nil, removes) variables in what the
/// program inherits. A program that fails is no error: its status says so. Ctrl-C and `timeout:` stop it
/// (SIGTERM, then SIGKILL two seconds later). What starts is the file the run's grant resolves the name to
/// (`IntentContext.authorize(program:)`), by its absolute path, with the name as given for its `argv[0]`.
struct RunCommandIntent: AppIntent {
    static let title = "Run command"
    static let description = IntentDescription(
        "Runs a program (by name, found in PATH, or by path) with its arguments and environment, never through a shell, and gives its status, stdout and stderr; a status other than 0 is no error. Stopped by Ctrl-C or its timeout.",
        category: "System", searchKeywords: ["shell", "exec", "program", "process", "subprocess"], resultName: "result")
    static let parameterSummary: ParameterSummary? = "Run {command} with {arguments}"
    static let sideEffect = SideEffect.changes
    static let capabilities: Set<Capability> = [.run]
    @Parameter(title: "Program", question: "Which program?") var command: String
    @Parameter(title: "Arguments", default: []) var arguments: [String]
    @Parameter(title: "Folder to run in") var folder: FileRef?
    @Parameter(title: "Longest it may take") var timeout: Duration?
    @Parameter(title: "Standard input") var input: String?
    @Parameter(title: "Environment variables to set, a record of texts (nil removes one)") var environment: Record?

    /// What one stream may hold; a program that writes more is stopped and the run says so.
    static let outputLimit = 64 << 20
    /// How often the run's cancellation and the timeout are looked at while the program runs.
    static let watchInterval = Duration.milliseconds(20)

    enum Ending: Sendable {
        case exited(ExecutionResult<Void, BytesOutput, BytesOutput>)
        case cancelled
        case timedOut
    }

    /// A path as the system names it, by its bytes (`FileNameBytes`).
    static func filePath(_ path: String) -> FilePath {
        FileNameBytes.withCString(path) { FilePath(platformString: $0) }
    }

    func perform(_ context: IntentContext) async throws -> IntentResult<CommandResult> {
        guard !command.isEmpty else { throw IntentError("the program's name is empty") }
        // The file to start, resolved by the grant: what runs is that file, never what PATH finds later.
        let program = try context.authorize(program: command)
        var workingDirectory: FilePath?
        if let folder {
            let path = try context.authorize(.read, path: folder.path)
            guard FileInfo.kind(of: path, following: true) == .folder else {
                throw IntentError("can't run '\(command)' in '\(path)': there is no such folder")
            }
            workingDirectory = Self.filePath(path)
        }
        let environment = try Self.environment(self.environment, grants: context.grants, json: context.json, command: command)
        let executable = Executable.path(Self.filePath(program))
        var options = PlatformOptions()
        options.teardownSequence = [.gracefulShutDown(allowedDurationToNextStep: .seconds(2))]
        // The program sees the name it was called by, as a shell passes it (a multi-call binary depends on it).
        // Arguments as bytes: one that names a file that isn't UTF-8 passes the name's own bytes (`FileNameBytes`).
        // Subprocess copies raw bytes with strdup, so each ends with its NUL, as its own environment rows do.
        let arguments = Arguments(executablePathOverride: FileNameBytes.bytes(command) + [0],
                                  remainingValues: self.arguments.map { FileNameBytes.bytes($0) + [0] }), stdin = Array((input ?? "").utf8), timeout = self.timeout
        let folder = workingDirectory, platformOptions = options
        let ending: Ending
        do {
            ending = try await withThrowingTaskGroup(of: Ending.self) { group in
                group.addTask {
                    .exited(try await Subprocess.run(executable, arguments: arguments, environment: environment, workingDirectory: folder, platformOptions: platformOptions,
                                                     input: .array(stdin), output: .bytes(limit: Self.outputLimit),
                                                     error: .bytes(limit: Self.outputLimit)))
                }
                group.addTask {
                    let deadline = timeout.map { ContinuousClock.now + $0 }
                    while true {
                        try await Task.sleep(for: Self.watchInterval)
                        if context.isCancelled { return .cancelled }
                        if let deadline, ContinuousClock.now >= deadline { return .timedOut }
                    }
                }
                defer { group.cancelAll() }
                return try await group.next() ?? .cancelled
            }
        } catch let error as SubprocessError {
            throw IntentError(Self.describe(error, command: command))
        }
        switch ending {
        case .cancelled: throw RunCancelled()
        case .timedOut: throw IntentError("'\(command)' ran longer than its timeout and was stopped")
        case .exited(let result):
            let status: Int
            switch result.terminationStatus {
            case .exited(let code): status = Int(code)
            case .signaled(let signal): status = 128 + Int(signal)
            }
            // A byte that isn't UTF-8 is kept as `FileNameBytes` keeps it, not made U+FFFD: a program's output is
            // often names (`find`, `ls`), and a name read from it must reach the same file.
            return .result(value: CommandResult(status: status, stdout: FileNameBytes.text(result.standardOutput),
                                                stderr: FileNameBytes.text(result.standardError)))
        }
    }

    /// What the program inherits, with the script's record applied: a text, number or true/false sets a variable,
    /// nil removes it. Only a run that may start any program may set them: one granted some programs would
    /// otherwise widen its grant through them (`LD_PRELOAD` loads a file it wrote; `GIT_SSH_COMMAND` starts
    /// another program).
    static func environment(_ record: Record?, grants: Grants, json: ValueCodec, command: String) throws -> Environment {
        guard let record, !record.keys.isEmpty else { return .inherit }
        guard grants.run == .all else {
            throw IntentError("this run may not set the environment of '\(command)': it may start only the programs --allow-run "
                              + "names, and a variable such as LD_PRELOAD would let one do what the grant does not")
        }
        var updates: [Environment.Key: String?] = [:]
        for (name, value) in zip(record.keys, record.values) {
            guard !name.isEmpty, !name.contains("="), !name.utf8.contains(0) else {
                throw IntentError("'\(name)' can't name an environment variable: it is empty or holds '=' or a NUL")
            }
            let text: String?
            switch value {
            case .null: text = nil
            case .text(let string): text = string
            case .int, .decimal, .bool: text = try json.write(value)
            default: throw IntentError("the environment variable '\(name)' is \(RequestBody.kind(of: value)); give a text, or nil to remove it")
            }
            if let text, text.utf8.contains(0) { throw IntentError("the environment variable '\(name)' holds a NUL, which no variable can") }
            updates[Environment.Key(stringLiteral: name)] = .some(text)
        }
        return Environment.inherit.updating(updates)
    }

    static func describe(_ error: SubprocessError, command: String) -> String {
        switch error.code {
        case .executableNotFound:
            return Grants.ProgramRefusal.notFound(command).description
        case .outputLimitExceeded: return "'\(command)' wrote more than \(outputLimit >> 20) MB to one stream and was stopped"
        case .failedToChangeWorkingDirectory: return "can't run '\(command)' in its folder"
        default: return "can't run '\(command)': \(error)"
        }
    }
}
