import AutoTestSupport
import Foundation
import Testing

/// `auto mcp` executes the MCP server's binary beside its own (`auto-mcp`), with the arguments it was given; the
/// server itself is tested through `library mcp` (LibraryHostTests, McpServerTests).
@Suite struct McpCommandTests {
    /// A folder beside the build's products with a link to the built `auto` in it (the same file system: the binary
    /// finds its companion by its own path, `/proc/self/exe`).
    func folderWithAuto() throws -> URL {
        let folder = BinaryRunner.productsFolder.deletingLastPathComponent().appendingPathComponent("mcp-command-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let auto = folder.appendingPathComponent("auto").path
        if link(BinaryRunner.binary, auto) != 0 { try FileManager.default.copyItem(atPath: BinaryRunner.binary, toPath: auto) }
        return folder
    }

    @Test func mcpExecutesTheServerBesideItWithTheSameArguments() async throws {
        let folder = try folderWithAuto()
        defer { try? FileManager.default.removeItem(at: folder) }
        let auto = folder.appendingPathComponent("auto").path, companion = folder.appendingPathComponent("auto-mcp").path

        let missing = try await BinaryRunner.runAwaiting(["mcp", "--allow-read=/tmp"], executable: auto)
        #expect(missing.exitCode == 1)
        #expect(missing.standardError.contains("the MCP server of auto is the binary 'auto-mcp', and there is none at \(companion)"),
                "\(missing.standardError)")
        #expect(missing.standardError.contains("swift build --product auto-mcp"))

        // A stand-in server that says how it was started.
        try BinaryRunner.writeExecutable("#!/bin/sh\necho \"$0 $*\"\n", to: companion)
        let started = try await BinaryRunner.runAwaiting(["mcp", "--allow-read=/tmp", "--allow-net=example.com"], executable: auto)
        #expect(started.exitCode == 0, "\(started.standardError)")
        #expect(started.standardOutput == "\(companion) mcp --allow-read=/tmp --allow-net=example.com\n")

        // Options are checked before: a bad one is a usage error here, and nothing is started.
        let bad = try await BinaryRunner.runAwaiting(["mcp", "--frobnicate"], executable: auto)
        #expect(bad.exitCode == 2 && bad.standardOutput.isEmpty, "\(bad.standardOutput)")
    }
}
