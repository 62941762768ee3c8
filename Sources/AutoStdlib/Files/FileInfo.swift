import AutoIntents
import Foundation

/// What the file intents ask of the file system, worded for people.
enum FileInfo {
    enum Kind: Equatable {
        case file, folder, link, other
    }

    /// What is at `path`, or nil when nothing is; `following` a link, what it points to.
    static func kind(of path: String, following: Bool) -> Kind? {
        var status = stat()
        guard (following ? FileCalls.stat(path, &status) : FileCalls.lstat(path, &status)) == 0 else { return nil }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .folder
        case S_IFLNK: return .link
        default: return .other
        }
    }

    /// The bytes of the file at `path`, or an error that says why they can't be read.
    static func contents(of path: String) throws -> [UInt8] {
        switch FileCalls.readAll(path) {
        case .bytes(let bytes): return bytes
        case .failed(let code): throw FileSystemError(code, "read", path)
        case .tooLong: throw FileSystemError(EFBIG, "read", path)
        }
    }

    /// Whether anything is at `path`, a dangling link included.
    static func exists(_ path: String) -> Bool { kind(of: path, following: false) != nil }

    /// Where a copy or a move of `source` goes: into `destination` when it is a folder, else `destination` itself. A
    /// target that exists is refused unless `replacing` (and then only a file, never a folder, is replaced).
    static func target(for source: String, at destination: String, replacing: Bool, verb: String) throws -> String {
        let target = kind(of: destination, following: true) == .folder
            ? destination + "/" + (source as NSString).lastPathComponent : destination
        if target == source { throw IntentError("can't \(verb) '\(source)' onto itself") }
        if let existing = kind(of: target, following: false) {
            guard replacing else { throw IntentError("'\(target)' exists already; \(verb) with replacing: true to replace it") }
            guard existing != .folder else { throw IntentError("'\(target)' is a folder, which is never replaced; move it away first") }
        }
        let folder = (target as NSString).deletingLastPathComponent
        guard kind(of: folder, following: true) == .folder else { throw IntentError("can't \(verb) to '\(target)': there is no folder '\(folder)'") }
        return target
    }
}
