import AutoTestSupport
import Foundation
import Testing

/// The README's embedding example is `examples/readme-host/main.swift`, compiled as a target of its own (issue 30,
/// item 2): the README shows that file as it is, and what the README says it does, it does.
@Suite struct ReadmeHostTests {
    static let source = Fixture.repositoryRoot + "/examples/readme-host/main.swift"

    /// The Swift block under "Embedding: a host in a few lines".
    static func readmeExample() throws -> String {
        let readme = try String(contentsOfFile: Fixture.repositoryRoot + "/README.md", encoding: .utf8)
        guard let section = readme.range(of: "## Embedding: a host in a few lines"),
              let open = readme.range(of: "```swift\n", range: section.upperBound..<readme.endIndex),
              let close = readme.range(of: "\n```", range: open.upperBound..<readme.endIndex) else { return "" }
        return String(readme[open.upperBound..<close.lowerBound]) + "\n"
    }

    @Test func theReadmeShowsTheExampleAsItIs() async throws {
        let example = try Self.readmeExample()
        let file = try String(contentsOfFile: Self.source, encoding: .utf8)
        #expect(!example.isEmpty)
        let same = example == file
        #expect(same, "README.md's embedding example and examples/readme-host/main.swift differ: copy one to the other")
    }

    @Test func itDoesWhatTheReadmeSays() async throws {
        let binary = BinaryRunner.productsFolder.appendingPathComponent("readme-host").path
        let added = try await BinaryRunner.runAwaiting(["-e", #"add book "The Overstory" author: "Richard Powers" -> b; show b.shelf"#], executable: binary)
        #expect(added.exitCode == 0, "\(added.standardError)")
        #expect(added.standardOutput == "Added The Overstory\nWant to Read\n")
        let described = try await BinaryRunner.runAwaiting(["intents", "describe", "add", "book"], executable: binary)
        #expect(described.exitCode == 0 && described.standardOutput.contains("Add {title} by {author} to {shelf}"), "\(described.standardOutput)")
        let book = try await BinaryRunner.runAwaiting(["intents", "describe", "book"], executable: binary)
        #expect(book.exitCode == 0 && book.standardOutput.contains("price"), "\(book.standardOutput)")
    }
}
