import AutoIntents
import Foundation
import ZIPFoundation

/// `zip "~/Photos" to "~/photos.zip"`: a file or a folder (with what it holds, under its own name) into a zip
/// archive, compressed. The archive is written beside its target and renamed over it, so a failure leaves nothing
/// half written; an archive that exists is replaced only with `replacing: true`.
struct ZipIntent: AppIntent {
    static let title = "Zip"
    static let description = IntentDescription(
        "Puts a file or a folder (with all it holds) into a zip archive; an archive that exists is replaced only with replacing: true.",
        category: "Files", searchKeywords: ["compress", "archive", "zip"], resultName: "archive")
    static let parameterSummary: ParameterSummary? = "Zip {file} to {to}"
    static let sideEffect = SideEffect.changes
    static let capabilities: Set<Capability> = [.read, .write]
    @Parameter(title: "File or folder", question: "What should be zipped?") var file: FileRef
    @Parameter(title: "Archive", question: "Zip it to which file?") var to: FileRef
    @Parameter(title: "Replace an archive that exists", default: false) var replacing: Bool

    func perform(_ context: IntentContext) async throws -> IntentResult<FileRef> {
        let source = try context.authorize(.read, path: file.path)
        guard FileInfo.exists(source) else { throw IntentError("there is no file '\(source)' to zip") }
        let archive = try context.authorize(.write, path: to.path)
        if let kind = FileInfo.kind(of: archive, following: true) {
            guard kind != .folder else { throw IntentError("'\(archive)' is a folder; name the archive's file, such as '\(archive)/backup.zip'") }
            guard replacing else { throw IntentError("'\(archive)' exists already; zip with replacing: true to replace it") }
        }
        let folder = (archive as NSString).deletingLastPathComponent
        guard FileInfo.kind(of: folder, following: true) == .folder else { throw IntentError("can't write '\(archive)': there is no folder '\(folder)'") }
        if GrantedPath.isInside(archive, root: source) { throw IntentError("the archive '\(archive)' can't be inside what it zips") }
        let temporary = folder + "/." + (archive as NSString).lastPathComponent + ".auto-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: temporary) }
        do {
            try FileManager.default.zipItem(at: URL(fileURLWithPath: source), to: URL(fileURLWithPath: temporary), shouldKeepParent: true,
                                            compressionMethod: .deflate)
        } catch {
            throw IntentError("can't zip '\(source)': \(FileSystemError.reason(of: error))")
        }
        guard rename(temporary, archive) == 0 else { throw FileSystemError(errno, "write", archive) }
        return .result(value: FileRef(path: archive))
    }
}

/// `unzip "~/photos.zip" to "~/Restored"`: an archive's files into a folder (made when missing). No entry may land
/// outside the folder (`../` in a name, a link out of it), and no file there is replaced.
struct UnzipIntent: AppIntent {
    static let title = "Unzip"
    static let description = IntentDescription(
        "Takes the files of a zip archive out into a folder, made when missing; an entry that would land outside it, or on a file there, is an error.",
        category: "Files", searchKeywords: ["extract", "decompress", "archive", "zip"], resultName: "folder")
    static let parameterSummary: ParameterSummary? = "Unzip {file} to {to}"
    static let sideEffect = SideEffect.changes
    static let capabilities: Set<Capability> = [.read, .write]
    @Parameter(title: "Archive", question: "Which archive?") var file: FileRef
    @Parameter(title: "Folder", question: "Unzip it into which folder?") var to: FileRef

    func perform(_ context: IntentContext) async throws -> IntentResult<FileRef> {
        let archive = try context.authorize(.read, path: file.path)
        guard FileInfo.kind(of: archive, following: true) == .file else {
            throw IntentError(FileInfo.exists(archive) ? "'\(archive)' is not a file" : "there is no archive '\(archive)'")
        }
        let folder = try context.authorize(.write, path: to.path)
        if FileInfo.exists(folder), FileInfo.kind(of: folder, following: true) != .folder { throw IntentError("'\(folder)' is not a folder") }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try FileManager.default.unzipItem(at: URL(fileURLWithPath: archive), to: URL(fileURLWithPath: folder))
        } catch let error as Archive.ArchiveError {
            throw IntentError("can't unzip '\(archive)': \(Self.describe(error))")
        } catch {
            throw IntentError("can't unzip '\(archive)' into '\(folder)': \(FileSystemError.reason(of: error))")
        }
        return .result(value: FileRef(path: folder))
    }

    static func describe(_ error: Archive.ArchiveError) -> String {
        switch error {
        case .unreadableArchive, .missingEndOfCentralDirectoryRecord: return "it is not a zip archive"
        case .uncontainedSymlink: return "it holds a link that points out of the folder"
        case .invalidEntryPath: return "an entry would land outside the folder"
        default: return "\(error)"
        }
    }
}
