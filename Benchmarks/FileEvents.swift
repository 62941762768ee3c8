import AutoAutomation
import Foundation

#if canImport(Glibc)
import Glibc
#endif

// File triggers (issue 16, speed): the latency from a file written and closed to its run's start under the real
// `auto daemon`, beside inotifywait on the same events; bursts of files with and without `debounce` (each file run
// once, the time to the last run's end, the daemon's peak memory); and the start of a recursive watch of 10,000
// folders, in process, beside `inotifywait -r`.

@Sendable func fileEventsWorkload(_ options: Options, _ anchors: Anchors, _ notes: Notes) async throws -> [ResultRow] {
    let auto = autoBinary
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("auto-bench-fileevents-\(getpid())").path
    try? FileManager.default.removeItem(atPath: root)
    try FileManager.default.createDirectory(atPath: root + "/scripts", withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: root) }
    let inotifywait = which("inotifywait")
    let bench = FileEventsBench(auto: auto, root: root, inotifywait: inotifywait, quick: options.quick, notes: notes)

    var rows: [ResultRow] = []
    rows += bench.latency(files: options.quick ? 20 : 200)
    let burst = options.quick ? 1_000 : 10_000
    rows.append(bench.burst(files: burst, debounce: false))
    rows.append(bench.burst(files: burst, debounce: true))
    rows.append(bench.recursiveStart(outer: options.quick ? 10 : 100, inner: 100, repetitions: options.quick ? 1 : 5))
    return rows
}

/// The three parts of the workload, sharing the folder they work in and where the notes go.
struct FileEventsBench {
    let auto: String
    let root: String
    let inotifywait: String?
    let quick: Bool
    let notes: Notes

    /// How long anything the daemon does for one file may take before it counts as lost (a hang, not noise).
    static let eventDeadline: Duration = .seconds(10)

    // MARK: Latency

    /// Files made one at a time in a folder watched by the daemon (and by inotifywait), each waited for to its run's
    /// end; latency = the "run started" line read from the daemon's standard error − just before the file was made.
    func latency(files count: Int) -> [ResultRow] {
        func failed(_ reason: String) -> [ResultRow] {
            [ResultRow(workload: "file event to run started, p50", engine: .failed(reason), anchors: [], goal: .atMost(1, "≤ 1.0 ms (issue 35)")),
             ResultRow(workload: "file event to run started, p99", engine: .failed(reason), anchors: [], goal: .atMost(2, "≤ 2.0 ms (issue 35)"))]
        }
        let folder = root + "/latency"
        let store = root + "/latency.sqlite"
        let daemon: Child
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            // `mode queued`, as the recorded figures were measured: under the default `single`, a file made just after a
            // run's "run succeeded" line was rejected until the scheduler stored a run's end and stopped counting it in
            // one step.
            daemon = try startDaemon("latency", "automation \"latency\" when file created in \"\(folder)\" mode queued { show 1 }", store: store)
        } catch {
            return failed("\(error)")
        }
        defer { daemon.stop() }
        var watcher: Child?
        var anchorFailure: String?
        if let inotifywait {
            do {
                let child = try Child(inotifywait, ["-m", "-e", "close_write", "--format", "%w%f", folder], stdout: true)
                if child.stderr.first(from: 0, until: .now + .seconds(30), where: { $0.contains("Watches established") }) != nil {
                    watcher = child
                } else {
                    anchorFailure = "inotifywait did not start watching"
                    child.stop()
                }
            } catch {
                anchorFailure = "inotifywait: \(error)"
            }
        }
        defer { watcher?.stop() }

        var engine: [Double] = [], anchor: [Double] = []
        var made: [(path: String, wall: Date)] = []
        var lost: [String] = []
        var lostPath: String?
        var anchorMissed = 0
        // One untimed file first: the first run pays for what is done once (the engine's first use, the store's pages).
        for index in -1..<count {
            let path = folder + (index < 0 ? "/warm-up.txt" : "/f\(index).txt")
            let daemonMark = daemon.stderr.count, anchorMark = watcher?.stdout?.count ?? 0
            let wall = Date()
            let before = ContinuousClock.now
            do {
                try writeFile(path)
            } catch {
                lost.append("\(path) (not made: \(error))")
                break
            }
            guard let started = daemon.stderr.first(from: daemonMark, until: before + Self.eventDeadline, where: { $0.hasSuffix("] run started") })
            else {
                lost.append(path)
                lostPath = path
                break
            }
            if let stdout = watcher?.stdout {
                if let seen = stdout.first(from: anchorMark, until: before + Self.eventDeadline, where: { $0 == path }) {
                    if index >= 0 { anchor.append(milliseconds(seen.at - before)) }
                } else {
                    anchorMissed += 1
                }
            }
            guard daemon.stderr.first(from: started.index + 1, until: before + Self.eventDeadline, where: Self.isRunEnd) != nil else {
                lost.append("\(path) (its run did not end)")
                break
            }
            // The run's end is logged before the scheduler counts it ended: let the daemon go idle before the next file.
            usleep(20_000)
            if index >= 0 {
                engine.append(milliseconds(started.at - before))
                made.append((path, wall))
            }
        }
        daemon.stop()
        watcher?.stop()

        // The store's view of the same runs: each file run once, and `started` (to the millisecond) − the wall time.
        var fromStore: [Double] = []
        do {
            let runs = try SQLiteRunStore(path: store).runs(of: "latency", limit: count * 2 + 10)
            var byFile: [String: [RunRecord]] = [:]
            for run in runs { for file in run.files { byFile[file, default: []].append(run) } }
            for (path, wall) in made {
                let records = byFile[path] ?? []
                if records.count != 1 { notes.mismatch("fileevents: \(path) has \(records.count) runs in the store, not 1") }
                if let started = records.first?.started { fromStore.append(started.timeIntervalSince(wall) * 1000) }
            }
            // What became of a file whose run never started: rejected by the automation's mode, or never delivered.
            if let lostPath {
                let records = byFile[lostPath] ?? []
                notes.add("fileevents: the store has \(records.count) runs of \(lostPath)"
                    + records.map { "; \($0.outcome.rawValue)\($0.message.map { " (\($0))" } ?? "")" }.joined())
            }
        } catch {
            notes.mismatch("fileevents: the latency run store can't be read: \(error)")
        }
        if !lost.isEmpty {
            notes.mismatch("fileevents: no run for \(lost.first ?? "?") within \(Self.eventDeadline) (latency, after \(engine.count) files)")
            daemon.stderr.tail(5).forEach { notes.add("daemon log: \($0)") }
        }
        guard !engine.isEmpty else { return failed("no run started") }

        let anchorP50: Timing, anchorP99: Timing
        if inotifywait == nil {
            anchorP50 = .notInstalled("inotifywait"); anchorP99 = .notInstalled("inotifywait")
        } else if let anchorFailure {
            anchorP50 = .failed(anchorFailure); anchorP99 = .failed(anchorFailure)
        } else if anchor.isEmpty {
            anchorP50 = .failed("no line seen"); anchorP99 = .failed("no line seen")
        } else {
            anchorP50 = .milliseconds(percentile(anchor, 50)); anchorP99 = .milliseconds(percentile(anchor, 99))
        }
        if anchorMissed > 0 { notes.add("fileevents: inotifywait printed no line for \(anchorMissed) of the files") }
        let anchorName = "inotifywait -m -e close_write"
        notes.add("fileevents latency: `auto daemon` (release, a SQLite store) on `automation \"latency\" when file created in \"…\" "
            + "mode queued { show 1 }`; \(engine.count) files made one at a time (open, write 2 bytes, close), each after its predecessor's "
            + "run ended and 20 ms more, after one untimed file (`mode queued`, as the recorded figures were measured: under `single` a file "
            + "made just after the previous run's \"run succeeded\" line was rejected until the scheduler stored a run's end and stopped "
            + "counting it in one step). Latency = the moment the daemon's \"run started\" line is read from its standard error − just "
            + "before the file was opened: that line is logged after the run's claim is committed (its sync to disk included), just "
            + "before the engine starts, and it is read by a thread of the benchmark blocked on the pipe, so the figure is exact "
            + "(the line's own timestamp is to the second). The store's `started`, taken before the claim's transaction, to the "
            + "millisecond: " + (fromStore.isEmpty ? "not read" : String(format: "p50 %.0f ms, p99 %.0f ms", percentile(fromStore, 50), percentile(fromStore, 99)))
            + ". Anchor: `\(anchorName) --format '%w%f'` on the same folder in the same run, from the same instant to its line on "
            + "its standard output; inotify's own floor, with no run store and no engine.")
        return [
            ResultRow(workload: "file event to run started, p50 (\(engine.count) files)", engine: .milliseconds(percentile(engine, 50)),
                      anchors: [(anchorName, anchorP50)], goal: .atMost(1, "≤ 1.0 ms (issue 35)")),
            ResultRow(workload: "file event to run started, p99", engine: .milliseconds(percentile(engine, 99)),
                      anchors: [(anchorName, anchorP99)], goal: .atMost(2, "≤ 2.0 ms (issue 35)")),
        ]
    }

    // MARK: Bursts

    /// `count` files made as fast as possible in a folder the daemon watches; every one must be run, none twice.
    func burst(files count: Int, debounce: Bool) -> ResultRow {
        let label = "burst of \(grouped(count)) files, " + (debounce ? "debounce 1 second" : "a run each")
        let goal = Goal(text: "every one, none twice", limit: nil)
        let name = debounce ? "burst-debounce" : "burst"
        let folder = root + "/" + name
        let store = root + "/\(name).sqlite"
        let daemon: Child
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            daemon = try startDaemon(name, "automation \"\(name)\" when file created in \"\(folder)\" \(debounce ? "debounce 1 second " : "")"
                                     + "mode queued \(count) { show 1 }", store: store)
        } catch {
            return ResultRow(workload: label, engine: .failed("\(error)"), anchors: [], goal: goal)
        }
        defer { daemon.stop() }

        let mark = daemon.stderr.count
        let first = ContinuousClock.now
        var expected: [String] = []
        expected.reserveCapacity(count)
        for index in 0..<count {
            let path = folder + "/f\(index).txt"
            do {
                try writeFile(path)
            } catch {
                notes.mismatch("fileevents: \(path) could not be made: \(error)")
                break
            }
            expected.append(path)
        }
        let lastMade = ContinuousClock.now
        let made = milliseconds(lastMade - first)

        // Until runs have ended for as many files as were made, then a while longer, so that a file run twice shows.
        let deadline = first + .seconds(quick ? 60 : 600)
        var index = mark, endedFiles = 0, endedRuns = 0
        var lastEnd: ContinuousClock.Instant?, firstStart: ContinuousClock.Instant?
        var longest = 0
        func take(_ line: Line) {
            if firstStart == nil, line.text.hasSuffix("] run started") { firstStart = line.at }
            guard Self.isRunEnd(line.text) else { return }
            longest = max(longest, Self.took(in: line.text))
            endedRuns += 1
            endedFiles += Self.files(in: line.text)
            lastEnd = line.at
        }
        while endedFiles < expected.count, let line = daemon.stderr.line(index, until: deadline) {
            index += 1
            take(line)
        }
        let settle = ContinuousClock.now + (debounce ? .milliseconds(2_500) : .milliseconds(500))
        while let line = daemon.stderr.line(index, until: settle) {
            index += 1
            take(line)
        }
        let peak = daemon.kilobytes("VmHWM").map { $0 / 1024 }
        daemon.stop()

        var seen: [String: Int] = [:]
        var outcomes: [String: Int] = [:]
        var runs = 0, rescanned = 0
        do {
            let records = try SQLiteRunStore(path: store).runs(of: name, limit: count * 3 + 10)
            for record in records {
                outcomes[record.outcome.rawValue, default: 0] += 1
                if record.fromRescan { rescanned += 1 }
                guard record.outcome == .succeeded else { continue }
                runs += 1
                for file in record.files { seen[file, default: 0] += 1 }
            }
        } catch {
            notes.mismatch("fileevents: the \(name) run store can't be read: \(error)")
        }
        let lost = expected.filter { seen[$0] == nil }
        let doubled = seen.filter { $0.value > 1 }.keys.sorted()
        let strangers = Set(seen.keys).subtracting(expected).sorted()
        let delivered = seen.values.reduce(0, +)
        if !lost.isEmpty || !doubled.isEmpty || !strangers.isEmpty {
            notes.mismatch("fileevents \(name): \(lost.count) of \(expected.count) files never run (e.g. \(lost.prefix(3).joined(separator: ", "))), "
                + "\(doubled.count) run more than once (e.g. \(doubled.prefix(3).joined(separator: ", "))), \(strangers.count) unknown; "
                + "\(delivered) files in \(runs) succeeded runs; outcomes \(outcomes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))"
                + (endedFiles < expected.count ? "; the daemon's log showed runs for \(endedFiles) files before the deadline" : ""))
            daemon.stderr.tail(5).forEach { notes.add("daemon log: \($0)") }
        }
        if rescanned > 0 { notes.add("fileevents \(name): \(rescanned) runs had files found by a rescan (the kernel's queue overflowed)") }
        let unsuccessful = outcomes.filter { $0.key != RunOutcomeKind.succeeded.rawValue }
        if !unsuccessful.isEmpty {
            notes.add("fileevents \(name): runs that did not succeed: \(unsuccessful.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))")
        }
        guard let lastEnd else { return ResultRow(workload: label, engine: .failed("no run ended"), anchors: [], goal: goal) }
        let total = milliseconds(lastEnd - first)
        let verdict = lost.isEmpty && doubled.isEmpty && strangers.isEmpty ? "every file once" : "\(lost.count) lost, \(doubled.count) twice"
        let peakText = peak.map { String(format: "peak %.1f MB", $0) } ?? "peak unknown"
        notes.add("fileevents \(name): \(grouped(expected.count)) files made as fast as one thread can (open, write 2 bytes, close) under `when file created in \"…\" \(debounce ? "debounce 1 second " : "")mode queued \(count) { show 1 }`; the time is from "
            + "the first file to the daemon's \"run succeeded\" line of the last run, read as it came; every file is checked "
            + "in the store (each succeeded run's files, as a set and a count); peak = the daemon's VmHWM. From the first file: the last "
            + "made at \(formatMilliseconds(made)), the first run started at "
            + (firstStart.map { formatMilliseconds(milliseconds($0 - first)) } ?? "never") + "; the longest run took \(longest) ms (its log's `took`).")
        return ResultRow(workload: label, engine: .milliseconds(total),
                         engineText: String(format: "%.2f s to the last run's end", total / 1000) + "; \(grouped(runs)) run\(runs == 1 ? "" : "s"), \(verdict); \(peakText)",
                         anchors: [], goal: goal, scaled: quick)
    }

    // MARK: Recursive start

    /// `FileEventWatcher` on a tree of outer × inner folders, recursive, from init to return (it watches and reads
    /// every folder before it returns), beside `inotifywait -r` from spawn to "Watches established.".
    func recursiveStart(outer: Int, inner: Int, repetitions: Int) -> ResultRow {
        let tree = root + "/tree"
        let folders = outer * inner + outer
        let label = "recursive watch of \(grouped(folders)) folders, start"
        let goal = Goal.atMost(1000, "≤ 1 s")
        defer { try? FileManager.default.removeItem(atPath: tree) }
        for folder in [tree] + (0..<outer).flatMap({ i in ["\(tree)/d\(i)"] + (0..<inner).map { "\(tree)/d\(i)/d\($0)" } }) {
            guard mkdir(folder, 0o755) == 0 else {
                return ResultRow(workload: label, engine: .failed("\(folder) could not be made: \(String(cString: strerror(errno)))"), anchors: [], goal: goal)
            }
        }
        var samples: [Double] = []
        var failure: String?
        for repetition in 0..<repetitions {
            let start = ContinuousClock.now
            do {
                let watcher = try FileEventWatcher(WatchSpec(folder: tree, recursive: true), events: { _ in }, status: { _ in })
                samples.append(milliseconds(ContinuousClock.now - start))
                if repetition == 0 {
                    let known = watcher.snapshot.entries.values.filter(\.isFolder).count
                    if known != folders { notes.mismatch("fileevents: the recursive watch knows \(known) folders, not \(folders)") }
                }
                watcher.stop()
            } catch {
                failure = "\(error)"
                break
            }
        }
        var anchor: Timing = .notInstalled("inotifywait")
        if let inotifywait {
            var times: [Double] = []
            for _ in 0..<repetitions {
                let start = ContinuousClock.now
                guard let child = try? Child(inotifywait, ["-r", "-m", "-e", "close_write", tree], stdout: true) else {
                    anchor = .failed("inotifywait did not start")
                    break
                }
                let ready = child.stderr.first(from: 0, until: start + .seconds(60), where: { $0.contains("Watches established") })
                child.stop()
                guard let ready else {
                    anchor = .failed("inotifywait: \(child.stderr.tail(1).first ?? "no 'Watches established.'")")
                    break
                }
                times.append(milliseconds(ready.at - start))
            }
            if times.count == repetitions { anchor = .milliseconds(median(times)) }
        }
        notes.add("fileevents recursive: FileEventWatcher(WatchSpec(folder:, recursive: true)) in process on a tree of \(outer) × \(inner) "
            + "folders (\(folders) and the top), from init to return — it adds an inotify watch to each folder and lists it before it "
            + "returns — median of \(repetitions), the tree just made (its entries cached); anchor: `inotifywait -r -m` from spawn "
            + "to its \"Watches established.\" (it adds the same watches and lists each folder, as a process).")
        if let failure {
            return ResultRow(workload: label, engine: .failed(failure), anchors: [("inotifywait -r, spawn to watching", anchor)], goal: goal)
        }
        return ResultRow(workload: label, engine: .milliseconds(median(samples)), anchors: [("inotifywait -r, spawn to watching", anchor)],
                         goal: goal, scaled: outer * inner != 10_000)
    }

    // MARK: The daemon

    /// `auto daemon SCRIPT --store STORE`, once it has said "daemon started" (or an error saying why not).
    func startDaemon(_ name: String, _ script: String, store: String) throws -> Child {
        let path = root + "/scripts/\(name).auto"
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        guard FileManager.default.isExecutableFile(atPath: auto) else {
            throw BenchError("no auto beside auto-bench (build it with swift build -c release --product auto)")
        }
        let daemon = try Child(auto, ["daemon", path, "--store", store, "--grace", "1s", "--keep", "1000000"], stdout: false)
        guard daemon.stderr.first(from: 0, until: .now + .seconds(60), where: { $0.hasSuffix("] daemon started") }) != nil else {
            let said = daemon.stderr.tail(3).joined(separator: " / ")
            daemon.stop()
            notes.mismatch("fileevents: the daemon did not start: \(said)")
            throw BenchError("the daemon did not start")
        }
        return daemon
    }

    static func isRunEnd(_ line: String) -> Bool {
        line.hasSuffix("] run succeeded") || line.hasSuffix("] run failed") || line.hasSuffix("] run cancelled")
    }

    /// The `took=N ms` of a run's log line.
    static func took(in line: String) -> Int {
        guard let range = line.range(of: " took=") else { return 0 }
        return Int(line[range.upperBound...].prefix { $0.isNumber }) ?? 0
    }

    /// The `files=N` of a run's log line.
    static func files(in line: String) -> Int {
        guard let range = line.range(of: " files=") else { return 0 }
        return Int(line[range.upperBound...].prefix { $0.isNumber }) ?? 0
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The `percent`th percentile, as the schedule workload takes it: the sample at count × percent / 100 in order.
func percentile(_ samples: [Double], _ percent: Int) -> Double {
    let sorted = samples.sorted()
    return sorted[min(sorted.count - 1, sorted.count * percent / 100)]
}

/// 10000 as "10,000".
func grouped(_ number: Int) -> String {
    let digits = Array(String(number.magnitude))
    var text = ""
    for (index, digit) in digits.enumerated() {
        if index > 0, (digits.count - index) % 3 == 0 { text.append(",") }
        text.append(digit)
    }
    return (number < 0 ? "-" : "") + text
}

/// A file made, written and closed, as a program saving it would: open, write, close.
func writeFile(_ path: String) throws {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw BenchError("open \(path): \(String(cString: strerror(errno)))") }
    let written = "1\n".withCString { write(descriptor, $0, 2) }
    let code = errno
    close(descriptor)
    guard written == 2 else { throw BenchError("write \(path): \(String(cString: strerror(code)))") }
}

// MARK: - Processes and their lines

/// A line a child printed, and when the benchmark read it.
struct Line: Sendable {
    let index: Int
    let at: ContinuousClock.Instant
    let text: String
}

/// The lines of a pipe, each stamped as it is read, by a thread of its own blocked on the pipe.
final class LineStream: @unchecked Sendable {
    private let condition = NSCondition()
    private var lines: [(at: ContinuousClock.Instant, text: String)] = []
    private var closed = false
    private var stopping = false
    private let descriptor: Int32

    init(descriptor: Int32) {
        self.descriptor = descriptor
        let thread = Thread { [self] in readLoop() }
        thread.stackSize = 1 << 20
        thread.start()
    }

    var count: Int {
        condition.lock()
        defer { condition.unlock() }
        return lines.count
    }

    /// The line at `index`, waiting for it until `deadline`; nil when the pipe closed or time ran out first.
    func line(_ index: Int, until deadline: ContinuousClock.Instant) -> Line? {
        condition.lock()
        defer { condition.unlock() }
        while lines.count <= index {
            let left = deadline - .now
            if closed || left <= .zero { return nil }
            _ = condition.wait(until: Date().addingTimeInterval(min(Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18, 0.25)))
        }
        return Line(index: index, at: lines[index].at, text: lines[index].text)
    }

    /// The first line from `index` on that `match` takes.
    func first(from index: Int, until deadline: ContinuousClock.Instant, where match: (String) -> Bool) -> Line? {
        var index = index
        while let line = line(index, until: deadline) {
            if match(line.text) { return line }
            index += 1
        }
        return nil
    }

    func tail(_ count: Int) -> [String] {
        condition.lock()
        defer { condition.unlock() }
        return lines.suffix(count).map(\.text)
    }

    /// Stops reading (the reader closes the descriptor) once the child is gone.
    func stop() {
        condition.lock()
        stopping = true
        condition.unlock()
    }

    private func readLoop() {
        var pending: [UInt8] = []
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 8)
        defer {
            buffer.deallocate()
            close(descriptor)
            condition.lock()
            closed = true
            condition.broadcast()
            condition.unlock()
        }
        while true {
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let polled = poll(&ready, 1, 100)
            if polled < 0 && errno != EINTR { return }
            if polled <= 0 {
                condition.lock()
                let stop = stopping
                condition.unlock()
                if stop { return }
                continue
            }
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            let now = ContinuousClock.now
            var complete: [String] = []
            for byte in UnsafeRawBufferPointer(rebasing: buffer[0..<count]) {
                if byte == UInt8(ascii: "\n") {
                    complete.append(String(decoding: pending, as: UTF8.self))
                    pending.removeAll(keepingCapacity: true)
                } else {
                    pending.append(byte)
                }
            }
            guard !complete.isEmpty else { continue }
            condition.lock()
            for text in complete { lines.append((now, text)) }
            condition.broadcast()
            condition.unlock()
        }
    }
}

/// A program started with posix_spawn, its standard error (and output, if asked) read line by line; `stop` ends it
/// with SIGTERM, then SIGKILL if it has not gone within a few seconds. Stopped on deinit too.
final class Child: @unchecked Sendable {
    let pid: pid_t
    let stderr: LineStream
    let stdout: LineStream?
    private var stopped = false

    init(_ executable: String, _ arguments: [String], stdout captureOutput: Bool) throws {
        var errorPipe: [Int32] = [-1, -1], outputPipe: [Int32] = [-1, -1]
        // Close-on-exec, so that a later child doesn't hold this one's pipe open (pipe2 is not imported; nothing else
        // spawns meanwhile).
        func makePipe(_ ends: inout [Int32]) -> Bool {
            guard pipe(&ends) == 0 else { return false }
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            return true
        }
        guard makePipe(&errorPipe) else { throw BenchError("pipe: \(String(cString: strerror(errno)))") }
        if captureOutput, !makePipe(&outputPipe) {
            close(errorPipe[0]); close(errorPipe[1])
            throw BenchError("pipe: \(String(cString: strerror(errno)))")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if captureOutput {
            posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, errorPipe[1], 2)
        // No signal blocked and SIGTERM, SIGINT at their defaults: the spawning thread's mask (the Swift runtime's
        // threads block some) would otherwise be the child's, and a SIGTERM would wait for the SIGKILL.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), defaults = sigset_t()
        sigemptyset(&none)
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGTERM)
        sigaddset(&defaults, SIGINT)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let code = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        close(errorPipe[1])
        if captureOutput { close(outputPipe[1]) }
        guard code == 0 else {
            close(errorPipe[0])
            if captureOutput { close(outputPipe[0]) }
            throw BenchError("\(executable) did not start: \(String(cString: strerror(code)))")
        }
        self.pid = pid
        stderr = LineStream(descriptor: errorPipe[0])
        stdout = captureOutput ? LineStream(descriptor: outputPipe[0]) : nil
    }

    deinit {
        stop()
    }

    /// A field of /proc/PID/status in kB (VmHWM, VmRSS), while the child runs.
    func kilobytes(_ field: String) -> Double? {
        processStatusKilobytes(pid, field)
    }

    /// SIGTERM, up to five seconds to go, then SIGKILL; reaped either way. Once.
    func stop() {
        guard !stopped else { return }
        stopped = true
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == 0 {
            kill(pid, SIGTERM)
            let deadline = ContinuousClock.now + .seconds(5)
            while waitpid(pid, &status, WNOHANG) == 0 {
                if ContinuousClock.now > deadline {
                    kill(pid, SIGKILL)
                    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
                    break
                }
                usleep(10_000)
            }
        }
        stderr.stop()
        stdout?.stop()
    }
}
