import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What one run of the binary did.
public struct RunResult: Sendable {
    public enum Termination: Sendable, Equatable {
        case exited(Int32)
        case signaled(Int32)
        /// The harness could not start the process (its own problem, not the binary's).
        case notStarted(String)
    }

    /// One read from the child: when it arrived (seconds after the spawn) and how much.
    public struct Chunk: Sendable {
        public let time: Double
        public let isStandardOutput: Bool
        public let count: Int
    }

    public var termination: Termination
    /// What the child wrote, kept up to the capture limit (the counts in `chunks` are complete).
    public var standardOutput: [UInt8] = []
    public var standardError: [UInt8] = []
    public var chunks: [Chunk] = []
    /// Seconds from the spawn to the exit.
    public var wallTime: Double = 0
    /// The harness killed it at the hard deadline.
    public var killed = false

    /// The exit status as a shell shows it: 128 + n for a signal.
    public var shellStatus: Int32 {
        switch termination {
        case .exited(let code): return code
        case .signaled(let signal): return 128 + signal
        case .notStarted: return -1
        }
    }

    public var standardErrorText: String { String(decoding: standardError, as: UTF8.self) }

    /// Whether `standardOutput` holds everything the child wrote there (it may have written more than
    /// the capture limit).
    public var hasWholeStandardOutput: Bool {
        chunks.reduce(0) { $0 + ($1.isStandardOutput ? $1.count : 0) } == standardOutput.count
    }
    public var standardOutputText: String { String(decoding: standardOutput, as: UTF8.self) }
}

/// Runs a binary the way a shell would, without Foundation's `Process`: with `posix_spawn` the harness
/// chooses exactly what file descriptors 0 and 1 are (closed, /dev/null, a pipe with no reader), resets
/// the signals a shell resets (so SIGPIPE kills as it would from a terminal), and reads both pipes in one
/// `poll` loop, time-stamping every read — which is what the deadline oracle needs.
public enum ProcessRunner {
    public struct Request: Sendable {
        public var executable: String
        public var arguments: [String]
        public var environment: [String: String]
        public var input: RunConfiguration.Input
        /// Written to standard input when `input` is `.script`.
        public var inputBytes: [UInt8] = []
        public var output: RunConfiguration.Output
        /// Seconds after the spawn at which the process (group) is killed.
        public var hardDeadline: Double
        /// Bytes of each stream kept; a program that prints for ever must not fill the harness's memory.
        public var captureLimit = 8 << 20

        public init(executable: String, arguments: [String], environment: [String: String], input: RunConfiguration.Input,
                    output: RunConfiguration.Output, hardDeadline: Double) {
            self.executable = executable
            self.arguments = arguments
            self.environment = environment
            self.input = input
            self.output = output
            self.hardDeadline = hardDeadline
        }
    }

    static let spawnLock = NSLock()

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which Swift's Glibc module
    /// does not declare; nil where the C library lacks it.
    static let closeFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()

    /// Feeding a script to a child that has already died must not kill the harness.
    static let ignoreBrokenPipes: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

    static func makePipe(_ ends: inout [Int32]) -> Bool {
        guard pipe(&ends) == 0 else { return false }
        for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return true
    }

    /// Limits this process's address space, and so that of every child it spawns (they inherit it): a
    /// script that doubles a text until memory runs out then fails fast and alone, instead of pushing the
    /// machine into swap or the OOM killer. Set on the harness rather than through a `sh -c 'ulimit -v'`
    /// wrapper, which cost 9 ms a run. The harness itself needs a few hundred MiB.
    public static func limitAddressSpace(mebibytes: Int) {
        guard mebibytes > 0 else { return }
        var limit = rlimit()
        guard getrlimit(RLIMIT_AS_VALUE, &limit) == 0 else { return }
        limit.rlim_cur = min(rlim_t(mebibytes) << 20, limit.rlim_max)
        _ = setrlimit(RLIMIT_AS_VALUE, &limit)
    }

    static var RLIMIT_AS_VALUE: __rlimit_resource_t { __rlimit_resource_t(RLIMIT_AS.rawValue) }

    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// The child's pid and the harness's ends of its pipes (-1 where there is none).
    struct Spawned {
        let pid: pid_t
        let start: Double
        let out: Int32
        let err: Int32
        let input: Int32
    }

    public static func run(_ request: Request) -> RunResult {
        // Pipes are made and the child spawned under one lock, and every pipe end closes on exec: a child
        // the other worker spawns at the same moment must not inherit this run's ends, or they would stay
        // open (no end of file) until that other child exits. (Glibc's pipe2 is not visible from Swift.)
        spawnLock.lock()
        let spawned = spawn(request)
        spawnLock.unlock()
        switch spawned {
        case .failure(let reason):
            return RunResult(termination: .notStarted(reason.message))
        case .success(let child):
            var result = RunResult(termination: .exited(0))
            collect(pid: child.pid, start: child.start, request: request, out: child.out, err: child.err, input: child.input, into: &result)
            return result
        }
    }

    struct SpawnError: Error {
        let message: String
    }

    static func spawn(_ request: Request) -> Result<Spawned, SpawnError> {
        let argv = [request.executable] + request.arguments
        let path = request.executable
        var outPipe: [Int32] = [-1, -1], errPipe: [Int32] = [-1, -1], inPipe: [Int32] = [-1, -1]
        guard makePipe(&errPipe), makePipe(&outPipe), request.input != .script || makePipe(&inPipe) else {
            [outPipe, errPipe].joined().filter { $0 >= 0 }.forEach { close($0) }
            return .failure(SpawnError(message: "pipe: \(String(cString: strerror(errno)))"))
        }
        if request.output == .brokenPipe {
            close(outPipe[0])
            outPipe[0] = -1
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        switch request.input {
        case .empty: posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        case .closed: posix_spawn_file_actions_addclose(&actions, 0)
        case .script: posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
        }
        switch request.output {
        case .pipe, .brokenPipe: posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        case .closed: posix_spawn_file_actions_addclose(&actions, 1)
        }
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        // Nothing else: a file another thread has open for writing (without close-on-exec) would stay
        // open in this child — and a fake binary being written would be "busy" (ETXTBSY) while it runs.
        _ = closeFrom.map { $0(&actions, 3) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGINT, SIGTERM, SIGQUIT, SIGHUP, SIGCHLD, SIGALRM, SIGUSR1, SIGUSR2] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        // A process group of its own, so that a kill at the deadline reaches anything it started.
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP))

        let cArguments = argv.map { strdup($0) } + [nil]
        let cEnvironment = request.environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            cArguments.forEach { free($0) }
            cEnvironment.forEach { free($0) }
        }
        var pid: pid_t = 0
        let start = now()
        var status = posix_spawn(&pid, path, &actions, &attributes, cArguments, cEnvironment)
        // ETXTBSY: the executable was just written, and a process forked meanwhile (by another thread of
        // this program) still holds it open for writing until it execs. It passes in milliseconds.
        for _ in 0..<200 where status == ETXTBSY {
            usleep(5000)
            status = posix_spawn(&pid, path, &actions, &attributes, cArguments, cEnvironment)
        }
        close(outPipe[1])
        close(errPipe[1])
        if inPipe[0] >= 0 { close(inPipe[0]) }
        guard status == 0 else {
            [outPipe[0], errPipe[0], inPipe[1]].filter { $0 >= 0 }.forEach { close($0) }
            return .failure(SpawnError(message: "posix_spawn \(path): \(String(cString: strerror(status)))"))
        }
        return .success(Spawned(pid: pid, start: start, out: outPipe[0], err: errPipe[0], input: inPipe[1]))
    }

    /// Reads both pipes (and feeds stdin) until the child has exited and closed them, or kills it at the
    /// hard deadline.
    static func collect(pid: pid_t, start: Double, request: Request, out: Int32, err: Int32, input: Int32, into result: inout RunResult) {
        var open: [Int32: Bool] = [err: true]   // true: standard error
        if out >= 0 { open[out] = false }
        var writer = input
        var written = 0
        _ = ignoreBrokenPipes
        var buffer = [UInt8](repeating: 0, count: 65536)
        var status: Int32 = 0
        var exited = false
        while true {
            let elapsed = now() - start
            if elapsed > request.hardDeadline && !result.killed {
                kill(-pid, SIGKILL)
                kill(pid, SIGKILL)
                result.killed = true
            }
            if open.isEmpty && writer < 0 {
                // Both streams closed: wait for the exit, still watching the deadline (a child may close
                // its streams and go on running).
                let reaped = waitpid(pid, &status, result.killed ? 0 : WNOHANG)
                if reaped == pid { exited = true; break }
                if reaped < 0 && errno != EINTR { break }
                usleep(2000)
                continue
            }
            var fds = open.keys.sorted().map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            if writer >= 0 { fds.append(pollfd(fd: writer, events: Int16(POLLOUT), revents: 0)) }
            let wait = max(1, min(50, Int32((request.hardDeadline - elapsed) * 1000) + 1))
            let ready = poll(&fds, nfds_t(fds.count), result.killed ? 50 : wait)
            if ready < 0 && errno != EINTR { break }
            let time = now() - start
            for entry in fds where entry.revents != 0 {
                if entry.fd == writer {
                    let remaining = request.inputBytes.count - written
                    let count = remaining > 0 ? request.inputBytes[written...].withUnsafeBytes { write(writer, $0.baseAddress, min(remaining, 65536)) } : 0
                    if count > 0 { written += count }
                    if count < 0 && errno == EAGAIN { continue }
                    if count <= 0 || written >= request.inputBytes.count {
                        close(writer)
                        writer = -1
                    }
                    continue
                }
                let count = read(entry.fd, &buffer, buffer.count)
                if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
                guard count > 0 else {
                    close(entry.fd)
                    open[entry.fd] = nil
                    continue
                }
                let isError = open[entry.fd] == true
                result.chunks.append(RunResult.Chunk(time: time, isStandardOutput: !isError, count: count))
                if isError {
                    if result.standardError.count < request.captureLimit { result.standardError += buffer[0..<count] }
                } else if result.standardOutput.count < request.captureLimit {
                    result.standardOutput += buffer[0..<count]
                }
            }
        }
        if writer >= 0 { close(writer) }
        for fd in open.keys { close(fd) }
        result.wallTime = now() - start
        if !exited { waitpid(pid, &status, 0) }
        // WIFEXITED / WTERMSIG are C macros Swift can't see: the low 7 bits hold the signal, if any.
        let signal = status & 0x7F
        result.termination = signal == 0 ? .exited((status >> 8) & 0xFF) : .signaled(signal)
    }
}
