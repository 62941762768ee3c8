@testable import AutoTerminal
import AutoCLI
import AutoIntents
import AutoLanguage
import Foundation

/// A golden script with inline expectations (DESIGN.md §4):
/// `# expect: <line of output>`, `# expect error: <line>:<col> <message part>`,
/// `# expect runtime error: <message part>`, `# expect hint: <line>:<col> <hint part>` (the hint of the error
/// there), `# expect exit: <code>` (130 for a cancelled run), `# answer: <text>` (the next answer to a question),
/// `# confirm: yes|no` (the next answer to a confirmation), `# choose: <n>` (the n-th option, from 1),
/// `# args: a b c`.
package struct Fixture: Sendable, CustomStringConvertible {
    package struct ExpectedError: Sendable, Equatable {
        package let line: Int
        package let column: Int
        package let message: String
    }

    package let path: String
    package let text: String
    package var output: [String] = []
    package var errors: [ExpectedError] = []
    package var hints: [ExpectedError] = []
    /// `# expect warning: L:C message`: the script compiles and runs, after this warning.
    package var warnings: [ExpectedError] = []
    package var runtimeError: String?
    package var exitCode: Int32?
    package var answers: [String] = []
    package var confirmations: [Bool] = []
    package var choices: [Int] = []
    package var arguments: [String] = []

    package var description: String { path }

    package init(path: String, text: String) {
        self.path = path
        self.text = text
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            guard let marker = line.range(of: "# ") else { continue }
            let comment = line[marker.upperBound...]
            if let rest = comment.dropPrefix("expect runtime error: ") {
                runtimeError = String(rest)
            } else if let rest = comment.dropPrefix("expect error: ") {
                errors.append(Self.located(rest))
            } else if let rest = comment.dropPrefix("expect warning: ") {
                warnings.append(Self.located(rest))
            } else if let rest = comment.dropPrefix("expect hint: ") {
                hints.append(Self.located(rest))
            } else if let rest = comment.dropPrefix("expect exit: ") {
                exitCode = Int32(rest.trimmingCharacters(in: .whitespaces))
            } else if let rest = comment.dropPrefix("expect: ") {
                output.append(String(rest))
            } else if comment == "expect:" {
                output.append("")
            } else if let rest = comment.dropPrefix("answer: ") {
                answers.append(String(rest))
            } else if let rest = comment.dropPrefix("choose: ") {
                choices.append((Int(rest.trimmingCharacters(in: .whitespaces)) ?? 1) - 1)
            } else if let rest = comment.dropPrefix("confirm: ") {
                confirmations.append(rest == "yes")
            } else if let rest = comment.dropPrefix("args: ") {
                arguments = rest.split(separator: " ").map(String.init)
            }
        }
    }

    /// `3:14 message part`.
    static func located(_ text: Substring) -> ExpectedError {
        let parts = text.split(separator: " ", maxSplits: 1)
        let place = parts[0].split(separator: ":").compactMap { Int($0) }
        return ExpectedError(line: place.first ?? 0, column: place.count > 1 ? place[1] : 0,
                             message: parts.count > 1 ? String(parts[1]) : "")
    }

    /// Every `.auto` file under `folder`, recursively, in path order.
    package static func all(under folder: String) -> [Fixture] {
        guard let enumerator = FileManager.default.enumerator(atPath: folder) else { return [] }
        return enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".auto") }.sorted().compactMap { relative in
            let path = folder + "/" + relative
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
            return Fixture(path: path, text: text)
        }
    }

    /// The repository's top folder, found from this file's path.
    package static let repositoryRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()
}

extension Substring {
    func dropPrefix(_ prefix: String) -> Substring? {
        hasPrefix(prefix) ? dropFirst(prefix.count) : nil
    }
}

/// What running a script produced.
package struct ScriptOutcome: Sendable {
    package let exitCode: Int32
    /// Lines written for people (`show`, dialogs) and the printed result, in order.
    package let output: [String]
    package let standardError: String
    package let diagnostics: [Diagnostic]
    package let questions: [String]
}

/// Runs scripts in-process the way the CLI does, against a host, with scripted answers.
package enum ScriptHarness {
    package static func run(_ text: String, name: String = "test.auto", host: ScriptHost, answers: [String] = [], choices: [Int] = [],
                           confirmations: [Bool] = [], arguments: [String] = [], json: Bool = false, whatIf: Bool = false) async -> ScriptOutcome {
        let capture = OutputCapture()
        let console = capture.console
        let interaction = ScriptedInteraction(answers: answers, choices: choices, confirmations: confirmations) { line in
            if json { console.writeError(line + "\n") } else { console.writeOut(line + "\n") }
        }
        var options = RunOptions()
        options.arguments = arguments
        options.json = json
        options.whatIf = whatIf
        let source = SourceFile(name: name, text: text)
        var diagnostics: [Diagnostic] = []
        switch host.compile(source) {
        case .failure(let failure): diagnostics = failure.diagnostics
        case .success(let compiled): diagnostics = compiled.warnings
        }
        let code = await ScriptRunner(host: host, console: console).run(source, options: options, interaction: interaction)
        var lines = capture.standardOutput.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        return ScriptOutcome(exitCode: code, output: lines, standardError: capture.standardError,
                             diagnostics: diagnostics, questions: interaction.questions)
    }

    /// The host fixtures and API tests run against: the standard registry, the prelude and the sample library.
    package static let sampleHost: ScriptHost = {
        // SampleLibrary's metadata is fixed and valid; a failure here is a bug the first test will show.
        let registry = (try? SampleLibrary.registry()) ?? .standard
        return ScriptHost(name: "auto", registry: registry)
    }()
}
