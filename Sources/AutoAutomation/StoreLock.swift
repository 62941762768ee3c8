import CLinux
import Foundation

/// The locks of a run store, on one byte each of `<store>.lock`. They are open-file-description locks: the kernel lets
/// go of them when the process ends, however it ends, so a crashed daemon never blocks the next one; and two opens of
/// the file exclude each other even within one process.
/// - Byte 0, **the daemon**: one daemon per store, held for the daemon's life (`StoreLock(store:)`).
/// - Byte 1, **opening**: held by any process while it opens the store (`StoreLock.whileOpening`). Creating the file,
///   switching it to WAL and migrating its schema are each safe against other processes, but not together: two
///   processes opening a new store at once (a daemon starting and `auto automations list`) would both apply the first
///   migration, and one would fail with "table automation already exists" or "locked".
public final class StoreLock: Sendable {
    public let path: String
    private let descriptor: Int32

    private static let daemonByte: Int = 0, openingByte: Int = 1

    /// Takes the daemon's lock, or says who holds it.
    public init(store: String) throws(RunStoreError) {
        path = Self.path(of: store)
        let descriptor = Self.openFile(path)
        guard descriptor >= 0 else {
            throw RunStoreError(path: store, reason: "its lock file \(path) can't be opened (\(String(cString: strerror(errno))))")
        }
        guard Self.lock(descriptor, byte: Self.daemonByte, wait: false) else {
            let holder = (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
            close(descriptor)
            throw RunStoreError(path: store, reason: "another daemon uses it" + (holder.map { $0.isEmpty ? "" : " (process \($0))" } ?? "")
                                + "; stop it first, or give this one another --store")
        }
        // Who holds it, for the message above: written after the lock is ours.
        let pid = "\(getpid())\n"
        _ = ftruncate(descriptor, 0)
        _ = pid.withCString { pwrite(descriptor, $0, strlen($0), 0) }
        self.descriptor = descriptor
    }

    deinit {
        // Closing the only descriptor of the description releases its locks.
        close(descriptor)
    }

    /// Runs `body` while this process is the only one opening the store, waiting for any other to finish. A lock
    /// file that can't be made (a read-only folder) can't be made by anyone else either: then `body` runs unguarded
    /// and reports what it finds.
    static func whileOpening<T>(store: String, _ body: () throws -> T) rethrows -> T {
        let descriptor = openFile(path(of: store))
        guard descriptor >= 0 else { return try body() }
        defer { close(descriptor) }
        _ = lock(descriptor, byte: openingByte, wait: true)
        return try body()
    }

    private static func path(of store: String) -> String { store + ".lock" }

    /// A new open file description of the lock file (its locks are its own), created when missing; -1 on failure.
    private static func openFile(_ path: String) -> Int32 { open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644) }

    /// A write lock on one byte of the file; with `wait`, blocks until it is free (retrying when a signal interrupts).
    private static func lock(_ descriptor: Int32, byte: Int, wait: Bool) -> Bool {
        var range = flock()
        range.l_type = Int16(F_WRLCK)
        range.l_whence = Int16(SEEK_SET)
        range.l_start = off_t(byte)
        range.l_len = 1
        while fcntl(descriptor, wait ? F_OFD_SETLKW : F_OFD_SETLK, &range) != 0 {
            guard wait, errno == EINTR else { return false }
        }
        return true
    }
}
