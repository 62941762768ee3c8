import AutoIntents
import AutoRuntime
import AutoStdlib
import AutoTestSupport
import Foundation
import Testing
import ZIPFoundation

/// `zip` and `unzip` on real folders: what goes in comes out the same, nothing is replaced silently, and no entry
/// lands outside the folder it is unzipped into.
@Suite struct ZipIntentsTests {
    /// The test's folder, whose path is `folder`: removed with everything in it after the test.
    let temporary: TemporaryFolder
    let folder: String
    let registry: Registry

    init() throws {
        temporary = try TemporaryFolder("auto-zip")
        folder = try GrantedPath.resolve(temporary.path)
        try FileManager.default.createDirectory(atPath: folder + "/src/sub", withIntermediateDirectories: true)
        try "one".write(toFile: folder + "/src/a.txt", atomically: true, encoding: .utf8)
        try String(repeating: "two ", count: 10_000).write(toFile: folder + "/src/sub/b.txt", atomically: true, encoding: .utf8)
        registry = try stdlibRegistry()
    }

    func run(_ text: String, grants: Grants = .all) async -> ScriptOutcome {
        await EngineHarness.run(text.replacingOccurrences(of: "DIR", with: folder), registry: registry, grants: grants)
    }

    /// An archive at `name` in the folder holding `entries`: a name, its type, its content (a link's target), its mode.
    func archive(_ name: String, _ entries: [(String, Entry.EntryType, String, UInt16)]) throws {
        let archive = try Archive(url: URL(fileURLWithPath: folder + "/" + name), accessMode: .create)
        for (path, type, content, mode) in entries {
            let data = Data(content.utf8)
            try archive.addEntry(with: path, type: type, uncompressedSize: Int64(data.count), permissions: mode) { position, size in
                data.subdata(in: Int(position)..<min(data.count, Int(position) + size))
            }
        }
    }

    @Test func aFolderComesOutAsItWentIn() async throws {
        let outcome = await run("""
            zip "DIR/src" to "DIR/src.zip"
            unzip "DIR/src.zip" to "DIR/out"
            """)
        #expect(outcome.exitCode == 0, "\(outcome.standardError)")
        #expect(try FileManager.default.subpathsOfDirectory(atPath: folder + "/out").sorted() == ["src", "src/a.txt", "src/sub", "src/sub/b.txt"])
        #expect(FileManager.default.contents(atPath: folder + "/out/src/sub/b.txt") == FileManager.default.contents(atPath: folder + "/src/sub/b.txt"))
        let size = try FileManager.default.attributesOfItem(atPath: folder + "/src.zip")[.size] as? Int ?? 0
        #expect(size < 10_000, "compressed: \(size) bytes for 40,003")
    }

    @Test func nothingIsReplacedSilently() async throws {
        _ = await run(#"zip "DIR/src" to "DIR/src.zip""#)
        let again = await run(#"zip "DIR/src/a.txt" to "DIR/src.zip""#)
        #expect(again.standardError.contains("'\(folder)/src.zip' exists already; zip with replacing: true"), "\(again.standardError)")
        let replaced = await run(#"zip "DIR/src/a.txt" to "DIR/src.zip" replacing: true"#)
        #expect(replaced.exitCode == 0, "\(replaced.standardError)")
        #expect(try Archive(url: URL(fileURLWithPath: folder + "/src.zip"), accessMode: .read).map(\.path) == ["a.txt"])
        let unzipped = await run(#"unzip "DIR/src.zip" to "DIR/src""#)
        #expect(unzipped.standardError.contains("'\(folder)/src/a.txt' is there already"), "\(unzipped.standardError)")
        #expect(FileManager.default.contents(atPath: folder + "/src/a.txt") == Data("one".utf8))
        let inside = await run(#"zip "DIR/src" to "DIR/src/self.zip""#)
        #expect(inside.standardError.contains("can't be inside what it zips"), "\(inside.standardError)")
    }

    @Test func anEntryThatWouldLandOutsideIsRefused() async throws {
        let archive = try Archive(url: URL(fileURLWithPath: folder + "/evil.zip"), accessMode: .create)
        try archive.addEntry(with: "../evil.txt", type: .file, uncompressedSize: Int64(1), provider: { (_: Int64, _: Int) in Data("x".utf8) })
        let outcome = await run(#"unzip "DIR/evil.zip" to "DIR/out""#)
        #expect(outcome.exitCode == 1)
        #expect(outcome.standardError.contains("would be outside the folder"), "\(outcome.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/evil.txt"))
        try "not a zip".write(toFile: folder + "/bad.zip", atomically: true, encoding: .utf8)
        let bad = await run(#"unzip "DIR/bad.zip" to "DIR/out""#)
        #expect(bad.standardError.contains("it is not a zip archive"), "\(bad.standardError)")
    }

    /// A link entry is made as a link, never followed: not by a later entry (which is refused), and only when it
    /// points inside the folder.
    @Test func linksAreMadeAsLinksInsideTheFolderAndNeverGoneThrough() async throws {
        try archive("links.zip", [("inner/", .directory, "", 0o755), ("inner/f.txt", .file, "f", 0o644), ("to-f", .symlink, "inner/f.txt", 0o777),
                                  ("l", .symlink, "inner", 0o777), ("l/x.txt", .file, "x", 0o644)])
        let through = await run(#"unzip "DIR/links.zip" to "DIR/out""#)
        #expect(through.exitCode == 1)
        #expect(through.standardError.contains("'\(folder)/out/l' is a link, which is never followed here"), "\(through.standardError)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder + "/out/to-f") == "inner/f.txt")
        #expect(FileManager.default.contents(atPath: folder + "/out/to-f") == Data("f".utf8))
        #expect(!FileManager.default.fileExists(atPath: folder + "/out/inner/x.txt"))

        for (name, target) in [("up", "../src"), ("absolute", "/etc/passwd"), ("home", "~")] {
            try archive(name + ".zip", [(name, .symlink, target, 0o777)])
            let outcome = await run("unzip \"DIR/\(name).zip\" to \"DIR/out\"")
            if name == "home" {
                #expect(outcome.exitCode == 0, "a link's '~' is a name like any other: \(outcome.standardError)")
                continue
            }
            #expect(outcome.exitCode == 1, "\(name)")
            #expect(outcome.standardError.contains("the link '\(folder)/out/\(name)' to '\(target)' would point out of the folder"),
                    "\(name): \(outcome.standardError)")
            #expect(!FileManager.default.fileExists(atPath: folder + "/out/" + name))
        }
    }

    /// `zip` reads a tree without going through its links: a link to a file outside what the run may read is stored
    /// as a link, never with that file's contents.
    @Test func zipStoresALinkAsALink() async throws {
        try "secret".write(toFile: folder + "/secret.txt", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: folder + "/src/secret", withDestinationPath: "../secret.txt")
        chmod(folder + "/src/a.txt", 0o4755)
        let grants = Grants(read: .only([folder + "/src"]), write: .only([folder]))
        let outcome = await run(#"zip "DIR/src" to "DIR/src.zip""#, grants: grants)
        #expect(outcome.exitCode == 0, "\(outcome.standardError)")
        let archive = try Archive(url: URL(fileURLWithPath: folder + "/src.zip"), accessMode: .read)
        #expect(archive.map(\.path).sorted() == ["src/", "src/a.txt", "src/secret", "src/sub/", "src/sub/b.txt"])
        let link = try #require(archive["src/secret"])
        #expect(link.type == .symlink)
        var target = Data()
        _ = try archive.extract(link) { target.append($0) }
        #expect(target == Data("../secret.txt".utf8))
        #expect(try #require(archive["src/a.txt"]).fileAttributes[.posixPermissions] as? Int == 0o755, "no setuid bit is stored")
        let back = await run(#"unzip "DIR/src.zip" to "DIR/out""#)
        #expect(back.exitCode == 0, "\(back.standardError)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder + "/out/src/secret") == "../secret.txt")
    }

    /// An archive whose data doesn't match its checksum is an error, and the file it was filling is removed.
    @Test func aDamagedEntryIsAnErrorAndLeavesNoFile() async throws {
        try archive("good.zip", [("f.txt", .file, "hello hello hello", 0o644)])
        var bytes = try Data(contentsOf: URL(fileURLWithPath: folder + "/good.zip"))
        let at = try #require(bytes.range(of: Data("hello".utf8)))
        bytes[at.lowerBound] = UInt8(ascii: "j")
        try bytes.write(to: URL(fileURLWithPath: folder + "/bad.zip"))
        let outcome = await run(#"unzip "DIR/bad.zip" to "DIR/out""#)
        #expect(outcome.standardError.contains("an entry is damaged"), "\(outcome.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/out/f.txt"))
    }

    /// An archive of another maker (Python's zipfile): a link entry stored deflated comes out as the link it is, and
    /// a 6755 file without its setuid and setgid bits.
    @Test func aDeflatedLinkEntryAndASetuidFileFromPython() async throws {
        let script = """
            import stat, sys, zipfile
            with zipfile.ZipFile(sys.argv[1], "w") as archive:
                link = zipfile.ZipInfo("link"); link.create_system = 3; link.compress_type = zipfile.ZIP_DEFLATED
                link.external_attr = (stat.S_IFLNK | 0o777) << 16
                archive.writestr(link, "sub/" * 20 + "target.txt")
                tool = zipfile.ZipInfo("tool"); tool.create_system = 3; tool.compress_type = zipfile.ZIP_DEFLATED
                tool.external_attr = (stat.S_IFREG | 0o6755) << 16
                archive.writestr(tool, "#!/bin/sh\\n" * 100)
            """
        let made = try BinaryRunner.run(["python3", "-c", script, folder + "/python.zip"], executable: "/usr/bin/env")
        try #require(made.exitCode == 0, "\(made.standardError)")
        let outcome = await run(#"unzip "DIR/python.zip" to "DIR/out""#)
        #expect(outcome.exitCode == 0, "\(outcome.standardError)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder + "/out/link") == String(repeating: "sub/", count: 20) + "target.txt")
        #expect(try FileManager.default.attributesOfItem(atPath: folder + "/out/tool")[.posixPermissions] as? Int == 0o755)
        #expect(FileManager.default.contents(atPath: folder + "/out/tool") == Data(String(repeating: "#!/bin/sh\n", count: 100).utf8))
    }
}
