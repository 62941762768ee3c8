import AutoLanguage
@testable import AutoTerminal
import AutoCLI
import AutoTestSupport
import Foundation
import Testing

/// Runs every example script of examples/ on the default host (built-ins and the stdlib prelude, no
/// entities) and compares what it printed with its `# expect:` lines, as the golden fixtures do.
@Suite struct ExamplesTests {
    /// The scripts at the top of examples/ and of examples/everyday/ (everyday tasks on plain data); other
    /// subfolders (a host's own scripts, examples/everyday/library) need their host.
    static let examples: [Fixture] = scripts(in: "examples") + scripts(in: "examples/everyday")

    static func scripts(in relativeFolder: String) -> [Fixture] {
        let folder = Fixture.repositoryRoot + "/" + relativeFolder
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasSuffix(".auto") }.sorted().compactMap { name in
            guard let text = try? String(contentsOfFile: folder + "/" + name, encoding: .utf8) else { return nil }
            return Fixture(path: relativeFolder + "/" + name, text: text)
        }
    }

    /// Issue 12's twenty everyday tasks, each a script with its expected output: twelve on plain data here, eight
    /// on the Library (run by LibraryTests).
    @Test func theTwentyEverydayTasksAreThere() {
        let plain = Self.scripts(in: "examples/everyday")
        let onTheLibrary = Fixture.all(under: Fixture.repositoryRoot + "/examples/everyday/library")
        #expect(plain.count == 12 && onTheLibrary.count == 8, "found \(plain.count) plain and \(onTheLibrary.count) Library tasks")
        #expect((plain + onTheLibrary).allSatisfy { !$0.output.isEmpty })
    }

    @Test func thereAreAtLeastFiveExamples() {
        #expect(Self.examples.count >= 5, "expected at least five example scripts in examples/, found \(Self.examples.count)")
    }

    @Test(arguments: examples)
    func example(_ example: Fixture) async {
        #expect(!example.output.isEmpty, "\(example.path) should say what it prints with '# expect:' lines")
        #expect(example.errors.isEmpty && example.runtimeError == nil, "\(example.path): an example should run cleanly")
        let outcome = await ScriptHarness.run(example.text, name: example.path, host: ScriptHost(), arguments: example.arguments)
        #expect(outcome.diagnostics.isEmpty, "\(example.path): unexpected errors:\n\(outcome.standardError)")
        #expect(outcome.exitCode == 0, "\(example.path): exit code \(outcome.exitCode): \(outcome.standardError)")
        #expect(outcome.output == example.output, """
            \(example.path): output differs
            expected:
            \(example.output.joined(separator: "\n"))
            got:
            \(outcome.output.joined(separator: "\n"))
            """)
    }

    /// hello.auto is run as a program (`./examples/hello.auto`): it needs its shebang and the execute bit.
    @Test func helloIsAnExecutableScript() throws {
        let path = Fixture.repositoryRoot + "/examples/hello.auto"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasPrefix("#!/usr/bin/env auto\n"))
        #expect(FileManager.default.isExecutableFile(atPath: path), "chmod +x examples/hello.auto")
    }
}
