import Foundation
import Testing

/// The example scripts of this folder (`headline.auto`, …), each run by the built `library` on a new database, print
/// what their `# expect:` lines say: the host built against the engine's public API works as the engine's own copy of
/// it does.
@Suite struct ExampleScriptsTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let scripts: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
        .filter { $0.hasSuffix(".auto") }.sorted()

    /// The folder of the built products: where this test binary is, or its parent.
    static let library: String = {
        let candidates = [Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent(),
                          URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
        let folder = candidates.first { FileManager.default.isExecutableFile(atPath: $0.appendingPathComponent("library").path) }
        return (folder ?? candidates[0]).appendingPathComponent("library").path
    }()

    @Test func thereAreScripts() {
        #expect(Self.scripts.count >= 5, "\(Self.folder.path)")
    }

    @Test(arguments: scripts)
    func script(_ name: String) throws {
        let path = Self.folder.appendingPathComponent(name).path
        let expected = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            .compactMap { $0.hasPrefix("# expect: ") ? String($0.dropFirst("# expect: ".count)) : nil }
        #expect(!expected.isEmpty, "\(name) expects nothing")
        let database = FileManager.default.temporaryDirectory.appendingPathComponent("library-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database + suffix) } }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.library)
        process.arguments = ["--db", database, "run", "--no-input", path]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read to the end before waiting: a full pipe would block the script.
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let said = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(name): \(String(decoding: said, as: UTF8.self))")
        #expect(String(decoding: printed, as: UTF8.self).split(separator: "\n").map(String.init) == expected)
    }
}
