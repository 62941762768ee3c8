import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A built binary run with pipes and no terminal, started and left running: for tests that run several
/// processes at once, or that signal one in the middle of its work. What it writes is read as it comes;
/// a test waits for text with a deadline (never a fixed sleep), sends signals and waits for the exit.
/// Standard input is empty. The child is killed when the object goes away, so a hung binary can't hang
/// the suite.
package final class ChildProcess: @unchecked Sendable {
    let process = Process()
    let output = TerminalSession.Buffer()
    let errors = TerminalSession.Buffer()
    let exit = TerminalSession.Exit()

    /// The child's process id.
    package var pid: Int32 { process.processIdentifier }

    /// Starts `executable` with `arguments`; the environment is the test's own with `environment` on top.
    package init(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                directory: String = Fixture.repositoryRoot) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let outputPipe = Pipe(), errorPipe = Pipe()
        // Other tests start processes at the same time: they must not inherit these pipes, or the reading
        // side would see no end of file until they exit too.
        for handle in [outputPipe.fileHandleForReading, outputPipe.fileHandleForWriting,
                       errorPipe.fileHandleForReading, errorPipe.fileHandleForWriting] {
            _ = fcntl(handle.fileDescriptor, F_SETFD, FD_CLOEXEC)
        }
        process.standardOutput = outputPipe
        process.standardError = errorPipe
        process.standardInput = FileHandle.nullDevice
        let exit = self.exit
        process.terminationHandler = { _ in
            exit.condition.lock()
            exit.happened = true
            exit.condition.broadcast()
            exit.condition.unlock()
        }
        try process.run()
        try? outputPipe.fileHandleForWriting.close()
        try? errorPipe.fileHandleForWriting.close()
        for (pipe, buffer) in [(outputPipe, output), (errorPipe, errors)] {
            let handle = pipe.fileHandleForReading
            Thread.detachNewThread {
                while true {
                    let data = handle.availableData
                    if data.isEmpty { break }
                    data.withUnsafeBytes { buffer.append($0) }
                }
                buffer.finish()
            }
        }
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            _ = waitForExit(timeout: .seconds(2))
        }
    }

    /// What the child wrote to standard output so far (all of it once it exited).
    package var standardOutput: String { output.text }
    /// What the child wrote to standard error so far (all of it once it exited).
    package var standardError: String { errors.text }

    /// Standard error for a failed expectation's message: its last 3,000 characters, or, when the child crashed,
    /// what `crashReport(in:)` keeps.
    package var standardErrorForReport: String { Self.crashReport(in: standardError) ?? String(standardError.suffix(3_000)) }

    /// When `text` holds the report of Swift's backtracer (a crashed child writes it to its standard error): the 1,500
    /// characters logged before it and the report up to its registers — what crashed, and the crashed thread's frames.
    /// The report ends with thousands of lines of registers and images, so the end of standard error, which a test
    /// shows otherwise, would leave out what crashed. Nil when there is no report.
    package static func crashReport(in text: String) -> String? {
        guard let start = text.range(of: "*** Signal ") ?? text.range(of: "*** Program crashed") else { return nil }
        let report = text[start.lowerBound...]
        let head = report.range(of: "\nRegisters:").map { report[..<$0.lowerBound] } ?? report.prefix(8_000)
        return String(text[..<start.lowerBound].suffix(1_500)) + head
    }

    /// Waits until the child's standard error satisfies `condition`; false when the deadline passes or the
    /// child closed its standard error (exited) without it.
    package func waitForError(timeout: Duration = .seconds(30), until condition: (String) -> Bool) -> Bool {
        errors.wait(until: TerminalSession.deadline(timeout)) { text, finished in condition(text) || finished } && condition(errors.text)
    }

    /// Waits until the child's standard output satisfies `condition`, as `waitForError` does for standard error.
    package func waitForOutput(timeout: Duration = .seconds(30), until condition: (String) -> Bool) -> Bool {
        output.wait(until: TerminalSession.deadline(timeout)) { text, finished in condition(text) || finished } && condition(output.text)
    }

    /// Sends `signal` (SIGINT, SIGKILL, …) to the child if it is still running.
    package func signal(_ signal: Int32) {
        if process.isRunning { kill(process.processIdentifier, signal) }
    }

    /// Waits for the child to exit and for what it wrote to be read. Returns its exit status, or 128 plus
    /// the signal number when a signal ended it (as a shell reports it); nil if it still runs at the deadline.
    package func waitForExit(timeout: Duration = .seconds(60)) -> Int32? {
        let deadline = TerminalSession.deadline(timeout)
        guard exit.wait(until: deadline) else { return nil }
        for buffer in [output, errors] { _ = buffer.wait(until: deadline) { _, finished in finished } }
        return process.shellStatus
    }
}
