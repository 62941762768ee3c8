import AutoIntents
import AutoLanguage
import AutoRuntime
import Foundation

// The REPL's two figures of DESIGN.md §5: how long from exec until `auto repl` waits for input on a terminal,
// beside Python's REPL; and the 99th percentile of a completion, over entries of every kind, with 1,000
// registered intents and the benchmark's book type.

/// Spawns `executable` on a new pseudo-terminal and returns the milliseconds until `prompt` appears on it.
func untilPrompt(_ executable: String, _ arguments: [String], prompt: String, environment: [String: String]) -> Double? {
    var master: Int32 = -1, slave: Int32 = -1
    guard openpty(&master, &slave, nil, nil, nil) == 0 else { return nil }
    // A read that waits at most until the deadline: a program that never shows its prompt must not hang the run.
    _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
    defer { close(master) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for descriptor in Int32(0)...2 { posix_spawn_file_actions_adddup2(&actions, slave, descriptor) }
    posix_spawn_file_actions_addclose(&actions, master)
    let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var merged = ProcessInfo.processInfo.environment
    for (key, value) in environment { merged[key] = value }
    let envp: [UnsafeMutablePointer<CChar>?] = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in envp { free(pointer) } }
    // A session of its own, as a terminal emulator starts a shell: the pseudo-terminal is then nobody's
    // controlling terminal but the child's business, and job control never stops it.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    posix_spawnattr_setflags(&attributes, 0x80)  // POSIX_SPAWN_SETSID (glibc 2.26), which Swift does not import
    var pid: pid_t = 0
    let start = ContinuousClock.now
    guard posix_spawn(&pid, executable, &actions, &attributes, argv, envp) == 0 else {
        close(slave)
        return nil
    }
    close(slave)
    var seen = ""
    var elapsed: Double?
    var buffer = [UInt8](repeating: 0, count: 4096)
    let deadline = ContinuousClock.now + .seconds(10)
    while ContinuousClock.now < deadline {
        var ready = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        guard poll(&ready, 1, 100) >= 0 || errno == EINTR else { break }
        let count = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
        if count < 0, errno == EAGAIN || errno == EINTR { continue }
        if count <= 0 { break }
        seen += String(decoding: buffer[..<count], as: UTF8.self)
        if seen.contains(prompt) {
            elapsed = milliseconds(ContinuousClock.now - start)
            break
        }
    }
    kill(pid, SIGKILL)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    return elapsed
}

@Sendable func replWorkload(_ options: Options, _ anchors: Anchors, _ notes: Notes) async throws -> [ResultRow] {
    let auto = autoBinary
    let state = FileManager.default.temporaryDirectory.appendingPathComponent("auto-bench-repl").path

    func ready(_ executable: String?, _ arguments: [String], prompt: String, _ program: String) -> Timing {
        guard let executable, FileManager.default.isExecutableFile(atPath: executable) else { return .notInstalled(program) }
        let environment = ["XDG_STATE_HOME": state, "TERM": "xterm", "PYTHONSTARTUP": "", "NO_COLOR": "1"]
        guard untilPrompt(executable, arguments, prompt: prompt, environment: environment) != nil else { return .failed("\(program): no prompt") }
        var samples: [Double] = []
        for _ in 0..<options.starts {
            guard let elapsed = untilPrompt(executable, arguments, prompt: prompt, environment: environment) else { return .failed("\(program): no prompt") }
            samples.append(elapsed)
        }
        return .milliseconds(median(samples))
    }
    let engine = ready(auto, ["repl"], prompt: "auto> ", "auto (build it with swift build -c release --product auto)")
    let python = ready(anchors.python3, ["-i", "-q"], prompt: ">>> ", "python3")

    // Completion: 1,000 intents beside the standard ones, and the benchmark's book entity.
    var registry = try benchRegistry()
    for index in 0..<1_000 {
        try registry.add(IntentDescriptor(
            title: "Do task \(index)", parameters: [ParameterInfo(name: "count", type: .int, isRequired: false), ParameterInfo(name: "label", type: .text, isRequired: false)],
            outputType: .null, implementation: .immediate { _, _ in IntentOutput(value: .null) }))
    }
    try registry.register(query: InMemoryBooks(books: makeBooks(options.rows)))
    let completer = Completer(registry: registry, scope: SessionScope(variables: [("args", .list(.text)), ("total", .int)], itType: .null))
    let entries = ["do task 4", "find books where au", "find books where author == \"A\" and ra", "find books sort by pub",
                   "do task 17 la", "sh", "to", "today.mon", "set x = cou", "find books | count by ti",
                   "show first(find books where rating > 3).au"]
    var samples: [Double] = []
    var offered = 0
    for _ in 0..<max(1, options.repetitions * 20) {
        for entry in entries {
            let start = ContinuousClock.now
            offered += completer.complete(entry, cursor: entry.utf8.count).candidates.count
            samples.append(milliseconds(ContinuousClock.now - start))
        }
    }
    samples.sort()
    let p99 = samples[min(samples.count - 1, samples.count * 99 / 100)]
    if offered == 0 { notes.mismatch("completion: no entry was offered anything") }
    notes.add("repl: from posix_spawn until the prompt is on the pseudo-terminal, median of \(options.starts) after one untimed start; "
        + "`auto repl` (libedit, history in a fresh folder) beside `python3 -i -q` (its REPL, `>>> `).")
    notes.add("completion: \(samples.count) completions at the end of \(entries.count) entries (intent names among 1,000 more, "
        + "labels, properties after where/and/sort by/count by, after '.' on a path and on a call the checker types, variables), one registry, `Completer.complete` timed alone.")
    return [
        ResultRow(workload: "REPL ready for input", engine: engine, anchors: [("Python 3 (python3 -i)", python)], goal: .atMost(20, "≤ 20 ms")),
        ResultRow(workload: "completion p99, 1,000 intents", engine: .milliseconds(p99), anchors: [], goal: .atMost(2, "≤ 2 ms")),
    ]
}
