import AutoIntents
import AutoRuntime
import Foundation

/// Talks to the person at the terminal: `show` writes a line, questions are asked on standard error and
/// answered on standard input. Where nobody can answer (`--no-input`, input that is not a terminal),
/// every question fails with an error that says so.
public final class TerminalInteraction: Interaction, @unchecked Sendable {
    let console: Console
    /// With `--json`, standard output carries only the result.
    let showsOnStandardError: Bool
    let canAsk: Bool
    let approvesConfirmations: Bool

    public init(console: Console, showsOnStandardError: Bool, canAsk: Bool, approvesConfirmations: Bool) {
        self.console = console
        self.showsOnStandardError = showsOnStandardError
        self.canAsk = canAsk
        self.approvesConfirmations = approvesConfirmations
    }

    public func show(_ text: String) async {
        if showsOnStandardError { console.writeError(text + "\n") } else { console.writeOut(text + "\n") }
    }

    public func requestValue(_ prompt: String, type: ValueType) async throws -> Value {
        guard canAsk else { throw NoAnswerError(question: prompt) }
        for _ in 0..<3 {
            console.writeError(prompt + " ")
            guard let line = readLine() else { throw NoAnswerError(question: prompt) }
            if let value = Self.parse(line, as: type) { return value }
            console.writeError("That is not a \(type). ")
        }
        throw IntentError("no valid answer to '\(prompt)'")
    }

    public func confirm(_ prompt: String) async throws -> Bool {
        if approvesConfirmations { return true }
        guard canAsk else { throw NoAnswerError(question: prompt) }
        console.writeError(prompt + " [y/N] ")
        guard let line = readLine() else { throw NoAnswerError(question: prompt) }
        return ["y", "yes"].contains(line.trimmingCharacters(in: .whitespaces).lowercased())
    }

    /// An answer typed at a prompt, read as the type asked for.
    static func parse(_ line: String, as type: ValueType) -> Value? {
        let text = line.trimmingCharacters(in: .whitespaces)
        switch type {
        case .int: return Int(text.replacingOccurrences(of: "_", with: "")).map(Value.int)
        case .decimal: return Double(text).map(Value.decimal)
        case .bool:
            if ["y", "yes", "true"].contains(text.lowercased()) { return .bool(true) }
            if ["n", "no", "false"].contains(text.lowercased()) { return .bool(false) }
            return nil
        case .date: return DateParsing.parse(text).map(Value.date)
        case .file: return text.isEmpty ? nil : .file(FileRef(path: text))
        case .enumeration(let enumeration):
            return enumeration.caseIndex(named: text).map { .enumCase(EnumCaseValue(type: enumeration, index: $0)) }
        case .text, .any: return text.isEmpty ? nil : .text(line)
        default: return nil
        }
    }
}
