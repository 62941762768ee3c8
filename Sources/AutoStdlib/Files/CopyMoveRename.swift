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
        if FileInfo.kind(of: source, following: true) == .file {
            // Written beside the target and renamed over it: a replaced file is whole, old or new.
            let data = try FileSystemError.attempt("read", source) { try Data(contentsOf: URL(fileURLWithPath: source)) }
            var status = stat()
            let mode = stat(source, &status) == 0 ? status.st_mode & 0o7777 : nil
            try AtomicFile.write(Array(data), to: target, keepingModeOf: mode)
        } else {
            do {
                try FileManager.default.copyItem(atPath: source, toPath: target)
            } catch {
                throw IntentError("can't copy '\(source)' to '\(target)': \(FileSystemError.reason(of: error))")
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
        try FileMoves.move(source, to: target)
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
        try FileMoves.move(source, to: target)
        return .result(value: FileRef(path: target))
    }
}

/// Moving on the file system: a rename where it can be one, a copy and a removal across file systems.
enum FileMoves {
    static func move(_ source: String, to target: String) throws {
        if rename(source, target) == 0 { return }
        let code = errno
        guard code == EXDEV else { throw FileSystemError(code, "move", source) }
        do {
            if FileInfo.exists(target) { try FileManager.default.removeItem(atPath: target) }
            try FileManager.default.copyItem(atPath: source, toPath: target)
            try FileManager.default.removeItem(atPath: source)
        } catch {
            throw IntentError("can't move '\(source)' to '\(target)': \(FileSystemError.reason(of: error))")
        }
    }
}
