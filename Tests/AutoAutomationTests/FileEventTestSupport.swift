@testable import AutoAutomation
import Foundation

/// A file operation of a test's own that failed: the test fails, the others go on.
struct SetupFailure: Error, CustomStringConvertible {
    let description: String
    init(_ action: String, _ path: String) {
        description = "can't \(action) \(path): \(String(cString: strerror(errno)))"
    }
}

/// Writes a file with plain open, write and close (FileManager may write beside it and rename).
func writeFile(_ path: String, _ text: String) throws {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw SetupFailure("write", path) }
    defer { close(descriptor) }
    var bytes = Array(text.utf8)
    guard bytes.isEmpty || write(descriptor, &bytes, bytes.count) == bytes.count else { throw SetupFailure("write", path) }
}

func makeFolder(_ path: String) throws {
    guard mkdir(path, 0o755) == 0 else { throw SetupFailure("make", path) }
}

func move(_ from: String, _ to: String) throws {
    guard rename(from, to) == 0 else { throw SetupFailure("move", from) }
}

func remove(_ path: String) throws {
    guard unlink(path) == 0 else { throw SetupFailure("remove", path) }
}

/// Runs a burst of blocking file work on a dispatch thread: on one of the two threads of the tests' cooperative pool it
/// would hold back, for seconds, every other test running meanwhile.
func offThePool(_ work: @escaping @Sendable () throws -> Void) async throws {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
    }
}

/// Runs a shell command line, for the cases where the timing of one process matters (`mkdir -p a/b && touch a/b/x`).
func shell(_ command: String, in folder: String) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command]
    process.currentDirectoryURL = URL(fileURLWithPath: folder)
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw SetupFailure("run '\(command)' in", folder) }
}

extension FileEvent {
    static func created(_ path: String, rescan: Bool = false) -> FileEvent { FileEvent(.created, path, fromRescan: rescan) }
    static func changed(_ path: String, rescan: Bool = false) -> FileEvent { FileEvent(.changed, path, fromRescan: rescan) }
    static func deleted(_ path: String, rescan: Bool = false) -> FileEvent { FileEvent(.deleted, path, fromRescan: rescan) }

    /// Kind and path, whether or not a rescan found it.
    var summary: String { "\(kind.rawValue) \(path)" }
}

extension [FileEvent] {
    /// The story of one path made while its folder was being watched from scratch: created once, and at most a
    /// change after, when the creation was found by a scan. A file still open for writing when its new folder was
    /// read (opened before the folder's watch existed, so that its creation never reached the watch) is reported by
    /// the scan; the kernel's report of its close comes after, as a change.
    var isCreatedOnce: Bool {
        guard let first, first.kind == .created else { return false }
        return count == 1 || (count == 2 && first.fromRescan && self[1].kind == .changed)
    }
}
