import AutoTestSupport
import Foundation
import Testing

// The code blocks of README.md and docs/LANGUAGE.md that can run are marked so, and run (issue 31, item 11).
//
// A mark is an HTML comment alone on the line right before a block's opening fence, which GitHub doesn't show:
//
//     <!-- runnable -->                 run with `auto`; it must exit 0
//     <!-- runnable: library -->        run with `library`, the example host, on its seed books
//     <!-- runnable: output -->         and it must print exactly what the block says it prints
//     <!-- runnable: exit 2 -->         it must exit with 2 (a compile error), 1 (a runtime error), …
//
// The words after `runnable:` combine (`<!-- runnable: library output -->`). An ```` ```auto ```` block (or one
// with a bare fence) is a script, run with `--no-input`; its output is the text after each `# → ` comment, in
// order. An ```` ```sh ```` block is commands, one a line, each run by `sh` and checked on its own; `swift run auto`
// and `swift run library` there are the built binaries, as are `auto` and `library`, and a `$ ` prompt is left out;
// its output is each whole-line `# ` comment under a command. Every block runs in a new temporary folder that is
// also its HOME and XDG folders (so the Library's database and the run store are new and the user's are never
// touched), with a copy of `examples/` in it, standard input empty (so nothing can be asked) and NO_COLOR set.
// Blocks that can't run stay unmarked: fragments, servers and daemons that never end, the network, the user's files.

/// How a marked block is run, as its `<!-- runnable: … -->` mark says.
struct RunMark: Equatable, Sendable {
    enum Host: String, Sendable { case auto, library }

    var host = Host.auto
    /// Whether what the block prints is compared with what the block says it prints.
    var checksOutput = false
    var exitCode: Int32 = 0

    /// The mark a comment line makes: nil for a line that is no mark; an error for a mark with a word it doesn't
    /// know, so a misspelt mark fails the tests instead of being passed over.
    static func parse(_ line: String) throws(MarkError) -> RunMark? {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("<!--"), trimmed.hasSuffix("-->") else { return nil }
        let inside = trimmed.dropFirst(4).dropLast(3).trimmingCharacters(in: .whitespaces)
        guard inside == "runnable" || inside.hasPrefix("runnable:") else { return nil }
        var mark = RunMark()
        var words = inside.dropFirst("runnable".count).drop { $0 == ":" }.split(separator: " ").map(String.init)[...]
        while let word = words.popFirst() {
            switch word {
            case "library": mark.host = .library
            case "output": mark.checksOutput = true
            case "exit":
                guard let code = words.popFirst().flatMap({ Int32($0) }) else { throw MarkError("'exit' needs a number: \(trimmed)") }
                mark.exitCode = code
            default: throw MarkError("unknown word '\(word)' in \(trimmed)")
            }
        }
        return mark
    }

    struct MarkError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}

/// A fenced code block of a Markdown file, with its mark if the line before its fence has one.
struct DocBlock: Sendable, CustomStringConvertible {
    /// The file's path from the repository's top (`docs/LANGUAGE.md`).
    let file: String
    /// The line of the opening fence, counted from 1.
    let line: Int
    /// The fence's info string: `auto`, `sh`, `text`, or empty.
    let language: String
    let text: String
    let mark: RunMark?

    /// Where the block is, as an editor opens it: `README.md:42`.
    var description: String { "\(file):\(line)" }

    var isScript: Bool { ["", "auto"].contains(language) }

    /// The Markdown files whose blocks are checked.
    static let files = ["README.md", "docs/LANGUAGE.md"]

    /// Every block of `file`, and the problems of its marks: a mark with an unknown word, or one that is not right
    /// before a fence (it would mark nothing).
    static func blocks(in markdown: String, file: String) -> (blocks: [DocBlock], problems: [String]) {
        var blocks: [DocBlock] = [], problems: [String] = []
        var pending: (mark: RunMark, line: Int)?
        var open: (line: Int, language: String, mark: RunMark?, lines: [String])?
        for (index, line) in markdown.components(separatedBy: "\n").enumerated() {
            let number = index + 1
            if var block = open {
                if line.hasPrefix("```") {
                    blocks.append(DocBlock(file: file, line: block.line, language: block.language,
                                           text: block.lines.joined(separator: "\n") + "\n", mark: block.mark))
                    open = nil
                } else {
                    block.lines.append(line)
                    open = block
                }
                continue
            }
            if line.hasPrefix("```") {
                open = (number, line.dropFirst(3).trimmingCharacters(in: .whitespaces), pending?.mark, [])
                pending = nil
                continue
            }
            if let unused = pending {
                problems.append("\(file):\(unused.line): the mark is not on the line right before a code block's fence")
                pending = nil
            }
            do {
                if let mark = try RunMark.parse(line) { pending = (mark, number) }
            } catch {
                problems.append("\(file):\(number): \(error)")
            }
        }
        if let unused = pending { problems.append("\(file):\(unused.line): the mark is not on the line right before a code block's fence") }
        if let block = open { problems.append("\(file):\(block.line): the code block is never closed") }
        return (blocks, problems)
    }

    static func blocks(ofFile file: String) throws -> (blocks: [DocBlock], problems: [String]) {
        blocks(in: try String(contentsOfFile: Fixture.repositoryRoot + "/" + file, encoding: .utf8), file: file)
    }

    /// The marked blocks of both files, for the parameterised test (a file that can't be read gives none, and
    /// `everyFileHasRunnableBlocks` fails).
    static let marked: [DocBlock] = files.flatMap { (try? blocks(ofFile: $0).blocks) ?? [] }.filter { $0.mark != nil }
}

/// Runs a marked block as its mark says, and says what went wrong: nothing when it did what the docs say.
enum DocBlockRunner {
    static func failures(of block: DocBlock) async throws -> [String] {
        guard let mark = block.mark else { return [] }
        let folder = try TemporaryFolder("doc-block")
        defer { withExtendedLifetime(folder) {} }
        try copyExamples(to: folder.url.appendingPathComponent("examples"))
        let home = folder.path
        let environment = ["HOME": home, "XDG_DATA_HOME": home + "/.local/share", "XDG_STATE_HOME": home + "/.local/state",
                           "XDG_CONFIG_HOME": home + "/.config", "XDG_CACHE_HOME": home + "/.cache", "NO_COLOR": "1"]
        if block.isScript {
            return try await runScript(block, mark: mark, folder: folder.url, environment: environment)
        }
        if block.language == "sh" {
            return try await runCommands(block, mark: mark, folder: folder.url, environment: environment)
        }
        return ["\(block): a ```\(block.language) block can't run: mark only ```auto and ```sh blocks"]
    }

    /// The repository's examples, without what building them left (examples/library/.build is a gigabyte once the
    /// Library is built as its own package) or any other hidden folder: what the docs' blocks read.
    static func copyExamples(to target: URL) throws {
        let source = URL(fileURLWithPath: Fixture.repositoryRoot + "/examples")
        let manager = FileManager.default
        guard let walk = manager.enumerator(at: source, includingPropertiesForKeys: [.isDirectoryKey]) else { return }
        try manager.createDirectory(at: target, withIntermediateDirectories: true)
        for case let url as URL in walk {
            if url.lastPathComponent.hasPrefix(".") {
                walk.skipDescendants()
                continue
            }
            let relative = String(url.standardizedFileURL.path.dropFirst(source.standardizedFileURL.path.count + 1))
            let destination = target.appendingPathComponent(relative)
            if (try url.resourceValues(forKeys: [.isDirectoryKey])).isDirectory == true {
                try manager.createDirectory(at: destination, withIntermediateDirectories: true)
            } else {
                try manager.copyItem(at: url, to: destination)
            }
        }
    }

    /// An `.auto` block, as a script file of the folder.
    static func runScript(_ block: DocBlock, mark: RunMark, folder: URL, environment: [String: String]) async throws -> [String] {
        let script = folder.appendingPathComponent("block.auto").path
        try block.text.write(toFile: script, atomically: true, encoding: .utf8)
        let result = try await BinaryRunner.runAwaiting(["run", "--no-input", script], executable: binary(mark.host),
                                                        environment: environment, directory: folder.path)
        var failures: [String] = []
        if result.exitCode != mark.exitCode {
            failures.append("\(block): exit code \(result.exitCode), the mark says \(mark.exitCode)\n\(result.standardError)")
        }
        if mark.checksOutput {
            let expected = expectedOutput(ofScript: block.text)
            if expected.isEmpty { failures.append("\(block): marked 'output' but no line says what it prints with '# → '") }
            failures += compare(result.standardOutput, expected, at: block)
        }
        return failures
    }

    /// An `sh` block, one command a line, each checked on its own.
    static func runCommands(_ block: DocBlock, mark: RunMark, folder: URL, environment: [String: String]) async throws -> [String] {
        let commands = commands(of: block.text)
        guard !commands.isEmpty else { return ["\(block): no command to run"] }
        var failures: [String] = []
        for command in commands {
            let place = "\(block.file):\(block.line + command.offset)"
            let result = try await BinaryRunner.runAwaiting(["-c", command.text], executable: "/bin/sh",
                                                            environment: environment, directory: folder.path)
            if result.exitCode != mark.exitCode {
                failures.append("\(place): `\(command.text)` exited with \(result.exitCode), the mark says \(mark.exitCode)\n\(result.standardError)")
            }
            if mark.checksOutput {
                failures += compare(result.standardOutput, command.output, at: place)
            }
        }
        return failures
    }

    static func binary(_ host: RunMark.Host) -> String {
        BinaryRunner.productsFolder.appendingPathComponent(host.rawValue).path
    }

    /// What a script block says it prints: the text after each `# → `, in order.
    static func expectedOutput(ofScript text: String) -> [String] {
        text.components(separatedBy: "\n").compactMap { line in
            line.range(of: "# → ").map { String(line[$0.upperBound...]) }
        }
    }

    /// The commands of an `sh` block with their line in the block (from 1, the fence being 0) and the output the
    /// whole-line comments under each say. `swift run NAME` becomes `NAME`, found on PATH among the built products.
    static func commands(of text: String) -> [(offset: Int, text: String, output: [String])] {
        var commands: [(offset: Int, text: String, output: [String])] = []
        for (index, raw) in text.components(separatedBy: "\n").enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty { continue }
            if line.hasPrefix("#") {
                if !commands.isEmpty { commands[commands.count - 1].output.append(String(line.dropFirst(line.hasPrefix("# ") ? 2 : 1))) }
                continue
            }
            var command = line.hasPrefix("$ ") ? String(line.dropFirst(2)) : line
            for name in ["auto", "library"] where command.hasPrefix("swift run \(name) ") {
                command = String(command.dropFirst("swift run ".count))
            }
            commands.append((index + 1, command, []))
        }
        return commands
    }

    static func compare(_ output: String, _ expected: [String], at place: CustomStringConvertible) -> [String] {
        var lines = output.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        guard lines != expected else { return [] }
        return ["""
            \(place): the output is not what the docs say
            the docs say:
            \(expected.joined(separator: "\n"))
            it printed:
            \(lines.joined(separator: "\n"))
            """]
    }
}

/// Serialized: forty blocks started at once are forty processes on a machine of two cores, which starved the tests
/// that wait on the shared thread pool (a debouncer's) past their deadlines.
@Suite(.serialized) struct DocBlockTests {
    @Test(arguments: DocBlock.marked)
    func markedBlockRunsAsItsMarkSays(_ block: DocBlock) async throws {
        for failure in try await DocBlockRunner.failures(of: block) {
            Issue.record("\(failure)")
        }
    }

    /// Each file has blocks that run, and no mark that is misspelt or marks nothing.
    @Test(arguments: DocBlock.files)
    func everyFileHasRunnableBlocks(_ file: String) throws {
        let (blocks, problems) = try DocBlock.blocks(ofFile: file)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        let marked = blocks.filter { $0.mark != nil }
        #expect(!marked.isEmpty, "\(file): none of its \(blocks.count) code blocks is marked runnable")
        // Only scripts and commands run: a mark on anything else is a mistake.
        for block in marked where !block.isScript && block.language != "sh" {
            Issue.record("\(block): a ```\(block.language) block is marked runnable")
        }
    }

    @Test func marksAreRead() throws {
        #expect(try RunMark.parse("<!-- runnable -->") == RunMark())
        #expect(try RunMark.parse("<!-- runnable: library output exit 2 -->") == RunMark(host: .library, checksOutput: true, exitCode: 2))
        #expect(try RunMark.parse("<!-- a comment -->") == nil)
        #expect(throws: RunMark.MarkError.self) { try RunMark.parse("<!-- runnable: libary -->") }
        #expect(throws: RunMark.MarkError.self) { try RunMark.parse("<!-- runnable: exit -->") }
        let markdown = "<!-- runnable: output -->\n```auto\nshow 1   # → 1\n```\n\n<!-- runnable -->\ntext\n```sh\nauto -e 'show 1'\n```\n"
        let (blocks, problems) = DocBlock.blocks(in: markdown, file: "doc.md")
        #expect(blocks.map(\.line) == [2, 8])
        #expect(blocks.map(\.mark) == [RunMark(checksOutput: true), nil])
        #expect(problems == ["doc.md:6: the mark is not on the line right before a code block's fence"])
    }

    /// The runner can fail: a block that prints something else, exits otherwise or names no command is reported,
    /// with its file and line.
    @Test func aBlockThatDoesNotDoWhatItSaysFails() async throws {
        let wrongOutput = DocBlock(file: "doc.md", line: 7, language: "auto", text: "show 1 + 1   # → 3\n", mark: RunMark(checksOutput: true))
        let failures = try await DocBlockRunner.failures(of: wrongOutput)
        #expect(failures.count == 1 && failures[0].hasPrefix("doc.md:7: the output is not what the docs say"), "\(failures)")
        let right = DocBlock(file: "doc.md", line: 7, language: "auto", text: "show 1 + 1   # → 2\n", mark: RunMark(checksOutput: true))
        #expect(try await DocBlockRunner.failures(of: right).isEmpty)
        let broken = DocBlock(file: "doc.md", line: 9, language: "", text: "show nope\n", mark: RunMark())
        let compileError = try await DocBlockRunner.failures(of: broken)
        #expect(compileError.count == 1 && compileError[0].hasPrefix("doc.md:9: exit code 2"), "\(compileError)")
        let expectedError = DocBlock(file: "doc.md", line: 9, language: "", text: "show nope\n", mark: RunMark(exitCode: 2))
        #expect(try await DocBlockRunner.failures(of: expectedError).isEmpty)
        let commands = DocBlock(file: "doc.md", line: 20, language: "sh",
                                text: "swift run auto -e 'show 6 * 7'\n# 42\n\n$ auto check nothing-here.auto\n", mark: RunMark(checksOutput: true))
        let commandFailures = try await DocBlockRunner.failures(of: commands)
        #expect(commandFailures.count == 1 && commandFailures[0].hasPrefix("doc.md:24: `auto check nothing-here.auto` exited with 2"),
                "\(commandFailures)")
    }

    @Test func shellBlocksAreReadAsCommands() {
        let commands = DocBlockRunner.commands(of: "# a comment first\nswift run library -e 'show 1'   # one\n# 1\n\n$ auto --version\n")
        #expect(commands.map(\.offset) == [2, 5])
        #expect(commands.map(\.text) == ["library -e 'show 1'   # one", "auto --version"])
        #expect(commands.map(\.output) == [["1"], []])
    }
}
