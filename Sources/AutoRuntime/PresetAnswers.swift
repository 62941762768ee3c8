import AutoIntents
import Foundation
import Synchronization

/// Answers given before a run, for a run nobody attends: `--answer "QUESTION-OR-PARAMETER=VALUE"` (repeatable) and
/// `--answers FILE` (a JSON object of the same). A key names a question by its text ("Which CSV file?") or by the
/// parameter that asks it (`from`); a confirmation also by its intent's name (`delete file=yes`). Keys are compared
/// without case, spacing or a final `?` or `:`, and a question's text wins over a parameter's name. An answer is
/// used each time its question comes back (a loop asks again).
package final class PresetAnswers: Sendable {
    /// One answer as given.
    package struct Answer: Sendable, Equatable {
        /// The question, parameter or intent it answers, as written.
        package let key: String
        package let value: String
        /// Where it was given, for messages: `--answer 'from=books.csv'`, `answers.json: "from"`.
        package let origin: String
        package init(key: String, value: String, origin: String) {
            self.key = key
            self.value = value
            self.origin = origin
        }
    }

    package let answers: [Answer]
    let normalizedKeys: [String]
    /// The indices of the answers used so far: the ones never used are reported after the run, since a misspelt key
    /// otherwise goes unnoticed until the run is attended.
    let used = Mutex<Set<Int>>([])
    /// The intent and parameter last answered from here: asked again with a reason, the answer given was refused.
    let lastAnswered = Mutex<String?>(nil)

    package init(_ answers: [Answer]) {
        self.answers = answers
        normalizedKeys = answers.map { Self.normalized($0.key) }
    }

    /// `KEY=VALUE`, split at the first `=` (a value may hold more; a question seldom does).
    package static func parse(option text: String) throws(PresetAnswerError) -> Answer {
        guard let equals = text.firstIndex(of: "=") else {
            throw PresetAnswerError("--answer '\(text)' needs the form QUESTION-OR-PARAMETER=VALUE, e.g. --answer 'from=books.csv'")
        }
        let key = String(text[..<equals]).trimmingCharacters(in: .whitespaces)
        guard !normalized(key).isEmpty else {
            throw PresetAnswerError("--answer '\(text)' names no question or parameter before '='")
        }
        return Answer(key: key, value: String(text[text.index(after: equals)...]), origin: "--answer '\(text)'")
    }

    /// A JSON object of keys and answers: texts, numbers or true/false. `file` names it in messages.
    package static func parse(json data: Data, file: String) throws(PresetAnswerError) -> [Answer] {
        let entries: [String: JSONAnswer]
        do {
            entries = try JSONDecoder().decode([String: JSONAnswer].self, from: data)
        } catch DecodingError.typeMismatch(_, let context) where !context.codingPath.isEmpty {
            throw PresetAnswerError("\(file): the answer to \"\(context.codingPath[0].stringValue)\" must be a text, a number or true/false")
        } catch {
            throw PresetAnswerError("\(file): needs a JSON object of answers, e.g. {\"from\": \"books.csv\", \"Which shelf?\": \"Fiction\"}")
        }
        // Sorted, so that messages and the order of matches don't depend on the dictionary's.
        return try entries.keys.sorted().map { key throws(PresetAnswerError) in
            guard !normalized(key).isEmpty else { throw PresetAnswerError("\(file): an empty key names no question or parameter") }
            return Answer(key: key, value: entries[key]!.text, origin: "\(file): \"\(key)\"")
        }
    }

    /// One answer of a JSON file, as the text it stands for.
    struct JSONAnswer: Decodable {
        let text: String
        init(from decoder: any Decoder) throws {
            let value = try decoder.singleValueContainer()
            if let text = try? value.decode(String.self) { self.text = text }
            else if let flag = try? value.decode(Bool.self) { text = flag ? "yes" : "no" }
            else if let whole = try? value.decode(Int.self) { text = String(whole) }
            else { text = String(try value.decode(Double.self)) }
        }
    }

    /// How keys and questions are compared: lower case, runs of spaces as one, no final `?` or `:`.
    static func normalized(_ text: String) -> String {
        var words = text.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
        while let last = words.last, last == "?" || last == ":" || last == " " { words.removeLast() }
        return words
    }

    /// The answer for a question: by its text, else by its parameter's name, else (for a confirmation) its intent's.
    func answer(question: String, parameter: String?, intent: String?) -> Answer? {
        // A question asked again comes after the reason it is asked again, on the line before.
        let asked = Self.normalized(question.split(separator: "\n").last.map(String.init) ?? question)
        let candidates = [asked, parameter.map(Self.normalized), intent.map(Self.normalized)].compactMap { $0 }
        for candidate in candidates where !candidate.isEmpty {
            if let index = normalizedKeys.firstIndex(of: candidate) {
                _ = used.withLock { $0.insert(index) }
                return answers[index]
            }
        }
        return nil
    }

    /// The option that answers `key` with `value`, as a hint writes it for pasting into a shell: in single quotes, or
    /// in double quotes when the question holds one ("Delete 'notes.txt' for good?=yes").
    package static func option(key: String, value: String) -> String {
        let text = key + "=" + value
        guard text.contains("'") else { return "--answer '\(text)'" }
        var quoted = "\""
        for character in text {
            if "\"$`\\".contains(character) { quoted.append("\\") }
            quoted.append(character)
        }
        return "--answer " + quoted + "\""
    }

    /// The answers no question asked for.
    package var unused: [Answer] {
        let used = used.withLock { $0 }
        return answers.indices.filter { !used.contains($0) }.map { answers[$0] }
    }
}

/// An answer given before the run that can't be read, or that names nothing.
package struct PresetAnswerError: Error, Sendable, CustomStringConvertible {
    package let message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}

/// An interaction that answers from `PresetAnswers` what they cover and leaves the rest to the interaction it wraps:
/// the terminal's (which may still ask, or refuse without a terminal) or an automation's (which refuses).
package struct AnsweringInteraction: Interaction {
    let base: any Interaction
    let answers: PresetAnswers

    package init(_ base: any Interaction, answers: PresetAnswers) {
        self.base = base
        self.answers = answers
    }

    package func show(_ dialog: Dialog) async { await base.show(dialog) }
    package func showNow(_ dialog: Dialog) -> Bool { base.showNow(dialog) }
    package func progress(_ event: ProgressEvent) async { await base.progress(event) }
    package func log(_ line: String) { base.log(line) }

    package func requestValue(_ request: ValueRequest) async throws -> Value {
        guard let answer = answers.answer(question: request.prompt, parameter: request.parameter, intent: nil) else {
            return try await base.requestValue(request)
        }
        let asker = "\(request.intent ?? "")/\(request.parameter ?? request.prompt)"
        // Asked again with a reason right after this answer: the intent refused it, and it would only be refused again.
        if let reason = request.reason, answers.lastAnswered.withLock({ $0 }) == asker {
            throw IntentError("the answer given with \(answer.origin) can't be used: \(reason)")
        }
        guard let value = TypedAnswer.parse(answer.value, as: request.type) else {
            throw IntentError("\(answer.origin) answers '\(request.prompt)', which needs \(TypedAnswer.expected(request.type)), not '\(answer.value)'")
        }
        answers.lastAnswered.withLock { $0 = asker }
        return value
    }

    package func choose(_ request: ChoiceRequest) async throws -> Int {
        guard let answer = answers.answer(question: request.prompt, parameter: request.parameter, intent: nil) else {
            return try await base.choose(request)
        }
        let given = answer.value.trimmingCharacters(in: .whitespaces)
        if let index = request.options.firstIndex(where: { $0.title.caseInsensitiveCompare(given) == .orderedSame }) { return index }
        if let number = Int(given), request.options.indices.contains(number - 1) { return number - 1 }
        let titles = request.options.prefix(10).map { "'\($0.title)'" }.joined(separator: ", ")
        throw IntentError("\(answer.origin) answers '\(request.prompt)' with '\(given)', which is none of its options: \(titles)"
                          + (request.options.count > 10 ? ", …" : "") + " (or a number from 1 to \(request.options.count))")
    }

    package func confirm(_ request: ConfirmationRequest) async throws -> Bool {
        guard let answer = answers.answer(question: request.prompt, parameter: nil, intent: request.intent) else {
            return try await base.confirm(request)
        }
        guard let approved = TypedAnswer.yesOrNo(answer.value) else {
            throw IntentError("\(answer.origin) answers the confirmation '\(request.prompt)', which needs yes or no, not '\(answer.value)'")
        }
        return approved
    }
}
