import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A folder of a test's own, `<prefix>-<UUID>` under the system's temporary folder, removed with everything in it
/// when the object goes away: the one place that makes and removes the tests' temporary folders, so that a test
/// run leaves nothing behind in /tmp (a CI machine's disk once filled up with them).
///
/// A suite keeps it in a stored property, and it goes with the suite's instance after each test. A test that makes
/// one of its own keeps it alive to the end of its scope with `defer { withExtendedLifetime(folder) {} }`: Swift may
/// end an object's life after its last use, and the folder would go while a child process still works in it.
package final class TemporaryFolder: Sendable {
    /// The folder, symlinks in its path resolved ($TMPDIR may be a link): what the code under test reports, a
    /// watcher's events or a granted path, is in real paths, which the tests compare with their own.
    package let url: URL

    /// The folder's path, symlinks resolved.
    package var path: String { url.path }

    /// Makes a new, empty folder named `<prefix>-<UUID>`; the prefix says which tests left it, should it ever stay.
    package init(_ prefix: String) throws {
        let made = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true)
        url = made.resolvingSymlinksInPath()
    }

    deinit {
        // Tests make folders unreadable and unwritable, and nothing in those could be removed: permissions are
        // opened up first, as `chmod -R u+rwx` would, but in this process rather than by a program started for
        // each of a run's hundreds of folders.
        Self.openUp(path)
        try? FileManager.default.removeItem(at: url)
    }

    /// The path of `relative` in the folder.
    package func callAsFunction(_ relative: String) -> String { path + "/" + relative }

    /// Gives the owner every permission on `path` and, for a folder, on everything in it. Symbolic links are not
    /// followed (their targets may be outside the folder), as `chmod -R` doesn't follow them.
    static func openUp(_ path: String) {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT != S_IFLNK else { return }
        if status.st_mode & S_IRWXU != S_IRWXU { chmod(path, (status.st_mode & 0o7777) | S_IRWXU) }
        guard status.st_mode & S_IFMT == S_IFDIR,
              let children = try? FileManager.default.contentsOfDirectory(atPath: path) else { return }
        for child in children { openUp(path + "/" + child) }
    }
}
