@testable import AutoTerminal
@testable import AutoCLI
import AutoIntents
import AutoTestSupport
import Foundation
import Testing

/// Paths Tab offers inside a text for a File parameter, and a parameter's options from its host.
@Suite struct HostValuesTests {
    @Test func pathsInAFolderWithFoldersGoingOnAndFilesClosingTheText() throws {
        let folder = try TemporaryFolder("auto-paths")
        defer { withExtendedLifetime(folder) {} }
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("books"), withIntermediateDirectories: true)
        try "x".write(to: folder.url.appendingPathComponent("books.csv"), atomically: true, encoding: .utf8)
        try "x".write(to: folder.url.appendingPathComponent(".hidden"), atomically: true, encoding: .utf8)
        try "x".write(to: folder.url.appendingPathComponent("say \"hi\".txt"), atomically: true, encoding: .utf8)
        let base = folder.path + "/"
        #expect(HostValues.files(startingWith: base + "bo").map(\.text) == [base + "books/", base + "books.csv\""])
        #expect(HostValues.files(startingWith: base).map(\.text).contains(base + "say \\\"hi\\\".txt\""), "a quote in a name is escaped")
        #expect(!HostValues.files(startingWith: base).map(\.text).contains { $0.contains(".hidden") }, "hidden files only when asked for")
        #expect(HostValues.files(startingWith: base + ".h").map(\.text) == [base + ".hidden\""])
        #expect(HostValues.files(startingWith: base + "nothing/here").isEmpty)
    }

    /// Completion is asked on the REPL's own thread, never on the tasks' pool, which the provider's work needs.
    func offThePool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in Thread.detachNewThread { continuation.resume(returning: work()) } }
    }

    @Test func optionsInATextAndAsLiteralsInTheProvidersOrder() {
        let genres: [Value] = [.text("Science Fiction"), .text("Fantasy"), .text("Science"), .text("Say \"hi\"")]
        func offered(_ values: [Value], type: ValueType = .text, inText: Bool, _ typed: String) -> [String] {
            HostValues.completions(ofOptions: values, type: type, inText: inText, typed: typed).map(\.text)
        }
        #expect(offered(genres, inText: true, "sci") == ["Science Fiction\"", "Science\""], "the provider's order, ignoring case, closing the text")
        #expect(offered(genres, inText: false, "Fa") == ["\"Fantasy\""], "a word typed without its quote is replaced by the whole text")
        #expect(offered(genres, inText: false, "Say") == ["\"Say \\\"hi\\\"\""])
        #expect(offered(genres + [.text("Fantasy")], inText: true, "") .count == 4, "once each")
        let numbers: [Value] = [.int(1), .int(12), .int(2)]
        #expect(offered(numbers, type: .int, inText: false, "1") == ["1", "12"])
        #expect(offered(numbers, type: .int, inText: true, "").isEmpty, "a number is no text")
    }

    /// The provider is asked with the arguments; the budget is generous here, as the provider's task needs the
    /// tasks' pool, which other tests keep busy.
    @Test func theProviderIsAskedWithTheArguments() async {
        let genres = ParameterInfo(name: "genre", type: .text, isRequired: true, options: ParameterOptions { request in
            request.argument("shelf", as: String.self) == "empty" ? [] : [.text("Fantasy")]
        })
        #expect(await offThePool { HostValues.options(of: genres, given: ["shelf": .text("empty")], inText: true, typed: "", budget: .seconds(600)) }.isEmpty)
        #expect(await offThePool { HostValues.options(of: genres, given: [:], inText: true, typed: "", budget: .seconds(600)) }.map(\.text) == ["Fantasy\""])
    }

    @Test func aProviderSlowerThanTheBudgetOffersNothing() async {
        let slow = ParameterInfo(name: "genre", type: .text, isRequired: true, options: ParameterOptions { _ in
            try await Task.sleep(for: .seconds(3600))
            return [.text("Fantasy")]
        })
        let started = ContinuousClock.now
        #expect(await offThePool { HostValues.options(of: slow, given: [:], inText: true, typed: "", budget: .milliseconds(100)) }.isEmpty)
        #expect(ContinuousClock.now - started < .seconds(600), "Tab waits for the budget, not for the provider")
    }
}
