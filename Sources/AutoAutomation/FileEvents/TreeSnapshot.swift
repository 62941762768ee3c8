import AutoIntents

/// What a watched tree held at one moment: each path with its size, time of change and whether it is a folder.
/// Codable, so that the daemon can keep one per automation and learn at start what changed while it was down.
/// Holds the files the watch's glob takes, and its folders only when the watch is recursive (they are what a
/// recursive watch enters; they never make events, and their size and time are left at 0).
package struct TreeSnapshot: Sendable, Codable, Equatable {
    package struct Entry: Sendable, Codable, Equatable {
        /// Bytes.
        package var size: Int64
        /// Nanoseconds since 1970.
        package var modified: Int64
        package var isFolder: Bool

        package init(size: Int64, modified: Int64, isFolder: Bool) {
            self.size = size
            self.modified = modified
            self.isFolder = isFolder
        }
    }

    /// By absolute path.
    package private(set) var entries: [String: Entry]
    /// Folders inside the tree that could not be read (permission denied): what is in them is unknown, so a file
    /// known there before is not taken for deleted.
    package private(set) var unreadable: Set<String>

    package init(entries: [String: Entry] = [:], unreadable: Set<String> = []) {
        self.entries = entries
        self.unreadable = unreadable
    }

    /// The tree as it is now: recursive when the watch is, never into links to folders, hidden files included.
    /// A folder that vanishes while it is read is left out; a missing watched folder gives an empty snapshot (its
    /// files read as deleted), an unreadable one an empty snapshot that says so (nothing reads as deleted).
    package static func scan(_ spec: WatchSpec) -> TreeSnapshot {
        scanned(spec).snapshot
    }

    /// The snapshot, and whether the watched folder was there (listed, or there but unreadable).
    static func scanned(_ spec: WatchSpec) -> (snapshot: TreeSnapshot, present: Bool) {
        var entries: [String: Entry] = [:]
        let outcome = TreeWalk(spec: spec).walk(from: spec.folder, enter: { _ in .list }) { folder, listed in
            for (name, status) in listed { entries[FileTree.path(of: name, in: folder)] = status.entry }
        }
        return (TreeSnapshot(entries: entries, unreadable: outcome.unreadable), outcome.listedTop || outcome.unreadable.contains(spec.folder))
    }

    /// What happened to the files between this snapshot and `newer`, by path (in the order of their bytes, as
    /// `ls` sorts in the C locale): created, changed (size or time of change differs) or deleted, each marked as
    /// found by a rescan. Folders make no events: a file that became a folder is deleted, and the other way round
    /// created.
    package func changes(to newer: TreeSnapshot) -> [FileEvent] {
        var events: [FileEvent] = []
        for (path, old) in entries where !old.isFolder {
            if let new = newer.entries[path], !new.isFolder {
                if new.size != old.size || new.modified != old.modified { events.append(FileEvent(.changed, path, fromRescan: true)) }
            } else if !newer.isUnknown(path) {
                events.append(FileEvent(.deleted, path, fromRescan: true))
            }
        }
        for (path, new) in newer.entries where !new.isFolder {
            if entries[path].map({ $0.isFolder }) ?? true { events.append(FileEvent(.created, path, fromRescan: true)) }
        }
        return events.sorted { FileTree.precedes($0.path, $1.path) }
    }

    /// Whether `path` is inside a folder this snapshot could not read.
    func isUnknown(_ path: String) -> Bool {
        guard !unreadable.isEmpty else { return false }
        var folder = Substring(path)
        while let slash = folder.lastIndex(of: "/") {
            folder = folder[..<slash]
            if unreadable.contains(folder.isEmpty ? "/" : String(folder)) { return true }
        }
        return false
    }
}
