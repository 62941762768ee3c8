import AutoIntents
import CLinux
import Foundation

/// A script's text as the daemon reads it to load it, or why there is none: a script deleted stops its automations,
/// while one that can't be read now keeps its previous version running, as one with a syntax error does.
enum ScriptRead: Equatable {
    /// The whole file.
    case text(String)
    /// No file at the path: the script was deleted or moved away.
    case gone
    /// Half-written: a process has the file open for writing. Its close, which the daemon watches for, reloads it.
    case beingWritten
    /// A file that isn't a script's text, and why: not readable (its permissions), not a regular file (a folder, or
    /// a FIFO, which would block the read), or not UTF-8.
    case unreadable(String)

    /// F_SETLEASE, which the Glibc module leaves out (the kernel's value, on every architecture).
    private static let setLease: Int32 = 1024

    /// Reads the script at `path`. A file is half-written while a process has it open for writing (an editor, a
    /// copy not done, a save that renames its file into place before closing it): the kernel says so by refusing a
    /// read lease on it. The lease is held while the file is read, so no writer can open it meanwhile; a
    /// writer trying makes the kernel send SIGIO, which the daemon ignores, and waits for the read to end. Without
    /// a lease (the file isn't this user's, or its file system has none) the file is read as it is.
    static func read(_ path: String) -> ScriptRead {
        let descriptor = FileCalls.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return errno == ENOENT || errno == ENOTDIR ? .gone : .unreadable(systemReason()) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return .unreadable(systemReason()) }
        guard status.st_mode & S_IFMT == S_IFREG else {
            return .unreadable(status.st_mode & S_IFMT == S_IFDIR ? "it is a folder" : "it is not a regular file")
        }
        if fcntl(descriptor, setLease, Int32(F_RDLCK)) == 0 {
            defer { _ = fcntl(descriptor, setLease, Int32(F_UNLCK)) }
            return text(of: descriptor)
        }
        guard errno != EAGAIN else { return .beingWritten }
        return text(of: descriptor)
    }

    private static func text(of descriptor: Int32) -> ScriptRead {
        let bytes: [UInt8]
        switch DescriptorReading.readAll(descriptor) {
        case .bytes(let read): bytes = read
        case .failed(let code): return .unreadable(systemReason(code))
        case .tooLong: return .unreadable("it is longer than memory allows")  // no limit is given: not reached
        }
        if let text = String(validating: bytes, as: UTF8.self) { return .text(text) }
        return .unreadable("line \(firstLineNotUTF8(bytes)) is not UTF-8")
    }

    /// The line, from 1, of the first byte sequence that isn't UTF-8.
    static func firstLineNotUTF8(_ bytes: [UInt8]) -> Int {
        var parser = Unicode.UTF8.ForwardParser(), iterator = bytes.makeIterator(), line = 1
        while case .valid(let scalar) = parser.parseScalar(from: &iterator) {
            if scalar.count == 1, scalar.first == UInt8(ascii: "\n") { line += 1 }
        }
        return line
    }

    private static func systemReason(_ code: Int32 = errno) -> String { String(cString: strerror(code)).lowercased() }
}
