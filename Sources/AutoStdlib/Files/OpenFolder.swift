import AutoIntents
import Foundation

/// A folder opened once, by descriptor, and every path under it made or read relative to it (`openat`, `mkdirat`,
/// `symlinkat`, `fstatat`), one name at a time, never following a link: what `unzip`, `copy`, `move` and `zip`
/// create and read trees with (issue 29). A link that is there already, or that an earlier step made, is never
/// gone through, so nothing lands outside the folder whatever the tree holds or becomes meanwhile; a name that is
/// taken (a file, a link, even a dangling one) is never replaced.
final class OpenFolder {
    let descriptor: Int32
    /// Its path, for messages and for resolving where a link made in it points.
    let path: String

    private init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit { close(descriptor) }

    /// `O_PATH`, which Glibc's module doesn't export: a folder opened only to be gone through, which needs no
    /// permission to read it.
    static let pathOnly: Int32 = 0o10000000

    /// The folder at `path`, absolute and resolved (`GrantedPath.resolve`: no `..` and no link in it), opened one
    /// part at a time from `/` without following a link: one that appeared since the path was resolved is an
    /// error, never a way elsewhere. `creating` makes the parts that are missing (0777 less the umask).
    static func open(_ path: String, creating: Bool = false) throws -> OpenFolder {
        guard path.hasPrefix("/") else { throw FileSystemError(description: "'\(path)' is not an absolute path") }
        let root = Glibc.open("/", pathOnly | O_DIRECTORY | O_CLOEXEC)
        guard root >= 0 else { throw FileSystemError(errno, "open", "/") }
        var folder = OpenFolder(descriptor: root, path: "/")
        for part in path.split(separator: "/").map(String.init) {
            if part == "." { continue }
            guard part != ".." else { throw FileSystemError(description: "'\(path)' is not a resolved path") }
            folder = try folder.subfolder(part, creating: creating, mode: 0o777, pathOnly: true)
        }
        // Opened again to be read (listed, changed): a folder that can't be read is still one to create in.
        let readable = openat(folder.descriptor, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        return readable >= 0 ? OpenFolder(descriptor: readable, path: folder.path) : folder
    }

    /// The path of `name` in this folder.
    func path(of name: String) -> String { path == "/" ? "/" + name : path + "/" + name }

    /// The folder `name` in this one, never a link to one; with `creating`, made when missing (`mode`, less the
    /// umask), a folder that is there already being taken as it is.
    func subfolder(_ name: String, creating: Bool = false, mode: mode_t = 0o700, pathOnly: Bool = false) throws -> OpenFolder {
        try Self.check(name)
        let flags = (pathOnly ? Self.pathOnly : O_RDONLY) | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
        var opened = Self.named(name) { openat(descriptor, $0, flags) }
        if opened < 0, errno == ENOENT, creating {
            if Self.named(name, { mkdirat(descriptor, $0, mode) }) != 0, errno != EEXIST { throw FileSystemError(errno, "make the folder", path(of: name)) }
            opened = Self.named(name) { openat(descriptor, $0, flags) }
        }
        guard opened >= 0 else { throw failure(errno, "open the folder", name) }
        return OpenFolder(descriptor: opened, path: path(of: name))
    }

    /// A new folder `name` here, which must not exist in any form; `mode` is set as it is (the umask aside) once
    /// it is made, private to its owner until then.
    func makeFolder(_ name: String, mode: mode_t) throws -> OpenFolder {
        try Self.check(name)
        guard Self.named(name, { mkdirat(descriptor, $0, 0o700) }) == 0 else { throw failure(errno, "make the folder", name) }
        let folder = try subfolder(name)
        guard fchmod(folder.descriptor, mode) == 0 else { throw FileSystemError(errno, "make the folder", folder.path) }
        return folder
    }

    /// A new file `name` here, which must not exist in any form (a dangling link included): made private to its
    /// owner, filled by `fill` (given its descriptor, open for writing), then given `mode`. What fails leaves no file.
    func makeFile(_ name: String, mode: mode_t, filling fill: (Int32) throws -> Void) throws {
        try Self.check(name)
        let output = Self.named(name) { openat(descriptor, $0, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600) }
        guard output >= 0 else { throw failure(errno, "write", name) }
        var done = false
        defer {
            close(output)
            if !done { Self.named(name) { _ = unlinkat(descriptor, $0, 0) } }
        }
        try fill(output)
        guard fchmod(output, mode) == 0 else { throw FileSystemError(errno, "write", path(of: name)) }
        done = true
    }

    /// A new link `name` here pointing to `target`, made as it is: never followed, and `name` must not exist.
    func makeLink(_ name: String, to target: String) throws {
        try Self.check(name)
        let made = FileNameBytes.withCString(target) { target in Self.named(name) { symlinkat(target, descriptor, $0) } }
        guard made == 0 else { throw failure(errno, "make the link", name) }
    }

    /// What `name` here is, a link itself rather than what it points to; nil when there is nothing of that name.
    func status(_ name: String) -> stat? {
        var status = stat()
        return Self.named(name, { fstatat(descriptor, $0, &status, AT_SYMLINK_NOFOLLOW) }) == 0 ? status : nil
    }

    /// The names in this folder (not `.` and `..`), in order.
    func names() throws -> [String] {
        let copy = dup(descriptor)
        guard copy >= 0, let stream = fdopendir(copy) else {
            let code = errno
            if copy >= 0 { close(copy) }
            throw FileSystemError(code, "list", path)
        }
        defer { closedir(stream) }
        rewinddir(stream)
        var names: [String] = []
        errno = 0
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { FileNameBytes.text($0.prefix { $0 != 0 }) }
            if name != ".", name != ".." { names.append(name) }
        }
        guard errno == 0 else { throw FileSystemError(errno, "list", path) }
        return names.sorted()
    }

    /// The regular file `name` here, open for reading, never through a link (nor a pipe left to block on).
    func openFile(_ name: String) throws -> Int32 {
        try Self.check(name)
        let opened = Self.named(name) { openat(descriptor, $0, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC) }
        guard opened >= 0 else { throw failure(errno, "read", name) }
        var status = stat()
        guard fstat(opened, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(opened)
            throw FileSystemError(description: "'\(path(of: name))' is not a file")
        }
        return opened
    }

    /// The target of the link `name` here, as it is written in the link.
    func linkTarget(_ name: String) throws -> String {
        FileNameBytes.text(try linkBytes(name))
    }

    /// The target of the link `name` here, byte for byte.
    func linkBytes(_ name: String) throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = buffer.withUnsafeMutableBufferPointer { pointer in
            pointer.withMemoryRebound(to: CChar.self) { buffer in Self.named(name) { readlinkat(descriptor, $0, buffer.baseAddress!, buffer.count - 1) } }
        }
        guard length >= 0 else { throw FileSystemError(errno, "read the link", path(of: name)) }
        return Array(buffer[..<length])
    }

    /// Removes `name` here and, for a folder, all it holds, going into no link; throws at the first thing that
    /// can't be removed. Nothing of that name is fine: it may have gone meanwhile.
    func remove(_ name: String) throws {
        guard let status = status(name) else { return }
        let isFolder = status.st_mode & S_IFMT == S_IFDIR
        if isFolder {
            let folder = try subfolder(name)
            for inner in try folder.names() { try folder.remove(inner) }
        }
        guard Self.named(name, { unlinkat(descriptor, $0, isFolder ? AT_REMOVEDIR : 0) }) == 0 || errno == ENOENT else {
            throw FileSystemError(errno, "delete", path(of: name))
        }
    }

    /// Calls `body` with `name`'s bytes as a C string (`FileNameBytes`), for a call relative to the folder.
    static func named<Result>(_ name: String, _ body: (UnsafePointer<CChar>) -> Result) -> Result {
        FileNameBytes.withCString(name, body)
    }

    /// A name of one part: never empty, `.`, `..` or with a `/` or a NUL in it.
    static func check(_ name: String) throws {
        guard !name.isEmpty, name != ".", name != "..", !name.contains("/"), !name.utf8.contains(0) else {
            throw FileSystemError(description: "'\(name)' is not a file name")
        }
    }

    /// Why `action` failed on `name` here, in a few words: a name taken, or a link where a folder or a file was
    /// to be, is said so.
    func failure(_ code: Int32, _ action: String, _ name: String) -> FileSystemError {
        let full = path(of: name)
        if code == EEXIST { return FileSystemError(description: "'\(full)' is there already") }
        if code == ELOOP || code == ENOTDIR, let status = status(name) {
            switch status.st_mode & S_IFMT {
            case S_IFLNK: return FileSystemError(description: "'\(full)' is a link, which is never followed here")
            case S_IFDIR: break
            default: return FileSystemError(description: "'\(full)' is not a folder")
            }
        }
        return FileSystemError(code, action, full)
    }
}

/// The rules of a run for what `unzip`, `copy` and `move` create, from its grants (issue 29).
/// - Setuid, setgid and sticky bits are never carried over.
/// - Exec bits are dropped when the run is confined to some folders for writing and may start programs: a granted
///   program could start the file (`env`, `sh -c`, `find -exec`, a hook), and a run must not make its own programs.
///   An unconfined run (writing granted everywhere) and a run that starts no program keep them, as `unzip` would.
/// - A link is made only where it points somewhere the run may write, never followed, and `unzip` keeps links
///   inside the folder it fills; a link moved must point where it did, or where the run may write.
struct CreationRules {
    let grants: Grants

    init(_ grants: Grants) { self.grants = grants }

    /// Whether writing is granted for some folders only (`--sandbox`).
    var confined: Bool { grants.write != .all }

    /// Whether exec bits are kept on what is made.
    var keepsExecBits: Bool { !confined || grants.run == .none }

    /// The mode of a file made from one of `mode`.
    func fileMode(_ mode: mode_t) -> mode_t {
        let permissions = mode & 0o777
        return keepsExecBits ? permissions : permissions & ~0o111
    }

    /// The mode of a folder made from one of `mode`: its owner may always go in and change it (what it holds is
    /// made after it).
    func folderMode(_ mode: mode_t) -> mode_t { mode & 0o777 | 0o700 }

    /// Throws unless a link at `linkPath` with the text `target` points, resolved as the kernel would follow it,
    /// where the run may write (and, given `root`, inside `root`); the error says which link and why.
    func checkLink(_ target: String, at linkPath: String, inside root: String? = nil) throws {
        let pointed = try Self.resolve(target, at: linkPath)
        if let root, !GrantedPath.isInside(pointed, root: root) {
            throw FileSystemError(description: "the link '\(linkPath)' to '\(target)' would point out of the folder, to '\(pointed)'")
        }
        guard grants.allows(.write, path: pointed) else {
            throw FileSystemError(description: "the link '\(linkPath)' would point to '\(pointed)', and \(grants.refusal(.write, "'\(pointed)'"))")
        }
    }

    /// Throws unless a link with the text `target` moved from `oldPath` to `newPath` points where it pointed
    /// before, or else where the run may write: a move never turns a link towards a place outside the grant (a
    /// link to a file outside may still be moved or renamed, and go on pointing to it).
    func checkMovedLink(_ target: String, from oldPath: String, to newPath: String) throws {
        let before = try? Self.resolve(target, at: oldPath)
        // By bytes, as grants compare paths (`GrantedPath.isInside`): two spellings of `café` are two folders.
        if let before, try Self.resolve(target, at: newPath).utf8.elementsEqual(before.utf8) { return }
        try checkLink(target, at: newPath)
    }

    /// Where a link at `linkPath` with the text `target` points, resolved as the kernel would follow it.
    static func resolve(_ target: String, at linkPath: String) throws -> String {
        guard !target.isEmpty else { throw FileSystemError(description: "the link '\(linkPath)' points nowhere") }
        // A link's `~` is a name like any other, never the home folder.
        let text = target.hasPrefix("~") ? "./" + target : target
        do {
            return try GrantedPath.resolve(text, in: (linkPath as NSString).deletingLastPathComponent)
        } catch {
            throw FileSystemError(description: "the link '\(linkPath)' to '\(target)' can't be followed: too many levels of symbolic links")
        }
    }

    /// Refuses to write into the file `status` describes when it has other names (hard links) and the run is
    /// confined: a write in place changes the file under every name, which may be outside what `--allow-write`
    /// granted. A file replaced by a rename would keep its other names' contents, but is refused the same, so
    /// that the rule is one.
    func checkLinkCount(_ status: stat, of path: String) throws {
        guard confined, status.st_mode & S_IFMT == S_IFREG, status.st_nlink > 1 else { return }
        throw FileSystemError(description: "can't write '\(path)': it has \(status.st_nlink) hard links, so the same file has other names, "
                              + "which may be outside what --allow-write granted; this run writes only to files with one name")
    }
}
