import AutoIntents
import AutoRuntime

/// A problem found before running: where it is, what it is and, when we can tell, how to fix it.
package struct Diagnostic: Sendable, Error, CustomStringConvertible {
    package enum Severity: String, Sendable {
        case error
        case warning
    }
    package let severity: Severity
    package let message: String
    package let span: Span
    package let file: SourceFile
    /// A sentence that helps: the nearest names, the list of what is available.
    package let hint: String?
    /// The edit that resolves it, where there is exactly one: a former name replaced by the current one. What
    /// `auto migrate --write` applies.
    package let fix: Fix?

    /// `replacement` in place of the text of `span`.
    package struct Fix: Sendable, Equatable {
        package let span: Span
        package let replacement: String
        package init(span: Span, replacement: String) {
            self.span = span
            self.replacement = replacement
        }
    }

    package init(_ severity: Severity = .error, _ message: String, at span: Span, in file: SourceFile, hint: String? = nil,
                 fix: Fix? = nil) {
        self.severity = severity
        self.message = message
        self.span = span
        self.file = file
        self.hint = hint
        self.fix = fix
    }

    package var location: SourceLocation { file.location(of: span.start) }

    /// One line: `books.auto:3:22: error: message`.
    package var description: String { "\(location): \(severity.rawValue): \(message)" }

    /// The full report: the line, the source text, a caret under the span and the hint.
    package func rendered(colour: Bool = false) -> String {
        let location = self.location
        // From the end, which is after the span's last character: its last byte may be inside a character (`é`).
        let endLocation = file.location(of: span.end)
        let width = endLocation.line == location.line ? max(1, endLocation.column - location.column) : 1
        return DiagnosticText.render(severity.rawValue, message, at: location, line: file.line(location.line), width: width,
                                     hint: hint, colour: colour)
    }
}

/// How a problem reads for people, compile-time or runtime: `file:line:col: error: message`, the source line
/// with a caret under the place, and a hint. The one place this layout and its colours are decided.
package enum DiagnosticText {
    package static func render(_ severity: String, _ message: String, at location: SourceLocation?, line: String?, width: Int = 1,
                              hint: String? = nil, colour: Bool = false) -> String {
        let red = colour ? "\u{1B}[1;31m" : "", bold = colour ? "\u{1B}[1m" : ""
        let cyan = colour ? "\u{1B}[36m" : "", green = colour ? "\u{1B}[32m" : "", reset = colour ? "\u{1B}[0m" : ""
        var out = location.map { "\(bold)\($0):\(reset) " } ?? ""
        out += "\(red)\(severity):\(reset) \(bold)\(ValueFormatter.escapingControlCharacters(message))\(reset)\n"
        if let location, let line, !line.isEmpty {
            let indent = String(line.prefix(location.column - 1).map { $0 == "\t" ? "\t" : " " })
            // The source line is quoted as it is, but for control characters (an ESC in a text), which would reach
            // the terminal; the caret's place is counted in the line as written.
            let shown = String(line.unicodeScalars.map { $0 == "\t" || $0.value >= 0x20 && $0.value != 0x7F ? Character($0) : "?" })
            out += "  \(shown)\n  \(indent)\(green)^\(String(repeating: "~", count: max(1, width) - 1))\(reset)\n"
        }
        if let hint { out += "  \(cyan)hint:\(reset) \(hint)\n" }
        return out
    }
}

/// Suggestions by edit distance, for "did you mean" hints.
package enum NearestNames {
    /// The nearest candidates (all those tied at the smallest distance, at most three), within a distance
    /// that grows with the word: a typo, a swapped pair of letters, a missing letter.
    package static func suggest(_ word: String, from candidates: [String]) -> [String] {
        let limit = word.count <= 2 ? 0 : max(1, word.count / 3)
        var seen: Set<String> = []
        let scored = candidates.filter { seen.insert($0).inserted }
            .map { ($0, EditDistance.between(word.lowercased(), $0.lowercased())) }
            .filter { $0.1 <= limit }
        guard let best = scored.map(\.1).min() else { return [] }
        return scored.filter { $0.1 == best }.map(\.0).sorted().prefix(3).map { $0 }
    }

    /// "did you mean 'title'?" or, with nothing near, "available: a, b, c".
    package static func hint(for word: String, in candidates: [String], listing noun: String = "available") -> String? {
        let near = suggest(word, from: candidates)
        if !near.isEmpty { return "did you mean " + near.map { "'\($0)'" }.joined(separator: " or ") + "?" }
        if candidates.isEmpty { return nil }
        let shown = candidates.prefix(12).joined(separator: ", ")
        return "\(noun): \(shown)\(candidates.count > 12 ? ", …" : "")"
    }

}
