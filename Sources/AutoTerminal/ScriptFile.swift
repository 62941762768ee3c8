import AutoIntents
import AutoLanguage
import Foundation

/// A script named on the command line: a file, or `-` for standard input. Shared by the commands that take
/// `-e`, by `intents`, which reads a script only for its shortcuts, and by the REPL's `:load`.
///
/// Read with read(2) to its end rather than Foundation's `Data(contentsOf:)`, which sizes a file first: so a pipe,
/// a FIFO and `/dev/fd/N` (`auto run <(…)`) are read like any file. A folder or a device (but a terminal) is refused
/// with a message that says what it is, before anything is read: `/dev/zero` would never end.
package enum ScriptFile {
    /// Why a script can't be read, said with its path; the command line turns it into a usage error.
    package struct Unreadable: Error, CustomStringConvertible {
        package let description: String
        init(_ description: String) { self.description = description }
    }

    /// The longest script read: far beyond any written by hand or generated, and a bound on what a device or a
    /// pipe that never ends can make the process hold.
    package static let maxBytes = 64 << 20

    package static func load(_ path: String) throws(Unreadable) -> SourceFile {
        if path == "-" {
            let data = FileHandle.standardInput.readDataToEndOfFile()
            return SourceFile(name: "<stdin>", text: String(decoding: data, as: UTF8.self))
        }
        let bytes = try read(path)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw Unreadable("\(path): the file is not UTF-8 text")
        }
        return SourceFile(name: path, text: text)
    }

    package static func read(_ path: String) throws(Unreadable) -> [UInt8] {
        let descriptor = FileCalls.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw Unreadable("\(path): \(errno == ENOENT ? "no such file" : "can't be read (\(String(cString: strerror(errno))))")")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw Unreadable("\(path): can't be read (\(String(cString: strerror(errno))))") }
        switch status.st_mode & S_IFMT {
        case S_IFDIR: throw Unreadable("\(path): is a folder, not a script")
        case S_IFCHR where isatty(descriptor) == 0: throw Unreadable("\(path): is a device (a character device), not a script")
        case S_IFBLK: throw Unreadable("\(path): is a device (a block device), not a script")
        case S_IFSOCK: throw Unreadable("\(path): is a socket, not a script")
        default: break
        }
        switch DescriptorReading.readAll(descriptor, limit: maxBytes) {
        case .bytes(let bytes): return bytes
        case .tooLong: throw Unreadable("\(path): is longer than a script may be (\(maxBytes >> 20) MB)")
        case .failed(let code): throw Unreadable("\(path): can't be read (\(String(cString: strerror(code))))")
        }
    }
}
