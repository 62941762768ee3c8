import AutoIntents
#if canImport(Glibc)
import Glibc
#endif

/// What `lstat` says of a name, as far as file events care. A link is `.other`, never its target, so a link to a
/// folder is never entered.
struct EntryStatus: Equatable, Sendable {
    enum Kind: Sendable { case folder, regular, other }

    var kind: Kind
    var size: Int64
    /// Nanoseconds since 1970.
    var modified: Int64
    var inode: UInt64
    var links: UInt64

    init(_ status: stat) {
        switch status.st_mode & S_IFMT {
        case S_IFDIR: kind = .folder
        case S_IFREG: kind = .regular
        default: kind = .other
        }
        size = Int64(status.st_size)
        modified = Int64(status.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(status.st_mtim.tv_nsec)
        inode = UInt64(status.st_ino)
        links = UInt64(status.st_nlink)
    }

    /// The name as it is now; nil when it is gone (or can't be looked at, which for a change is the same).
    static func of(_ path: String) -> EntryStatus? {
        var status = stat()
        return FileCalls.lstat(path, &status) == 0 ? EntryStatus(status) : nil
    }

    /// Whether a file at this name is the one known, unchanged: the same size and time of change, and the same
    /// inode (another file renamed over the name is a change even when size and time agree).
    func isUnchanged(from known: EntryStatus) -> Bool {
        size == known.size && modified == known.modified && inode == known.inode
    }

    /// A folder's size and time are left at 0: they change with every name made or removed in it, and no event
    /// depends on them.
    var entry: TreeSnapshot.Entry {
        kind == .folder ? TreeSnapshot.Entry(size: 0, modified: 0, isFolder: true)
            : TreeSnapshot.Entry(size: size, modified: modified, isFolder: false)
    }
}

/// The entries of one folder with the `lstat` of each, read through the folder's own descriptor. A name that isn't
/// UTF-8 is kept as `FileNameBytes` writes it, so the run it reaches names the same file.
enum FolderListing {
    enum Outcome {
        case listed([(name: String, status: EntryStatus)])
        /// Not there, or no longer a folder (removed or replaced while the tree was read).
        case gone
        /// There but not readable (permission denied, too deep a path): what is in it is unknown.
        case failed(Int32)
    }

    /// `followLink`: the watched folder itself may be a link to a folder; one found inside never is followed.
    static func read(_ folder: String, followLink: Bool) -> Outcome {
        let descriptor = FileCalls.open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC | (followLink ? 0 : O_NOFOLLOW))
        guard descriptor >= 0 else {
            let code = errno
            return code == ENOENT || code == ENOTDIR || code == ELOOP ? .gone : .failed(code)
        }
        guard let directory = fdopendir(descriptor) else {
            let code = errno
            close(descriptor)
            return .failed(code)
        }
        defer { closedir(directory) }
        var entries: [(name: String, status: EntryStatus)] = []
        while let entry = readdir(directory) {
            let found = withUnsafePointer(to: entry.pointee.d_name) { tuple in
                let capacity = MemoryLayout.size(ofValue: entry.pointee.d_name)
                return tuple.withMemoryRebound(to: CChar.self, capacity: capacity) { name -> (String, EntryStatus)? in
                    let bytes = UnsafeRawBufferPointer(start: name, count: strlen(name))
                    let text = FileNameBytes.text(bytes)
                    guard text != ".", text != ".." else { return nil }
                    var status = stat()
                    // Gone between readdir and here: it is simply not there.
                    guard fstatat(descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
                    return (text, EntryStatus(status))
                }
            }
            if let found { entries.append((found.0, found.1)) }
        }
        return .listed(entries)
    }
}
