import AutoIntents
import Foundation

/// `write text "…" to "notes.txt"`: a new file, or with `append: true` at the end of one, or with `replacing: true`
/// over one. An existing file is never replaced silently, and a write that fails (a full disk) leaves the file as
/// it was: a new or replaced file is written beside it and renamed over it; an append that fails is cut back.
struct WriteText: AppIntent {
    static let title = "Write text"
    static let description = IntentDescription(
        "Writes text to a file: a new one, or the end of one with append: true, or over one with replacing: true. A write that fails leaves the file as it was.",
        category: "Files", searchKeywords: ["file", "save", "create", "append"], resultName: "written")
    static let parameterSummary: ParameterSummary? = "Write {text} to {to}"
    static let sideEffect = SideEffect.changes
    static let capabilities: Set<Capability> = [.write]
    @Parameter(title: "Text", question: "What text?") var text: String
    @Parameter(title: "File", question: "Which file?") var to: FileRef
    @Parameter(title: "Add to the end", default: false) var append: Bool
    @Parameter(title: "Replace a file that exists", default: false) var replacing: Bool

    func perform(_ context: IntentContext) async throws -> IntentResult<FileRef> {
        let path = try context.authorize(.write, path: to.path)
        let bytes = Array(text.utf8)
        var status = stat()
        let exists = FileCalls.stat(path, &status) == 0
        if exists, status.st_mode & S_IFMT == S_IFDIR { throw IntentError("'\(path)' is a folder") }
        let folder = (path as NSString).deletingLastPathComponent
        guard FileInfo.kind(of: folder, following: true) == .folder else {
            throw IntentError("can't write '\(path)': there is no folder '\(folder)'")
        }
        // A confined run writes no file that has other names (hard links), which may be outside its grant.
        let rules = CreationRules(context.grants)
        if append {
            try AtomicFile.append(bytes, to: path, rules: rules)
        } else {
            if exists, !replacing {
                throw IntentError("'\(path)' exists already; write with replacing: true to replace it, or append: true to add to it")
            }
            // The old file's mode, less setuid, setgid and sticky, as the kernel drops them on a write.
            try AtomicFile.write(bytes, to: path, keepingModeOf: exists ? status.st_mode & 0o777 : nil, rules: rules)
        }
        return .result(value: FileRef(path: path))
    }
}
