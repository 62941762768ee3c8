import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs a built binary in a real pseudo-terminal, as a person at a terminal runs it: standard input,
/// output and error are the slave side of a pty (so `isatty(0)`, `isatty(1)` and `isatty(2)` are all true
/// in the child), and what the child writes is read from the master side into a buffer on a background
/// thread. A test waits for text, types answers, presses Ctrl-C and waits for the exit.
///
/// Standard output or standard error can instead go to a pipe (`pipes:`), as with `auto --json … | jq`
/// or `2> errors.txt` typed at a terminal; what they carry is then in `pipedOutput` / `pipedError`.
///
/// The child is always killed when the session goes away, so a misbehaving binary can't hang the suite.
package final class TerminalSession: @unchecked Sendable {
    package enum Stream: Sendable, Hashable { case standardOutput, standardError }

    /// Text read from one file descriptor until end of file, guarded by a condition so that readers can
    /// wait for it without spinning.
    final class Buffer: @unchecked Sendable {
        let condition = NSCondition()
        var data = Data()
        var finished = false

        func append(_ bytes: UnsafeRawBufferPointer) {
            condition.lock()
            data.append(contentsOf: bytes)
            condition.broadcast()
            condition.unlock()
        }

        func finish() {
            condition.lock()
            finished = true
            condition.broadcast()
            condition.unlock()
        }

        var text: String {
            condition.lock()
            defer { condition.unlock() }
            return String(decoding: data, as: UTF8.self)
        }

        /// Waits until `satisfied(text, finished)` holds or `deadline` passes; true when it held.
        func wait(until deadline: Date, _ satisfied: (String, Bool) -> Bool) -> Bool {
            condition.lock()
            defer { condition.unlock() }
            while true {
                if satisfied(String(decoding: data, as: UTF8.self), finished) { return true }
                if Date() >= deadline { return false }
                _ = condition.wait(until: deadline)
            }
        }
    }

    /// The master side of the pty, closed by the reader at end of file; writes check it is still open.
    final class Master: @unchecked Sendable {
        let lock = NSLock()
        var fd: Int32

        init(_ fd: Int32) { self.fd = fd }

        /// Whether the program reads the terminal key by key (a line editor's raw mode), not line by line.
        var readsKeys: Bool {
            lock.lock()
            defer { lock.unlock() }
            guard fd >= 0 else { return false }
            var settings = termios()
            return tcgetattr(fd, &settings) == 0 && settings.c_lflag & tcflag_t(ICANON) == 0
        }

        /// Gives the terminal a new size, as a window being resized does.
        func resize(columns: UInt16, rows: UInt16) -> Bool {
            lock.lock()
            defer { lock.unlock() }
            var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
            return fd >= 0 && ioctl(fd, UInt(TIOCSWINSZ), &size) == 0
        }

        func write(_ bytes: [UInt8]) -> Bool {
            lock.lock()
            defer { lock.unlock() }
            guard fd >= 0 else { return false }
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
                if written < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += written
            }
            return true
        }

        func close() {
            lock.lock()
            if fd >= 0 { _ = Glibc.close(fd) }
            fd = -1
            lock.unlock()
        }
    }

    let process = Process()
    let master: Master
    let terminal = Buffer()
    let outputPipe: Buffer?
    let errorPipe: Buffer?
    /// Set by the termination handler (which must not reach `self`: it may run while `deinit` waits).
    final class Exit: @unchecked Sendable {
        let condition = NSCondition()
        var happened = false

        /// Whether the child has exited by `deadline`.
        func wait(until deadline: Date) -> Bool {
            condition.lock()
            defer { condition.unlock() }
            while !happened, Date() < deadline { _ = condition.wait(until: deadline) }
            return happened
        }
    }
    let exit = Exit()

    /// The child's process id.
    package var pid: Int32 { process.processIdentifier }

    /// Starts `executable` (the `auto` binary by default) with `arguments` in a new pseudo-terminal of
    /// `columns` × `rows`. The environment is the test's own, with the products folder first on PATH,
    /// `TERM=xterm` and `NO_COLOR=""` (colour allowed), then `environment` on top.
    package init(_ arguments: [String], executable: String? = nil, environment: [String: String] = [:],
                directory: String = Fixture.repositoryRoot, pipes: Set<Stream> = [],
                columns: UInt16 = 120, rows: UInt16 = 40) throws {
        var masterFD: Int32 = -1, slaveFD: Int32 = -1
        var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        guard openpty(&masterFD, &slaveFD, nil, nil, &size) == 0 else {
            throw TerminalSessionError("openpty failed: \(String(cString: strerror(errno)))")
        }
        // Other tests start processes at the same time: they must not inherit either side, or the master
        // would never see end of file.
        _ = fcntl(masterFD, F_SETFD, FD_CLOEXEC)
        _ = fcntl(slaveFD, F_SETFD, FD_CLOEXEC)
        master = Master(masterFD)

        process.executableURL = URL(fileURLWithPath: executable ?? BinaryRunner.binary)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        var env = ProcessInfo.processInfo.environment
        env["PATH"] = BinaryRunner.productsFolder.path + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        env["TERM"] = "xterm"
        env["NO_COLOR"] = ""
        env["COLUMNS"] = nil
        env["LINES"] = nil
        for (key, value) in environment { env[key] = value }
        process.environment = env

        let slave = FileHandle(fileDescriptor: slaveFD, closeOnDealloc: false)
        process.standardInput = slave
        let stdoutPipe = pipes.contains(.standardOutput) ? Pipe() : nil
        let stderrPipe = pipes.contains(.standardError) ? Pipe() : nil
        process.standardOutput = stdoutPipe ?? slave
        process.standardError = stderrPipe ?? slave
        outputPipe = stdoutPipe.map { _ in Buffer() }
        errorPipe = stderrPipe.map { _ in Buffer() }

        let exit = self.exit
        process.terminationHandler = { _ in
            exit.condition.lock()
            exit.happened = true
            exit.condition.broadcast()
            exit.condition.unlock()
        }
        do {
            try process.run()
        } catch {
            _ = close(slaveFD)
            master.close()
            throw error
        }
        // Only the child keeps the slave open now: when it exits, reading the master ends.
        _ = close(slaveFD)

        let terminal = self.terminal, master = self.master, readFD = masterFD
        Thread.detachNewThread {
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(readFD, $0.baseAddress, $0.count) }
                if count > 0 {
                    chunk.withUnsafeBytes { terminal.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
                } else if count < 0, errno == EINTR {
                    continue
                } else {
                    break  // EIO: every slave descriptor is closed, the child is gone
                }
            }
            master.close()
            terminal.finish()
        }
        for (pipe, buffer) in [(stdoutPipe, outputPipe), (stderrPipe, errorPipe)] {
            guard let pipe, let buffer else { continue }
            let handle = pipe.fileHandleForReading
            Thread.detachNewThread {
                let data = handle.readDataToEndOfFile()
                data.withUnsafeBytes { buffer.append($0) }
                buffer.finish()
            }
        }
    }

    deinit {
        terminate()
    }

    /// Kills the child (SIGKILL) if it is still running and waits briefly for it to be gone.
    package func terminate() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            _ = waitForExit(timeout: .seconds(2))
        }
    }

    // MARK: What the terminal shows

    /// Everything the child wrote to the terminal so far, escapes and carriage returns included.
    package var output: String { terminal.text }

    /// The output with colour and line-clearing escapes and carriage returns removed.
    package var visibleOutput: String { Self.visible(output) }

    /// The lines a person sees on the screen, with `\r` and `ESC[2K` applied (see `screen(_:)`).
    package var screenLines: [String] { Self.screen(output) }

    /// What the child wrote to standard output when it goes to a pipe (complete once the child exited).
    package var pipedOutput: String { outputPipe?.text ?? "" }

    /// What the child wrote to standard error when it goes to a pipe (complete once the child exited).
    package var pipedError: String { errorPipe?.text ?? "" }

    /// Waits until the visible terminal output contains `text` at least `count` times; polls the buffer
    /// each time the reader adds to it, never spinning. False after `timeout`.
    @discardableResult
    package func waitFor(_ text: String, count: Int = 1, timeout: Duration = .seconds(5)) -> Bool {
        terminal.wait(until: Self.deadline(timeout)) { output, _ in
            Self.occurrences(of: text, in: Self.visible(output)) >= count
        }
    }

    // MARK: What the person does

    /// Waits until the program reads key by key: a line editor such as libedit puts the terminal in that mode
    /// only after drawing its prompt, and keys typed before are lost (as a person's typing ahead is). Polls the
    /// terminal's mode every few milliseconds; false after `timeout`.
    @discardableResult
    package func waitForKeys(timeout: Duration = .seconds(5)) -> Bool {
        let deadline = Self.deadline(timeout)
        while Date() < deadline {
            if master.readsKeys { return true }
            usleep(2_000)
        }
        return master.readsKeys
    }

    /// Types `text` at the terminal; a line is `"answer\r"`, as the Return key sends it.
    package func send(_ text: String) {
        _ = master.write(Array(text.utf8))
    }

    /// Bytes as they come, which need not be UTF-8.
    package func send(bytes: [UInt8]) {
        _ = master.write(bytes)
    }

    /// Resizes the terminal and tells the child with SIGWINCH, as the kernel does for a controlling terminal
    /// (which `Process` doesn't make the pty; see `interrupt`).
    @discardableResult
    package func resize(columns: UInt16, rows: UInt16 = 40) -> Bool {
        guard master.resize(columns: columns, rows: rows) else { return false }
        if process.isRunning { kill(process.processIdentifier, SIGWINCH) }
        return true
    }

    /// Ctrl-C: sends SIGINT to the child. (`Process` doesn't make the pty the child's controlling
    /// terminal, so typing `\u{3}` would not raise the signal.)
    package func interrupt() {
        if process.isRunning { kill(process.processIdentifier, SIGINT) }
    }

    /// Waits for the child to exit, then for what it wrote to be read. Returns its exit status, or 128 plus
    /// the signal number when a signal killed it (as a shell reports it); nil if it is still running.
    package func waitForExit(timeout: Duration = .seconds(5)) -> Int32? {
        guard exit.wait(until: Self.deadline(timeout)) else { return nil }
        // The child is gone; its last words may still be on their way through the pty or the pipes.
        let drain = Date().addingTimeInterval(2)
        for buffer in [terminal, outputPipe, errorPipe].compactMap({ $0 }) {
            _ = buffer.wait(until: drain) { _, finished in finished }
        }
        return process.shellStatus
    }

    // MARK: Helpers

    /// `text` without `ESC[…m` (colour), `ESC[2K` (clear line) or other CSI escapes, and without `\r`.
    package static func visible(_ text: String) -> String {
        text.replacingOccurrences(of: "\u{1B}\\[[0-9;?]*[A-Za-z]", with: "", options: .regularExpression)
            .replacingOccurrences(of: "\r", with: "")
    }

    /// The screen a person sees, line by line, ignoring wrapping: `\r` moves to the start of the line,
    /// `ESC[2K` clears it, `\n` starts the next one, colour escapes take no room, and characters overwrite
    /// what was there. A progress bar redrawn in place leaves only its last drawing.
    package static func screen(_ text: String) -> [String] {
        var lines: [String] = []
        var line: [Character] = []
        var column = 0
        var characters = Array(text)[...]
        while let character = characters.popFirst() {
            switch character {
            case "\u{1B}":
                guard characters.first == "[" else { continue }
                characters.removeFirst()
                var parameters = ""
                while let next = characters.popFirst() {
                    if next.isLetter {
                        if next == "K", parameters == "2" { line = []; }
                        break
                    }
                    parameters.append(next)
                }
            case "\r": column = 0
            case "\n", "\r\n":
                lines.append(String(line))
                line = []
                column = 0
            default:
                if column < line.count { line[column] = character } else {
                    line += Array(repeating: " ", count: column - line.count) + [character]
                }
                column += 1
            }
        }
        lines.append(String(line))
        return lines
    }

    static func occurrences(of text: String, in output: String) -> Int {
        guard !text.isEmpty else { return Int.max }
        return output.components(separatedBy: text).count - 1
    }

    static func deadline(_ timeout: Duration) -> Date {
        let (seconds, attoseconds) = timeout.components
        return Date().addingTimeInterval(Double(seconds) + Double(attoseconds) / 1e18)
    }
}

package struct TerminalSessionError: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}

extension Process {
    /// The exit status as a shell reports it: 128 plus the signal number when a signal ended the process.
    var shellStatus: Int32 {
        terminationReason == .uncaughtSignal ? 128 + terminationStatus : terminationStatus
    }

    /// Terminates the process if it still runs and waits, `limit` at most, for it to end: what it works in (a test's
    /// folder) may go right after.
    package func terminateAndWait(atMost limit: TimeInterval = 10) {
        guard isRunning else { return }
        terminate()
        let deadline = Date() + limit
        while isRunning, Date() < deadline { usleep(10_000) }
    }
}
