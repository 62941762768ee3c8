@testable import AutoTerminal
@testable import AutoCLI
import AutoTestSupport
import Foundation
import Testing

/// The REPL's history file: entries come back whole, the file is bounded, and a file that can't be used is
/// an error the REPL turns into one warning.
@Suite struct HistoryFileTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder("auto-history")
    }

    @Test func entriesComeBackWholeWithLineBreaksAndBackslashes() throws {
        let file = HistoryFile(path: folder("auto/history"))
        let entries = ["show 1", "if x {\n  show \"a\\\\b\"\n}", "show \"\\n is not a line break\""]
        for entry in entries { try file.append(entry) }
        #expect(try file.load() == entries)
    }

    @Test func theFileKeepsTheLastEntriesAndIsRewrittenWhenTwiceTooLong() throws {
        let path = folder("history")
        let many = (0..<(2 * HistoryFile.limit + 5)).map { "show \($0)" }
        try many.map { $0 + "\n" }.joined().write(toFile: path, atomically: true, encoding: .utf8)
        let loaded = try HistoryFile(path: path).load()
        #expect(loaded.count == HistoryFile.limit)
        #expect(loaded.last == "show \(2 * HistoryFile.limit + 4)")
        let rewritten = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(rewritten.count == HistoryFile.limit)
    }

    @Test func aFileThatCantBeWrittenOrReadIsAnError() throws {
        let blocked = HistoryFile(path: "/dev/null/auto/history")
        #expect(throws: HistoryFile.Problem.self) { try blocked.append("show 1") }
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("history"), withIntermediateDirectories: true)
        let folderInstead = HistoryFile(path: folder("history"))
        #expect(throws: HistoryFile.Problem.self) { try folderInstead.load() }
    }

    @Test func thePathFollowsXDGStateHome() {
        #expect(HistoryFile.path(host: "library", environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"]) == "/s/library/history")
        #expect(HistoryFile.path(host: "auto", environment: ["HOME": "/h"]) == "/h/.local/state/auto/history")
        #expect(HistoryFile.path(host: "auto", environment: ["XDG_STATE_HOME": "relative", "HOME": "/h"]) == "/h/.local/state/auto/history")
    }

    /// Two REPLs append to one file at once: every entry arrives whole (one `write` with O_APPEND each).
    @Test func twoWritersAtOnceLoseAndBreakNothing() async throws {
        let file = HistoryFile(path: folder("two-writers/history"))
        try file.append("first")
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<2 {
                group.addTask {
                    for index in 0..<500 { try? file.append("writer \(writer) entry \(index)\nsecond line") }
                }
            }
        }
        let entries = try file.load()
        #expect(entries.count == 1_001)
        #expect(entries.dropFirst().allSatisfy { $0.wholeMatch(of: /writer [01] entry \d+\nsecond line/) != nil })
        #expect(Set(entries).count == 1_001)
    }
}
