import Foundation

/// What an intent touches outside the engine's own memory, declared as its side effect is. A run is granted
/// some of them (Deno's model): the `auto` command line grants all unless told `--sandbox` or `--allow-…`, and a
/// host embedding the engine grants what it chooses. `auto intents describe` shows an intent's.
///
/// ```swift
/// static let capabilities: Set<Capability> = [.read]
/// ```
public enum Capability: String, Sendable, CaseIterable, Comparable {
    /// Reading files and folders.
    case read
    /// Creating, changing, moving and deleting files and folders.
    case write
    /// The network.
    case net
    /// Starting programs.
    case run
    /// Environment variables.
    case env

    /// How people read it: "write files".
    package var summary: String {
        switch self {
        case .read: return "read files"
        case .write: return "write files"
        case .net: return "use the network"
        case .run: return "run programs"
        case .env: return "read environment variables"
        }
    }

    /// The command-line flag that grants it.
    package var flag: String { "--allow-\(rawValue)" }

    /// In the order of the cases, as `auto intents describe` lists them.
    public static func < (a: Capability, b: Capability) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// What a run may touch. Each capability is granted not at all, wholly, or for some paths (read, write), hosts
/// (net) or programs (run); environment variables are all or nothing.
///
/// ```swift
/// Grants(read: .only(["~/Books"]), net: .only(["openlibrary.org"]))
/// ```
package struct Grants: Sendable, Equatable {
    /// How much of one capability is granted.
    package enum Scope: Sendable, Equatable {
        /// Nothing of it.
        case none
        /// All of it.
        case all
        /// For read and write, paths resolved as `GrantedPath.resolve` does (absolute, `~`, `..` and symlinks
        /// resolved): a path is inside when it is one of them or under one. For net, host names (`example.org`,
        /// `localhost:8080`); for run, program names or paths as given, each resolved to one file when the grant is
        /// made (`programs`).
        case only([String])
    }

    package var read: Scope
    package var write: Scope
    package var net: Scope
    /// Setting it resolves the programs it names again, from the PATH of that moment (`programs`).
    package var run: Scope {
        didSet { programs = Self.resolvePrograms(run) }
    }
    package var env: Bool
    /// Each program that `run` grants by name or path, as given, and the one file a run may start for it: found
    /// when the grant was made, as `GrantedPath.program` finds it (a name on PATH, a path as it is, links
    /// resolved). A name missing here was not found, and nothing is started for it. A later PATH, or a file of
    /// the same name elsewhere, never changes what a name starts.
    package private(set) var programs: [String: String]

    /// Grants each capability as given; nothing unless given.
    package init(read: Scope = .none, write: Scope = .none, net: Scope = .none, run: Scope = .none, env: Bool = false) {
        self.read = read
        self.write = write
        self.net = net
        self.run = run
        self.env = env
        programs = Self.resolvePrograms(run)
    }

    static func resolvePrograms(_ run: Scope) -> [String: String] {
        guard case .only(let granted) = run else { return [:] }
        var programs: [String: String] = [:]
        for program in granted where programs[program] == nil {
            if let file = GrantedPath.program(program) { programs[program] = file }
        }
        return programs
    }

    /// Everything: what a script run by `auto` without `--sandbox` gets, and what a host gets by default.
    package static let all = Grants(read: .all, write: .all, net: .all, run: .all, env: true)
    /// Nothing beyond the engine's own memory: `--sandbox`.
    package static let none = Grants()

    package func scope(of capability: Capability) -> Scope {
        switch capability {
        case .read: return read
        case .write: return write
        case .net: return net
        case .run: return run
        case .env: return env ? .all : .none
        }
    }

    /// Granted at all, for some of its objects at least: what the checker can know before a run.
    package func grantsAny(_ capability: Capability) -> Bool { scope(of: capability) != .none }

    /// Whether a path (resolved by `GrantedPath.resolve`) may be read or written.
    package func allows(_ capability: Capability, path: String) -> Bool {
        switch scope(of: capability) {
        case .none: return false
        case .all: return true
        case .only(let roots): return roots.contains { GrantedPath.isInside(path, root: $0) }
        }
    }

    /// "this run may not write files there: '/home/ann/elsewhere.txt' is outside what --allow-write granted
    /// (/home/ann/Documents)"; for hosts and programs, "… is not among what --allow-net granted (…)".
    package func refusal(_ capability: Capability, _ object: String) -> String {
        switch scope(of: capability) {
        case .only(let granted):
            let relation = capability == .read || capability == .write ? "there: \(object) is outside" : "\(object): it is not among"
            let shown = capability == .run ? granted.map { program in
                programs[program].map { $0 == program ? program : "\(program): \($0)" } ?? "\(program): not found"
            } : granted
            return "this run may not \(capability.summary) \(relation) what \(capability.flag) granted (" + shown.joined(separator: ", ") + ")"
        case .none, .all:
            return "this run may not \(capability.summary)" + (object.isEmpty ? "" : " (\(object))") + "; grant it with \(capability.flag)"
        }
    }

    /// Whether a host (`example.org`, or with a port, `localhost:8080`) may be reached: granted as a name, it may
    /// be reached on any port; granted with a port, on that port only.
    package func allows(host: String, port: Int?) -> Bool {
        switch net {
        case .none: return false
        case .all: return true
        case .only(let hosts):
            let name = host.lowercased()
            return hosts.contains { granted in
                let granted = granted.lowercased()
                return granted == name || (port.map { granted == "\(name):\($0)" } ?? false)
            }
        }
    }

    /// Whether a program (a name or a path, as a script gives it) may be started: `executable(for:)` finds the
    /// file for it.
    package func allows(program: String) -> Bool {
        (try? executable(for: program)) != nil
    }

    /// Why a program is not started: not granted, granted but in a folder the run may write, or not found.
    package struct ProgramRefusal: Error, Sendable, CustomStringConvertible {
        package let description: String

        /// No file for `command`: not on PATH (a name), or not there or not executable (a path).
        package static func notFound(_ command: String) -> ProgramRefusal {
            ProgramRefusal(description: command.contains("/") ? "there is no program '\(command)' (or it can't be run)"
                                                               : "there is no program '\(command)' in PATH")
        }
    }

    /// The absolute path of the file a run starts for `command` (a name, or a path with a `/`), or why it may not.
    /// Granted wholly, a name is looked up on PATH now (the path found, as a shell starts it) and a path is taken
    /// as it is, links resolved. Granted for some programs, a name starts only the file its grant was resolved to
    /// when it was made (`programs`, links resolved), however PATH reads now, and a path starts only a file one of
    /// them was resolved to; a granted file under a folder the run may write (granted for some paths) is refused
    /// too, since the run could have changed it.
    package func executable(for command: String) throws(ProgramRefusal) -> String {
        switch run {
        case .none:
            throw ProgramRefusal(description: refusal(.run, "'\(command)'"))
        case .all:
            // Anything may start: the name is looked up as a shell would, now, and the file PATH finds is started.
            guard let file = GrantedPath.program(command, resolvingLinks: false) else { throw ProgramRefusal.notFound(command) }
            return file
        case .only:
            let file: String?
            if command.contains("/") {
                let resolved = try? GrantedPath.resolve(command)
                file = resolved.flatMap { resolved in programs.values.contains(resolved) ? resolved : nil }
            } else {
                file = programs[command]
            }
            guard let file else { throw ProgramRefusal(description: refusal(.run, "'\(command)'")) }
            if let folder = writableFolder(holding: file) {
                throw ProgramRefusal(description: "this run may not run programs '\(command)': '\(file)' is in '\(folder)', which --allow-write "
                                     + "granted, and a run never starts a file it may have changed")
            }
            return file
        }
    }

    /// The folder granted for writing that holds `path`, when writing is granted for some folders only (a run
    /// that may write everywhere is not confined to begin with).
    package func writableFolder(holding path: String) -> String? {
        guard case .only(let roots) = write else { return nil }
        return roots.first { GrantedPath.isInside(path, root: $0) }
    }
}

/// Paths as a grant compares them: absolute, with `~` expanded and every `.`, `..` and symbolic link resolved the
/// way the kernel would follow them, also where the last parts don't exist yet (a file about to be written) and
/// through a link whose target doesn't exist. So `granted/../elsewhere` and a link inside a granted folder that
/// points out of it are both outside it.
package enum GrantedPath {
    /// Links followed in one path before it is refused as a loop (Linux's own limit).
    static let maxLinks = 40

    package struct LoopError: Error, Sendable, CustomStringConvertible {
        package let path: String
        package var description: String { "'\(path)' can't be followed: too many levels of symbolic links" }
    }

    /// `path` resolved against `folder` (the current folder when nil) and `home` (`$HOME` when nil). Without
    /// `followingLink`, a link at the end is not followed: it is what is moved, renamed or deleted, not its target.
    package static func resolve(_ path: String, in folder: String? = nil, home: String? = nil, followingLink: Bool = true) throws(LoopError) -> String {
        var expanded = path
        if path == "~" || path.hasPrefix("~/") {
            let home = home ?? ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()
            expanded = home + path.dropFirst()
        }
        if !expanded.hasPrefix("/") { expanded = (folder ?? FileNameBytes.currentFolder()) + "/" + expanded }
        var links = 0
        let last = (expanded as NSString).lastPathComponent
        if !followingLink, last != ".", last != "..", last != "/" {
            let folder = try follow((expanded as NSString).deletingLastPathComponent, from: "/", links: &links, original: path)
            return folder == "/" ? "/" + last : folder + "/" + last
        }
        return try follow(expanded, from: "/", links: &links, original: path)
    }

    /// Resolves `path`'s parts one by one onto `start`, a path already resolved.
    static func follow(_ path: String, from start: String, links: inout Int, original: String) throws(LoopError) -> String {
        var resolved = path.hasPrefix("/") ? "/" : start
        for part in path.split(separator: "/") {
            if part == "." { continue }
            if part == ".." {
                resolved = parent(of: resolved)
                continue
            }
            let next = resolved == "/" ? "/" + part : resolved + "/" + part
            guard let target = linkTarget(next) else {
                resolved = next
                continue
            }
            links += 1
            guard links <= maxLinks else { throw LoopError(path: original) }
            resolved = try follow(target, from: resolved, links: &links, original: original)
        }
        return resolved
    }

    package static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), path != "/" else { return "/" }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The target of a symbolic link, or nil when `path` is not one (or doesn't exist).
    static func linkTarget(_ path: String) -> String? {
        var status = stat()
        return FileNameBytes.withCString(path) { path in
            guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else { return nil }
            var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = buffer.withUnsafeMutableBufferPointer { readlink(path, $0.baseAddress!, $0.count - 1) }
            guard length > 0 else { return nil }
            return FileNameBytes.text(buffer[..<length])
        }
    }

    /// The file `program` stands for, as a shell would start it, with every link resolved: a path (with a `/`)
    /// resolved as `resolve` does (relative to the current folder); a name looked up in `searchPath` (`$PATH` when
    /// nil), the first absolute folder in it that holds an executable file of that name. Nil when there is none.
    /// Without `resolvingLinks`, a name's file is the path PATH found, as a shell starts it.
    package static func program(_ program: String, searchPath: String? = nil, resolvingLinks: Bool = true) -> String? {
        guard !program.isEmpty else { return nil }
        if program.contains("/") {
            guard let resolved = try? resolve(program), isExecutableFile(resolved) else { return nil }
            return resolved
        }
        let path = searchPath ?? ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":") where folder.hasPrefix("/") {
            let candidate = String(folder.hasSuffix("/") ? folder : folder + "/") + program
            guard isExecutableFile(candidate) else { continue }
            if !resolvingLinks { return candidate }
            if let resolved = try? resolve(candidate) { return resolved }
        }
        return nil
    }

    /// A regular file (links followed) this process may execute.
    static func isExecutableFile(_ path: String) -> Bool {
        var status = stat()
        return FileNameBytes.withCString(path) { stat($0, &status) == 0 && status.st_mode & S_IFMT == S_IFREG && access($0, X_OK) == 0 }
    }

    /// Whether `path` is `root` or inside it, both resolved. By bytes: String's `==` and `hasPrefix` take
    /// canonically equivalent texts as equal, and `café` written composed and decomposed are two folders.
    package static func isInside(_ path: String, root: String) -> Bool {
        if root == "/" { return true }
        var path = path.utf8[...]
        guard path.starts(with: root.utf8) else { return false }
        path = path.dropFirst(root.utf8.count)
        return path.isEmpty || path.first == UInt8(ascii: "/")
    }
}
