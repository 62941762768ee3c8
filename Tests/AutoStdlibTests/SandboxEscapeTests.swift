import AutoIntents
import AutoTestSupport
import Foundation
import Testing
import ZIPFoundation

/// Issue 29's escapes from `auto --sandbox --allow-read=… --allow-write=BOX --allow-run=…`, each replayed on the
/// real binary as the attacker ran it: a link in the box (made by the run, or there already, or dangling), an
/// archive's 6755 entry, a program of the box's own under a granted name, a hard link to a file outside. Nothing
/// may land, change or run outside what the flags grant.
@Suite struct SandboxEscapeTests {
    /// The test's folder, whose path is `home`: removed with everything in it after the test.
    let temporary: TemporaryFolder
    let home: String
    let box: String
    let outside: String

    init() throws {
        temporary = try TemporaryFolder("auto-escape")
        home = try GrantedPath.resolve(temporary.path)
        box = home + "/box"
        outside = home + "/outside"
        for folder in [box + "/sub", outside] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
    }

    /// `auto` confined to writing in the box, reading anywhere under the test's home, with `extra` flags.
    func sandboxed(_ script: String, _ extra: [String] = [], environment: [String: String] = [:]) async throws -> BinaryRunner.Result {
        let text = script.replacingOccurrences(of: "BOX", with: box).replacingOccurrences(of: "HOME", with: home)
        return try await BinaryRunner.runAwaiting(["--sandbox", "--allow-read=\(home)", "--allow-write=\(box)"] + extra + ["-e", text],
                                                  environment: ["HOME": home].merging(environment) { $1 }, directory: home)
    }

    /// An archive at `path` holding `entries`: a name, its type, its content (a link's target) and its mode.
    func archive(_ path: String, _ entries: [(String, Entry.EntryType, String, UInt16)]) throws {
        let archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .create)
        for (name, type, content, mode) in entries {
            let data = Data(content.utf8)
            try archive.addEntry(with: name, type: type, uncompressedSize: Int64(data.count), permissions: mode) { position, size in
                data.subdata(in: Int(position)..<min(data.count, Int(position) + size))
            }
        }
    }

    func mode(_ path: String) throws -> Int {
        try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int ?? -1
    }

    /// The script moves an inward link `box/sub/up → ..` to `box/up`, where it points out of the box, and unzips
    /// `up/pwned.txt` through it.
    @Test func aLinkMovedOutwardIsRefusedAndUnzipNeverGoesThroughOne() async throws {
        try FileManager.default.createSymbolicLink(atPath: box + "/sub/up", withDestinationPath: "..")
        try archive(home + "/evil.zip", [("up/pwned.txt", .file, "pwned", 0o644)])
        let moved = try await sandboxed(#"move file "BOX/sub/up" to "BOX/up"; unzip "HOME/evil.zip" to "BOX""#)
        #expect(moved.exitCode == 1)
        #expect(moved.standardError.contains("can't move '\(box)/sub/up' to '\(box)/up': the link '\(box)/up' would point to '\(home)'"),
                "\(moved.standardError)")
        #expect(moved.standardError.contains("is outside what --allow-write granted (\(box))"), "\(moved.standardError)")
        #expect(!FileManager.default.fileExists(atPath: home + "/pwned.txt"))

        // The same link there already, made by someone else: unzip makes each part itself and goes through no link.
        try FileManager.default.moveItem(atPath: box + "/sub/up", toPath: box + "/up")
        let unzipped = try await sandboxed(#"unzip "HOME/evil.zip" to "BOX""#)
        #expect(unzipped.exitCode == 1)
        #expect(unzipped.standardError.contains("'\(box)/up' is a link, which is never followed here"), "\(unzipped.standardError)")
        #expect(!FileManager.default.fileExists(atPath: home + "/pwned.txt"))
        #expect(!FileManager.default.fileExists(atPath: box + "/pwned.txt"))
    }

    /// `box/dangling → ../outside/created.txt`: every intent that writes to that path is refused, unzip included.
    @Test func aDanglingLinkIsNeverWrittenThrough() async throws {
        try FileManager.default.createSymbolicLink(atPath: box + "/dangling", withDestinationPath: "../outside/created.txt")
        try archive(home + "/dangling.zip", [("dangling", .file, "created", 0o644)])
        try "src".write(toFile: box + "/src.txt", atomically: true, encoding: .utf8)
        let unzipped = try await sandboxed(#"unzip "HOME/dangling.zip" to "BOX""#)
        #expect(unzipped.exitCode == 1)
        #expect(unzipped.standardError.contains("'\(box)/dangling' is there already"), "\(unzipped.standardError)")
        for script in [#"write text "x" to "BOX/dangling""#, #"copy file "BOX/src.txt" to "BOX/dangling""#,
                       #"move file "BOX/src.txt" to "BOX/dangling""#, #"zip "BOX/sub" to "BOX/dangling""#, #"make folder "BOX/dangling""#] {
            let refused = try await sandboxed(script)
            #expect(refused.exitCode == 1, "\(script)")
            #expect(refused.standardError.contains("is outside what --allow-write granted"), "\(script): \(refused.standardError)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside) == [], "nothing was created outside the box")
    }

    /// An entry of mode 6755 comes out without setuid and setgid; its exec bit stays unless the run may start
    /// programs.
    @Test func unzipDropsSetuidSetgidAndStickyBits() async throws {
        try archive(home + "/modes.zip", [("tool", .file, "#!/bin/sh\n", 0o6755), ("sticky/", .directory, "", 0o1777), ("plain", .file, "x", 0o640)])
        let unzipped = try await sandboxed(#"unzip "HOME/modes.zip" to "BOX/out""#)
        #expect(unzipped.exitCode == 0, "\(unzipped.standardError)")
        #expect(try mode(box + "/out/tool") == 0o755)
        #expect(try mode(box + "/out/sticky") == 0o777)
        #expect(try mode(box + "/out/plain") == 0o640)
        let running = try await sandboxed(#"unzip "HOME/modes.zip" to "BOX/run""#, ["--allow-run=echo"])
        #expect(running.exitCode == 0, "\(running.standardError)")
        #expect(try mode(box + "/run/tool") == 0o644, "a run that may start programs makes no program of its own")
        let unconfined = try await BinaryRunner.runAwaiting(["-e", #"unzip "\#(home)/modes.zip" to "\#(box)/free""#], directory: home)
        #expect(unconfined.exitCode == 0, "\(unconfined.standardError)")
        #expect(try mode(box + "/free/tool") == 0o755, "without --sandbox, the exec bit is kept, setuid and setgid are not")
    }

    /// `--allow-run=echo` starts the `echo` found on PATH when the run began: not `box/bin/echo`, which the run
    /// unzipped itself, by its path nor by its name through a PATH that lists the box first.
    @Test func aProgramGrantIsTheFileFoundAtTheStartNeverOneInTheBox() async throws {
        try archive(home + "/tools.zip", [("bin/", .directory, "", 0o755), ("bin/echo", .file, "#!/bin/sh\necho pwned\n", 0o755)])
        let path = box + "/bin:" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let byPath = try await sandboxed(#"unzip "HOME/tools.zip" to "BOX"; show (run command "BOX/bin/echo" arguments: ["hi"]).stdout"#,
                                         ["--allow-run=echo"], environment: ["PATH": path])
        #expect(byPath.exitCode == 1)
        #expect(!byPath.standardOutput.contains("pwned"))
        let echo = try #require(GrantedPath.program("echo"))
        #expect(byPath.standardError.contains("this run may not run programs '\(box)/bin/echo': it is not among what --allow-run granted (echo: \(echo))"),
                "\(byPath.standardError)")
        // The run makes an executable `box/bin/echo`, first on PATH, out of one that was there under another name:
        // the name still starts the file found at the start.
        try FileManager.default.removeItem(atPath: box + "/bin")
        try FileManager.default.createDirectory(atPath: box + "/bin", withIntermediateDirectories: true)
        try BinaryRunner.writeExecutable("#!/bin/sh\necho harmless\n", to: box + "/bin/other")
        let byName = try await sandboxed("""
            write text "#!/bin/sh\\necho pwned\\n" to "BOX/bin/other" replacing: true
            move file "BOX/bin/other" to "BOX/bin/echo"
            show (run command "echo" arguments: ["hi"]).stdout
            """, ["--allow-run=echo"], environment: ["PATH": path])
        #expect(byName.exitCode == 0, "\(byName.standardError)")
        #expect(byName.standardOutput.hasPrefix("hi\n"), "\(byName.standardOutput)")
        #expect(try mode(box + "/bin/echo") & 0o111 != 0, "the box's echo was executable, and not started")
    }

    /// A program that PATH finds in the box, or that is named by a path in it, is refused before the run starts.
    @Test func aProgramInAWritableFolderIsRefusedAtTheStart() async throws {
        try BinaryRunner.writeExecutable("#!/bin/sh\necho pwned\n", to: box + "/echo")
        let path = box + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let byName = try await sandboxed(#"show (run command "echo" arguments: ["hi"]).stdout"#, ["--allow-run=echo"], environment: ["PATH": path])
        #expect(byName.exitCode == 2, "a usage error: \(byName.standardError)")
        #expect(byName.standardError.contains("--allow-run=echo: '\(box)/echo' is in '\(box)', which --allow-write grants"), "\(byName.standardError)")
        #expect(!byName.standardOutput.contains("pwned"))
        let byPath = try await sandboxed(#"run command "BOX/echo""#, ["--allow-run=\(box)/echo"])
        #expect(byPath.exitCode == 2, "\(byPath.standardError)")
        let missing = try await sandboxed(#"show 1"#, ["--allow-run=surely-no-such-program"])
        #expect(missing.exitCode == 2)
        #expect(missing.standardError.contains("--allow-run=surely-no-such-program: there is no program 'surely-no-such-program' in PATH"),
                "\(missing.standardError)")
    }

    /// `box/linked` is a hard link to `outside/file.txt`: appending to it, or replacing it, is refused, since it is
    /// the same file.
    @Test func aFileWithOtherNamesIsNotWritten() async throws {
        try "outside\n".write(toFile: outside + "/file.txt", atomically: true, encoding: .utf8)
        try FileManager.default.linkItem(atPath: outside + "/file.txt", toPath: box + "/linked")
        try "new\n".write(toFile: box + "/new.txt", atomically: true, encoding: .utf8)
        for script in [#"write text "pwned\n" to "BOX/linked" append: true"#, #"write text "pwned\n" to "BOX/linked" replacing: true"#,
                       #"copy file "BOX/new.txt" to "BOX/linked" replacing: true"#] {
            let refused = try await sandboxed(script)
            #expect(refused.exitCode == 1, "\(script)")
            #expect(refused.standardError.contains("can't write '\(box)/linked': it has 2 hard links, so the same file has other names"),
                    "\(script): \(refused.standardError)")
        }
        #expect(try String(contentsOfFile: outside + "/file.txt", encoding: .utf8) == "outside\n")
        // A run that may write everywhere is not confined: it appends as before.
        let unconfined = try await BinaryRunner.runAwaiting(["-e", #"write text "more\n" to "\#(box)/linked" append: true"#], directory: home)
        #expect(unconfined.exitCode == 0, "\(unconfined.standardError)")
        #expect(try String(contentsOfFile: outside + "/file.txt", encoding: .utf8) == "outside\nmore\n")
    }
}
