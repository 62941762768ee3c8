import AutoTestSupport
import Foundation
import Testing

/// `auto lsp` driven by a real LSP client: the pytest-lsp suite of Tests/lsp (installed by .ci/setup), against the
/// binaries these tests built. It opens every example and stdlib script, and broken ones, and expects the diagnostics
/// `auto check --json` gives; then an incremental edit and a close; and completes on the Library host (`library lsp`):
/// properties after `where`, an intent's name, a book's title from the host's query; hover on an intent's name, and the
/// outline of a script.
@Suite struct LanguageServerTests {
    @Test func aRealClientReceivesTheDiagnosticsOfCheck() async throws {
        let result = try await BinaryRunner.runAwaiting(["python3", "-m", "pytest", "-q", "-p", "no:cacheprovider", "Tests/lsp"],
                                                        executable: "/usr/bin/env", environment: ["AUTO_BINARY": BinaryRunner.binary,
                                                                      "LIBRARY_BINARY": BinaryRunner.productsFolder.appendingPathComponent("library").path])
        #expect(result.exitCode == 0, "\(result.standardOutput.suffix(4_000))\n\(result.standardError.suffix(2_000))")
        // Every test ran: none skipped (a missing binary or package is a failure, not a skip).
        #expect(result.standardOutput.contains(" passed") && !result.standardOutput.contains("skipped"), "\(result.standardOutput.suffix(2_000))")
    }

    /// `check --json`: one object per problem, with the place in both forms.
    @Test func checkJsonGivesEachProblemWithItsPlaceAndHints() async throws {
        let folder = try TemporaryFolder("auto-check-json")
        defer { withExtendedLifetime(folder) {} }
        let path = folder("bad.auto")
        try "set x = \"é\"\nshwo x\n".write(toFile: path, atomically: true, encoding: .utf8)
        let result = try await BinaryRunner.runAwaiting(["check", "--json", path])
        #expect(result.exitCode == 2)
        let problems = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]])
        let first = try #require(problems.first)
        #expect(first["file"] as? String == path)
        #expect(first["severity"] as? String == "error")
        #expect(first["line"] as? Int == 2 && first["column"] as? Int == 1 && first["endColumn"] as? Int == 5, "\(first)")
        let range = try #require(first["range"] as? [String: [String: Int]])
        #expect(range["start"] == ["line": 1, "character": 0])
        #expect((first["hints"] as? [String])?.first?.contains("show") == true, "\(first)")
    }

    /// Neovim (Debian's, installed by .ci/setup), headless, with editors/neovim/auto.lua: it attaches `auto lsp` to a
    /// broken script and shows the server's diagnostic, hint and all; its client gets completion and hover.
    @Test func neovimWithTheEditorsConfigurationShowsADiagnostic() async throws {
        let folder = try TemporaryFolder("auto-neovim")
        defer { withExtendedLifetime(folder) {} }
        let script = folder("broken.auto")
        try "show 1\nshwo 2\n".write(toFile: script, atomically: true, encoding: .utf8)
        // Its state and log in the test's folder, not the user's.
        let result = try await BinaryRunner.runAwaiting(
            ["nvim", "--headless", "-u", "NONE", "-i", "NONE", "-c", "luafile Tests/editors/neovim-smoke.lua"], executable: "/usr/bin/env",
            environment: ["AUTO_SMOKE_CONFIG": "editors/neovim/auto.lua", "AUTO_SMOKE_FILE": script, "XDG_STATE_HOME": folder.path,
                          "XDG_CACHE_HOME": folder.path, "XDG_DATA_HOME": folder.path])
        #expect(result.standardOutput.hasPrefix("2: unknown action 'shwo'\nhint: did you mean 'show'?"),
                "\(result.standardOutput)\n\(result.standardError.suffix(2_000))")
        // Completion and hover, asked through Neovim's client.
        let lines = result.standardOutput.split(separator: "\n")
        let offered = lines.first { $0.hasPrefix("completion: ") }.map { $0.dropFirst(12).components(separatedBy: ", ") } ?? []
        #expect(offered.contains("show"), "\(result.standardOutput)")
        #expect(lines.contains("hover: Show"), "\(result.standardOutput)")
    }
}
