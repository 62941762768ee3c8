import AutoTestSupport
import Foundation
import Testing

/// The DocC catalogs (AutoIntents' and AutoHost's) show only code that compiles (issue 30, item 10): each Swift block of them is a run of lines of
/// the Library example host or of the README's host, which the tests build, so that an article can't drift from the
/// API it teaches.
@Suite struct DocCArticleTests {
    static let catalogs = ["AutoIntents", "AutoHost"].map { Fixture.repositoryRoot + "/Sources/\($0)/\($0).docc" }

    /// The lines of the compiled example files, each trimmed, blank ones left out.
    static func compiledSources() throws -> [String: [String]] {
        var files = [Fixture.repositoryRoot + "/examples/library/Package.swift", Fixture.repositoryRoot + "/examples/readme-host/main.swift"]
        let folder = Fixture.repositoryRoot + "/examples/library/Sources"
        for case let path as String in FileManager.default.enumerator(atPath: folder)! where path.hasSuffix(".swift") {
            files.append(folder + "/" + path)
        }
        return try Dictionary(uniqueKeysWithValues: files.map { ($0, lines(try String(contentsOfFile: $0, encoding: .utf8))) })
    }

    static func lines(_ text: some StringProtocol) -> [String] {
        text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// The Swift blocks of the catalogs' articles.
    static func swiftBlocks() throws -> [(article: String, code: String)] {
        var blocks: [(String, String)] = []
        for catalog in catalogs {
            for name in try FileManager.default.contentsOfDirectory(atPath: catalog) where name.hasSuffix(".md") {
                let text = try String(contentsOfFile: catalog + "/" + name, encoding: .utf8)
                for part in text.components(separatedBy: "```swift\n").dropFirst() {
                    blocks.append((name, part.components(separatedBy: "\n```")[0]))
                }
            }
        }
        return blocks
    }

    static func isCompiled(_ code: String, in sources: [String: [String]]) -> Bool {
        let wanted = lines(code)
        return sources.values.contains { file in
            file.count >= wanted.count && (0...(file.count - wanted.count)).contains { Array(file[$0..<$0 + wanted.count]) == wanted }
        }
    }

    @Test func everySwiftBlockIsCompiledCode() throws {
        let sources = try Self.compiledSources()
        let blocks = try Self.swiftBlocks()
        #expect(blocks.count >= 9)
        #expect(blocks.contains { $0.article == "AutoHost.md" })
        for block in blocks {
            #expect(Self.isCompiled(block.code, in: sources), "\(block.article): not in the compiled examples:\n\(block.code)")
        }
    }

    @Test func aChangedBlockIsNotFound() throws {
        let sources = try Self.compiledSources()
        let block = try #require(try Self.swiftBlocks().first { $0.code.contains("struct MarkAsRead") })
        #expect(Self.isCompiled(block.code, in: sources))
        #expect(!Self.isCompiled(block.code.replacingOccurrences(of: "Date read", with: "Read on"), in: sources))
    }
}
