/// How a watch stands, for the daemon to record beside the runs: said when it changes, in order with the events.
package enum FileWatchStatus: Sendable, Equatable, CustomStringConvertible {
    /// The watched folder is not there (missing at start, deleted, moved away, taken from its path by a folder above
    /// it renamed or removed, unmounted): its files were reported deleted, and a folder at its path is waited for.
    case folderMissing(String)
    /// The folder is there again (or at last): watched, and its files reported created.
    case folderWatched(String)
    /// The kernel's queue of events overflowed and events were lost: the tree was read again and the
    /// differences reported, marked `fromRescan`.
    case overflowed(String)
    /// A folder inside the tree can't be watched (permission denied, the limit of watches): changes in it are not
    /// seen, and its files are neither created nor deleted, until a rescan can read it.
    case folderNotWatched(String, reason: String)

    package var description: String {
        switch self {
        case .folderMissing(let folder): return "'\(folder)' is missing; waiting for it"
        case .folderWatched(let folder): return "'\(folder)' is watched again"
        case .overflowed(let folder): return "events in '\(folder)' came faster than they were read; the folder was read again"
        case .folderNotWatched(let folder, let reason): return "'\(folder)' is not watched: \(reason)"
        }
    }
}
