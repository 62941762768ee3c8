import AutoIntents

/// Whether scripts can call an intent by its title. The parser reads some words as the language's own: a title
/// that starts with `find`, `set` or `if` starts something else, and `and`, `or`, `in` end an action's name, so an
/// intent titled "Find easy trails" or "Check in" registers, is listed, and can't be called from a script, `say`
/// or MCP. The parser itself judges, so that the rule has one owner and can't drift from the grammar.
package enum CallableTitle {
    /// Nil when `title` parses as the name of one action at the start of a statement, with an argument, and after a
    /// `|`; else why not, for a registration error.
    package static func problem(_ title: String) -> String? {
        let name = IntentDescriptor.name(of: title)
        let words = name.split(separator: " ").map(String.init)
        guard let first = words.first else { return "it is empty" }
        if let word = words.first(where: { !isWord($0) }) {
            return "scripts can't write '\(word)' in an action's name, which is words of letters and digits that start with a "
                + "letter; give it a title of such words"
        }
        if let word = words.first(where: { Parser.stopWords.contains($0) }) {
            return "scripts read '\(word)' as the language's own word, which ends an action's name; give it a title without it"
        }
        // Alone (`stop`), with an argument, and after a `|` (`limit` there is the list stage).
        let calls = [name, "\(name) 1", "1 | \(name)", "1 | \(name) 2"]
        guard calls.allSatisfy({ parsesAsCall(of: name, in: $0) }) else {
            return "scripts read '\(name)' as the language's own '\(first)', not as an action; give it a title that starts with another word"
        }
        return nil
    }

    /// Whether the lexer reads `word` as one identifier.
    static func isWord(_ word: String) -> Bool {
        var lexer = Lexer(file: SourceFile(name: "title", text: word))
        guard case .identifier(word) = lexer.next().kind else { return false }
        return lexer.next().kind == .endOfInput
    }

    /// Whether `source` parses without an error as one statement whose last stage is the action named `name`.
    static func parsesAsCall(of name: String, in source: String) -> Bool {
        let (tree, diagnostics) = Parser.parse(SourceFile(name: "title", text: source))
        guard diagnostics.isEmpty, tree.statements.count == 1, case .expression(let expression) = tree.statements[0].kind else { return false }
        var last = expression
        if case .pipeline(let stages) = expression.kind, let stage = stages.last { last = stage }
        guard case .action(let words, _) = last.kind else { return false }
        return words.map(\.name).joined(separator: " ") == name
    }
}
