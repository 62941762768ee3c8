import CLinux
import Foundation
import Logging
import PostgresNIO
import Synchronization

/// A real PostgreSQL server for the tests of this process: one cluster, started in a temporary folder the first time
/// a test asks for a database, on a free port of 127.0.0.1, and stopped when the process ends — by an `atexit`
/// handler, and by a watcher process started beside it for when the tests are killed, so that no run leaves a server
/// behind. Each test gets a database of its own. A test that stops or restarts its server has one of its own
/// (`privateServer`), which the other tests, running at the same time, never see go away.
///
/// PostgreSQL refuses to run as root: as root, its programs run as the `postgres` user (which Debian's package
/// makes), in a folder that user owns.
package final class PostgresServer: Sendable {
    package let folder: String
    package let port: Int
    private let binaries: String
    /// The user the server's programs run as when this process is root; nil: this process's.
    private let user: String?
    /// Whether it syncs its commits to disk, as a production server does (the benchmarks'); the tests' doesn't.
    private let durable: Bool

    /// The server, started by the first test that asks; what went wrong, for every test, when it can't be.
    private static let shared = Result { try PostgresServer.start() }
    /// Every server started, stopped by the `atexit` handler when the tests end.
    private static let started = Mutex<[PostgresServer]>([])

    /// Started on a thread of its own, not on the tests' cooperative pool: starting runs and waits for programs, and
    /// Foundation learns that a program ended on a dispatch thread, which a pool whose threads all wait (for the
    /// start, in the other tests) would never get.
    package static func running() async throws -> PostgresServer {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: shared) }.start()
        }
    }

    /// A server of the calling test's own, for a test that stops or restarts it; `stop()` it at the end (the `atexit`
    /// handler stops it otherwise).
    /// `durable`: it syncs each commit to disk, for figures that count what that costs.
    package static func privateServer(durable: Bool = false) async throws -> PostgresServer {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try PostgresServer.start(durable: durable) }) }.start()
        }
    }

    /// A URL to a new, empty database of the tests' shared server.
    package static func database() async throws -> String {
        try await running().newDatabase()
    }

    /// A URL to a new, empty database of this server's.
    package func newDatabase() async throws -> String {
        let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased()
        _ = try await withConnection(to: "postgres") { connection in
            try await connection.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), logger: Self.logger)
        }
        return url(of: name)
    }

    package func url(of database: String) -> String { "postgres://postgres@127.0.0.1:\(port)/\(database)" }

    /// A connection of the caller's own to one of the server's databases, which the caller closes.
    package func connect(to database: String) async throws -> PostgresConnection {
        let configuration = PostgresConnection.Configuration(host: "127.0.0.1", port: port, username: "postgres", password: nil,
                                                             database: database, tls: .disable)
        return try await PostgresConnection.connect(configuration: configuration, id: 1, logger: Self.logger)
    }

    /// A connection of the tests' own, for what they do behind a store's back.
    package func withConnection<T: Sendable>(to database: String, _ work: (PostgresConnection) async throws -> T) async throws -> T {
        let connection = try await connect(to: database)
        do {
            let result = try await work(connection)
            try await connection.close()
            return result
        } catch {
            try? await connection.close()
            throw error
        }
    }

    package static let logger = Logger(label: "auto.tests.postgres", factory: { _ in SwiftLogNoOpLogHandler() })

    // MARK: Starting and stopping

    private init(folder: String, port: Int, binaries: String, user: String?, durable: Bool) {
        self.durable = durable
        self.folder = folder
        self.port = port
        self.binaries = binaries
        self.user = user
    }

    private static func start(durable: Bool = false) throws -> PostgresServer {
        let started = ContinuousClock.now
        guard let binaries = findBinaries() else {
            throw Failure("PostgreSQL is not installed: no initdb and pg_ctl under /usr/lib/postgresql/*/bin or on PATH. "
                          + ".ci/setup installs it (Debian's postgresql package); the run store's tests need a real server.")
        }
        let user = geteuid() == 0 ? "postgres" : nil
        // Not $TMPDIR as root: the postgres user must be able to reach the folder.
        let parent = user == nil ? NSTemporaryDirectory() : "/tmp"
        let folder = (parent as NSString).appendingPathComponent("auto-pg-\(UUID().uuidString.prefix(8).lowercased())")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        if let user {
            guard let entry = getpwnam(user) else {
                throw Failure("PostgreSQL can't run as root, and there is no user \(user) to run it as; .ci/setup's postgresql package makes one")
            }
            guard chown(folder, entry.pointee.pw_uid, entry.pointee.pw_gid) == 0 else {
                throw Failure("can't give \(folder) to \(user): \(String(cString: strerror(errno)))")
            }
        }
        var server = PostgresServer(folder: folder, port: 0, binaries: binaries, user: user, durable: durable)
        try server.run("initdb", ["-D", server.data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C", "--no-sync"])
        // A port that was free a moment ago may be taken by the time the server binds it: another one then.
        var failures: [String] = []
        for _ in 0..<5 {
            server = PostgresServer(folder: folder, port: try LoopbackPort.unused(), binaries: binaries, user: user, durable: durable)
            do {
                try server.run("pg_ctl", ["-D", server.data, "-l", server.log, "-o", server.options, "-w", "-t", "60", "start"])
                server.stopAtExit()
                let took = ContinuousClock.now - started
                let milliseconds = took.components.seconds * 1000 + took.components.attoseconds / 1_000_000_000_000_000
                FileHandle.standardError.write(Data("PostgreSQL for the tests on 127.0.0.1:\(server.port), started in \(milliseconds) ms\n".utf8))
                return server
            } catch {
                failures.append("\(error)")
            }
        }
        try? FileManager.default.removeItem(atPath: folder)
        throw Failure("PostgreSQL didn't start on any of 5 ports:\n" + failures.joined(separator: "\n"))
    }

    private var data: String { folder + "/pg" }
    private var log: String { folder + "/server.log" }
    /// Only on loopback, its socket in the folder; `fsync=off` unless durable: the tests check what is kept, not that it
    /// survives the machine's crash, and the disk here syncs some 300 times a second.
    private var options: String {
        "-p \(port) -k \(folder) -c listen_addresses=127.0.0.1 -c max_connections=300" + (durable ? "" : " -c fsync=off")
    }

    /// Stops it as a crash would, and starts it again on the same port: for tests of a store that loses its server.
    /// On a thread of its own, as the start is (`running`).
    package func restart() async throws {
        try await onItsOwnThread { try self.run("pg_ctl", ["-D", self.data, "-l", self.log, "-o", self.options, "-m", "immediate", "-w", "-t", "60", "restart"]) }
    }

    /// Stops it as a crash would, and keeps it as it is until `resume`: for tests of a daemon whose server is down.
    package func halt() async throws {
        try await onItsOwnThread { try self.run("pg_ctl", ["-D", self.data, "-m", "immediate", "-w", "stop"]) }
    }

    /// Starts a server `halt` stopped, on the same port.
    package func resume() async throws {
        try await onItsOwnThread { try self.run("pg_ctl", ["-D", self.data, "-l", self.log, "-o", self.options, "-w", "-t", "60", "start"]) }
    }

    /// Stops a private server for good and removes its folder.
    package func stop() async {
        try? await onItsOwnThread { try self.run("pg_ctl", ["-D", self.data, "-m", "immediate", "-w", "stop"]) }
        try? FileManager.default.removeItem(atPath: folder)
    }

    private func onItsOwnThread(_ work: @escaping @Sendable () throws -> Void) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }

    /// At the end of this process, and by a watcher for when it is killed instead (it ignores the signals a terminal or
    /// a test runner sends a process group, and runs in a session of its own).
    private func stopAtExit() {
        let stop = command("pg_ctl", ["-D", data, "-m", "immediate", "stop"]).map(Self.quoted).joined(separator: " ")
        let script = """
            trap '' INT TERM HUP
            while kill -0 \(getpid()) 2>/dev/null; do sleep 1; done
            \(stop) >/dev/null 2>&1
            rm -rf \(Self.quoted(folder))
            """
        let setsid = "/usr/bin/setsid"
        let line = FileManager.default.isExecutableFile(atPath: setsid) ? [setsid, "/bin/sh", "-c", script] : ["/bin/sh", "-c", script]
        // Not waited for: it ends after this process.
        _ = try? Self.start(line, output: "/dev/null")
        let first = Self.started.withLock { started in
            started.append(self)
            return started.count == 1
        }
        guard first else { return }
        atexit {
            for server in PostgresServer.started.withLock({ $0 }) where FileManager.default.fileExists(atPath: server.folder) {
                try? server.run("pg_ctl", ["-D", server.data, "-m", "immediate", "stop"])
                try? FileManager.default.removeItem(atPath: server.folder)
            }
        }
    }

    // MARK: Programs

    /// The highest version's under /usr/lib/postgresql (Debian's, which doesn't put them on PATH), else PATH's.
    private static func findBinaries() -> String? {
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [])
            .compactMap { name in Double(name).map { (version: $0, folder: "\(root)/\(name)/bin") } }
            .sorted { $0.version > $1.version }
        var candidates = versions.map(\.folder)
        candidates += (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        return candidates.first { folder in
            ["initdb", "pg_ctl"].allSatisfy { FileManager.default.isExecutableFile(atPath: "\(folder)/\($0)") }
        }
    }

    /// A program of the server's, as the user it runs as.
    private func command(_ program: String, _ arguments: [String]) -> [String] {
        let path = "\(binaries)/\(program)"
        guard let user else { return [path] + arguments }
        return ["/usr/sbin/runuser", "-u", user, "--", path] + arguments
    }

    /// Runs it to its end; its output, in a file rather than a pipe (the server it starts would hold a pipe open), is
    /// in the error when it fails.
    private func run(_ program: String, _ arguments: [String]) throws {
        let line = command(program, arguments)
        let output = folder + "/\(program)-\(UUID().uuidString.prefix(8)).out"
        FileManager.default.createFile(atPath: output, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: output) }
        let status = try Self.spawn(line, output: output)
        guard status == 0 else {
            let said = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            let serverLog = (try? String(contentsOfFile: log, encoding: .utf8)).map { "\nserver log:\n" + $0.suffix(2_000) } ?? ""
            throw Failure("\(line.joined(separator: " ")) exited with \(status):\n\(said)\(serverLog)")
        }
    }

    /// Runs a program to its end with posix_spawn and waitpid, its output to the file at `output`. Not Foundation's
    /// Process: it learns that a program ended when a socket the program inherits is closed by it and everything it
    /// started, and the server pg_ctl starts keeps it open for as long as it runs.
    private static func spawn(_ line: [String], output: String) throws -> Int32 {
        let pid = try start(line, output: output)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw Failure("can't wait for \(line[0]): \(String(cString: strerror(errno)))") }
        }
        // Exited: its status; killed by a signal: 128 and the signal, as a shell says.
        return status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }

    /// Starts a program with its output to the file at `output` and no other descriptor of this process: the server
    /// and the watcher live as long as the tests, and a pipe of another test's child they inherited (opened by another
    /// thread at that moment) would never see its end — that test waited for ever.
    private static func start(_ line: [String], output: String) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_APPEND, 0)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        posix_spawn_file_actions_addclosefrom_np(&actions, 3)
        let arguments = line.map { strdup($0) } + [nil]
        defer { for argument in arguments { free(argument) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, line[0], &actions, nil, arguments, environ)
        guard spawned == 0 else { throw Failure("can't run \(line[0]): \(String(cString: strerror(spawned)))") }
        return pid
    }

    private static func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'" }

    package struct Failure: Error, CustomStringConvertible {
        package let description: String
        package init(_ description: String) { self.description = description }
    }
}
