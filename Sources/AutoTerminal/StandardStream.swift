import AutoIntents
import Foundation
import Synchronization

/// Standard output or standard error, written with write(2). FileHandle's write traps when the stream can't be
/// written (closed, a full disk, a pipe whose reader left with SIGPIPE ignored); this remembers the first
/// failure instead, so that the command ends with exit 1 and says so where it still can.
package final class StandardStream: Sendable {
    package let descriptor: Int32
    package let name: String
    /// errno of the first write that failed; 0 while none has.
    private let failure = Atomic<Int32>(0)

    package static let output = StandardStream(descriptor: 1, name: "standard output")
    package static let error = StandardStream(descriptor: 2, name: "standard error")

    private init(descriptor: Int32, name: String) {
        self.descriptor = descriptor
        self.name = name
        if Self.wasClosedAtStart(descriptor) { failure.store(EBADF, ordering: .relaxed) }
    }

    /// Whether the stream was closed when the process started. The descriptor number is then free, and the
    /// runtime takes it for a descriptor of its own before `main` runs (libdispatch's eventfd or epoll), so
    /// writing to it would write into that: such an anonymous inode, whose mode has no file type, is never a stream
    /// someone gave us (a terminal, a pipe, a socket and a file all have one). One `fstat`: reading the link in
    /// /proc/self/fd took two path lookups in /proc, a fortieth of a start.
    package static func wasClosedAtStart(_ descriptor: Int32) -> Bool {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return errno == EBADF }
        return status.st_mode & S_IFMT == 0
    }

    /// How many columns the terminal the stream writes to has; nil when it is no terminal.
    package var terminalColumns: Int? {
        var size = winsize()
        guard isatty(descriptor) == 1, ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// Writes `text`, a byte of a file name that isn't UTF-8 shown as `\xHH` (`FileNameBytes.escaped`): whatever
    /// reaches a terminal or a pipe from the engine shows such a name as a text literal would write it.
    package func write(_ text: String) {
        guard failure.load(ordering: .relaxed) == 0 else { return }
        var bytes = Array(FileNameBytes.escaped(text).utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                failure.store(errno, ordering: .relaxed)
                return
            }
            bytes = bytes.dropFirst(written)
        }
    }

    /// Why writing failed, as the system says it ("No space left on device"); nil if nothing failed.
    package var failureReason: String? {
        let code = failure.load(ordering: .relaxed)
        return code == 0 ? nil : String(cString: strerror(code))
    }

    /// The exit code a command ends with, given the one it chose: 1 instead of success when either stream could
    /// not be written, with a message on standard error when that one still works.
    package static func exitCode(_ code: Int32) -> Int32 {
        if let reason = output.failureReason { error.write("error: can't write to standard output: \(reason)\n") }
        let failed = output.failureReason != nil || error.failureReason != nil
        return failed && code == 0 ? 1 : code
    }
}
