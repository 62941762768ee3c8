import Foundation

/// The REPL's history on disk, `$XDG_STATE_HOME/<host>/history` (by default `~/.local/state/<host>/history`): one
/// entry per line, with line breaks and backslashes escaped, so that a multi-line entry comes back whole. Each
/// entry is appended as it is entered, in one `write` to a file opened for appending, so a crash loses nothing and
/// two REPLs at once add whole entries. The last `limit` entries are kept; a file grown to twice that is rewritten
/// with them (to a new file renamed over the old, so a reader never sees half of it).
package struct HistoryFile {
    package static let limit = 10_000
    package let path: String

    package init(path: String) { self.path = path }

    package struct Problem: Error {
        let message: String
    }

    package static func path(host: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/\(host)/history" }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return home + "/.local/state/\(host)/history"
    }

    /// The entries, oldest first. A missing file is an empty history.
    package func load() throws(Problem) -> [String] {
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        guard let data = FileManager.default.contents(atPath: path) else { throw Problem(message: "\(path) can't be read") }
        // Bytes that are not UTF-8 (a file written by something else) are replaced, not a reason to lose the rest.
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true)
        let entries = lines.map { Self.unescaped(String($0)) }
        if entries.count > 2 * Self.limit { try rewrite(Array(entries.suffix(Self.limit))) }
        return Array(entries.suffix(Self.limit))
    }

    package func append(_ entry: String) throws(Problem) {
        let folder = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw Problem(message: "\(folder) can't be made (\(error.localizedDescription))")
        }
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Problem(message: "\(path) can't be written (\(String(cString: strerror(errno))))") }
        defer { close(descriptor) }
        let line = Array((Self.escaped(entry) + "\n").utf8)
        let written = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == line.count else { throw Problem(message: "\(path) can't be written (\(String(cString: strerror(errno))))") }
    }

    package func rewrite(_ entries: [String]) throws(Problem) {
        let temporary = path + ".\(getpid()).new"
        let text = entries.map { Self.escaped($0) + "\n" }.joined()
        guard FileManager.default.createFile(atPath: temporary, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]),
              rename(temporary, path) == 0 else {
            unlink(temporary)
            throw Problem(message: "\(path) can't be rewritten")
        }
    }

    package static func escaped(_ entry: String) -> String {
        entry.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
    }

    package static func unescaped(_ line: String) -> String {
        var result = ""
        var escaping = false
        for character in line {
            if escaping {
                result.append(character == "n" ? "\n" : character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                result.append(character)
            }
        }
        return result
    }
}
