import AutoIntents
import AutoLanguage
import AutoRuntime
import AutoStdlib
import AutoTestSupport
import Foundation
import Testing

/// `read text` and `write text` on real files in a temporary folder: what they write, what they refuse, and that a
/// refused or failed write leaves everything as it was.
@Suite struct FileIntentsTests {
    /// The test's folder, whose path is `folder`: removed with everything in it after the test.
    let temporary: TemporaryFolder
    let folder: String
    let registry: Registry

    init() throws {
        temporary = try TemporaryFolder("auto-files")
        folder = try GrantedPath.resolve(temporary.path)
        registry = try stdlibRegistry()
    }

    func run(_ text: String, grants: Grants = .all) async -> ScriptOutcome {
        await EngineHarness.run(text.replacingOccurrences(of: "DIR", with: folder), registry: registry, grants: grants)
    }

    func contents(_ name: String) -> String? {
        FileManager.default.contents(atPath: folder + "/" + name).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func writesANewFileAppendsAndReadsItBack() async {
        let outcome = await run("""
            write text "first\\n" to "DIR/notes.txt"
            write text "second\\n" to "DIR/notes.txt" append: true
            show read text "DIR/notes.txt"
            """)
        #expect(outcome.exitCode == 0, "\(outcome.standardError)")
        #expect(contents("notes.txt") == "first\nsecond\n")
        #expect(outcome.output.prefix(2) == ["first", "second"])
    }

    /// A write that fails half way (a file size limit, as `ulimit -f` sets it, stands in for a full disk: the write
    /// is refused after the first blocks) leaves the old file whole and no temporary file beside it; a full device
    /// says so.
    @Test func aWriteThatFailsLeavesTheOldFileWhole() async throws {
        try "old".write(toFile: folder + "/keep.txt", atomically: false, encoding: .utf8)
        let script = #"write text padLeft("x", 1000000) to "DIR/keep.txt" replacing: true"#.replacingOccurrences(of: "DIR", with: folder)
        let limited = try BinaryRunner.run(["-c", "trap '' XFSZ; ulimit -f 64; exec \"$0\" -e \"$1\"", BinaryRunner.binary, script],
                                           executable: "/bin/sh")
        #expect(limited.exitCode == 1)
        #expect(limited.standardError.contains("can't write '\(folder)/keep.txt': the file would be larger than this process may write"),
                "\(limited.standardError)")
        #expect(contents("keep.txt") == "old")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["keep.txt"], "no temporary file is left")
        let full = await run(#"write text "x" to "/dev/full" append: true"#)
        #expect(full.standardError.contains("can't write '/dev/full': the disk is full"), "\(full.standardError)")
    }

    @Test func anExistingFileIsReplacedOnlyWhenAskedAndKeepsItsMode() async throws {
        let path = folder + "/kept.txt"
        try "old".write(toFile: path, atomically: false, encoding: .utf8)
        chmod(path, 0o640)
        let refused = await run(#"write text "new" to "DIR/kept.txt""#)
        #expect(refused.exitCode == 1)
        #expect(refused.standardError.contains("'\(path)' exists already; write with replacing: true"), "\(refused.standardError)")
        #expect(contents("kept.txt") == "old")

        let replaced = await run(#"write text "new" to "DIR/kept.txt" replacing: true"#)
        #expect(replaced.exitCode == 0, "\(replaced.standardError)")
        #expect(contents("kept.txt") == "new")
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o640)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty, "no temporary file is left beside it")
    }

    @Test func badPathsAreErrorsThatNameThem() async throws {
        try FileManager.default.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: true)
        let intoFolder = await run(#"write text "x" to "DIR/sub""#)
        #expect(intoFolder.standardError.contains("'\(folder)/sub' is a folder"), "\(intoFolder.standardError)")
        let noFolder = await run(#"write text "x" to "DIR/missing/x.txt""#)
        #expect(noFolder.standardError.contains("there is no folder '\(folder)/missing'"), "\(noFolder.standardError)")
        let noFile = await run(#"read text "DIR/nothing.txt""#)
        #expect(noFile.standardError.contains("can't read '\(folder)/nothing.txt': there is no such file"), "\(noFile.standardError)")
        #expect(FileManager.default.createFile(atPath: folder + "/binary", contents: Data([0xFF, 0xFE, 0x00, 0xC3])))
        let binary = await run(#"read text "DIR/binary""#)
        #expect(binary.standardError.contains("'\(folder)/binary' is not UTF-8 text"), "\(binary.standardError)")
        let spaced = await run(#"write text "ok" to "DIR/a name with spaces\nand a newline.txt""#)
        #expect(spaced.exitCode == 0, "\(spaced.standardError)")
        #expect(contents("a name with spaces\nand a newline.txt") == "ok")
        #expect([intoFolder, noFolder, noFile, binary].allSatisfy { $0.exitCode == 1 })
    }

    @Test func aGrantForOneFolderRefusesWritesOutsideItAlsoThroughDotDotAndALink() async throws {
        let granted = folder + "/granted"
        try FileManager.default.createDirectory(atPath: granted, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: granted + "/out", withDestinationPath: folder + "/target.txt")
        try FileManager.default.createSymbolicLink(atPath: granted + "/up", withDestinationPath: "..")
        let grants = Grants(read: .all, write: .only([granted]))
        for target in ["DIR/elsewhere.txt", "DIR/granted/../elsewhere.txt", "DIR/granted/out", "DIR/granted/up/elsewhere.txt"] {
            let outcome = await run("write text \"x\" to \"\(target)\"", grants: grants)
            #expect(outcome.exitCode == 1, "\(target)")
            #expect(outcome.standardError.contains("is outside what --allow-write granted (\(granted))"), "\(target): \(outcome.standardError)")
        }
        // The path written is the one checked: `sub` doesn't exist, and `sub/..` is the granted folder itself.
        let written = await run(#"write text "x" to "DIR/granted/sub/../inside.txt""#, grants: grants)
        #expect(written.exitCode == 0, "\(written.standardError)")
        let everything = try FileManager.default.subpathsOfDirectory(atPath: folder).sorted()
        #expect(everything == ["granted", "granted/inside.txt", "granted/out", "granted/up"], "nothing was written outside the grant")
    }

    /// A confined run writes no file with other names (a hard link): the bytes would land under every name, some
    /// maybe outside its grant. Unconfined, it does as before.
    @Test func aFileWithHardLinksIsNotWrittenByAConfinedRun() async throws {
        let granted = folder + "/granted"
        try FileManager.default.createDirectory(atPath: granted, withIntermediateDirectories: true)
        try "outside".write(toFile: folder + "/outside.txt", atomically: true, encoding: .utf8)
        try FileManager.default.linkItem(atPath: folder + "/outside.txt", toPath: granted + "/linked")
        let grants = Grants(read: .all, write: .only([granted]))
        for script in [#"write text "x" to "DIR/granted/linked" append: true"#, #"write text "x" to "DIR/granted/linked" replacing: true"#] {
            let outcome = await run(script, grants: grants)
            #expect(outcome.exitCode == 1, "\(script)")
            #expect(outcome.standardError.contains("can't write '\(granted)/linked': it has 2 hard links"), "\(script): \(outcome.standardError)")
        }
        #expect(contents("outside.txt") == "outside")
        let appended = await run(#"write text "!" to "DIR/granted/linked" append: true"#)
        #expect(appended.exitCode == 0, "\(appended.standardError)")
        #expect(contents("outside.txt") == "outside!")
    }

    @Test func aCallNeedingWhatTheRunIsNotGrantedIsACompileError() async {
        let outcome = await run(#"write text "x" to "DIR/a.txt""#, grants: Grants(read: .all))
        #expect(outcome.exitCode == 2)
        #expect(outcome.standardError.contains("'write text' needs to write files, and this run may not"), "\(outcome.standardError)")
        #expect(outcome.standardError.contains("grant it with --allow-write"))
        #expect(contents("a.txt") == nil)
        let reading = await run(#"read text "DIR/a.txt""#, grants: .none)
        #expect(reading.standardError.contains("'read text' needs to read files"), "\(reading.standardError)")
    }

    @Test func theStandardLibraryDeclaresWhatEachIntentTouches() throws {
        #expect(registry.intent(named: "read text")?.capabilities == [.read])
        #expect(registry.intent(named: "write text")?.capabilities == [.write])
        #expect(registry.intent(named: "write text")?.sideEffect == .changes)
    }
}

/// Paths as grants compare them.
@Suite struct GrantedPathTests {
    @Test func homeRelativeDotsAndLinksResolve() throws {
        let temporary = try TemporaryFolder("auto-paths")
        defer { withExtendedLifetime(temporary) {} }
        let root = try GrantedPath.resolve(temporary.path)
        try FileManager.default.createDirectory(atPath: root + "/a/b", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: root + "/link", withDestinationPath: "a/b")
        try FileManager.default.createSymbolicLink(atPath: root + "/loop", withDestinationPath: "loop")
        #expect(try GrantedPath.resolve("~/x", home: "/home/ann") == "/home/ann/x")
        #expect(try GrantedPath.resolve("x/./y/../z", in: "/w") == "/w/x/z")
        #expect(try GrantedPath.resolve(root + "/link/../c") == root + "/a/c", "'..' after a link leaves its target, as the kernel does")
        #expect(try GrantedPath.resolve(root + "/link/new/file") == root + "/a/b/new/file")
        #expect(throws: GrantedPath.LoopError.self) { try GrantedPath.resolve(root + "/loop/x") }
        #expect(GrantedPath.isInside("/a/bc", root: "/a/b") == false)
        #expect(GrantedPath.isInside("/a/b/c", root: "/a/b") && GrantedPath.isInside("/a/b", root: "/a/b"))
    }

    @Test func hostsAreGrantedByNameProgramsByTheFileTheirNameWasResolvedTo() throws {
        let grants = Grants(net: .only(["example.org", "localhost:8080"]), run: .only(["sh", "/usr/bin/env", "surely-no-such-program"]))
        #expect(grants.allows(host: "Example.org", port: 443))
        #expect(grants.allows(host: "localhost", port: 8080) && !grants.allows(host: "localhost", port: 9090))
        let sh = try #require(GrantedPath.program("sh"))
        #expect(grants.programs == ["sh": sh, "/usr/bin/env": try GrantedPath.resolve("/usr/bin/env")], "resolved when the grant is made")
        #expect(try grants.executable(for: "sh") == sh)
        #expect(grants.allows(program: sh), "a path to the very file a granted name was resolved to")
        #expect(grants.allows(program: "/usr/bin/env") && !grants.allows(program: "env"), "a path is granted by its path only")
        #expect(!grants.allows(program: "/tmp/sh") && !grants.allows(program: "surely-no-such-program") && !grants.allows(program: "ls"))
        #expect(!Grants.none.allows(program: "true") && Grants.all.allows(host: "anywhere", port: nil))
        #expect(grants.refusal(.run, "'ls'").hasSuffix("(sh: \(sh), /usr/bin/env, surely-no-such-program: not found)"), "\(grants.refusal(.run, "'ls'"))")
    }

    @Test func aProgramNameIsLookedUpOnThePathGivenAndResolvedToItsFile() throws {
        let temporary = try TemporaryFolder("auto-programs")
        defer { withExtendedLifetime(temporary) {} }
        let root = try GrantedPath.resolve(temporary.path)
        try FileManager.default.createDirectory(atPath: root + "/a", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/b", withIntermediateDirectories: true)
        try BinaryRunner.writeExecutable("#!/bin/sh\n", to: root + "/b/tool")
        try "not executable".write(toFile: root + "/a/tool", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: root + "/a/alias", withDestinationPath: "../b/tool")
        #expect(GrantedPath.program("tool", searchPath: "relative:\(root)/a:\(root)/b") == root + "/b/tool", "the first executable file")
        #expect(GrantedPath.program("alias", searchPath: root + "/a") == root + "/b/tool", "links resolved")
        #expect(GrantedPath.program(root + "/a/alias") == root + "/b/tool")
        #expect(GrantedPath.program("tool", searchPath: root + "/a") == nil && GrantedPath.program(root + "/a/tool") == nil)
        // Granted, but under a folder the run may write: refused, whatever name or path asks for it.
        let grants = Grants(write: .only([root + "/b"]), run: .only([root + "/a/alias"]))
        #expect(grants.programs[root + "/a/alias"] == root + "/b/tool")
        #expect(throws: Grants.ProgramRefusal.self) { try grants.executable(for: root + "/a/alias") }
        #expect(Grants(write: .only([root + "/a"]), run: .only([root + "/a/alias"])).allows(program: root + "/b/tool"))
    }
}
