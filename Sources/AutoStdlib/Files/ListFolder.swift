import AutoIntents
import Foundation

/// `list folder "~/Downloads"`: the files and folders in a folder, by name; `recursive: true` goes into its
/// folders too (not into links to folders, so a link loop can't make it go round), `hidden: true` keeps the names
/// that start with a dot.
struct ListFolder: AppIntent {
    static let title = "List folder"
    static let description = IntentDescription(
        "The files and folders in a folder, in order of name; with recursive: true, in its folders too; names starting with a dot only with hidden: true.",
        category: "Files", searchKeywords: ["ls", "contents", "files", "directory"], resultName: "files")
    static let parameterSummary: ParameterSummary? = "List {folder}"
    static let capabilities: Set<Capability> = [.read]
    @Parameter(title: "Folder", question: "Which folder?") var folder: FileRef
    @Parameter(title: "Into its folders too", default: false) var recursive: Bool
    @Parameter(title: "Names starting with a dot too", default: false) var hidden: Bool

    func perform(_ context: IntentContext) async throws -> IntentResult<[FileRef]> {
        let root = try context.authorize(.read, path: folder.path)
        guard FileInfo.kind(of: root, following: true) == .folder else {
            throw IntentError(FileInfo.exists(root) ? "'\(root)' is not a folder" : "there is no folder '\(root)'")
        }
        var found: [FileRef] = []
        var visited = 0
        do {
            try FileTree(root: root, recursive: recursive, hidden: hidden).walk { folder, name, _ in
                visited += 1
                if visited % 4096 == 0 { try context.checkCancellation() }
                found.append(FileRef(path: FileTree.path(of: name, in: folder)))
                return true
            }
        } catch let failure as FileSystemFailure {
            throw IntentError(failure.description)
        }
        return .result(value: found)
    }
}

/// `make folder "~/Archive/2026"`: the folder, with the folders above it; one that exists is no error.
struct MakeFolder: AppIntent {
    static let title = "Make folder"
    static let description = IntentDescription("Makes a folder, and the folders above it that are missing; a folder that exists already is left as it is.",
                                               category: "Files", searchKeywords: ["mkdir", "create", "directory", "new folder"], resultName: "folder")
    static let parameterSummary: ParameterSummary? = "Make folder {folder}"
    static let sideEffect = SideEffect.changes
    static let capabilities: Set<Capability> = [.write]
    @Parameter(title: "Folder", question: "Which folder?") var folder: FileRef

    func perform(_ context: IntentContext) async throws -> IntentResult<FileRef> {
        let path = try context.authorize(.write, path: folder.path)
        if FileInfo.kind(of: path, following: true) == .folder { return .result(value: FileRef(path: path)) }
        guard FileCalls.makeFolders(path, 0o777) == 0 else {
            throw IntentError("can't make the folder '\(path)': \(FileSystemFailure.reason(for: errno))")
        }
        return .result(value: FileRef(path: path))
    }
}
