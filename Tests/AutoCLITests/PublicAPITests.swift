import AutoTestSupport
import Foundation
import Testing

/// The README says how much public API a host reads (issue 30): the figures it gives are what `scripts/public-api`
/// counts now, so that the promise and the count can't drift apart.
@Suite struct PublicAPITests {
    @Test func theReadmesCountIsTheScriptsCount() async throws {
        let counted = try await BinaryRunner.runAwaiting([Fixture.repositoryRoot + "/scripts/public-api"], executable: "/bin/bash")
        #expect(counted.exitCode == 0, "\(counted.standardError)")
        let total = try #require(counted.standardOutput.split(separator: "\n").last { $0.hasPrefix("all ") })
        let numbers = total.split(separator: " ").compactMap { Int($0.replacingOccurrences(of: ",", with: "")) }
        try #require(numbers.count == 2, "\(total)")
        let intents = try #require(counted.standardOutput.split(separator: "\n").first { $0.hasPrefix("AutoIntents ") })
        let intentTypes = try #require(intents.split(separator: " ").compactMap { Int($0.replacingOccurrences(of: ",", with: "")) }.last)
        let readme = try String(contentsOfFile: Fixture.repositoryRoot + "/README.md", encoding: .utf8)
            .replacingOccurrences(of: "\n", with: " ")
        let says = readme.contains("Today: \(numbers[0]) public declarations and \(numbers[1]) public types in all, \(intentTypes) of them in AutoIntents")
        #expect(says, "README.md's 'How it is built' should say: \(numbers[0]) declarations, \(numbers[1]) types, \(intentTypes) in AutoIntents")
    }

    /// A host reads the API it may use in its doc comments: every public declaration of every module has one.
    @Test(arguments: ["AutoIntents", "AutoHost", "AutoStdlib", "AutoCLI", "AutoMCP", "AutoTerminal", "AutoLanguage", "AutoRuntime"])
    func everyPublicDeclarationIsDocumented(module: String) async throws {
        let listed = try await BinaryRunner.runAwaiting([Fixture.repositoryRoot + "/scripts/public-api", "--undocumented"], executable: "/bin/bash")
        #expect(listed.exitCode == 0, "\(listed.standardError)")
        let undocumented = listed.standardOutput.split(separator: "\n").filter { $0.hasPrefix("Sources/\(module)/") }
        #expect(undocumented.isEmpty, "public declarations without a /// comment:\n\(undocumented.joined(separator: "\n"))")
    }
}
