import Foundation

#if canImport(Glibc)
import Glibc
#endif

// What every workload shares: the options, timing, the result table and running the anchors' programs.

/// Sizes and repetitions. `--quick` is the CI smoke run: small sizes, 1–3 repetitions, every code path taken.
struct Options: Sendable {
    var quick = false
    /// Entities of the find workload.
    var rows = 1_000_000
    /// Iterations of the loop and call workloads.
    var iterations = 1_000_000
    /// Lines of the generated script the compile workload checks.
    var scriptLines = 100_000
    /// Samples of each timed workload; the median is reported.
    var repetitions = 15
    /// Samples of the slower workloads (1M iterations, compiling 100k lines).
    var slowRepetitions = 7
    /// Process starts measured per program.
    var starts = 30
    /// Rounds in which the engine and its anchors take turns (`alternating`), for the rows whose figures are a few
    /// milliseconds.
    var rounds = 5
    /// Workloads to run (all when empty).
    var only: Set<String> = []

    static func parse(_ arguments: [String]) -> Options {
        var options = Options()
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--quick":
                options.quick = true
                options.rows = 20_000
                options.iterations = 20_000
                options.scriptLines = 5_000
                options.repetitions = 3
                options.slowRepetitions = 1
                options.starts = 3
                options.rounds = 1
            case "--rows", "--iterations", "--lines", "--repetitions":
                // For profiling one workload at a chosen size: `--only calls --iterations 3000000 --repetitions 1`.
                guard let value = rest.popFirst().flatMap({ Int($0.replacingOccurrences(of: "_", with: "")) }), value > 0 else {
                    FileHandle.standardError.write(Data("auto-bench: \(argument) needs a positive number\n".utf8))
                    exit(2)
                }
                switch argument {
                case "--rows": options.rows = value
                case "--iterations": options.iterations = value
                case "--lines": options.scriptLines = value
                default:
                    options.repetitions = value
                    options.slowRepetitions = value
                    options.starts = value
                }
            case "--only":
                options.only.formUnion((rest.popFirst() ?? "").split(separator: ",").map(String.init))
            case "--list":
                for workload in workloads { print("\(workload.name)\t\(workload.summary)") }
                exit(0)
            case "-h", "--help":
                print("""
                    usage: auto-bench [--quick] [--only NAME[,NAME…]] [--list] [--rows N] [--iterations N] [--lines N] [--repetitions N]
                      --quick        small sizes and 1–3 repetitions (a CI smoke run)
                      --only         run only the named workloads (see --list)
                      --rows, --iterations, --lines, --repetitions
                                     override the size of find, of calls and loop, of compile, and the repetitions
                                     (after --quick, if given); with other sizes, verdicts say "n/a at this size"
                    """)
                exit(0)
            default:
                FileHandle.standardError.write(Data("auto-bench: unknown argument '\(argument)' (try --help)\n".utf8))
                exit(2)
            }
        }
        return options
    }
}

/// The median of a timed thing, or why there is none.
enum Timing: Sendable {
    case milliseconds(Double)
    case notInstalled(String)
    case failed(String)

    var milliseconds: Double? {
        if case .milliseconds(let value) = self { return value }
        return nil
    }

    var text: String {
        switch self {
        case .milliseconds(let value): return formatMilliseconds(value)
        case .notInstalled(let program): return "not installed (\(program))"
        case .failed(let reason): return "failed: \(reason)"
        }
    }
}

func formatMilliseconds(_ value: Double) -> String {
    value >= 100 ? String(format: "%.0f ms", value) : value >= 10 ? String(format: "%.1f ms", value) : String(format: "%.2f ms", value)
}

/// A goal of DESIGN.md §5 or of an issue: the engine's median must be at most `limit` milliseconds — or, for a rate
/// (`atLeast`), at least `limit` of its unit.
struct Goal: Sendable {
    let text: String
    let limit: Double?
    var atLeast = false
    static func atMost(_ milliseconds: Double, _ text: String) -> Goal { Goal(text: text, limit: milliseconds) }
    static func atLeast(_ rate: Double, _ text: String) -> Goal { Goal(text: text, limit: rate, atLeast: true) }
    static let none = Goal(text: "none in §5", limit: nil)
}

/// One row of the table: the engine's median for a workload, against each of its anchors.
struct ResultRow: Sendable {
    let workload: String
    let engine: Timing
    /// What the engine column shows instead of the bare median (e.g. a rate); the median is still used for ratios.
    var engineText: String?
    var anchors: [(name: String, timing: Timing)]
    let goal: Goal
    /// Measured at this size rather than the goal's: the verdict is then shown as an estimate only.
    var scaled = false
}

/// Lines printed under the table: how each figure was taken, and any cross-check that failed.
final class Notes: @unchecked Sendable {
    private(set) var lines: [String] = []
    private(set) var mismatches: [String] = []
    func add(_ line: String) { lines.append(line) }
    func mismatch(_ line: String) { mismatches.append(line) }
}

/// Times `body` `repetitions` times and returns the median in milliseconds.
func measure(_ repetitions: Int, _ body: () async throws -> Void) async rethrows -> Double {
    var samples: [Double] = []
    for _ in 0..<max(repetitions, 1) {
        let start = ContinuousClock.now
        try await body()
        samples.append(milliseconds(ContinuousClock.now - start))
    }
    return median(samples)
}

/// Runs each part once per round, in turn, for `rounds` rounds, and gives each part's median over them: this machine
/// runs the same loop at anything from 1× to 2× its best time, changing from one few seconds to the next, so an engine
/// and an anchor timed one after the other could compare a fast spell with a slow one, and a ratio flipped with it. A
/// part that doesn't give a time in some round gives what it gave instead.
func alternating(rounds: Int, _ parts: [() async throws -> Timing]) async throws -> [Timing] {
    var samples = Array(repeating: [Double](), count: parts.count)
    var failures: [Timing?] = Array(repeating: nil, count: parts.count)
    for _ in 0..<max(rounds, 1) {
        for (index, part) in parts.enumerated() where failures[index] == nil {
            let timing = try await part()
            if let value = timing.milliseconds { samples[index].append(value) } else { failures[index] = timing }
        }
    }
    return parts.indices.map { index in failures[index] ?? .milliseconds(median(samples[index])) }
}

/// One run of a program, from spawn to exit, as a part of `alternating`: its time, or why there is none.
func spawnTimed(_ executable: String?, _ arguments: [String], _ program: String) -> Timing {
    guard let executable, FileManager.default.isExecutableFile(atPath: executable) else { return .notInstalled(program) }
    guard let elapsed = spawnAndWait(executable, arguments) else { return .failed("\(program) exited with an error") }
    return .milliseconds(elapsed)
}

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}

func median(_ samples: [Double]) -> Double { samples.sorted()[samples.count / 2] }

// MARK: - Other programs

/// The absolute path of `name` on PATH, or nil when it is not installed.
func which(_ name: String) -> String? {
    if name.contains("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
    for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
        let path = "\(directory)/\(name)"
        if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    return nil
}

struct ProcessOutput {
    let status: Int32
    let stdout: String
    let stderr: String
}

/// Runs a program to completion, feeding it `input`, and returns what it printed.
func run(_ executable: String, _ arguments: [String], input: String? = nil) throws -> ProcessOutput {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let stdout = Pipe(), stderr = Pipe()
    process.standardOutput = stdout
    process.standardError = stderr
    let stdin = Pipe()
    process.standardInput = input == nil ? FileHandle.nullDevice : stdin
    try process.run()
    if let input {
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try? stdin.fileHandleForWriting.close()
    }
    // Read both pipes while the program runs, so that neither fills up and blocks it.
    final class Box: @unchecked Sendable { var data = Data() }
    let errorData = Box()
    let errorRead = DispatchSemaphore(value: 0)
    let errorHandle = stderr.fileHandleForReading
    Thread {
        errorData.data = errorHandle.readDataToEndOfFile()
        errorRead.signal()
    }.start()
    let outputData = stdout.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    errorRead.wait()
    return ProcessOutput(status: process.terminationStatus, stdout: String(decoding: outputData, as: UTF8.self),
                         stderr: String(decoding: errorData.data, as: UTF8.self))
}

/// Wall time of starting `executable` and waiting for it to exit, output discarded: posix_spawn and waitpid
/// directly, so that nothing of Foundation's Process machinery is counted. Nil if it could not run or failed.
func spawnAndWait(_ executable: String, _ arguments: [String]) -> Double? {
    var actions: posix_spawn_file_actions_t = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    let start = ContinuousClock.now
    guard posix_spawn(&pid, executable, &actions, nil, argv, environ) == 0 else { return nil }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    let elapsed = milliseconds(ContinuousClock.now - start)
    // WIFEXITED && WEXITSTATUS == 0, spelled out (the C macros are not imported).
    return status & 0x7f == 0 && (status >> 8) & 0xff == 0 ? elapsed : nil
}

/// The anchors' programs, found once. Python is resolved to its real binary: a pyenv shim in front of it
/// would add a shell script to every start.
struct Anchors: Sendable {
    let lua: String?
    let sqlite3: String?
    let python3: String?

    static func find() -> Anchors {
        var python = which("python3")
        if let shim = python, let resolved = try? run(shim, ["-c", "import sys; print(sys.executable)"]), resolved.status == 0 {
            let path = resolved.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            if FileManager.default.isExecutableFile(atPath: path) { python = path }
        } else {
            python = nil
        }
        return Anchors(lua: which("lua5.4"), sqlite3: which("sqlite3"), python3: python)
    }

    /// Runs a generated Python script that prints `median-ms` on its first line (and anything else after).
    func python(_ script: String) -> (Timing, [String]) {
        guard let python3 else { return (.notInstalled("python3"), []) }
        return Self.firstLineMedian(try? run(python3, ["-c", script]), "python3")
    }

    /// Runs a generated Lua chunk that prints `median-ms` on its first line.
    func lua(_ chunk: String) -> (Timing, [String]) {
        guard let lua else { return (.notInstalled("lua5.4"), []) }
        return Self.firstLineMedian(try? run(lua, ["-e", chunk]), "lua5.4")
    }

    static func firstLineMedian(_ output: ProcessOutput?, _ program: String) -> (Timing, [String]) {
        guard let output else { return (.failed("\(program) did not start"), []) }
        let lines = output.stdout.split(separator: "\n").map(String.init)
        guard output.status == 0, let first = lines.first, let value = Double(first.trimmingCharacters(in: .whitespaces)) else {
            let why = output.stderr.split(separator: "\n").last.map(String.init) ?? "exit \(output.status)"
            return (.failed("\(program): \(why)"), lines)
        }
        return (.milliseconds(value), Array(lines.dropFirst()))
    }
}

/// The Python helper every generated Python script starts with: `bench(fn, repetitions)` times `fn` with
/// `time.perf_counter` and returns the median in milliseconds.
let pythonPrelude = """
    import time, heapq, operator
    def bench(fn, repetitions):
        samples = []
        for _ in range(max(repetitions, 1)):
            start = time.perf_counter()
            fn()
            samples.append((time.perf_counter() - start) * 1000)
        samples.sort()
        return samples[len(samples) // 2]

    """

/// The Lua counterpart: `bench(fn, repetitions)` with `os.clock` (processor time, at microsecond resolution).
let luaPrelude = """
    local function bench(fn, repetitions)
      local samples = {}
      for r = 1, math.max(repetitions, 1) do
        local start = os.clock()
        fn()
        samples[#samples + 1] = (os.clock() - start) * 1000
      end
      table.sort(samples)
      return samples[#samples // 2 + 1]
    end

    """

/// An `auto` subcommand with pipes on its standard input and output, as an editor or an assistant starts it (`auto lsp`,
/// `auto mcp`); its standard error goes nowhere. `close` ends its input and waits for it.
/// The `auto` built beside this benchmark (`scripts/benchmark` builds both into .build/release), which the workloads
/// that time a whole process or talk to one run.
let autoBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("auto").path
/// The start row's floor, built beside `auto` (scripts/benchmark builds it).
let startFloorBinary = URL(fileURLWithPath: autoBinary).deletingLastPathComponent().appendingPathComponent("start-floor").path

/// Why a workload that talks to a process gave no figure: what it said, or that it ended.
struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A field of /proc/PID/status in kB (VmRSS, VmHWM, RssFile, RssAnon) while the process runs; nil once it is gone.
func processStatusKilobytes(_ pid: Int32, _ field: String) -> Double? {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
    return status.split(separator: "\n").first { $0.hasPrefix(field + ":") }.flatMap { line in
        line.split(whereSeparator: { $0 == " " || $0 == "\t" }).compactMap { Double($0) }.first
    }
}

final class PipedCommand {
    let process = Process()
    let input: FileHandle
    let output: FileHandle

    init(_ executable: String, _ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        input = stdin.fileHandleForWriting
        output = stdout.fileHandleForReading
    }

    func close() {
        try? input.close()
        process.waitUntilExit()
    }
}
