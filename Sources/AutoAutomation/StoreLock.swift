import CLinux
import Foundation

/// The locks of a run store. They are open-file-description locks: the kernel lets go of them when the process ends,
/// however it ends, so a crashed daemon never blocks the next one; and two opens of a file exclude each other even
/// within one process.
/// - **The daemon's** (`StoreLock(store:)`), on the database file itself, so that deleting a side file can't undo it:
///   a write lock on byte 0 for the daemon's life, one daemon per store. Beside it, a read lock on the byte at
///   `holderMarks + pid` says who holds the store: the kernel tells another process where a lock conflicting with
///   its own is, but not whose an open-file-description lock is. SQLite locks only bytes from 2^30 to 2^30 + 512 of
///   the file; these overlap none of them.
/// - **Opening**, byte 1 of `<store>.lock` (`StoreLock.whileOpening`): held by any process while it opens the store.
///   Creating the file, switching it to WAL and migrating its schema are each safe against other processes, but not
///   together: two processes opening a new store at once (a daemon starting and `auto automations list`) would both
///   apply the first migration, and one would fail with "table automation already exists" or "locked". A side file,
///   because this lock is taken and let go while the process may have the store open, and closing any descriptor of
///   the database file would drop the POSIX locks that SQLite holds on it for the whole process.
package final class StoreLock: Sendable {
    /// The store's database file.
    package let path: String
    /// Closed only once the process has closed its connections to the store (see `SQLiteRunStore(path:holding:)`):
    /// closing it drops SQLite's locks on the file too.
    private let descriptor: Int32

    private static let daemonByte: off_t = 0, openingByte: off_t = 1
    /// Where the holder's pid is marked: far past any byte SQLite locks; a pid is below 2^22 (the kernel's limit).
    private static let holderMarks: off_t = 1 << 40, pidLimit: off_t = 1 << 22
    /// F_OFD_GETLK, which the Glibc module leaves out as it does F_OFD_SETLK (the kernel's value, on every architecture).
    private static let getLock: Int32 = 36

    /// Takes the daemon's lock on the store, creating its folder and an empty database file when missing, or says
    /// which process holds it.
    package init(store: String) throws(RunStoreError) {
        path = store
        try SQLiteRunStore.makeFolder(of: store)
        // An empty file is an empty database: the store opening next makes it a new store.
        let descriptor = open(store, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw RunStoreError(path: store, reason: errno == EISDIR ? "it is a folder" : String(cString: strerror(errno)).lowercased())
        }
        // The mark before the lock: a daemon that finds the store locked finds the holder's mark too.
        _ = Self.lock(descriptor, type: F_RDLCK, byte: Self.holderMarks + off_t(getpid()), wait: false)
        guard Self.lock(descriptor, type: F_WRLCK, byte: Self.daemonByte, wait: false) else {
            let holder = Self.holder(seenFrom: descriptor)
            close(descriptor)
            throw RunStoreError(path: store, reason: "another daemon uses it" + (holder.map { " (process \($0))" } ?? "")
                                + "; stop it first, or give this one another --store")
        }
        self.descriptor = descriptor
    }

    deinit {
        // Closing the only descriptor of the description releases its locks.
        close(descriptor)
    }

    /// Whether a daemon holds `store`, and its pid when it marked it; nil when none does, or there is no store. For
    /// `auto automations list`, which says when nothing fires. Call it before this process opens the store: closing
    /// the descriptor it opens would drop the locks SQLite holds on the file for the process.
    package static func daemon(holding store: String) -> Holder? {
        let descriptor = open(store, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var range = flock()
        range.l_type = Int16(F_WRLCK)
        range.l_whence = Int16(SEEK_SET)
        range.l_start = daemonByte
        range.l_len = 1
        guard fcntl(descriptor, getLock, &range) == 0, range.l_type != Int16(F_UNLCK) else { return nil }
        return Holder(pid: holder(seenFrom: descriptor))
    }

    /// The daemon that holds a store: its pid, when it marked it (any daemon of this version does).
    package struct Holder: Sendable, Equatable {
        package let pid: pid_t?
    }

    /// The pid marked by the daemon that holds the store: the first mark that isn't this description's own.
    private static func holder(seenFrom descriptor: Int32) -> pid_t? {
        var range = flock()
        range.l_type = Int16(F_WRLCK)
        range.l_whence = Int16(SEEK_SET)
        range.l_start = holderMarks
        range.l_len = pidLimit
        guard fcntl(descriptor, getLock, &range) == 0, range.l_type != Int16(F_UNLCK) else { return nil }
        return pid_t(range.l_start - holderMarks)
    }

    /// Runs `body` while this process is the only one opening the store, waiting for any other to finish. A lock
    /// file that can't be made (a read-only folder) can't be made by anyone else either: then `body` runs unguarded
    /// and reports what it finds.
    static func whileOpening<T>(store: String, _ body: () throws -> T) rethrows -> T {
        let descriptor = open(store + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return try body() }
        defer { close(descriptor) }
        _ = lock(descriptor, type: F_WRLCK, byte: openingByte, wait: true)
        return try body()
    }

    /// A lock on one byte of the file; with `wait`, blocks until it is free (retrying when a signal interrupts).
    private static func lock(_ descriptor: Int32, type: Int32, byte: off_t, wait: Bool) -> Bool {
        var range = flock()
        range.l_type = Int16(type)
        range.l_whence = Int16(SEEK_SET)
        range.l_start = byte
        range.l_len = 1
        while fcntl(descriptor, wait ? F_OFD_SETLKW : F_OFD_SETLK, &range) != 0 {
            guard wait, errno == EINTR else { return false }
        }
        return true
    }
}
