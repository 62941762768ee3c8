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
    let folder: String
    let registry: Registry

    init() throws {
        folder = try GrantedPath.resolve(FileManager.default.temporaryDirectory.appendingPathComponent("auto-zip-\(UUID().uuidString)").path)
        try FileManager.default.createDirectory(atPath: folder + "/src/sub", withIntermediateDirectories: true)
        try "one".write(toFile: folder + "/src/a.txt", atomically: true, encoding: .utf8)
        try String(repeating: "two ", count: 10_000).write(toFile: folder + "/src/sub/b.txt", atomically: true, encoding: .utf8)
        registry = try stdlibRegistry()
    }

    func run(_ text: String) async -> ScriptOutcome {
        await EngineHarness.run(text.replacingOccurrences(of: "DIR", with: folder), registry: registry)
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
}
