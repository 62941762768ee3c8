import Foundation

/// Where a REPL's lines come from: a terminal with line editing and history, or a pipe read line by line.
package protocol LineReader: AnyObject {
    /// The next line without its line break, nil at the end of input (Ctrl-D on an empty line).
    func readLine(prompt: String) -> String?
    /// An entry as it was run, kept for Up and `:history` (a multi-line entry is one).
    func remember(_ entry: String)
    /// The entries kept, oldest first.
    var history: [String] { get }
}

/// Standard input that is not a terminal (`auto repl < session.auto`, a pipe): lines as they come, no prompt,
/// no history kept on disk; the output is what a script's would be.
package final class PlainLineReader: LineReader {
    package private(set) var history: [String] = []

    package init() {}

    package func readLine(prompt: String) -> String? {
        Swift.readLine(strippingNewline: true)
    }

    package func remember(_ entry: String) {
        history.append(entry)
    }
}
