import AutoIntents
import Foundation
import ZIPFoundation

/// `zip "~/Photos" to "~/photos.zip"`: a file or a folder (with what it holds, under its own name) into a zip
/// archive, compressed. The archive is written beside its target and renamed over it, so a failure leaves nothing
/// half written; an archive that exists is replaced only with `replacing: true`. The tree is read relative to
/// folders opened once (`OpenFolder`), going into no link: a link in it is stored as a link, never what it points
/// to, and no file is read through one. Setuid, setgid and sticky bits are not stored.
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
        guard let (descriptor, temporary) = FileCalls.makeTemporaryFile(prefix: folder + "/." + (archive as NSString).lastPathComponent + ".auto-") else {
            throw IntentError(FileSystemError(errno, "write", archive).description)
        }
        defer {
            close(descriptor)
            _ = FileCalls.unlink(temporary)
        }
        do {
            // An empty archive (its end record alone), then opened for update by descriptor (`OpenedArchive`).
            guard fchmod(descriptor, 0o666 & ~AtomicFile.currentUmask()) == 0 else { throw FileSystemError(errno, "write", archive) }
            try AtomicFile.writeAll(Self.emptyArchive, to: descriptor, path: temporary)
            let zipped = try OpenedArchive.archive(descriptor, accessMode: .update)
            let parent = try OpenFolder.open((source as NSString).deletingLastPathComponent)
            let name = (source as NSString).lastPathComponent
            try Self.add(name, in: parent, as: name, to: zipped, context: context)
        } catch let cancelled as RunCancelled {
            throw cancelled
        } catch let error as Archive.ArchiveError {
            throw IntentError("can't zip '\(source)': \(error)")
        } catch let error as FileSystemError {
            throw IntentError("can't zip '\(source)': \(error)")
        } catch {
            throw IntentError("can't zip '\(source)': \(FileSystemError.reason(of: error))")
        }
        guard FileCalls.rename(temporary, archive) == 0 else { throw FileSystemError(errno, "write", archive) }
        return .result(value: FileRef(path: archive))
    }

    /// A zip archive with no entry: its end-of-central-directory record, signature `PK\u{5}\u{6}` and zeros.
    static let emptyArchive: [UInt8] = [0x50, 0x4B, 0x05, 0x06] + [UInt8](repeating: 0, count: 18)

    /// Adds `name` in `folder` to `archive` as `entryPath`, and for a folder all it holds: a link as a link.
    static func add(_ name: String, in folder: OpenFolder, as entryPath: String, to archive: Archive, context: IntentContext) throws {
        try context.checkCancellation()
        guard let status = folder.status(name) else { throw FileSystemError(ENOENT, "zip", folder.path(of: name)) }
        let permissions = UInt16(status.st_mode & 0o777)
        let modified = Date(timeIntervalSince1970: TimeInterval(status.st_mtim.tv_sec) + TimeInterval(status.st_mtim.tv_nsec) / 1e9)
        switch status.st_mode & S_IFMT {
        case S_IFDIR:
            try archive.addEntry(with: entryPath + "/", type: .directory, uncompressedSize: Int64(0), modificationDate: modified, permissions: permissions,
                                 provider: { _, _ in Data() })
            let inner = try folder.subfolder(name)
            for child in try inner.names() {
                try add(child, in: inner, as: entryPath + "/" + child, to: archive, context: context)
            }
        case S_IFREG:
            let path = folder.path(of: name)
            let descriptor = try folder.openFile(name)
            defer { close(descriptor) }
            var opened = stat()
            guard fstat(descriptor, &opened) == 0 else { throw FileSystemError(errno, "read", path) }
            try archive.addEntry(with: entryPath, type: .file, uncompressedSize: Int64(opened.st_size), modificationDate: modified,
                                 permissions: permissions, compressionMethod: .deflate) { position, size in
                var chunk = Data(count: size)
                let read = chunk.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, size, off_t(position)) }
                guard read >= 0 else { throw FileSystemError(errno, "read", path) }
                // A file that shrank since: zipping would wait for bytes that never come.
                guard read > 0 || size == 0 else { throw FileSystemError(description: "'\(path)' changed while it was zipped") }
                chunk.count = read
                return chunk
            }
        case S_IFLNK:
            let target = Data(try folder.linkBytes(name))
            try archive.addEntry(with: entryPath, type: .symlink, uncompressedSize: Int64(target.count), modificationDate: modified,
                                 permissions: permissions, provider: { _, _ in target })
        default:
            throw FileSystemError(description: "'\(folder.path(of: name))' is neither a file, a folder nor a link")
        }
    }
}

/// `unzip "~/photos.zip" to "~/Restored"`: an archive's files into a folder (made when missing). Every path is
/// made relative to the folder, opened once (`OpenFolder`), one part at a time, never through a link that is there
/// already or that an earlier entry made, and never over anything there (a dangling link included): no entry lands
/// outside the folder (`../` in a name, a link out of it). A link entry is made as a link, unfollowed, only when
/// it points inside the folder and where the run may write. Modes follow `CreationRules`: no setuid, setgid or
/// sticky bit, and no exec bit in a run confined for writing that may start programs.
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

    /// The longest link target an entry may hold: what the kernel takes.
    static let longestLink = Int(PATH_MAX)
    /// `UTIME_OMIT`, a macro Swift doesn't import: `futimens` leaves that time as it is.
    static let omitTime = (1 << 30) - 2

    func perform(_ context: IntentContext) async throws -> IntentResult<FileRef> {
        let archivePath = try context.authorize(.read, path: file.path)
        guard FileInfo.kind(of: archivePath, following: true) == .file else {
            throw IntentError(FileInfo.exists(archivePath) ? "'\(archivePath)' is not a file" : "there is no archive '\(archivePath)'")
        }
        let folder = try context.authorize(.write, path: to.path)
        if FileInfo.exists(folder), FileInfo.kind(of: folder, following: true) != .folder { throw IntentError("'\(folder)' is not a folder") }
        let rules = CreationRules(context.grants)
        let descriptor = FileCalls.open(archivePath, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw IntentError(FileSystemError(errno, "read", archivePath).description) }
        defer { close(descriptor) }
        do {
            let archive = try OpenedArchive.archive(descriptor, accessMode: .read)
            let destination = try OpenFolder.open(folder, creating: true)
            for entry in archive {
                try context.checkCancellation()
                try Self.extract(entry, of: archive, into: destination, rules: rules)
            }
        } catch let cancelled as RunCancelled {
            throw cancelled
        } catch let error as Archive.ArchiveError {
            throw IntentError("can't unzip '\(archivePath)': \(Self.describe(error))")
        } catch let error as FileSystemError {
            throw IntentError("can't unzip '\(archivePath)' into '\(folder)': \(error)")
        } catch {
            throw IntentError("can't unzip '\(archivePath)' into '\(folder)': \(FileSystemError.reason(of: error))")
        }
        return .result(value: FileRef(path: folder))
    }

    /// The parts of an entry's name, `.` and empty parts left out; a name that goes up (`..`) or starts at `/`
    /// would land outside the folder.
    static func parts(of name: String) throws -> [String] {
        guard !name.hasPrefix("/"), !name.utf8.contains(0) else { throw FileSystemError(description: "the entry '\(name)' would be outside the folder") }
        var parts: [String] = []
        for part in name.split(separator: "/") where part != "." {
            guard part != ".." else { throw FileSystemError(description: "the entry '\(name)' would be outside the folder") }
            parts.append(String(part))
        }
        return parts
    }

    /// Makes one entry in `destination`: its folders (made when missing, links never gone through), then the
    /// folder, the file or the link itself, which must not be there.
    static func extract(_ entry: Entry, of archive: Archive, into destination: OpenFolder, rules: CreationRules) throws {
        let parts = try parts(of: entry.path)
        guard let name = parts.last else {
            guard entry.type == .directory else { throw FileSystemError(description: "an entry has no name") }
            return
        }
        var folder = destination
        for part in parts.dropLast() {
            folder = try folder.subfolder(part, creating: true, mode: 0o777)
        }
        let attributes = entry.fileAttributes
        let mode = mode_t((attributes[.posixPermissions] as? NSNumber)?.uint16Value ?? 0o644)
        switch entry.type {
        case .directory:
            // A folder that is there already is taken as it is; anything else of that name is an error.
            if let status = folder.status(name), status.st_mode & S_IFMT == S_IFDIR { return }
            _ = try folder.makeFolder(name, mode: rules.folderMode(mode))
        case .file:
            let path = folder.path(of: name)
            try folder.makeFile(name, mode: rules.fileMode(mode)) { output in
                let checksum = try archive.extract(entry) { data in try AtomicFile.writeAll(data, to: output, path: path) }
                guard checksum == entry.checksum else { throw Archive.ArchiveError.invalidCRC32 }
                if let modified = attributes[.modificationDate] as? Date {
                    let seconds = modified.timeIntervalSince1970.rounded(.down)
                    var times = [timespec(tv_sec: 0, tv_nsec: Self.omitTime),
                                 timespec(tv_sec: Int(seconds), tv_nsec: Int((modified.timeIntervalSince1970 - seconds) * 1e9))]
                    _ = futimens(output, &times)
                }
            }
        case .symlink:
            let path = folder.path(of: name)
            guard entry.compressedSize <= UInt64(longestLink), entry.uncompressedSize <= UInt64(longestLink) else {
                throw FileSystemError(description: "the link entry '\(entry.path)' is longer than a link can be")
            }
            var stored = Data()
            var checksum = try archive.extract(entry) { stored.append($0) }
            var target = stored
            if entry.isCompressed {
                target = Data()
                // The provider hands out what was stored once, then stops: a broken stream can't make it wait.
                checksum = try Data.decompress(size: Int64(stored.count), bufferSize: defaultReadChunkSize, skipCRC32: false, provider: { position, size in
                    guard position < stored.count else { throw FileSystemError(description: "the link entry '\(entry.path)' is damaged") }
                    return stored.subdata(in: Int(position)..<min(stored.count, Int(position) + size))
                }, consumer: { target.append($0) })
            }
            guard checksum == entry.checksum else { throw Archive.ArchiveError.invalidCRC32 }
            guard target.count <= longestLink, !target.contains(0) else {
                throw FileSystemError(description: "the link entry '\(entry.path)' is not a path")
            }
            let text = FileNameBytes.text(target)
            try rules.checkLink(text, at: path, inside: destination.path)
            try folder.makeLink(name, to: text)
        }
    }

    static func describe(_ error: Archive.ArchiveError) -> String {
        switch error {
        case .unreadableArchive, .missingEndOfCentralDirectoryRecord: return "it is not a zip archive"
        case .invalidCRC32: return "an entry is damaged (its checksum doesn't match)"
        case .invalidEntryPath: return "an entry would land outside the folder"
        default: return "\(error)"
        }
    }
}

/// An archive ZIPFoundation reads or writes through a file this process opened: it takes a URL and opens its path
/// again with `fopen`, which would pass a name that isn't UTF-8 as other bytes (`FileNameBytes`). The path
/// `/proc/self/fd/N` opens the very file already open, whatever its name, and one that was renamed meanwhile.
enum OpenedArchive {
    static func archive(_ descriptor: Int32, accessMode: Archive.AccessMode) throws -> Archive {
        try Archive(url: URL(fileURLWithPath: "/proc/self/fd/\(descriptor)"), accessMode: accessMode)
    }
}
