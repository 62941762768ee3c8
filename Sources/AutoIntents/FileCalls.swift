#if canImport(Glibc)
import Glibc
#endif

/// The system calls the engine and the standard library make on a path, taking the path as a text and passing its
/// bytes (`FileNameBytes`): Swift's own String-to-C-string conversion would pass a name that isn't UTF-8 as the
/// UTF-8 of the code points standing for its bytes, which names another file, or none.
package enum FileCalls {
    package static func stat(_ path: String, _ status: inout Glibc.stat) -> Int32 {
        FileNameBytes.withCString(path) { systemStat($0, &status) }
    }

    package static func lstat(_ path: String, _ status: inout Glibc.stat) -> Int32 {
        FileNameBytes.withCString(path) { systemLstat($0, &status) }
    }

    package static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
        FileNameBytes.withCString(path) { Glibc.open($0, flags, mode) }
    }

    package static func access(_ path: String, _ mode: Int32) -> Int32 {
        FileNameBytes.withCString(path) { Glibc.access($0, mode) }
    }

    package static func unlink(_ path: String) -> Int32 {
        FileNameBytes.withCString(path) { Glibc.unlink($0) }
    }

    package static func rmdir(_ path: String) -> Int32 {
        FileNameBytes.withCString(path) { Glibc.rmdir($0) }
    }

    package static func mkdir(_ path: String, _ mode: mode_t) -> Int32 {
        FileNameBytes.withCString(path) { Glibc.mkdir($0, mode) }
    }

    package static func rename(_ old: String, _ new: String) -> Int32 {
        FileNameBytes.withCString(old) { old in FileNameBytes.withCString(new) { Glibc.rename(old, $0) } }
    }

    /// The bytes of the file at `path`, read to its end (`DescriptorReading`); links are followed.
    package static func readAll(_ path: String) -> DescriptorReading.Outcome {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return .failed(errno) }
        defer { close(descriptor) }
        return DescriptorReading.readAll(descriptor)
    }

    /// A temporary file made from `prefix` followed by six random characters (`mkstemp`), open for reading and
    /// writing; nil with errno set when it can't be made.
    package static func makeTemporaryFile(prefix: String) -> (descriptor: Int32, path: String)? {
        var template = FileNameBytes.bytes(prefix) + Array("XXXXXX".utf8) + [0]
        let descriptor = template.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { mkstemp($0.baseAddress!) }
        }
        guard descriptor >= 0 else { return nil }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        return (descriptor, FileNameBytes.text(template.dropLast()))
    }

    /// The folders named by `path` made as `mkdir -p` would (`mode` less the umask for each one made); 0, or -1
    /// with errno set. A folder there already, or made meanwhile, is fine.
    package static func makeFolders(_ path: String, _ mode: mode_t) -> Int32 {
        var status = Glibc.stat()
        if stat(path, &status) == 0 {
            if status.st_mode & S_IFMT == S_IFDIR { return 0 }
            errno = ENOTDIR
            return -1
        }
        let parent = GrantedPath.parent(of: path)
        if parent != path, makeFolders(parent, mode) != 0 { return -1 }
        return mkdir(path, mode) == 0 || errno == EEXIST ? 0 : -1
    }
}

// The C calls under names of their own: inside `FileCalls`, `stat` and `lstat` name its own functions.
private func systemStat(_ path: UnsafePointer<CChar>, _ status: inout stat) -> Int32 { stat(path, &status) }
private func systemLstat(_ path: UnsafePointer<CChar>, _ status: inout stat) -> Int32 { lstat(path, &status) }
