import Foundation

/// One daemon per run store: an exclusive `flock` on `<store>.lock`, held while the daemon runs. The kernel lets
/// go of it when the process ends, however it ends, so a crashed daemon never blocks the next one.
public final class StoreLock: Sendable {
    public let path: String
    private let descriptor: Int32

    /// Takes the lock, or says who holds it.
    public init(store: String) throws(RunStoreError) {
        path = store + ".lock"
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw RunStoreError(path: store, reason: "its lock file \(path) can't be opened (\(String(cString: strerror(errno))))")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
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
        _ = flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
