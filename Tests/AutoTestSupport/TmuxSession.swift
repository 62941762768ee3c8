import Foundation

/// Runs a built binary inside tmux, a terminal emulator, for what `TerminalSession` can't show: the screen as a
/// person sees it once the program's redraws (cursor moves, partial rewrites) are applied, and keys the terminal
/// itself turns into signals (tmux's pane is the program's controlling terminal, so Ctrl-C is SIGINT sent by the
/// terminal's line discipline, as at a real one). Each session has a tmux server of its own (a socket in a
/// temporary folder), killed when the session goes away.
package final class TmuxSession: @unchecked Sendable {
    /// The server's socket, its configuration and the commands' output; removed once the server is killed.
    let folder: TemporaryFolder
    var socket: String { folder("tmux") }
    static let target = "repl"

    /// Starts `executable` (the `auto` binary by default) with `arguments` in a pane of `columns` × `rows`, in the
    /// repository's folder, with `environment` on top of the test's own.
    package init(_ arguments: [String], executable: String? = nil, environment: [String: String] = [:],
                columns: Int = 100, rows: Int = 30) throws {
        guard Self.tmux != nil else { throw TerminalSessionError("tmux is needed for this test (.ci/setup installs it)") }
        folder = try TemporaryFolder("auto-tmux")
        let command = ["env"] + environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            + [executable ?? BinaryRunner.binary] + arguments
        // `remain-on-exit` keeps the pane once the program has ended, to be asked whether it has.
        let configuration = folder("tmux.conf")
        try "set-option -g remain-on-exit on\n".write(toFile: configuration, atomically: false, encoding: .utf8)
        // Given as several words, the command is run as it is, not through a shell.
        let started = tmuxCommand(["-S", socket, "-f", configuration, "new-session", "-d", "-s", Self.target,
                                        "-x", "\(columns)", "-y", "\(rows)", "-c", Fixture.repositoryRoot, "--"] + command)
        guard started.status == 0 else { throw TerminalSessionError("tmux didn't start (\(started.status))") }
    }

    deinit {
        _ = tmuxCommand(["-S", socket, "kill-server"])
    }

    /// Runs tmux with `arguments` and waits for it; its exit status and what it wrote to standard output. Spawned and
    /// waited for here, not by `Process`: the server the first command starts keeps every descriptor it is given (a
    /// pipe's reader would wait for it forever), and `Process` was seen never to reap the tmux client.
    func tmuxCommand(_ arguments: [String]) -> (status: Int32, output: String) {
        guard let tmux = Self.tmux else { return (-1, "") }
        let output = folder("output-\(UUID().uuidString)")
        defer { unlink(output) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([tmux] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        // The test's threads block signals (SIGCHLD among them); a server that inherited that mask would never see its
        // program end, nor leave on `kill-server`.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        guard posix_spawn(&pid, tmux, &actions, &attributes, argv, environ) == 0 else { return (-1, "") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        return ((status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F), text)
    }

    static let tmux: String? = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/bin/tmux"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// The lines on the screen now, trailing blanks removed.
    package var screen: [String] {
        tmuxCommand(["-S", socket, "capture-pane", "-p", "-t", Self.target]).output.split(separator: "\n", omittingEmptySubsequences: false).map {
            String($0.reversed().drop { $0 == " " }.reversed())
        }
    }

    /// Waits until `satisfied` holds for the screen, looking again every 20 ms; false after `timeout`.
    @discardableResult
    package func waitForScreen(timeout: Duration = .seconds(5), _ satisfied: ([String]) -> Bool) -> Bool {
        let deadline = TerminalSession.deadline(timeout)
        while Date() < deadline {
            if satisfied(screen) { return true }
            usleep(20_000)
        }
        return satisfied(screen)
    }

    /// Waits until some line on the screen contains `text` at least `count` times in all.
    @discardableResult
    package func waitFor(_ text: String, count: Int = 1, timeout: Duration = .seconds(5)) -> Bool {
        waitForScreen(timeout: timeout) { lines in lines.map { TerminalSession.occurrences(of: text, in: $0) }.reduce(0, +) >= count }
    }

    /// Types `text` as it is (no key names).
    package func send(_ text: String) {
        _ = tmuxCommand(["-S", socket, "send-keys", "-t", Self.target, "-l", text])
    }

    /// Presses keys by tmux's names: `C-c`, `C-r`, `Enter`, `Escape`.
    package func press(_ keys: String...) {
        _ = tmuxCommand(["-S", socket, "send-keys", "-t", Self.target] + keys)
    }

    /// Waits for the program to end (its pane stays, dead); false after `timeout`. Its exit status is not asked:
    /// tmux was seen to leave `pane_dead_status` empty for a while after the pane died.
    package func waitForEnd(timeout: Duration = .seconds(5)) -> Bool {
        let deadline = TerminalSession.deadline(timeout)
        repeat {
            if tmuxCommand(["-S", socket, "display-message", "-p", "-t", Self.target, "#{pane_dead}"]).output.hasPrefix("1") { return true }
            usleep(20_000)
        } while Date() < deadline
        return false
    }
}
