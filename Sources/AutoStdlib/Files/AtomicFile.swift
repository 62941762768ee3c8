import AutoIntents
import Foundation

/// Writes that leave a file whole: the file as it was, or as it is meant to be, never half written.
package enum AtomicFile {
    /// Writes `bytes` to a temporary file beside `path`, syncs it and renames it over `path`. `mode` is the mode of
    /// the file it replaces (a new file gets 0666 less the umask, as any new file). With `rules` of a confined run,
    /// a file there with other names (hard links) is not replaced (`CreationRules.checkLinkCount`).
    static func write(_ bytes: [UInt8], to path: String, keepingModeOf mode: mode_t?, rules: CreationRules? = nil) throws {
        var existing = stat()
        if let rules, FileCalls.lstat(path, &existing) == 0 { try rules.checkLinkCount(existing, of: path) }
        let folder = (path as NSString).deletingLastPathComponent
        guard let (descriptor, temporary) = FileCalls.makeTemporaryFile(prefix: folder + "/." + (path as NSString).lastPathComponent + ".auto-") else {
            throw FileSystemError(errno, "write", path)
        }
        var renamed = false
        defer {
            if !renamed { _ = FileCalls.unlink(temporary) }
        }
        do {
            defer { close(descriptor) }
            let newMode = mode ?? (0o666 & ~currentUmask())
            guard fchmod(descriptor, newMode) == 0 else { throw FileSystemError(errno, "write", path) }
            try writeAll(bytes, to: descriptor, path: path)
            guard fsync(descriptor) == 0 else { throw FileSystemError(errno, "write", path) }
        }
        guard FileCalls.rename(temporary, path) == 0 else { throw FileSystemError(errno, "write", path) }
        renamed = true
    }

    /// Replaces the contents of the file at `path` (a script `auto migrate --write` rewrites) with `text`, atomically,
    /// keeping its mode; the error says what failed, with the path.
    package static func replaceContents(of path: String, with text: String) throws {
        var status = stat()
        let mode: mode_t? = FileCalls.stat(path, &status) == 0 ? status.st_mode & 0o7777 : nil
        try write(Array(text.utf8), to: path, keepingModeOf: mode)
    }

    /// Adds `bytes` at the end of `path` (made when missing); a write that fails is cut back to the old length.
    /// `path` is resolved, so a link there now is one made since, and not followed. With `rules` of a confined run,
    /// a file with other names (hard links) is not written: the bytes would land under every name
    /// (`CreationRules.checkLinkCount`).
    static func append(_ bytes: [UInt8], to path: String, rules: CreationRules? = nil) throws {
        let descriptor = FileCalls.open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw FileSystemError(errno, "write", path) }
        defer { close(descriptor) }
        var status = stat()
        if let rules, fstat(descriptor, &status) == 0 { try rules.checkLinkCount(status, of: path) }
        let length = lseek(descriptor, 0, SEEK_END)
        do {
            try writeAll(bytes, to: descriptor, path: path)
            guard fsync(descriptor) == 0 else { throw FileSystemError(errno, "write", path) }
        } catch {
            if length >= 0 { _ = ftruncate(descriptor, length) }
            throw error
        }
    }

    /// Writes all of `bytes`, however many writes it takes.
    static func writeAll(_ bytes: some ContiguousBytes, to descriptor: Int32, path: String) throws {
        try bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw FileSystemError(errno, "write", path)
                }
                offset += written
            }
        }
    }

    /// The process's umask, which can only be read by setting it.
    static func currentUmask() -> mode_t {
        let mask = umask(0o022)
        umask(mask)
        return mask
    }
}

/// A failed file operation, worded for people: what was done, to which path, and why.
struct FileSystemError: Error, CustomStringConvertible {
    let description: String

    init(_ code: Int32, _ action: String, _ path: String) {
        description = FileSystemFailure(code, action, path).description
    }

    init(description: String) { self.description = description }

    /// Why a Foundation file operation failed, in a few words: "permission denied", "the disk is full".
    static func reason(of error: any Error) -> String {
        if let cocoa = error as? CocoaError, let path = cocoa.userInfo[NSFilePathErrorKey] as? String {
            switch cocoa.code {
            case .fileWriteFileExists: return "'\(path)' is there already"
            case .fileReadInvalidFileName: return "'\(path)' would be outside the folder"
            default: break
            }
        }
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return FileSystemFailure.reason(for: Int32(underlying.code))
        }
        if nsError.domain == NSPOSIXErrorDomain { return FileSystemFailure.reason(for: Int32(nsError.code)) }
        if let cocoa = error as? CocoaError { return FileSystemFailure.reason(for: code(of: cocoa)) }
        return nsError.localizedDescription
    }

    static func code(of error: CocoaError) -> Int32 {
        switch error.code {
        case .fileReadNoSuchFile, .fileNoSuchFile: return ENOENT
        case .fileReadNoPermission, .fileWriteNoPermission: return EACCES
        case .fileWriteOutOfSpace: return ENOSPC
        default: return EIO
        }
    }
}
