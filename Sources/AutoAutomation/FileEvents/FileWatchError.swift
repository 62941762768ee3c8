import AutoIntents
import Foundation

/// Why watching a folder can't start, worded for the person who wrote the trigger, with what to do about it.
/// The one owner of these sentences, for the file-event watcher and the daemon's script watcher alike.
package struct FileWatchError: Error, Sendable, Equatable, CustomStringConvertible {
    package let description: String

    init(_ description: String) {
        self.description = description
    }

    /// `inotify_add_watch` said ENOSPC: not a full disk but the per-user count of watches.
    static func watchLimit(_ folder: String) -> FileWatchError {
        FileWatchError("can't watch '\(folder)': \(InotifyLimit.watches.reached)")
    }

    /// `inotify_init1` said EMFILE: the per-user count of inotify instances, or this process's open files.
    static func instanceLimit(_ folder: String) -> FileWatchError {
        FileWatchError("can't watch '\(folder)': \(InotifyLimit.instances.reached), or this process has as many files open as it may "
                       + "(ulimit -n: \(InotifyLimit.openFileLimit.map(String.init) ?? "unknown"))")
    }

    /// Any other failure of a system call on `folder`.
    static func failed(_ code: Int32, _ folder: String) -> FileWatchError {
        switch code {
        case ENOSPC: return watchLimit(folder)
        case EMFILE: return instanceLimit(folder)
        default: return FileWatchError("can't watch '\(folder)': \(FileSystemFailure.reason(for: code))")
        }
    }

    static func notAFolder(_ path: String) -> FileWatchError {
        FileWatchError("can't watch '\(path)': it is not a folder; watch the folder that holds it, with a pattern for its name")
    }

    static func notAbsolute(_ path: String) -> FileWatchError {
        FileWatchError("can't watch '\(path)': the path must be absolute")
    }
}

/// A per-user limit the kernel puts on inotify (`sysctl fs.inotify.…`), read where the kernel shows it.
enum InotifyLimit: String {
    case watches = "max_user_watches"
    case instances = "max_user_instances"

    var setting: String { "fs.inotify." + rawValue }

    /// The limit as the kernel has it now; nil where /proc can't be read.
    var current: Int? {
        guard let text = try? String(contentsOfFile: "/proc/sys/fs/inotify/" + rawValue, encoding: .utf8) else { return nil }
        return Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// What reaching it means and how to raise it.
    var reached: String {
        let what = self == .watches ? "watches (one per folder watched)" : "instances (a process's file watches share one)"
        let value = current
        let raised = value.map { String(max($0 * 4, self == .watches ? 65536 : 1024)) } ?? (self == .watches ? "524288" : "1024")
        return "the limit of inotify \(what) for this user is reached (\(setting) = \(value.map(String.init) ?? "unknown")); "
            + "raise it as root with 'sysctl \(setting)=\(raised)' (and a file in /etc/sysctl.d/ to keep it), or watch fewer folders"
    }

    /// This process's limit of open files (`ulimit -n`), which EMFILE can also mean.
    static var openFileLimit: UInt64? {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
        return UInt64(limit.rlim_cur)
    }
}
