import AutoIntents
import AutoLanguage
import AutoRuntime
import AutoStdlib
import AutoTestSupport
import Foundation
import Testing

/// Listing, making, copying, moving, renaming and deleting on real files in a temporary folder. Deleting runs the
/// real `auto` with a trash of the test's own (XDG_DATA_HOME in its environment).
@Suite struct FolderIntentsTests {
    /// The test's folder, whose path is `folder`: removed with everything in it after the test.
    let temporary: TemporaryFolder
    let folder: String
    let registry: Registry

    init() throws {
        temporary = try TemporaryFolder("auto-folders")
        folder = try GrantedPath.resolve(temporary.path)
        try FileManager.default.createDirectory(atPath: folder + "/box/sub", withIntermediateDirectories: true)
        try "one".write(toFile: folder + "/box/a.txt", atomically: true, encoding: .utf8)
        try "two".write(toFile: folder + "/box/sub/b.md", atomically: true, encoding: .utf8)
        try "dot".write(toFile: folder + "/box/.hidden", atomically: true, encoding: .utf8)
        registry = try stdlibRegistry()
    }

    func auto(_ arguments: [String], script: String) async throws -> BinaryRunner.Result {
        try await BinaryRunner.runAwaiting(arguments + ["-e", script.replacingOccurrences(of: "DIR", with: folder)],
                             environment: ["XDG_DATA_HOME": folder + "/data"], directory: folder)
    }

    func run(_ text: String, confirmations: [Bool] = [], grants: Grants = .all) async -> ScriptOutcome {
        await EngineHarness.run(text.replacingOccurrences(of: "DIR", with: folder), registry: registry, confirmations: confirmations, grants: grants)
    }

    func tree() throws -> [String] {
        try FileManager.default.subpathsOfDirectory(atPath: folder).sorted()
    }

    @Test func listsByNameIntoFoldersOnlyWhenAskedAndHiddenOnlyWhenAsked() async throws {
        try FileManager.default.createSymbolicLink(atPath: folder + "/box/sub/loop", withDestinationPath: folder + "/box")
        let outcome = await run("""
            show (list folder "DIR/box").name
            show (list folder "DIR/box" recursive: true hidden: true).name
            for f in list folder "DIR/box" { show "\\(f.name) \\(f.kind) \\(f.size) \\(f.parent.name)" }
            """)
        #expect(outcome.exitCode == 0, "\(outcome.standardError)")
        #expect(outcome.output == [#"["a.txt", "sub"]"#, #"[".hidden", "a.txt", "sub", "b.md", "loop"]"#,
                                   "a.txt file 3 bytes box", "sub folder \(try folderSize("box/sub")) box"],
                "a link to a folder is listed, not entered: the loop ends")
        let missing = await run(#"list folder "DIR/nothing""#)
        #expect(missing.standardError.contains("there is no folder '\(folder)/nothing'"), "\(missing.standardError)")
        let file = await run(#"list folder "DIR/box/a.txt""#)
        #expect(file.standardError.contains("'\(folder)/box/a.txt' is not a folder"))
    }

    func folderSize(_ path: String) throws -> String {
        let bytes = try FileManager.default.attributesOfItem(atPath: folder + "/" + path)[.size] as? Int ?? 0
        return ValueFormatter.display(.size(Int64(bytes)))
    }

    @Test func copiesAndMovesIntoFoldersAndNeverReplaceSilently() async throws {
        let outcome = await run("""
            copy file "DIR/box/a.txt" to "DIR/box/sub"
            copy file "DIR/box/sub" to "DIR/copy"
            move file "DIR/box/a.txt" to "DIR/moved.txt"
            rename file "DIR/moved.txt" to "renamed.txt"
            make folder "DIR/new/deeper"
            make folder "DIR/new"
            """)
        #expect(outcome.exitCode == 0, "\(outcome.standardError)")
        #expect(try tree() == ["box", "box/.hidden", "box/sub", "box/sub/a.txt", "box/sub/b.md", "copy", "copy/a.txt", "copy/b.md",
                               "new", "new/deeper", "renamed.txt"])
        #expect(FileManager.default.contents(atPath: folder + "/copy/a.txt") == Data("one".utf8))

        let refused = await run(#"copy file "DIR/renamed.txt" to "DIR/copy/a.txt""#)
        #expect(refused.standardError.contains("'\(folder)/copy/a.txt' exists already; copy with replacing: true"), "\(refused.standardError)")
        #expect(FileManager.default.contents(atPath: folder + "/copy/a.txt") == Data("one".utf8))
        let replaced = await run(#"move file "DIR/renamed.txt" to "DIR/copy/a.txt" replacing: true"#)
        #expect(replaced.exitCode == 0, "\(replaced.standardError)")
        let folderTarget = await run(#"copy file "DIR/box/.hidden" to "DIR/new/deeper" "#)
        #expect(folderTarget.exitCode == 0, "a folder as the destination takes the file in: \(folderTarget.standardError)")
        let overFolder = await run(#"rename file "DIR/copy/a.txt" to "b.md" replacing: true"#)
        #expect(overFolder.exitCode == 0, "\(overFolder.standardError)")
        let notAName = await run(#"rename file "DIR/copy/b.md" to "../b.md""#)
        #expect(notAName.standardError.contains("'../b.md' is not a file name"), "\(notAName.standardError)")
        #expect(try tree().contains("copy/b.md") && !(try tree().contains("copy/a.txt")))
        // A folder moved into itself (rename(2)'s "Invalid argument") says so, and nothing moves.
        let intoItself = await run(#"move file "DIR/box" to "DIR/box/sub""#)
        #expect(intoItself.standardError.contains("can't move the folder '\(folder)/box' into itself: the target '\(folder)/box/sub/box' is inside it"),
                "\(intoItself.standardError)")
        #expect(try tree().contains("box/sub/b.md"))
    }

    @Test func deleteGoesToTheTrashWithItsInfoAndForGoodOnlyAfterAConfirmation() async throws {
        let trashed = try await auto([], script: #"delete file "DIR/box/a.txt""#)
        #expect(trashed.exitCode == 0, "\(trashed.standardError)")
        try "again".write(toFile: folder + "/box/a.txt", atomically: true, encoding: .utf8)
        let second = try await auto([], script: #"delete file "DIR/box/a.txt""#)
        #expect(second.standardOutput == "\(folder)/data/Trash/files/a.txt.2\n", "\(second.standardError)")
        let info = try String(contentsOfFile: folder + "/data/Trash/info/a.txt.trashinfo", encoding: .utf8)
        #expect(info.hasPrefix("[Trash Info]\nPath=\(folder)/box/a.txt\nDeletionDate=20"), "\(info)")
        #expect(FileManager.default.contents(atPath: folder + "/data/Trash/files/a.txt.2") == Data("again".utf8))

        let unconfirmed = try await auto([], script: #"delete file "DIR/box/sub" permanently: true"#)
        #expect(unconfirmed.exitCode == 1)
        #expect(unconfirmed.standardError.contains("Delete '\(folder)/box/sub' for good?"), "\(unconfirmed.standardError)")
        // An intent's own confirmation is approved by --yes, as a destructive intent's is, and the hint says so.
        #expect(unconfirmed.standardError.contains("hint: approve it with --yes, or this one alone with --answer \"Delete '\(folder)/box/sub' for good? It will not be in the trash.=yes\"\n"), "\(unconfirmed.standardError)")
        #expect(FileManager.default.fileExists(atPath: folder + "/box/sub/b.md"))
        let confirmed = try await auto(["--yes"], script: #"delete file "DIR/box/sub" permanently: true"#)
        #expect(confirmed.exitCode == 0, "\(confirmed.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/box/sub"))
    }

    @Test func aLinkIsMovedAndDeletedItselfNotWhatItPointsTo() async throws {
        let outside = folder + "/outside.txt"
        try "keep".write(toFile: outside, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: folder + "/box/link", withDestinationPath: outside)
        let grants = ["--allow-read", "--allow-write=\(folder)/box,\(folder)/data"]
        let renamed = try await auto(grants, script: #"rename file "DIR/box/link" to "renamed-link""#)
        #expect(renamed.exitCode == 0, "\(renamed.standardError)")
        let deleted = try await auto(grants, script: #"delete file "DIR/box/renamed-link""#)
        #expect(deleted.exitCode == 0, "\(deleted.standardError)")
        #expect(FileManager.default.contents(atPath: outside) == Data("keep".utf8))
        #expect(FileManager.default.fileExists(atPath: folder + "/data/Trash/info/renamed-link.trashinfo"))
        let refused = try await auto(grants, script: #"delete file "DIR/outside.txt""#)
        #expect(refused.standardError.contains("is outside what --allow-write granted"), "\(refused.standardError)")
        #expect(FileManager.default.fileExists(atPath: outside))
    }

    /// A folder is copied by making each path itself: a link as a link, and only where it points somewhere the run
    /// may write; no setuid bit; a copy that fails leaves nothing behind.
    @Test func aCopiedTreeKeepsItsLinksAsLinksWhereTheRunMayWrite() async throws {
        try "outside".write(toFile: folder + "/outside.txt", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: folder + "/box/sub/in", withDestinationPath: "b.md")
        try FileManager.default.createSymbolicLink(atPath: folder + "/box/sub/out", withDestinationPath: "../../outside.txt")
        chmod(folder + "/box/sub/b.md", 0o6755)
        let confined = Grants(read: .all, write: .only([folder + "/box"]))
        let refused = await run(#"copy file "DIR/box/sub" to "DIR/box/copy""#, grants: confined)
        #expect(refused.exitCode == 1)
        #expect(refused.standardError.contains("the link '\(folder)/box/copy/out' would point to '\(folder)/outside.txt', and this run may not write files there"),
                "\(refused.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/box/copy"), "the half-made copy is removed")

        try FileManager.default.removeItem(atPath: folder + "/box/sub/out")
        let copied = await run(#"copy file "DIR/box/sub" to "DIR/box/copy""#, grants: confined)
        #expect(copied.exitCode == 0, "\(copied.standardError)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder + "/box/copy/in") == "b.md")
        #expect(try FileManager.default.attributesOfItem(atPath: folder + "/box/copy/b.md")[.posixPermissions] as? Int == 0o755)
        let overFile = await run(#"copy file "DIR/box/sub" to "DIR/box/copy/b.md" replacing: true"#, grants: confined)
        #expect(overFile.standardError.contains("'\(folder)/box/copy/b.md' is there already"), "a folder never replaces a file: \(overFile.standardError)")
        let inside = await run(#"copy file "DIR/box" to "DIR/box/copy""#)
        #expect(inside.standardError.contains("can't copy '\(folder)/box' into itself"), "\(inside.standardError)")
    }

    /// A confined move may not turn a link towards somewhere new outside the grant (issue 29's first step: an
    /// inward `sub/up → ..` moved up a level); a link that points where it did, or inside the grant, moves.
    @Test func aMoveNeverTurnsALinkOutOfTheGrant() async throws {
        try FileManager.default.createSymbolicLink(atPath: folder + "/box/sub/up", withDestinationPath: "..")
        try FileManager.default.createDirectory(atPath: folder + "/box/tree/deeper", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder + "/box/tree/deeper/up2", withDestinationPath: "../../..")
        let confined = Grants(read: .all, write: .only([folder + "/box"]))
        let up = await run(#"move file "DIR/box/sub/up" to "DIR/box/up""#, grants: confined)
        #expect(up.exitCode == 1)
        #expect(up.standardError.contains("the link '\(folder)/box/up' would point to '\(folder)'"), "\(up.standardError)")
        let tree = await run(#"move file "DIR/box/tree" to "DIR/box/sub""#, grants: confined)
        #expect(tree.exitCode == 0, "box/sub/tree/deeper/up2 points to box now, inside: \(tree.standardError)")
        let outward = await run(#"move file "DIR/box/sub/tree" to "DIR/box/tree""#, grants: confined)
        #expect(outward.standardError.contains("the link '\(folder)/box/tree/deeper/up2' would point to '\(folder)'"), "\(outward.standardError)")
        let unconfined = await run(#"move file "DIR/box/sub/up" to "DIR/box/up""#)
        #expect(unconfined.exitCode == 0, "a run that may write everywhere is not confined: \(unconfined.standardError)")
    }
}
