#if canImport(Glibc)
import Glibc
#endif

/// A folder walked as `find` lists a tree: each folder's entries in order of name (by their bytes, as `ls` in the
/// C locale), a folder's contents right after it when `recursive`. Links to folders are listed, never entered, so
/// a link loop can't make a walk go round. Shared by `list folder` and `find files`, so both list a tree alike.
package struct FileTree: Sendable {
    /// Resolved and known to be a folder.
    package let root: String
    package let recursive: Bool
    /// Keep the names that start with a dot (left out by default, as `ls` does).
    package let hidden: Bool
    /// Whether each folder's entries are visited in order of name; false: in the order the file system lists them,
    /// for a caller that orders what it keeps itself (`precedesInTree`). Sorting the entries is a fifth of the time of
    /// a search that keeps the ten largest of 100,000 files.
    package var inNameOrder = true

    package init(root: String, recursive: Bool, hidden: Bool) {
        self.root = root
        self.recursive = recursive
        self.hidden = hidden
    }

    /// Calls `visit` with each entry's folder, name and whether it is a folder (not following links), in tree order,
    /// until it returns false. The root that can't be listed is an error; a folder inside that can't (permission
    /// denied, removed meanwhile) is left out, as an entry that vanishes is simply not there.
    /// An explicit stack, not recursion: a deep tree must not exhaust a task's small stack.
    package func walk(_ visit: (_ folder: String, _ name: String, _ isFolder: Bool) throws -> Bool) throws {
        let entries = inNameOrder ? Self.sortedEntries : Self.entries
        var stack: [(folder: String, entries: [(name: String, isFolder: Bool)], next: Int)] = [(root, try entries(root), 0)]
        while let top = stack.indices.last {
            guard stack[top].next < stack[top].entries.count else {
                stack.removeLast()
                continue
            }
            let entry = stack[top].entries[stack[top].next]
            stack[top].next += 1
            if !hidden, entry.name.utf8.first == UInt8(ascii: ".") { continue }
            let folder = stack[top].folder
            guard try visit(folder, entry.name, entry.isFolder) else { return }
            guard recursive, entry.isFolder else { continue }
            let path = Self.path(of: entry.name, in: folder)
            if let inner = try? entries(path) { stack.append((path, inner, 0)) }
        }
    }

    /// The path of `name` in `folder`.
    package static func path(of name: String, in folder: String) -> String {
        folder == "/" ? "/" + name : folder + "/" + name
    }

    /// A folder's entries in order of name. Sorting is most of a walk's own time, so names are first ordered by their
    /// first eight bytes as one number, and compared whole only where those are equal.
    static func sortedEntries(of folder: String) throws(FileSystemFailure) -> [(name: String, isFolder: Bool)] {
        var keyed = try entries(of: folder).map { entry in (prefix: prefix(of: entry.name), entry: entry) }
        keyed.sort { a, b in a.prefix != b.prefix ? a.prefix < b.prefix : precedes(a.entry.name, b.entry.name) }
        return keyed.map(\.entry)
    }

    /// A name's first eight bytes, big-endian and zero-padded, so that comparing two of them as numbers orders them as
    /// their bytes would (a shorter name, padded with zeros, comes first, as `strcmp` puts it).
    static func prefix(of name: String) -> UInt64 {
        var key: UInt64 = 0
        var count = 0
        for byte in name.utf8 {
            key = key << 8 | UInt64(byte)
            count += 1
            if count == 8 { break }
        }
        return count == 8 ? key : key << (8 * UInt64(8 - count))
    }

    /// The names in a folder and whether each is a folder (not following links), from `readdir`: its entry types
    /// save a `stat` per name where the file system gives them, which is most of the time of a large listing.
    package static func entries(of folder: String) throws(FileSystemFailure) -> [(name: String, isFolder: Bool)] {
        guard let directory = FileNameBytes.withCString(folder, { opendir($0) }) else { throw FileSystemFailure(errno, "list", folder) }
        defer { closedir(directory) }
        var entries: [(name: String, isFolder: Bool)] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { name in
                name.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: name.pointee)) { FileNameBytes.text(cString: $0) }
            }
            if name == "." || name == ".." { continue }
            let type = entry.pointee.d_type
            let isFolder: Bool
            if type == UInt8(DT_UNKNOWN) {
                var status = stat()
                isFolder = FileNameBytes.withCString(path(of: name, in: folder)) { lstat($0, &status) } == 0 && status.st_mode & S_IFMT == S_IFDIR
            } else {
                isFolder = type == UInt8(DT_DIR)
            }
            entries.append((name, isFolder))
        }
        return entries
    }

    /// Whether the path `a` comes before `b` in a walk in order of name: compared name by name, which is by their bytes
    /// with `/` below every other (`d/x` before `d-x`, `d` before what is in it).
    package static func precedesInTree(_ a: String, _ b: String) -> Bool {
        for (x, y) in zip(a.utf8, b.utf8) where x != y {
            if x == UInt8(ascii: "/") { return true }
            if y == UInt8(ascii: "/") { return false }
            return x < y
        }
        return a.utf8.count < b.utf8.count
    }

    /// Whether `a` comes before `b` by their UTF-8 bytes (`strcmp`'s order), without walking them as collections.
    package static func precedes(_ a: String, _ b: String) -> Bool {
        var a = a, b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                let shorter = min(x.count, y.count)
                let common = shorter == 0 ? 0 : memcmp(x.baseAddress!, y.baseAddress!, shorter)
                return common != 0 ? common < 0 : x.count < y.count
            }
        }
    }
}

/// A failed file system call, worded for people: what was done, to which path, and why ("can't list '/x':
/// permission denied"). The one owner of how an errno reads, for the engine and the standard library.
package struct FileSystemFailure: Error, Sendable, CustomStringConvertible {
    package let code: Int32
    package let action: String
    package let path: String

    package init(_ code: Int32, _ action: String, _ path: String) {
        self.code = code
        self.action = action
        self.path = path
    }

    package var description: String { "can't \(action) '\(path)': \(Self.reason(for: code))" }

    /// An errno in a few words.
    package static func reason(for code: Int32) -> String {
        switch code {
        case ENOENT: return "there is no such file"
        case EACCES, EPERM: return "permission denied"
        case ENOSPC: return "the disk is full"
        case EDQUOT: return "the disk quota is used up"
        case EFBIG: return "the file would be larger than this process may write"
        case EROFS: return "the file system is read-only"
        case EISDIR: return "it is a folder"
        case ENOTDIR: return "a part of the path is not a folder"
        case ENAMETOOLONG: return "the name is too long"
        case ELOOP: return "too many levels of symbolic links"
        default: return String(cString: strerror(code))
        }
    }
}
