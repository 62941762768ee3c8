import AutoAutomation
import AutoIntents
import AutoLanguage
import Foundation
import Logging
import Synchronization

/// Time triggers and the daemon (issue 14): next fires of 10,000 automations, `next -n 1000` of one cron
/// expression, the latency from a scheduled instant to its run's start, and the idle daemon's memory and CPU.
@Sendable func scheduleWorkload(_ options: Options, _ anchors: Anchors, _ notes: Notes) async throws -> [ResultRow] {
    // 10,000 automations of every kind, in three zones.
    let zones = ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe"].compactMap(TimeZone.init(identifier:))
    let crons = ["*/10 9-17 * * mon-fri", "0 7 * * *", "30 2 * * *", "15 */2 1,15 * *", "0 0 1 1 *", "@hourly", "5 4 * * sun"]
    var schedules: [any FireSchedule] = []
    for index in 0..<10_000 {
        let zone = zones[index % zones.count]
        switch index % 4 {
        case 0: schedules.append(IntervalSchedule(interval: .seconds(60 * (1 + index % 90))))
        case 1: schedules.append(WallClockSchedule(days: nil, hour: index % 24, minute: index % 60, timeZone: zone))
        case 2: schedules.append(WallClockSchedule(days: [1, 3, 5], hour: (index / 3) % 24, minute: (index * 7) % 60, timeZone: zone))
        default: schedules.append(CronSchedule(try CronExpression(parsing: crons[index % crons.count]), timeZone: zone))
        }
    }
    let now = Date()
    var fired = 0
    let nextAll = await measure(options.repetitions) {
        fired = schedules.reduce(0) { $0 + ($1.nextFire(after: now) == nil ? 0 : 1) }
    }
    if fired != schedules.count { notes.mismatch("schedule: \(schedules.count - fired) automations had no next fire") }

    let office = CronSchedule(try CronExpression(parsing: "*/10 9-17 * * mon-fri"), timeZone: zones[0])
    var count = 0
    let thousand = await measure(options.repetitions) {
        var instant = now
        count = 0
        while count < 1_000, let next = office.nextFire(after: instant) {
            instant = next
            count += 1
        }
    }
    if count != 1_000 { notes.mismatch("schedule: next -n 1000 gave \(count)") }

    // The same list from a process, beside systemd's (`systemd-analyze calendar --iterations`), where it is installed.
    func processMedian(_ executable: String?, _ arguments: [String], _ program: String) -> Timing {
        guard let executable, FileManager.default.isExecutableFile(atPath: executable) else { return .notInstalled(program) }
        var samples: [Double] = []
        for _ in 0..<options.starts {
            guard let elapsed = spawnAndWait(executable, arguments) else { return .failed(program) }
            samples.append(elapsed)
        }
        return .milliseconds(median(samples))
    }
    let engineProcess = processMedian(autoBinary,
                                      ["automations", "next", "--cron", "*/10 9-17 * * mon-fri", "--in", "Europe/Berlin", "-n", "1000"], "auto")
    let systemd = processMedian(which("systemd-analyze"),
                                ["calendar", "--iterations=1000", "Mon..Fri *-*-* 09..17:00/10:00 Europe/Berlin"], "systemd-analyze")

    let latency = try await fireLatency(seconds: options.quick ? 1 : 3)
    let idle = try await idleDaemon(automations: options.quick ? 1_000 : 10_000)
    notes.add("schedule: the next fire after now of 10,000 automations (every N minutes, every day at, three weekdays at, cron) in "
        + "Berlin, New York and Lord Howe, median of \(options.repetitions); next -n 1000: `*/10 9-17 * * mon-fri` in Europe/Berlin.")
    notes.add("next -n 1000 from a process: `auto automations next --cron … -n 1000` beside `systemd-analyze calendar "
        + "--iterations=1000 'Mon..Fri *-*-* 09..17:00/10:00 Europe/Berlin'`, spawn to exit, median of \(options.starts).")
    notes.add("fire latency: the scheduler on the real clock (timerfd) with 5 automations every 100 ms for a few seconds, a SQLite store; "
        + "latency = when the body's first action ran − its scheduled instant (\(latency.samples) fires), so the claim's sync to disk counts.")
    notes.add("idle daemon: `auto daemon` on one script of \(idle.automations) automations that fire once a year, resident memory "
        + "(VmRSS) once started, of it the pages of the binary itself (RssFile, shared and clean) and the daemon's own (RssAnon), "
        + "and its CPU time over 2 s of idling.")
    return [
        ResultRow(workload: "next fire of 10,000 automations", engine: .milliseconds(nextAll), anchors: [], goal: .atMost(50, "≤ 50 ms")),
        ResultRow(workload: "next -n 1000 of a cron expression", engine: .milliseconds(thousand), anchors: [], goal: .atMost(5, "≤ 5 ms")),
        ResultRow(workload: "the same from a process, start to exit", engine: engineProcess,
                  anchors: [("systemd-analyze calendar --iterations=1000", systemd)], goal: .none),
        ResultRow(workload: "fire latency p99", engine: .milliseconds(latency.p99), anchors: [], goal: .atMost(10, "≤ 10 ms")),
        ResultRow(workload: "idle daemon, \(idle.automations) automations", engine: .milliseconds(idle.megabytes),
                  engineText: String(format: "%.1f MB (binary %.1f, own %.1f), %.0f ms CPU in 2 s", idle.megabytes,
                                             idle.fileMegabytes, idle.anonymousMegabytes, idle.cpuMilliseconds),
                  anchors: [], goal: .atMost(30, "≤ 30 MB, 0% CPU"), scaled: options.quick),
    ]
}

/// Where each run of the latency workload writes when its body began, against the instant it was scheduled for.
final class StartTimes: Sendable {
    let latencies = Mutex<[Double]>([])
}

/// `note start scheduled: it`: the first action of a body, so what it sees is the run's real start — after the
/// scheduler woke, the fire was claimed in the store (its sync to disk included) and the engine began the run.
struct NoteStart: ImmediateIntent {
    static let title = "Note start"
    @Parameter var scheduled: Date
    @Dependency var times: StartTimes

    func performNow(_ context: IntentContext) throws -> IntentResult<NoValue> {
        let latency = Date().timeIntervalSince(scheduled) * 1000
        times.latencies.withLock { $0.append(latency) }
        return .result()
    }
}

/// Runs automations every 100 ms on the real clock and returns the 99th percentile of body start − scheduled: on `store`,
/// or on a new SQLite file.
func fireLatency(seconds: Int, store given: (any RunStore)? = nil) async throws -> (p99: Double, samples: Int) {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("auto-bench-latency-\(getpid()).sqlite").path
    defer { for suffix in ["", "-wal", "-shm", ".lock"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
    let store: any RunStore = try given ?? SQLiteRunStore(path: path)
    let times = StartTimes()
    var registry = Registry.standard
    try registry.register(dependency: times)
    try registry.register(NoteStart.self)
    let source = (0..<5).map { "automation \"a\($0)\" every 100 milliseconds mode parallel 2 { note start scheduled: it }" }.joined(separator: "\n")
    let compiled = try ScriptCompiler.compile(SourceFile(name: "latency.auto", text: source), registry: registry).get()
    let loaded = LoadedAutomation.all(in: compiled, script: "latency.auto").map { ($0, IntervalSchedule(interval: .milliseconds(100)) as any FireSchedule) }
    let scheduler = Scheduler(store: store, clock: SystemClock(), logger: Logger(label: "bench") { _ in SwiftLogNoOpLogHandler() })
    try await scheduler.start()
    try await scheduler.load(loaded)
    try await Task.sleep(for: .seconds(seconds))
    await scheduler.stop(grace: .seconds(5))
    let latencies = times.latencies.withLock { $0 }.sorted()
    guard !latencies.isEmpty else { return (.nan, 0) }
    return (latencies[min(latencies.count - 1, latencies.count * 99 / 100)], latencies.count)
}

func idleDaemon(automations: Int) async throws
    -> (megabytes: Double, fileMegabytes: Double, anonymousMegabytes: Double, cpuMilliseconds: Double, automations: Int) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("auto-bench-daemon-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let script = (0..<automations).map { "automation \"yearly \($0)\" cron \"0 0 1 1 *\" { show \($0) }" }.joined(separator: "\n")
    try script.write(to: folder.appendingPathComponent("yearly.auto"), atomically: true, encoding: .utf8)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: autoBinary)
    process.arguments = ["daemon", folder.path, "--store", folder.appendingPathComponent("runs.sqlite").path]
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    defer { if process.isRunning { process.terminate(); process.waitUntilExit() } }
    // Until it says it started (or a minute has gone).
    var log = ""
    let deadline = ContinuousClock.now + .seconds(60)
    while !log.contains("daemon started"), ContinuousClock.now < deadline {
        let chunk = errors.fileHandleForReading.availableData
        if chunk.isEmpty { break }
        log += String(decoding: chunk, as: UTF8.self)
    }
    let pid = process.processIdentifier
    func cpuTicks() -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return .nan }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return (Double(fields[11]) ?? .nan) + (Double(fields[12]) ?? .nan)
    }
    let before = cpuTicks()
    try await Task.sleep(for: .seconds(2))
    let cpu = (cpuTicks() - before) * 1000 / Double(sysconf(Int32(_SC_CLK_TCK)))
    func kilobytes(_ field: String) -> Double { processStatusKilobytes(pid, field) ?? .nan }
    return (kilobytes("VmRSS") / 1024, kilobytes("RssFile") / 1024, kilobytes("RssAnon") / 1024, cpu, automations)
}
