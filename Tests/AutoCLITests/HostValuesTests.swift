@testable import AutoCLI
import AutoIntents
import Foundation
import Testing

/// Paths Tab offers inside a text for a File parameter, and a parameter's options from its host.
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

    /// Completion is asked on the REPL's own thread, never on the tasks' pool, which the provider's work needs.
    func offThePool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in Thread.detachNewThread { continuation.resume(returning: work()) } }
    }

    /// Generous: the provider answers at once, but a loaded machine may take a while to run its task.
    static let budget: Duration = .seconds(20)

    @Test func optionsInATextAndAsLiteralsInTheProvidersOrder() async {
        let genres = ParameterInfo(name: "genre", type: .text, isRequired: true, options: ParameterOptions { request in
            request.argument("shelf", as: String.self) == "empty" ? [] : [.text("Science Fiction"), .text("Fantasy"), .text("Science"), .text("Say \"hi\"")]
        })
        let inText = await offThePool { HostValues.options(of: genres, given: [:], inText: true, typed: "sci", budget: Self.budget) }
        #expect(inText.map(\.text) == ["Science Fiction\"", "Science\""], "the provider's order, ignoring case, closing the text")
        #expect(await offThePool { HostValues.options(of: genres, given: [:], inText: false, typed: "Fa", budget: Self.budget) }.map(\.text) == ["\"Fantasy\""],
                "a word typed without its quote is replaced by the whole text")
        #expect(await offThePool { HostValues.options(of: genres, given: [:], inText: false, typed: "Say", budget: Self.budget) }.map(\.text) == ["\"Say \\\"hi\\\"\""])
        #expect(await offThePool { HostValues.options(of: genres, given: ["shelf": .text("empty")], inText: true, typed: "", budget: Self.budget) }.isEmpty,
                "the arguments reach the provider")
        let numbers = ParameterInfo(name: "seats", type: .int, isRequired: false, options: ParameterOptions { _ in [.int(1), .int(12), .int(2)] })
        #expect(await offThePool { HostValues.options(of: numbers, given: [:], inText: false, typed: "1", budget: Self.budget) }.map(\.text) == ["1", "12"])
        #expect(await offThePool { HostValues.options(of: numbers, given: [:], inText: true, typed: "", budget: Self.budget) }.isEmpty, "a number is no text")
    }

    @Test func aProviderSlowerThanTheBudgetOffersNothing() async {
        let slow = ParameterInfo(name: "genre", type: .text, isRequired: true, options: ParameterOptions { _ in
            try await Task.sleep(for: .seconds(30))
            return [.text("Fantasy")]
        })
        let started = ContinuousClock.now
        #expect(await offThePool { HostValues.options(of: slow, given: [:], inText: true, typed: "", budget: .milliseconds(100)) }.isEmpty)
        #expect(ContinuousClock.now - started < .seconds(20), "Tab waits for the budget, not for the provider")
    }
}
