import Foundation

/// A unit file as systemd.syntax(7) reads it: `[Section]` headers, `Key=value` lines, `#` and `;` comments, a
/// trailing backslash joining a line to the next (comment lines between are skipped), and drop-ins
/// (`NAME.d/*.conf`) read after it, in name order, as systemd applies them.
struct SystemdUnitFile {
    /// One assignment, with where it is written (its first line, when continued).
    struct Entry: Equatable {
        let section: String
        let key: String
        let value: String
        let location: UnitLocation
    }

    let path: String
    let entries: [Entry]

    init(path: String, text: String) throws(UnitFileError) {
        self.path = path
        entries = try Self.entries(of: text, path: path)
    }

    /// The file at `path` and its drop-ins.
    static func load(_ path: String) throws(UnitFileError) -> SystemdUnitFile {
        let text = try read(path, location: UnitLocation(file: path, line: 0))
        var file = try SystemdUnitFile(path: path, text: text)
        let dropIns = path + ".d"
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: dropIns)) ?? []).filter { $0.hasSuffix(".conf") }.sorted()
        for name in names {
            let dropIn = dropIns + "/" + name
            file = SystemdUnitFile(path: path, entries: file.entries + (try entries(of: try read(dropIn, location: UnitLocation(file: dropIn, line: 0)), path: dropIn)))
        }
        return file
    }

    private init(path: String, entries: [Entry]) {
        self.path = path
        self.entries = entries
    }

    static func read(_ path: String, location: UnitLocation) throws(UnitFileError) -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw UnitFileError(location: location, message: "can't read \(path): there is no such file, or it can't be opened")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw UnitFileError(location: location, message: "\(path) is not UTF-8 text")
        }
        return text
    }

    static func entries(of text: String, path: String) throws(UnitFileError) -> [Entry] {
        var entries: [Entry] = []
        var section: String?
        // A line continued with a backslash, and the line it started on.
        var pending: (text: String, line: Int)?
        // An empty line after the last ends a continuation the file ends in, as systemd joins it to nothing.
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false) + [Substring("")]
        for (offset, raw) in lines.enumerated() {
            let number = offset + 1
            var line = String(raw.hasSuffix("\r") ? raw.dropLast() : raw)
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("#") || trimmed.hasPrefix(";") { continue }
            if let started = pending {
                line = started.text + " " + line
            } else if trimmed.isEmpty {
                continue
            }
            if line.hasSuffix("\\") {
                pending = (String(line.dropLast()), pending?.line ?? number)
                continue
            }
            let start = pending?.line ?? number
            pending = nil
            let location = UnitLocation(file: path, line: start)
            let content = line.trimmingCharacters(in: .whitespaces)
            if content.hasPrefix("[") {
                guard content.hasSuffix("]"), content.count > 2 else {
                    throw UnitFileError(location: location, message: "'\(content)' is not a section header: write [Timer], [Service] or [Unit]")
                }
                section = String(content.dropFirst().dropLast())
                continue
            }
            guard let equals = content.firstIndex(of: "=") else {
                throw UnitFileError(location: location, message: "'\(content)' is not an assignment: write Key=value")
            }
            guard let section else {
                throw UnitFileError(location: location, message: "'\(content)' comes before any section: put it under [Timer], [Service] or [Unit]")
            }
            let key = content[..<equals].trimmingCharacters(in: .whitespaces)
            guard !key.isEmpty else { throw UnitFileError(location: location, message: "'\(content)' has no key before '='") }
            entries.append(Entry(section: section, key: key, value: content[content.index(after: equals)...].trimmingCharacters(in: .whitespaces),
                                 location: location))
        }
        return entries
    }

    /// The assignments of `section`, in order.
    func entries(in section: String) -> [Entry] { entries.filter { $0.section == section } }

    /// A key's last assignment in `section`: the one systemd uses for a single-valued setting.
    func last(_ key: String, in section: String) -> Entry? { entries.last { $0.section == section && $0.key == key } }

    /// A list setting's assignments since the last empty one, which resets it.
    func list(_ key: String, in section: String) -> [Entry] {
        var list: [Entry] = []
        for entry in entries where entry.section == section && entry.key == key {
            if entry.value.isEmpty { list.removeAll() } else { list.append(entry) }
        }
        return list
    }
}

/// `backup.timer:4`: where a mistake or a warning is.
struct UnitLocation: Equatable, CustomStringConvertible {
    let file: String
    /// 0 for the file as a whole.
    let line: Int
    var description: String { line > 0 ? "\(file):\(line)" : file }
}

/// What stops a timer from being migrated, at its place.
struct UnitFileError: Error, Equatable, CustomStringConvertible {
    let location: UnitLocation
    let message: String
    var description: String { "\(location): error: \(message)" }
}
