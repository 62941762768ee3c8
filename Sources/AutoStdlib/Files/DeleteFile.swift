import AutoIntents
import Foundation

/// `delete file "old.log"`: into the trash, where a file manager can restore it from (the freedesktop.org trash:
/// the file under `files/`, its former path and the time under `info/`). `permanently: true` removes it instead,
/// after a confirmation (a destructive change).
struct DeleteFile: AppIntent {
    static let title = "Delete file"
    static let description = IntentDescription(
        "Moves a file or a folder to the trash, from where it can be restored; with permanently: true, removes it for good after a confirmation.",
        category: "Files", searchKeywords: ["rm", "remove", "trash", "erase"], resultName: "trashed")
    static let parameterSummary: ParameterSummary? = "Delete {file}"
    static let sideEffect = SideEffect.changes
    static let capabilities: Set<Capability> = [.write]
    @Parameter(title: "File", question: "Which file?") var file: FileRef
    @Parameter(title: "Remove for good, not to the trash", default: false) var permanently: Bool

    /// Where the file is now, in the trash; its old path when it was removed for good.
    func perform(_ context: IntentContext) async throws -> IntentResult<FileRef> {
        // A link is deleted itself, never what it points to.
        let path = try context.authorize(.write, path: file.path, followingLink: false)
        guard FileInfo.exists(path) else { throw IntentError("there is no file '\(path)' to delete") }
        if path == "/" || path == Trash.home().folder { throw IntentError("'\(path)' is not deleted: it is the whole file system or the trash itself") }
        guard permanently else {
            return .result(value: FileRef(path: try Trash.put(path, now: Date())))
        }
        try await context.requestConfirmation("Delete '\(path)' for good? It will not be in the trash.", actionName: "Delete", destructive: true)
        do {
            try OpenFolder.open(GrantedPath.parent(of: path)).remove((path as NSString).lastPathComponent)
        } catch let error as FileSystemError {
            throw IntentError("can't delete '\(path)': \(error)")
        }
        return .result(value: FileRef(path: path))
    }
}

/// A freedesktop.org trash (Trash specification 1.0): `files/` holds what was deleted, `info/NAME.trashinfo` its
/// former path and when. A file goes to the trash in the home folder when it is on the same file system, or else
/// to `.Trash-UID` at the top of its own file system, so that trashing never copies.
struct Trash {
    let folder: String
    /// The folder the paths in `info` are relative to; nil for absolute paths (the home trash).
    let top: String?

    /// `$XDG_DATA_HOME/Trash`, by default `~/.local/share/Trash`.
    static func home() -> Trash {
        let environment = ProcessInfo.processInfo.environment
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        return Trash(folder: dataHome + "/Trash", top: nil)
    }

    /// Moves `path` to the trash of its file system; returns where it is now.
    static func put(_ path: String, now: Date) throws -> String {
        let home = Trash.home()
        try home.makeFolders()
        if device(of: path) == device(of: home.folder) { return try home.move(path, now: now) }
        let top = topFolder(of: path)
        let own = Trash(folder: top + "/.Trash-\(getuid())", top: top)
        try own.makeFolders()
        return try own.move(path, now: now)
    }

    func makeFolders() throws {
        for folder in [folder, folder + "/files", folder + "/info"] where FileInfo.kind(of: folder, following: true) != .folder {
            guard FileCalls.makeFolders(folder, 0o700) == 0 else {
                throw IntentError("can't make the trash folder '\(folder)': \(FileSystemFailure.reason(for: errno))")
            }
        }
    }

    /// Reserves a name by creating its `.trashinfo` (O_EXCL: two deletes of `a.txt` at once get `a.txt` and
    /// `a.txt.2`), then moves the file under that name; the info goes again if the move fails.
    func move(_ path: String, now: Date) throws -> String {
        let name = (path as NSString).lastPathComponent
        let info = Array(infoText(for: path, now: now).utf8)
        for attempt in 1...1_000 {
            let trashedName = attempt == 1 ? name : "\(name).\(attempt)"
            let infoPath = folder + "/info/" + trashedName + ".trashinfo"
            let descriptor = FileCalls.open(infoPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if descriptor < 0 {
                if errno == EEXIST { continue }
                throw FileSystemError(errno, "write", infoPath)
            }
            do {
                defer { close(descriptor) }
                try AtomicFile.writeAll(info, to: descriptor, path: infoPath)
            } catch {
                _ = FileCalls.unlink(infoPath)
                throw error
            }
            let target = folder + "/files/" + trashedName
            guard FileCalls.rename(path, target) == 0 else {
                let code = errno
                _ = FileCalls.unlink(infoPath)
                throw FileSystemError(code, "move to the trash", path)
            }
            return target
        }
        throw IntentError("can't move '\(path)' to the trash: 1,000 files of that name are in it already")
    }

    /// `[Trash Info]`, the former path (URL-escaped; relative to the top folder for a trash of its own file system)
    /// and the local time of the deletion.
    func infoText(for path: String, now: Date) -> String {
        var shown = path
        if let top, path.hasPrefix(top + "/") { shown = String(path.dropFirst(top.count + 1)) }
        // Percent-escaped byte by byte, so a name that isn't UTF-8 is restored as it was.
        let unreserved = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~/".utf8)
        var escaped = ""
        for byte in FileNameBytes.bytes(shown) {
            if unreserved.contains(byte) { escaped.unicodeScalars.append(Unicode.Scalar(byte)) } else { escaped += "%" + FileNameBytes.hex(byte) }
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        return "[Trash Info]\nPath=\(escaped)\nDeletionDate=\(formatter.string(from: now))\n"
    }

    static func device(of path: String) -> UInt64? {
        var status = stat()
        guard FileCalls.lstat(path, &status) == 0 else { return nil }
        return UInt64(status.st_dev)
    }

    /// The top folder of the file system `path` is on: the last folder above it on the same device.
    static func topFolder(of path: String) -> String {
        let device = device(of: path)
        var top = (path as NSString).deletingLastPathComponent
        while top != "/" {
            let parent = (top as NSString).deletingLastPathComponent
            if self.device(of: parent) != device { break }
            top = parent
        }
        return top
    }
}
