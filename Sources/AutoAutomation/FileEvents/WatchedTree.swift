import AutoIntents
import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// What a `FileEventWatcher` reports, in order: events, and changes of how the watch stands.
enum WatchReport: Sendable, Equatable {
    case event(FileEvent)
    case status(FileWatchStatus)
}

/// What a `FileEventWatcher` knows of its tree, and the rules that turn inotify's records into file events. Its
/// state is the watcher's snapshot, kept as records come: a record is a hint, and what is reported follows from the
/// hint, the file as `lstat` finds it now, and what was known. So a change is reported once, whether the kernel, a
/// scan, or both saw it, and an overflow's rescan reports exactly what the lost records would have.
///
/// The mapping:
/// - a regular file made by IN_CREATE is *created* when it is first closed after writing (IN_CLOSE_WRITE), so one
///   new file is one run, on the complete file; anything else a name can be made into (a link, a hard link, a
///   fifo) is created at once;
/// - IN_MOVED_TO of a new name is *created* (a file renamed into place is complete), over a known name *changed*;
/// - IN_CLOSE_WRITE of a known name is *changed* when the file is not what was known (size, time of change,
///   inode); closing it unchanged is no change; of a name not known (made before its folder was watched, closed
///   after), *created*;
/// - a scan (of a folder that appeared, or after an overflow) reports what it finds at once, even a file still
///   being written: when the file's IN_CREATE comes after (the scan saw it being made), its first close completes
///   that creation and is not reported; when it doesn't (the file was opened before its folder's watch existed),
///   its close is a change, since nothing tells it from a write that began after the scan;
/// - IN_DELETE and IN_MOVED_FROM of a known name are *deleted*;
/// - a name gone (or now a folder) by the time its record is read makes no event; the record of its removal is
///   further on, and a file created and removed before it was seen makes none at all;
/// - folders make no events; with `recursive`, one that appears is watched, then read, its files reported
///   *created* (`fromRescan`), and one that goes away takes its files with it (*deleted*).
///
/// The watch is of the path: the watched folder renamed, removed, or taken from its path by a folder above it
/// renamed or removed (which the folders above are watched for), is missing — its files deleted, and whatever
/// happens to it where it went not reported — until a folder is at the path again, which is then read, its files
/// *created* (`fromRescan`).
/// Not thread-safe: the watcher keeps it behind a lock.
struct WatchedTree {
    struct Folder {
        var watch: Int32?
        /// The files the glob takes, by name.
        var files: [String: EntryStatus] = [:]
        /// The folders inside, by name (recursive watches only).
        var folders: Set<String> = []
    }

    /// What a scan found at the folder it started from.
    enum Found {
        case listed
        case gone
        /// There, but it can't be watched or read.
        case unreadable
    }

    enum Root: Equatable {
        /// Watched, and found at its path as this folder (nil: gone as soon as it was listed).
        case watched(FolderIdentity?)
        /// Not there: waited for through the folders above it that are (`above`).
        case missing
    }

    static let folderMask = UInt32(IN_CREATE | IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_DELETE_SELF
                                   | IN_MOVE_SELF | IN_ONLYDIR | IN_EXCL_UNLINK)
    /// A folder above the watched one: renamed or removed, it takes the watched folder from its path.
    static let aboveMask = UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)
    /// The nearest folder above a missing watched folder: also the names made in it, one of which is on the way.
    static let nearestMask = aboveMask | UInt32(IN_CREATE | IN_MOVED_TO)

    let spec: WatchSpec
    let watches: InotifyWatches
    private(set) var folders: [String: Folder] = [:]
    private var pathOfWatch: [Int32: String] = [:]
    /// The folders above the watched one that are there, by watch (but "/", which never moves, unless it is where
    /// a missing folder is waited for).
    private var above: [Int32: String] = [:]
    /// While the watched folder is missing: the nearest folder above it, whose new names are looked at.
    private var waitingIn: String?
    /// Regular files created and not yet closed after writing.
    private var pending: Set<String> = []
    /// Files a scan reported created while they were being made (their IN_CREATE came after): their first close
    /// after writing is part of the creation.
    private var completing: Set<String> = []
    /// Folders inside the tree that couldn't be watched or read.
    private var unreadable: Set<String> = []
    private(set) var root = Root.missing
    /// Records are handled once `start` has begun watching; an overflow before was of no watch of this tree.
    private var started = false
    /// What is still to be reported.
    private var reports: [WatchReport] = []

    init(spec: WatchSpec, watches: InotifyWatches) {
        self.spec = spec
        self.watches = watches
    }

    /// Watches and reads the tree for the first time; with `since` (what an earlier watch knew), reports how the
    /// tree differs from it. A folder that is missing is waited for; the limits, or a folder that is there but
    /// can't be watched, are errors. What it has to report is kept for the first `handle`.
    mutating func start(since: TreeSnapshot?) throws(FileWatchError) {
        started = true
        var status = stat()
        if FileCalls.stat(spec.folder, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFDIR else { throw .notAFolder(spec.folder) }
            if try reconcile(spec.folder, strict: true, report: false) == .listed { rootWatched() }
        }
        if let since { reports += since.changes(to: snapshot()).filter { spec.kinds.contains($0.kind) }.map(WatchReport.event) }
        if root == .missing {
            reports.append(.status(.folderMissing(spec.folder)))
            waitForRoot()
        }
    }

    /// The reports that follow from records read together, in order, after those still to be reported.
    mutating func handle(_ records: [InotifyRecord]) -> [WatchReport] {
        if started { for record in records { handle(record) } }
        return takeReports()
    }

    /// What the tree holds as far as the watch knows; equal to `TreeSnapshot.scan(spec)` when all is reported.
    func snapshot() -> TreeSnapshot {
        var entries: [String: TreeSnapshot.Entry] = [:]
        for (path, folder) in folders {
            for (name, status) in folder.files { entries[FileTree.path(of: name, in: path)] = status.entry }
            for name in folder.folders { entries[FileTree.path(of: name, in: path)] = TreeSnapshot.Entry(size: 0, modified: 0, isFolder: true) }
        }
        return TreeSnapshot(entries: entries, unreadable: unreadable)
    }

    private mutating func takeReports() -> [WatchReport] {
        defer { reports = [] }
        return reports
    }

    private mutating func handle(_ record: InotifyRecord) {
        if record.has(IN_Q_OVERFLOW) {
            overflowed()
            return
        }
        if let folder = above[record.watch] {
            folderAboveChanged(folder, record)
            // The same folder may be in the tree too (the path leads back up through a link).
            guard pathOfWatch[record.watch] != nil else { return }
        }
        guard let folder = pathOfWatch[record.watch] else { return }
        if record.has(IN_IGNORED) {
            pathOfWatch[record.watch] = nil
            folders[folder]?.watch = nil
            if folder == spec.folder { rootGone() }
            return
        }
        if record.has(IN_DELETE_SELF | IN_MOVE_SELF) {
            // A folder inside goes with the record its parent gets; only the root has no parent watched.
            if folder == spec.folder { rootGone() }
            return
        }
        guard let name = record.name else { return }
        let path = FileTree.path(of: name, in: folder)
        if record.has(IN_ISDIR) {
            guard spec.recursive else { return }
            if record.has(IN_CREATE | IN_MOVED_TO) {
                // Tries once: a folder inside that can't be watched is reported, not thrown.
                _ = try? reconcile(path, strict: false, report: true)
            } else if record.has(IN_DELETE | IN_MOVED_FROM) {
                removeSubtree(path, from: folder, named: name)
            }
            return
        }
        guard spec.includes(fileNamed: name), folders[folder] != nil else { return }
        fileChanged(name, in: folder, at: path, record)
    }

    private mutating func fileChanged(_ name: String, in folder: String, at path: String, _ record: InotifyRecord) {
        let known = folders[folder]?.files[name]
        if record.has(IN_DELETE | IN_MOVED_FROM) {
            pending.remove(path)
            completing.remove(path)
            if known != nil {
                folders[folder]?.files[name] = nil
                emit(.deleted, path)
            }
            return
        }
        guard let now = EntryStatus.of(path), now.kind != .folder else {
            pending.remove(path)
            completing.remove(path)
            return
        }
        if record.has(IN_CREATE) {
            // Known already: a scan of a new folder, or a rescan, found it first, maybe half made.
            guard known == nil else {
                if now.kind == .regular { completing.insert(path) }
                return
            }
            if now.kind == .regular, now.links == 1 {
                pending.insert(path)
            } else {
                folders[folder]?.files[name] = now
                emit(.created, path)
            }
            return
        }
        guard record.has(IN_CLOSE_WRITE | IN_MOVED_TO) else { return }
        pending.remove(path)
        if completing.remove(path) != nil, record.has(IN_CLOSE_WRITE), known != nil {
            folders[folder]?.files[name] = now
            return
        }
        if let known {
            guard !now.isUnchanged(from: known) else { return }
            folders[folder]?.files[name] = now
            emit(.changed, path)
        } else {
            folders[folder]?.files[name] = now
            emit(.created, path)
        }
    }

    // MARK: Scans

    /// Reads the subtree at `top` again, watching the folders in it that have no watch, and reports how its files
    /// differ from what was known of them, marked `fromRescan`; what was read replaces what was known. `strict`: a
    /// folder that can't be watched is an error (at start) rather than a status.
    @discardableResult
    private mutating func reconcile(_ top: String, strict: Bool, report: Bool) throws(FileWatchError) -> Found {
        let before = subtree(top)
        for path in before.folders { folders[path] = nil }
        for watch in before.watches { pathOfWatch[watch] = nil }
        unreadable = unreadable.filter { !Self.isInside($0, top) }

        var added: Set<Int32> = []
        var failure: FileWatchError?
        var notWatched: [(String, String)] = []
        let outcome = TreeWalk(spec: spec).walk(from: top, enter: { folder in
            let (watch, code) = watches.add(folder, mask: Self.folderMask | (folder == spec.folder ? 0 : UInt32(IN_DONT_FOLLOW)))
            if watch >= 0 {
                // A folder moved here from elsewhere in the tree keeps its watch: it is no longer there.
                if let elsewhere = pathOfWatch[watch] { folders[elsewhere]?.watch = nil }
                pathOfWatch[watch] = folder
                folders[folder] = Folder(watch: watch)
                added.insert(watch)
                return .list
            }
            switch code {
            case ENOENT, ENOTDIR, ELOOP: return .gone
            case ENOSPC:
                // Every folder after this one would fail alike: one error, or one status for the lot.
                if failure == nil {
                    failure = .watchLimit(folder)
                    notWatched.append((folder, InotifyLimit.watches.reached))
                }
                return .unreadable
            default:
                let error = FileWatchError.failed(code, folder)
                if failure == nil, strict, folder == spec.folder { failure = error }
                notWatched.append((folder, FileSystemFailure.reason(for: code)))
                return .unreadable
            }
        }, visit: { folder, entries in
            var state = folders[folder] ?? Folder()
            for (name, status) in entries {
                if status.kind == .folder { state.folders.insert(name) } else { state.files[name] = status }
            }
            folders[folder] = state
        })
        for watch in before.watches where !added.contains(watch) { release(watch) }
        if strict, let failure {
            for watch in added {
                pathOfWatch[watch] = nil
                release(watch)
            }
            throw failure
        }
        unreadable.formUnion(outcome.unreadable)

        if top != spec.folder {
            let parent = String(top[..<(top.lastIndex(of: "/") ?? top.startIndex)])
            let name = String(top[top.index(after: top.lastIndex(of: "/") ?? top.startIndex)...])
            if outcome.listedTop || outcome.unreadable.contains(top) {
                folders[parent.isEmpty ? "/" : parent]?.folders.insert(name)
            } else {
                folders[parent.isEmpty ? "/" : parent]?.folders.remove(name)
            }
        }
        for (folder, reason) in notWatched { reports.append(.status(.folderNotWatched(folder, reason: reason))) }
        let found = outcome.listedTop ? Found.listed : outcome.unreadable.contains(top) ? .unreadable : .gone
        guard report else { return found }

        let after = subtree(top)
        var events: [FileEvent] = []
        for (path, status) in after.files {
            pending.remove(path)
            if let old = before.files[path] {
                if !status.isUnchanged(from: old) { events.append(FileEvent(.changed, path, fromRescan: true)) }
            } else {
                events.append(FileEvent(.created, path, fromRescan: true))
            }
        }
        let known = TreeSnapshot(unreadable: unreadable)
        for path in before.files.keys where after.files[path] == nil && !known.isUnknown(path) {
            events.append(FileEvent(.deleted, path, fromRescan: true))
        }
        pending = pending.filter { !Self.isInside($0, top) }
        completing = completing.filter { !Self.isInside($0, top) || after.files[$0] != nil }
        for event in events.sorted(by: { FileTree.precedes($0.path, $1.path) }) { emit(event) }
        return found
    }

    /// The kernel dropped records: read the whole tree again.
    private mutating func overflowed() {
        guard case .watched = root else {
            // What was lost may be the folder's return, or a move of a folder above.
            waitingIn = nil
            waitForRoot()
            return
        }
        reports.append(.status(.overflowed(spec.folder)))
        // What was lost may be a move that took the folder from its path.
        guard !pathChanged() else { return rootGone() }
        watchAbove(waitingIn: nil)
        if (try? reconcile(spec.folder, strict: false, report: true)) == .gone { rootGone() }
    }

    /// Everything known under `top` (itself included): its files by path, its folders and their watches.
    private func subtree(_ top: String) -> (files: [String: EntryStatus], folders: [String], watches: [Int32]) {
        var files: [String: EntryStatus] = [:]
        var found: [String] = []
        var watches: [Int32] = []
        var stack = [top]
        while let path = stack.popLast() {
            guard let folder = folders[path] else { continue }
            found.append(path)
            if let watch = folder.watch { watches.append(watch) }
            for (name, status) in folder.files { files[FileTree.path(of: name, in: path)] = status }
            for name in folder.folders { stack.append(FileTree.path(of: name, in: path)) }
        }
        return (files, found, watches)
    }

    /// A folder inside went away (deleted, or moved out or elsewhere): its files are deleted, its watches dropped.
    private mutating func removeSubtree(_ top: String, from parent: String, named name: String) {
        folders[parent]?.folders.remove(name)
        let gone = subtree(top)
        for watch in gone.watches {
            pathOfWatch[watch] = nil
            release(watch)
        }
        for path in gone.folders { folders[path] = nil }
        pending = pending.filter { !Self.isInside($0, top) }
        completing = completing.filter { !Self.isInside($0, top) }
        unreadable = unreadable.filter { !Self.isInside($0, top) }
        for path in gone.files.keys.sorted(by: FileTree.precedes) { emit(.deleted, path) }
    }

    // MARK: The watched folder going and coming back

    /// The watched folder is listed and watched: from now on the folders above it are watched too.
    private mutating func rootWatched() {
        root = .watched(FolderIdentity.of(spec.folder))
        watchAbove(waitingIn: nil)
    }

    /// Whether the watched path no longer leads to the folder watched.
    private func pathChanged() -> Bool {
        guard case .watched(let identity) = root else { return false }
        let now = FolderIdentity.of(spec.folder)
        return now == nil || now != identity
    }

    /// The watched folder is gone (deleted, moved, unmounted, or taken from its path): the files known in it are
    /// reported deleted, and its return is waited for.
    private mutating func rootGone() {
        guard case .watched = root else { return }
        let gone = subtree(spec.folder)
        let dropped = pathOfWatch.keys
        pathOfWatch = [:]
        for watch in dropped { release(watch) }
        folders = [:]
        pending = []
        completing = []
        unreadable = []
        root = .missing
        for path in gone.files.keys.sorted(by: FileTree.precedes) { emit(.deleted, path) }
        reports.append(.status(.folderMissing(spec.folder)))
        waitingIn = nil
        waitForRoot()
    }

    /// Watches the watched folder again if it is back; otherwise the folders above it, the nearest of which says
    /// when the next folder on the way is made. The folder is looked for once more after the watches are added, so
    /// that one made in between is not missed. A folder back but unreadable is reported, and waited for as if
    /// missing (it may be made again).
    private mutating func waitForRoot() {
        var unreadableRoot = false
        for _ in 0..<64 {
            if !unreadableRoot, Self.isFolder(spec.folder) {
                switch (try? reconcile(spec.folder, strict: false, report: true)) ?? .gone {
                case .listed:
                    reports.append(.status(.folderWatched(spec.folder)))
                    rootWatched()
                    return
                case .unreadable: unreadableRoot = true
                case .gone: continue
                }
            }
            let nearest = Self.nearestFolder(above: spec.folder)
            // Waiting there already, since before the last look: nothing was made in between.
            if waitingIn == nearest { return }
            if watchAbove(waitingIn: nearest), unreadableRoot { return }
        }
    }

    /// Watches the folders above the watched one, from the top down to `nearest` while it is missing (nil: down to
    /// its parent), in place of those watched before. False when one of them is not there (the path changed
    /// meanwhile: look again). One that can't be watched (no permission, the limit of watches) is left out: its
    /// moves go unseen; the nearest one is reported, as the folder's return would go unseen.
    @discardableResult
    private mutating func watchAbove(waitingIn nearest: String?) -> Bool {
        let before = above
        above = [:]
        waitingIn = nil
        var complete = true
        for folder in Self.folders(above: spec.folder, downTo: nearest) {
            let (watch, code) = watches.add(folder, mask: folder == nearest ? Self.nearestMask : Self.aboveMask)
            if watch >= 0 {
                above[watch] = folder
            } else if code == ENOENT || code == ENOTDIR {
                complete = false
                break
            } else if folder == nearest {
                reports.append(.status(.folderNotWatched(spec.folder, reason: FileWatchError.failed(code, folder).description)))
            }
        }
        if complete { waitingIn = nearest }
        for watch in before.keys where above[watch] == nil { release(watch) }
        return complete
    }

    /// A record of a folder above: moved or removed, the watched path may lead elsewhere or nowhere now; while the
    /// watched folder is missing, a name made in the nearest one may be the next folder on the way.
    private mutating func folderAboveChanged(_ folder: String, _ record: InotifyRecord) {
        // The kernel dropped the watch (removed, unmounted): nothing to let go of.
        if record.has(IN_IGNORED) { above[record.watch] = nil }
        if record.has(IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF) {
            if case .watched = root {
                if pathChanged() { rootGone() } else { watchAbove(waitingIn: nil) }
            } else {
                waitingIn = nil
                waitForRoot()
            }
        } else if root == .missing, folder == waitingIn, let name = record.name,
                  Self.isInside(spec.folder, FileTree.path(of: name, in: folder)) {
            waitingIn = nil
            waitForRoot()
        }
    }

    /// Lets the instance drop a watch the tree no longer uses (another watcher of the same folder may still).
    private mutating func release(_ watch: Int32) {
        guard pathOfWatch[watch] == nil, above[watch] == nil else { return }
        watches.remove(watch)
    }

    /// The folders above `path` from the top ("/" only when it is `nearest`), down to `nearest` (nil: its parent).
    static func folders(above path: String, downTo nearest: String?) -> [String] {
        if nearest == "/" { return ["/"] }
        var found: [String] = []
        for index in path.indices.dropFirst() where path[index] == "/" {
            found.append(String(path[..<index]))
            if found.last == nearest { break }
        }
        return found
    }

    /// The nearest folder above `path` that is there ("/" at worst).
    static func nearestFolder(above path: String) -> String {
        var folder = Substring(path)
        while let slash = folder.lastIndex(of: "/") {
            folder = folder[..<slash]
            let candidate = folder.isEmpty ? "/" : String(folder)
            if isFolder(candidate) { return candidate }
        }
        return "/"
    }

    /// Whether `path` is a folder, following links (the watched folder may be a link to one).
    static func isFolder(_ path: String) -> Bool {
        var status = stat()
        return FileCalls.stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }

    /// Whether `path` is `folder` or inside it.
    static func isInside(_ path: String, _ folder: String) -> Bool {
        path == folder || (path.hasPrefix(folder) && (folder == "/" || path.utf8.dropFirst(folder.utf8.count).first == UInt8(ascii: "/")))
    }

    private mutating func emit(_ kind: FileEvent.Kind, _ path: String) {
        emit(FileEvent(kind, path))
    }

    private mutating func emit(_ event: FileEvent) {
        if spec.kinds.contains(event.kind) { reports.append(.event(event)) }
    }
}

/// A folder as the kernel knows it, whatever path leads to it: its file system and inode.
struct FolderIdentity: Equatable {
    let device: UInt64
    let inode: UInt64

    /// The folder at `path`, following links; nil when there is none.
    static func of(_ path: String) -> FolderIdentity? {
        var status = stat()
        guard FileCalls.stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else { return nil }
        return FolderIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }
}
