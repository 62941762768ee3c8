import AutoIntents
import Foundation

/// `copy file "a.txt" to "~/Backup"`: into a folder, or to a new path. A folder is copied with all it holds.
struct CopyFile: AppIntent {
    static let title = "Copy file"
    static let description = IntentDescription(
        "Copies a file or a folder (with all it holds) into a folder or to a new path; a file there is replaced only with replacing: true.",
        category: "Files", searchKeywords: ["cp", "duplicate"], resultName: "copy")
    static let parameterSummary: ParameterSummary? = "Copy {file} to {to}"
    static let sideEffect = SideEffect.changes
    static let capabilities: Set<Capability> = [.read, .write]
    @Parameter(title: "File", question: "Which file?") var file: FileRef
    @Parameter(title: "Destination", question: "Copy it where?") var to: FileRef
    @Parameter(title: "Replace a file that exists", default: false) var replacing: Bool

    func perform(_ context: IntentContext) async throws -> IntentResult<FileRef> {
        let source = try context.authorize(.read, path: file.path)
        guard FileInfo.exists(source) else { throw IntentError("there is no file '\(source)' to copy") }
        let target = try context.authorize(.write, path: try FileInfo.target(for: source, at: try context.authorize(.write, path: to.path),
                                                                           replacing: replacing, verb: "copy"), followingLink: false)
        let rules = CreationRules(context.grants)
        if FileInfo.kind(of: source, following: true) == .file {
            // Written beside the target and renamed over it: a replaced file is whole, old or new.
            let data = try FileInfo.contents(of: source)
            var status = stat()
            let mode = FileCalls.stat(source, &status) == 0 ? rules.fileMode(status.st_mode) : nil
            try AtomicFile.write(data, to: target, keepingModeOf: mode, rules: rules)
        } else {
            if GrantedPath.isInside(target, root: source) { throw IntentError("can't copy '\(source)' into itself ('\(target)')") }
            do {
                let from = try OpenFolder.open((source as NSString).deletingLastPathComponent)
                let into = try OpenFolder.open((target as NSString).deletingLastPathComponent)
                try FileTrees.copy((source as NSString).lastPathComponent, in: from, to: (target as NSString).lastPathComponent, in: into,
                                   landingAt: target, rules: rules, context: context)
            } catch let error as FileSystemError {
                throw IntentError("can't copy '\(source)' to '\(target)': \(error)")
            }
        }
        return .result(value: FileRef(path: target))
    }
}

/// `move file "a.txt" to "~/Archive"`: into a folder, or to a new path.
struct MoveFile: AppIntent {
    static let title = "Move file"
    static let description = IntentDescription(
        "Moves a file or a folder into a folder or to a new path; a file there is replaced only with replacing: true.",
        category: "Files", searchKeywords: ["mv"], resultName: "moved")
    static let parameterSummary: ParameterSummary? = "Move {file} to {to}"
    static let sideEffect = SideEffect.changes
    static let capabilities: Set<Capability> = [.write]
    @Parameter(title: "File", question: "Which file?") var file: FileRef
    @Parameter(title: "Destination", question: "Move it where?") var to: FileRef
    @Parameter(title: "Replace a file that exists", default: false) var replacing: Bool

    func perform(_ context: IntentContext) async throws -> IntentResult<FileRef> {
        let source = try context.authorize(.write, path: file.path, followingLink: false)
        guard FileInfo.exists(source) else { throw IntentError("there is no file '\(source)' to move") }
        let target = try context.authorize(.write, path: try FileInfo.target(for: source, at: try context.authorize(.write, path: to.path),
                                                                           replacing: replacing, verb: "move"), followingLink: false)
        try FileMoves.move(source, to: target, context: context)
        return .result(value: FileRef(path: target))
    }
}

/// `rename file "draft.txt" to "final.txt"`: a new name in the same folder.
struct RenameFile: AppIntent {
    static let title = "Rename file"
    static let description = IntentDescription("Gives a file or a folder a new name in the same folder; a file of that name is replaced only with replacing: true.",
                                               category: "Files", searchKeywords: ["mv", "name"], resultName: "renamed")
    static let parameterSummary: ParameterSummary? = "Rename {file} to {to}"
    static let sideEffect = SideEffect.changes
    static let capabilities: Set<Capability> = [.write]
    @Parameter(title: "File", question: "Which file?") var file: FileRef
    @Parameter(title: "New name", question: "What name?") var to: String
    @Parameter(title: "Replace a file that exists", default: false) var replacing: Bool

    func perform(_ context: IntentContext) async throws -> IntentResult<FileRef> {
        guard !to.isEmpty, !to.contains("/"), to != ".", to != ".." else {
            throw IntentError("'\(to)' is not a file name; to move the file elsewhere, use move file")
        }
        let source = try context.authorize(.write, path: file.path, followingLink: false)
        guard FileInfo.exists(source) else { throw IntentError("there is no file '\(source)' to rename") }
        let folder = (source as NSString).deletingLastPathComponent
        let target = try context.authorize(.write, path: try FileInfo.target(for: source, at: folder + "/" + to, replacing: replacing, verb: "rename"),
                                           followingLink: false)
        try FileMoves.move(source, to: target, context: context)
        return .result(value: FileRef(path: target))
    }
}

/// Moving on the file system: a rename where it can be one, a copy and a removal across file systems. In a run
/// confined for writing, every link moved (the file itself, or one in a folder moved) must point, from where it
/// lands, where it pointed before or somewhere the run may write: a relative link moved elsewhere points elsewhere
/// (issue 29: `box/sub/up → ..` moved to `box/up` would point out of the grant).
enum FileMoves {
    static func move(_ source: String, to target: String, context: IntentContext) throws {
        let rules = CreationRules(context.grants)
        let name = (source as NSString).lastPathComponent, newName = (target as NSString).lastPathComponent
        do {
            if rules.confined {
                let from = try OpenFolder.open((source as NSString).deletingLastPathComponent)
                try checkLinks(name, in: from, from: source, landingAt: target, rules: rules, context: context)
            }
            if FileCalls.rename(source, target) == 0 { return }
            let code = errno
            // rename(2)'s EINVAL: the target is inside the folder that moves ("Invalid argument" said nothing).
            if code == EINVAL, target.hasPrefix(source.hasSuffix("/") ? source : source + "/") {
                throw IntentError("can't move the folder '\(source)' into itself: the target '\(target)' is inside it")
            }
            guard code == EXDEV else { throw FileSystemError(code, "move", source) }
            // Across file systems: copied under a temporary name beside the target (by the rules of a copy), renamed
            // over it, and only then the source removed.
            let from = try OpenFolder.open((source as NSString).deletingLastPathComponent)
            let into = try OpenFolder.open((target as NSString).deletingLastPathComponent)
            let temporary = "." + newName + ".auto-\(UUID().uuidString.prefix(8))"
            try FileTrees.copy(name, in: from, to: temporary, in: into, landingAt: target, movedFrom: source, rules: rules, context: context)
            // A folder can't be renamed over a file: the file it replaces goes first.
            if let copied = into.status(temporary), copied.st_mode & S_IFMT == S_IFDIR,
               let existing = into.status(newName), existing.st_mode & S_IFMT != S_IFDIR {
                OpenFolder.named(newName) { _ = unlinkat(into.descriptor, $0, 0) }
            }
            let renamed = OpenFolder.named(temporary) { temporary in OpenFolder.named(newName) { renameat(into.descriptor, temporary, into.descriptor, $0) } }
            guard renamed == 0 else {
                let code = errno
                try? into.remove(temporary)
                throw FileSystemError(code, "move", source)
            }
            try from.remove(name)
        } catch let error as FileSystemError {
            throw IntentError("can't move '\(source)' to '\(target)': \(error)")
        }
    }

    /// Refuses the move when a link in what moves (at `oldPath`) would point, from where it lands (`newPath`),
    /// somewhere else that the run may not write.
    static func checkLinks(_ name: String, in folder: OpenFolder, from oldPath: String, landingAt newPath: String, rules: CreationRules,
                           context: IntentContext) throws {
        try context.checkCancellation()
        guard let status = folder.status(name) else { return }
        switch status.st_mode & S_IFMT {
        case S_IFLNK:
            try rules.checkMovedLink(try folder.linkTarget(name), from: oldPath, to: newPath)
        case S_IFDIR:
            let inner = try folder.subfolder(name)
            for child in try inner.names() {
                try checkLinks(child, in: inner, from: oldPath + "/" + child, landingAt: newPath + "/" + child, rules: rules, context: context)
            }
        default:
            break
        }
    }
}

/// Copying a tree relative to folders opened once (`OpenFolder`): every path made with `mkdirat`, `openat` and
/// `symlinkat`, never over anything there and never through a link; a file's bytes read without following a
/// link; a link copied as a link, once `CreationRules.checkLink` allows where it points from its new place; modes
/// as `CreationRules` says.
enum FileTrees {
    /// Copies `name` in `source` to `newName` in `target`, which must not exist: a file, a folder with all it
    /// holds, or a link. What was made is removed again when the copy fails. `landingPath` is where the copy ends
    /// up (a move renames it there), what its links are checked from; for a move, `oldPath` is where it was, and a
    /// link is checked as a moved one (`CreationRules.checkMovedLink`).
    static func copy(_ name: String, in source: OpenFolder, to newName: String, in target: OpenFolder, landingAt landingPath: String,
                     movedFrom oldPath: String? = nil, rules: CreationRules, context: IntentContext) throws {
        try context.checkCancellation()
        guard let status = source.status(name) else { throw FileSystemError(ENOENT, "copy", source.path(of: name)) }
        switch status.st_mode & S_IFMT {
        case S_IFDIR:
            let from = try source.subfolder(name)
            let made = try target.makeFolder(newName, mode: rules.folderMode(status.st_mode))
            do {
                for child in try from.names() {
                    try copy(child, in: from, to: child, in: made, landingAt: landingPath + "/" + child, movedFrom: oldPath.map { $0 + "/" + child },
                             rules: rules, context: context)
                }
            } catch {
                try? target.remove(newName)
                throw error
            }
        case S_IFREG:
            let input = try source.openFile(name)
            defer { close(input) }
            try target.makeFile(newName, mode: rules.fileMode(status.st_mode)) { output in
                try copyBytes(from: input, to: output, path: target.path(of: newName))
            }
        case S_IFLNK:
            let text = try source.linkTarget(name)
            if let oldPath {
                try rules.checkMovedLink(text, from: oldPath, to: landingPath)
            } else {
                try rules.checkLink(text, at: landingPath)
            }
            try target.makeLink(newName, to: text)
        default:
            throw FileSystemError(description: "'\(source.path(of: name))' is neither a file, a folder nor a link")
        }
    }

    static func copyBytes(from input: Int32, to output: Int32, path: String) throws {
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let read = buffer.withUnsafeMutableBytes { Glibc.read(input, $0.baseAddress, $0.count) }
            if read < 0 {
                if errno == EINTR { continue }
                throw FileSystemError(errno, "read", path)
            }
            if read == 0 { return }
            try AtomicFile.writeAll(buffer[..<read], to: output, path: path)
        }
    }
}
