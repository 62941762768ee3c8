import Foundation
import ZIPFoundation

/// Tries to leave the sandbox, as an attacker's script would: each case lays out a folder the run may read and
/// write (`box`) beside one it may not touch (`outside`), plants in the box what earlier escapes went through —
/// links in and out of it, a dangling link, a hard link to a file outside, a name that isn't UTF-8, a program
/// named as a granted one, and a zip archive of malicious entries (`../` names, links, absolute names, setuid
/// modes) — and runs a few file intents on them under `--allow-read=BOX --allow-write=BOX --allow-run=git --yes` (so that
/// what asks for a confirmation, such as deleting for good, is done).
///
/// The oracle is the sandbox's promise: nothing outside the box changed or appeared (a snapshot of the case's
/// folder, with every file's content), nothing outside the box was read (a secret token kept there never shows up
/// in the output or in the box), no file in the box has a setuid or setgid bit, and the run ended as any run must
/// (0, 1, 2 or 130, before the deadline). Each statement runs in `try … otherwise`, so one refusal doesn't keep the
/// next from being tried. Zip archives are made with ZIPFoundation, which writes any entry name, type and mode.
public struct SandboxEscapes: Sendable {
    public struct Case: Sendable {
        public let index: Int
        /// What the box held, for the report.
        public let layout: [String]
        public let script: String
        let boxFirstOnPath: Bool
    }

    public let seed: UInt64
    public let binary: String
    /// The parent of each case's own folder.
    public let folder: String

    public init(seed: UInt64, binary: String, folder: String) {
        self.seed = seed
        self.binary = binary
        self.folder = folder
    }

    /// The token kept in `outside/secret.txt`, which no output or file in the box may hold.
    static let secret = "SECRET-7f3a9c1e"
    /// The content of `outside/linked.txt`, hard-linked into the box: it may be read through the link (the link is
    /// inside the grant), but not changed.
    static let linkedText = "linked from outside\n"

    /// Lays out case `index` under `root` and returns it. `root` is made afresh.
    func lay(_ index: Int, in root: String) throws -> Case {
        var random = FuzzRandom(seed: seed, index: index, stream: 9)
        let box = root + "/box", outside = root + "/outside"
        let files = FileManager.default
        try? files.removeItem(atPath: root)
        for folder in [box + "/sub", box + "/bin", outside + "/dir"] {
            try files.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        try Self.secret.write(toFile: outside + "/secret.txt", atomically: false, encoding: .utf8)
        try Self.linkedText.write(toFile: outside + "/linked.txt", atomically: false, encoding: .utf8)
        try "kept\n".write(toFile: box + "/note.txt", atomically: false, encoding: .utf8)
        var layout = ["box/note.txt"]
        if random.chance(0.7) { try files.createSymbolicLink(atPath: box + "/sub/up", withDestinationPath: ".."); layout.append("box/sub/up → ..") }
        if random.chance(0.6) { try files.createSymbolicLink(atPath: box + "/out", withDestinationPath: "../outside"); layout.append("box/out → ../outside") }
        if random.chance(0.4) {
            try files.createSymbolicLink(atPath: box + "/sub/outer", withDestinationPath: "../../outside")
            layout.append("box/sub/outer → ../../outside")
        }
        if random.chance(0.6) {
            try files.createSymbolicLink(atPath: box + "/dangling", withDestinationPath: "../outside/created.txt")
            layout.append("box/dangling → ../outside/created.txt")
        }
        if random.chance(0.6) { try files.linkItem(atPath: outside + "/linked.txt", toPath: box + "/hard"); layout.append("box/hard ⇔ outside/linked.txt") }
        if random.chance(0.4) {
            // "f\xE9.txt": a name that isn't UTF-8, made with the bytes themselves.
            let name = Array((box + "/f").utf8) + [0xE9] + Array(".txt".utf8) + [0]
            let descriptor = name.withUnsafeBufferPointer { open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_CREAT | O_WRONLY, 0o644) }
            if descriptor >= 0 {
                _ = write(descriptor, "bytes\n", 6)
                close(descriptor)
            }
            layout.append("box/f\\xE9.txt")
        }
        // Sometimes the box's own programs come first on PATH: then `--allow-run=git` names one the run may write,
        // and the run is refused before it starts; otherwise the system's git is granted.
        let boxFirstOnPath = random.chance(0.2)
        if boxFirstOnPath { layout.append("PATH starts with box/bin") }
        if boxFirstOnPath || random.chance(0.5) {
            // A program named as the granted one, in a folder the run may write, that leaves a mark outside if run.
            let program = box + "/bin/git"
            try "#!/bin/sh\necho ran > '\(outside)/ran.txt'\n".write(toFile: program, atomically: false, encoding: .utf8)
            chmod(program, 0o755)
            layout.append("box/bin/git (writes outside/ran.txt)")
        }
        let entries = (0..<random.int(1...4)).map { _ in random.pick(Self.entries) }
        try Self.archive(entries, at: box + "/a.zip", root: root)
        layout.append("box/a.zip: " + entries.map(\.description).joined(separator: ", "))
        let statements = (0..<random.int(2...5)).flatMap { _ in random.pick(Self.statements) }
        let script = statements.map { "try { \($0.replacingOccurrences(of: "BOX", with: box)) } otherwise { show error }" }
            .joined(separator: "\n") + "\n"
        return Case(index: index, layout: layout, script: script, boxFirstOnPath: boxFirstOnPath)
    }

    /// One entry of a malicious archive.
    struct Entry: Sendable, CustomStringConvertible {
        enum Kind: Sendable { case file(String), folder, link(String) }
        let path: String
        let kind: Kind
        let mode: UInt16

        var description: String {
            switch kind {
            case .file: return "\(path) (\(String(mode, radix: 8)))"
            case .folder: return "\(path)/"
            case .link(let target): return "\(path) → \(target)"
            }
        }
    }

    static let entries: [Entry] = [
        Entry(path: "../escaped.txt", kind: .file("out"), mode: 0o644),
        Entry(path: "sub/../../escaped.txt", kind: .file("out"), mode: 0o644),
        Entry(path: "up/pwned.txt", kind: .file("pwned"), mode: 0o644),
        Entry(path: "out/pwned.txt", kind: .file("pwned"), mode: 0o644),
        Entry(path: "dangling", kind: .file("created"), mode: 0o644),
        Entry(path: "hard", kind: .file("over"), mode: 0o644),
        Entry(path: "link", kind: .link("../outside"), mode: 0o777),
        Entry(path: "link/pwned.txt", kind: .file("pwned"), mode: 0o644),
        Entry(path: "abs", kind: .link("/tmp"), mode: 0o777),
        Entry(path: "inner", kind: .link("note.txt"), mode: 0o777),
        Entry(path: "suid", kind: .file("#!/bin/sh\n"), mode: 0o6755),
        Entry(path: "sticky", kind: .folder, mode: 0o1777),
        Entry(path: "bin/git", kind: .file("#!/bin/sh\necho ran > ../outside/ran.txt\n"), mode: 0o755),
        Entry(path: "plain.txt", kind: .file("plain"), mode: 0o644),
        // ROOT is the case's folder, above the box.
        Entry(path: "ROOT/absolute.txt", kind: .file("absolute"), mode: 0o644),
    ]

    static func archive(_ entries: [Entry], at path: String, root: String) throws {
        let archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .create)
        for entry in entries {
            let name = entry.path.replacingOccurrences(of: "ROOT", with: root)
            switch entry.kind {
            case .file(let text):
                let data = Data(text.utf8)
                try archive.addEntry(with: name, type: .file, uncompressedSize: Int64(data.count), permissions: entry.mode,
                                     compressionMethod: .none) { position, size in data.subdata(in: Int(position)..<Int(position) + size) }
            case .folder:
                try archive.addEntry(with: name, type: .directory, uncompressedSize: Int64(0), permissions: entry.mode) { _, _ in Data() }
            case .link(let target):
                let data = Data(target.utf8)
                try archive.addEntry(with: name, type: .symlink, uncompressedSize: Int64(data.count), permissions: entry.mode) { position, size in
                    data.subdata(in: Int(position)..<Int(position) + size)
                }
            }
        }
    }

    /// What the script does, one statement or an attack of several: BOX is the box's absolute path.
    static let statements: [[String]] = [
        [#"unzip "BOX/a.zip" to "BOX""#],
        [#"unzip "BOX/a.zip" to "BOX/x""#],
        [#"unzip "BOX/a.zip" to "BOX/sub""#],
        [#"unzip "BOX/a.zip" to "BOX/out""#],
        // An inward link moved up a level points out of the box; an archive then writes through it.
        [#"move file "BOX/sub/up" to "BOX/up""#, #"unzip "BOX/a.zip" to "BOX""#],
        [#"move file "BOX/sub" to "BOX/moved""#],
        [#"copy file "BOX/out" to "BOX/copied""#],
        [#"copy file "BOX/sub" to "BOX/copied-sub""#],
        [#"copy file "BOX/hard" to "BOX/hard-copy""#],
        [#"zip "BOX/out" to "BOX/out.zip""#],
        [#"zip "BOX/sub" to "BOX/sub.zip""#],
        [#"write text "x" to "BOX/hard" append: true"#],
        [#"write text "x" to "BOX/hard" replacing: true"#],
        [#"write text "x" to "BOX/dangling""#],
        [#"write text "x" to "BOX/up/x.txt""#],
        [#"make folder "BOX/dangling/d""#],
        [#"show read text "BOX/out/secret.txt""#],
        [#"show read text "BOX/hard""#],
        [#"show list folder "BOX/out""#],
        [#"show list folder "BOX" recursive: true"#],
        [#"show run command "git" arguments: ["--version"]"#],
        [#"show run command "BOX/bin/git""#],
        // A program the run itself unpacked, then run by the granted name.
        [#"unzip "BOX/a.zip" to "BOX/x""#, #"show run command "BOX/x/bin/git""#],
        [#"delete file "BOX/out" permanently: true"#],
        // A folder holding links out of the box: deleting it must not go through them.
        [#"delete file "BOX/sub" permanently: true"#],
        [#"rename file "BOX/sub/up" to "up2""#],
        // The name that isn't UTF-8, typed as it is shown, through every kind of intent.
        [#"show read text "BOX/f\xE9.txt""#],
        [#"for f in list folder "BOX" { show f.name }"#],
        [#"copy file "BOX/f\xE9.txt" to "BOX/sub/g\xE9.txt""#, #"show list folder "BOX/sub""#],
        [#"move file "BOX/f\xE9.txt" to "BOX/out""#],
        [#"rename file "BOX/f\xE9.txt" to "..\xE9""#],
        [#"zip "BOX/sub" to "BOX/s\xE9.zip""#, #"unzip "BOX/s\xE9.zip" to "BOX/x\xE9""#, #"show list folder "BOX/x\xE9" recursive: true"#],
        [#"delete file "BOX/f\xE9.txt" permanently: true"#],
    ]

    /// Runs case `index` in its own folder under `folder` and judges it; nil when the sandbox held.
    public func run(_ index: Int) -> (Case, RunResult, String?) {
        let root = folder + "/sandbox-\(index)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let laid: Case
        do {
            laid = try lay(index, in: root)
        } catch {
            return (Case(index: index, layout: [], script: "", boxFirstOnPath: false), RunResult(termination: .notStarted("\(error)")), "the harness could not lay out the case: \(error)")
        }
        let box = root + "/box"
        let before = Self.snapshot(root, skipping: box)
        let environment = ["PATH": (laid.boxFirstOnPath ? box + "/bin:" : "") + "/usr/bin:/bin", "HOME": box, "NO_COLOR": "1", "SWIFT_BACKTRACE": "enable=no", "LANG": "C.UTF-8"]
        let request = ProcessRunner.Request(executable: binary, arguments: ["--allow-read=" + box, "--allow-write=" + box, "--allow-run=git",
                                                                            "--yes", "--timeout", "20", "-e", laid.script],
                                            environment: environment, input: .empty, output: .pipe, hardDeadline: 60)
        let result = ProcessRunner.run(request)
        let after = Self.snapshot(root, skipping: box)
        return (laid, result, Self.judge(result, before: before, after: after, box: box))
    }

    /// What broke the sandbox's promise, or nil.
    static func judge(_ result: RunResult, before: [String: String], after: [String: String], box: String) -> String? {
        if result.killed { return "still running at the deadline: killed" }
        switch result.termination {
        case .notStarted(let reason): return "the binary could not start: \(reason)"
        case .signaled(let signal): return "killed by signal \(signal)"
        case .exited(let code) where !Oracles.allowedExitCodes.contains(code): return "exit code \(code)"
        case .exited: break
        }
        if before != after {
            let changed = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.sorted()
            return "outside the box, changed: " + changed.map { "\($0) (\(before[$0] ?? "absent") → \(after[$0] ?? "absent"))" }.joined(separator: "; ")
        }
        if (result.standardOutputText + result.standardErrorText).contains(secret) { return "the secret kept outside the box was shown" }
        // A name that isn't UTF-8 is shown as `\xHH`, never as U+FFFD, from which it can't be found again.
        if (result.standardOutputText + result.standardErrorText).contains("\u{FFFD}") { return "a name was shown with U+FFFD: its bytes were lost" }
        for (path, state) in snapshot(box, skipping: nil) {
            if state.contains(secret) { return "the secret kept outside the box was copied to \(path)" }
            if state.hasPrefix("file"), let mode = Int(state.split(separator: " ")[1], radix: 8), mode & 0o6000 != 0 {
                return "\(path) has mode \(String(mode, radix: 8)): a setuid or setgid bit was kept"
            }
        }
        return nil
    }

    /// Every entry under `root` (but `skipping`'s), not following links: its kind, mode and content or target.
    static func snapshot(_ root: String, skipping: String?) -> [String: String] {
        var found: [String: String] = [:]
        func visit(_ path: String) {
            var status = stat()
            guard lstat(path, &status) == 0 else { return }
            let mode = String(Int(status.st_mode & 0o7777), radix: 8)
            switch status.st_mode & S_IFMT {
            case S_IFDIR:
                found[path] = "folder \(mode)"
                guard path != skipping, let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return }
                for name in names { visit(path + "/" + name) }
            case S_IFLNK:
                found[path] = "link → " + ((try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?")
            case S_IFREG:
                let content = FileManager.default.contents(atPath: path).map { String(decoding: $0.prefix(4096), as: UTF8.self) } ?? "?"
                found[path] = "file \(mode) \(status.st_size) \(content)"
            default:
                found[path] = "other \(mode)"
            }
        }
        visit(root)
        return found
    }

    /// Runs cases `0..<count`, `jobs` at once; returns the failures, each with what to reproduce it.
    public func campaign(count: Int, jobs: Int, log: @Sendable (String) -> Void) -> [String] {
        let lock = NSLock()
        nonisolated(unsafe) var failures: [String] = []
        nonisolated(unsafe) var next = 0
        // Exit statuses, so that a campaign whose scripts all fail to start can't pass unnoticed.
        nonisolated(unsafe) var statuses: [Int32: Int] = [:]
        let done = DispatchGroup()
        for _ in 0..<max(1, jobs) {
            done.enter()
            Thread {
                while true {
                    lock.lock()
                    let index = next
                    next += 1
                    lock.unlock()
                    guard index < count else { break }
                    let (laid, result, problem) = run(index)
                    lock.lock()
                    statuses[result.shellStatus, default: 0] += 1
                    lock.unlock()
                    guard let problem else { continue }
                    let report = """
                        sandbox case \(index) of seed \(seed): \(problem)
                          box: \(laid.layout.joined(separator: "; "))
                          script:
                        \(laid.script.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n"))
                          exit \(result.shellStatus); stderr: \(Oracles.excerpt(result.standardErrorText))
                        """
                    lock.lock()
                    failures.append(report)
                    lock.unlock()
                }
                done.leave()
            }.start()
        }
        done.wait()
        let tally = statuses.keys.sorted().map { "exit \($0): \(statuses[$0]!)" }.joined(separator: ", ")
        log("auto-fuzz: \(count) sandbox cases (\(tally)), \(failures.count) escaped")
        return failures
    }
}
