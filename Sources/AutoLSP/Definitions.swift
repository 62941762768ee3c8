import AutoLanguage

/// Where the name at an offset of a script is declared: a shortcut of the script, at its declaration's name; a
/// variable, at the nearest place before that sets it (`set x`, `… -> x`, `for x in`, a parameter of the shortcut
/// it is in). Read from the tokens and the parse, so a script with errors still answers.
enum Definitions {
    static func declaration(at offset: Int, in file: SourceFile) -> Span? {
        var lexer = Lexer(file: file)
        let tokens = lexer.tokenize()
        guard let index = tokens.firstIndex(where: { $0.identifier != nil && $0.span.start <= offset && offset <= $0.span.end }),
              let word = tokens[index].identifier else { return nil }
        let (tree, _) = Parser.parse(file, skippingShortcutBodies: false)
        if let shortcut = shortcut(called: tokens, at: index, word: word, in: tree) { return shortcut }
        return variable(word, before: tokens[index].span.end, tokens: tokens, tree: tree)
    }

    /// A shortcut whose name the identifiers around the token spell (`pages left` with the cursor on either word).
    static func shortcut(called tokens: [Token], at index: Int, word: String, in tree: SyntaxTree) -> Span? {
        for statement in tree.statements {
            guard case .shortcut(let declaration) = statement.kind else { continue }
            let words = declaration.name.split(separator: " ").map(String.init)
            for position in words.indices where words[position] == word {
                let first = index - position
                guard first >= 0, first + words.count <= tokens.count else { continue }
                if words.indices.allSatisfy({ tokens[first + $0].identifier == words[$0] }) { return declaration.nameSpan }
            }
        }
        return nil
    }

    /// The last place before `end` that declares `name`.
    static func variable(_ name: String, before end: Int, tokens: [Token], tree: SyntaxTree) -> Span? {
        var found: Span?
        func consider(_ span: Span) {
            if span.start < end, span.start >= (found?.start ?? -1) { found = span }
        }
        for (index, token) in tokens.enumerated() where token.identifier == name && index > 0 {
            let previous = tokens[index - 1]
            switch previous.kind {
            case .identifier("set"), .symbol(.arrow): consider(token.span)
            case .identifier("for"), .identifier("each"):
                if index + 1 < tokens.count, tokens[index + 1].identifier == "in" { consider(token.span) }
            default: break
            }
        }
        // The parameters of the shortcut the name is used in.
        for statement in tree.statements {
            guard case .shortcut(let declaration) = statement.kind, statement.span.start <= end, end <= statement.span.end else { continue }
            for parameter in declaration.parameters where parameter.name.name == name { consider(parameter.name.span) }
        }
        return found
    }
}
