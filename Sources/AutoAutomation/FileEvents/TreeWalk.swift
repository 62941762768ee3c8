import AutoIntents

/// A walk of a watch's tree: each folder is admitted by `enter` (where a watcher adds its inotify watch, before the
/// folder is read, so that a change is either in the listing or reported afterwards, never neither), then listed
/// and handed to `visit` with the entries that belong to the watch: files the glob takes, and folders when the
/// watch is recursive. An explicit stack: a deep tree must not exhaust a thread's stack.
struct TreeWalk {
    enum Admission {
        case list
        /// Gone meanwhile: left out, as if it had not been there.
        case gone
        /// There, but what is in it can't be known: kept apart so that its files don't read as deleted.
        case unreadable
    }

    struct Outcome {
        /// The folder the walk started from was there and listed.
        var listedTop = false
        var unreadable: Set<String> = []
    }

    let spec: WatchSpec

    func walk(from top: String, enter: (String) -> Admission,
              visit: (_ folder: String, _ entries: [(name: String, status: EntryStatus)]) -> Void) -> Outcome {
        var outcome = Outcome()
        var stack = [top]
        while let folder = stack.popLast() {
            switch enter(folder) {
            case .gone: continue
            case .unreadable:
                outcome.unreadable.insert(folder)
                continue
            case .list: break
            }
            switch FolderListing.read(folder, followLink: folder == spec.folder) {
            case .gone: continue
            case .failed:
                outcome.unreadable.insert(folder)
            case .listed(let all):
                if folder == top { outcome.listedTop = true }
                var kept: [(name: String, status: EntryStatus)] = []
                kept.reserveCapacity(all.count)
                for entry in all {
                    if entry.status.kind == .folder {
                        guard spec.recursive else { continue }
                        stack.append(FileTree.path(of: entry.name, in: folder))
                    } else if !spec.includes(fileNamed: entry.name) {
                        continue
                    }
                    kept.append(entry)
                }
                visit(folder, kept)
            }
        }
        return outcome
    }
}
