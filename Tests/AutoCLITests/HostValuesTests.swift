@testable import AutoCLI
import Foundation
import Testing

/// Paths Tab offers inside a text for a File parameter.
@Suite struct HostValuesTests {
    @Test func pathsInAFolderWithFoldersGoingOnAndFilesClosingTheText() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("auto-paths-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("books"), withIntermediateDirectories: true)
        try "x".write(to: folder.appendingPathComponent("books.csv"), atomically: true, encoding: .utf8)
        try "x".write(to: folder.appendingPathComponent(".hidden"), atomically: true, encoding: .utf8)
        try "x".write(to: folder.appendingPathComponent("say \"hi\".txt"), atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: folder) }
        let base = folder.path + "/"
        #expect(HostValues.files(startingWith: base + "bo").map(\.text) == [base + "books/", base + "books.csv\""])
        #expect(HostValues.files(startingWith: base).map(\.text).contains(base + "say \\\"hi\\\".txt\""), "a quote in a name is escaped")
        #expect(!HostValues.files(startingWith: base).map(\.text).contains { $0.contains(".hidden") }, "hidden files only when asked for")
        #expect(HostValues.files(startingWith: base + ".h").map(\.text) == [base + ".hidden\""])
        #expect(HostValues.files(startingWith: base + "nothing/here").isEmpty)
    }
}
