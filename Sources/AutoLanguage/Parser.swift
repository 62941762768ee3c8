import Foundation

/// Builds the syntax tree from tokens. Recursive descent, one function per production of
/// `grammar/auto.ebnf` (the production is the comment above each). On an error it reports, skips to the
/// end of the statement and goes on, so one run finds every syntax error of a file.
package struct Parser {
    package struct Limits: Sendable {
        /// Nesting of blocks, brackets, texts and prefix operators. Deeper input gets an error instead of
        /// exhausting the stack.
        package var maxDepth: Int
        package init(maxDepth: Int = 256) { self.maxDepth = maxDepth }
    }

    let file: SourceFile
    var tokens: [Token]
    var index = 0
    var depth = 0
    let limits: Limits
    package internal(set) var diagnostics: [Diagnostic] = []
    /// The productions entered so far, when tracking was asked for (tests only).
    package var coverage: Set<Production>?
    /// Whether this parser reads a `\( … )` inside a text.
    var isInterpolation = false
    /// Whether shortcut bodies are passed over, their braces matched but nothing in them parsed: the prelude's,
    /// when the script may call none of them (`PreludeBodies.whenCalled`).
    var skipsShortcutBodies = false
    /// Whether an error came from the input ending where more was needed (an open bracket or block, a trailing
    /// operator or `|`): at a prompt, the entry goes on with the next line.
    package internal(set) var endedUnfinished = false
    /// Where the words that are names are (a variable's, an action's, a label's, a property's, a unit's): every other
    /// word the parser reads is a keyword there (`sort`, `limit`, `every`), which the lexer can't tell. For an editor's
    /// highlighting.
    package internal(set) var nameSpans: [Span] = []

    /// Parses `range` of the file (all of it by default; one automation's declaration when its body is compiled).
    package init(file: SourceFile, range: Range<Int>? = nil, limits: Limits = Limits()) {
        var lexer = Lexer(file: file, range: range)
        self.tokens = lexer.tokenize()
        self.diagnostics = lexer.diagnostics
        self.file = file
        self.limits = limits
    }

    /// Whether `text` stops where more is needed, and nothing else is wrong with it: a REPL entry that goes on.
    package static func isUnfinished(_ text: String) -> Bool {
        var parser = Parser(file: SourceFile(name: "<entry>", text: text))
        _ = parser.parseProgram()
        return parser.endedUnfinished
    }

    /// Parses a whole file.
    package static func parse(_ file: SourceFile, limits: Limits = Limits(), skippingShortcutBodies: Bool = false) -> (SyntaxTree, [Diagnostic]) {
        var parser = Parser(file: file, limits: limits)
        parser.skipsShortcutBodies = skippingShortcutBodies
        let program = parser.parseProgram()
        return (program, parser.diagnostics)
    }

    // MARK: Tokens

    var current: Token { tokens[index] }
    var previous: Token { tokens[max(0, index - 1)] }
    func peek(_ offset: Int = 1) -> Token { tokens[min(index + offset, tokens.count - 1)] }
    var atEnd: Bool { current.kind == .endOfInput }

    mutating func advance() -> Token {
        let token = tokens[index]
        if index < tokens.count - 1 { index += 1 }
        return token
    }

    mutating func accept(_ symbol: Token.Symbol) -> Bool {
        guard current.isSymbol(symbol) else { return false }
        _ = advance()
        return true
    }

    mutating func acceptWord(_ word: String) -> Bool {
        guard current.isWord(word) else { return false }
        _ = advance()
        return true
    }

    /// Called only where a line continues (grammar/auto.ebnf, "Where a line continues"): after an operator or
    /// a punctuation mark that needs something after it, and inside brackets.
    mutating func skipNewlines() {
        while current.kind == .newline { _ = advance() }
    }

    /// The first token after any newlines, without moving: for constructs that may continue on the next
    /// line (`} else {`, a line that starts with `|`).
    func nextSignificant() -> Token {
        var i = index
        while tokens[i].kind == .newline { i += 1 }
        return tokens[i]
    }

    mutating func enter(_ production: Production) {
        coverage?.insert(production)
    }

    /// A word read as a name, kept in `nameSpans`.
    mutating func named(_ word: String, at span: Span) -> Identifier {
        nameSpans.append(span)
        return Identifier(name: word, span: span)
    }

    // MARK: Errors

    struct SyntaxError: Error {}

    /// Thrown past every enclosing block up to the top-level statement, which is then skipped whole:
    /// resuming inside an over-deep construct would only report its closing brackets.
    struct TooDeep: Error {}

    mutating func error(_ message: String, at span: Span? = nil, hint: String? = nil, fix: Diagnostic.Fix? = nil) -> SyntaxError {
        // The lexer has already explained an invalid token; a second message about it would only confuse.
        if span == nil, current.kind == .invalid { return SyntaxError() }
        if atEnd { endedUnfinished = true }
        diagnostics.append(Diagnostic(.error, message, at: span ?? current.span, in: file, hint: hint, fix: fix))
        return SyntaxError()
    }

    mutating func expect(_ symbol: Token.Symbol, _ context: String, hint: String? = nil) throws -> Token {
        guard current.isSymbol(symbol) else {
            throw error("expected '\(symbol.rawValue)' \(context), found \(describe(current))", hint: hint)
        }
        return advance()
    }

    mutating func expectIdentifier(_ context: String) throws -> Identifier {
        guard case .identifier(let name) = current.kind else {
            throw error("expected a name \(context), found \(describe(current))")
        }
        let token = advance()
        return named(name, at: token.span)
    }

    mutating func expectWord(_ word: String, _ context: String, hint: String? = nil) throws {
        guard acceptWord(word) else { throw error("expected '\(word)' \(context), found \(describe(current))", hint: hint) }
    }

    /// Expects the closing bracket of `opener`. When the input moved on to another line or ended, the
    /// bracket was never closed: say so at the bracket rather than at whatever came next.
    mutating func expectCloser(_ symbol: Token.Symbol, opener: Token, _ context: String, hint: String? = nil) throws -> Token {
        if current.isSymbol(symbol) { return advance() }
        let openerLine = file.location(of: opener.span.start).line
        let unclosed = atEnd || file.location(of: current.span.start).line > openerLine
        if unclosed, current.kind != .invalid {
            throw error("this '\(file.text(of: opener.span).suffix(1))' is never closed", at: opener.span,
                        hint: "add a '\(symbol.rawValue)'" + (hint.map { "; \($0)" } ?? ""))
        }
        return try expect(symbol, context, hint: hint)
    }

    /// The last token read that is not a newline: what a dangling construct ended with.
    func lastSignificantToken() -> Token {
        var i = index - 1
        while i > 0, tokens[i].kind == .newline { i -= 1 }
        return tokens[max(i, 0)]
    }

    func describe(_ token: Token) -> String {
        switch token.kind {
        case .identifier(let name): return "'\(name)'"
        case .integer, .decimal: return "the number \(file.text(of: token.span))"
        case .text: return "a text"
        case .symbol(let symbol): return "'\(symbol.rawValue)'"
        case .newline: return "the end of the line"
        case .endOfInput: return isInterpolation ? "the end of the interpolation" : "the end of the input"
        case .invalid: return "'\(file.text(of: token.span))'"
        }
    }

    /// Guards recursion: every nested construct goes through here.
    mutating func nested<T>(_ body: (inout Parser) throws -> T) throws -> T {
        try deepen()
        defer { depth -= 1 }
        return try body(&self)
    }

    /// One level deeper in the tree: a nested construct, or one more operand in a chain like `a + b + c`,
    /// which makes the tree as deep as a nesting would. Callers restore `depth` when they are done.
    mutating func deepen() throws {
        depth += 1
        if depth > limits.maxDepth {
            _ = error("this is nested too deeply (more than \(limits.maxDepth) levels)",
                      hint: "split it into smaller statements with 'set'")
            throw TooDeep()
        }
    }

    /// After an error: skip to the end of the statement, stepping over bracketed groups, so parsing
    /// resumes at the next statement.
    mutating func synchronize() {
        var nesting = 0
        while !atEnd {
            // An unclosed bracket must not swallow the next statement: one that starts a line with a
            // statement keyword begins afresh.
            if index > 0, tokens[index - 1].kind == .newline, let word = current.identifier, Self.statementKeywords.contains(word) {
                return
            }
            switch current.kind {
            case .newline, .symbol(.semicolon):
                if nesting == 0 { return }
            case .symbol(.leftBrace), .symbol(.leftParen), .symbol(.leftBracket):
                nesting += 1
            case .symbol(.rightBrace):
                // A '}' at this level closes the enclosing block: leave it to the block.
                if nesting == 0 { return }
                nesting -= 1
            case .symbol(.rightParen), .symbol(.rightBracket):
                nesting = max(0, nesting - 1)
            default:
                break
            }
            _ = advance()
        }
    }

    static let statementKeywords: Set<String> = ["set", "if", "for", "repeat", "while", "try", "return", "shortcut", "automation"]

    /// Skips a whole statement from its first token, brackets and all.
    mutating func skipStatement() {
        var nesting = 0
        while !atEnd {
            switch current.kind {
            case .newline, .symbol(.semicolon): if nesting == 0 { return }
            case .symbol(.leftBrace), .symbol(.leftParen), .symbol(.leftBracket): nesting += 1
            case .symbol(.rightBrace), .symbol(.rightParen), .symbol(.rightBracket): nesting = max(0, nesting - 1)
            default: break
            }
            _ = advance()
        }
    }

    // MARK: SyntaxTree and statements

    // program = { statement_end } { statement statement_end } ;
    package mutating func parseProgram() -> SyntaxTree {
        enter(.program)
        var statements: [Statement] = []
        // Only blocks rethrow TooDeep; the top level catches it.
        try? parseStatements(into: &statements, until: nil)
        return SyntaxTree(file: file, statements: statements)
    }

    /// Statements up to `closer` (a block's `}`) or the end of input.
    mutating func parseStatements(into statements: inout [Statement], until closer: Token.Symbol?) throws {
        while true {
            while current.kind == .newline || current.isSymbol(.semicolon) { _ = advance() }
            if atEnd { return }
            if let closer, current.isSymbol(closer) { return }
            if closer == nil, current.isSymbol(.rightBrace) {
                _ = error("unexpected '}' with no '{' to close")
                _ = advance()
                continue
            }
            let start = current.span
            let startIndex = index
            do {
                let statement = try parseStatement()
                statements.append(statement)
                try expectStatementEnd(closer: closer)
            } catch is TooDeep where closer != nil {
                throw TooDeep()
            } catch is TooDeep {
                index = startIndex
                skipStatement()
                statements.append(Statement(kind: .error, span: start.to(previous.span), resultName: nil))
            } catch {
                synchronize()
                // Always make progress, whatever token stopped the statement.
                if index == startIndex, !atEnd, !(closer.map(current.isSymbol) ?? false) { _ = advance() }
                statements.append(Statement(kind: .error, span: start.to(previous.span), resultName: nil))
            }
        }
    }

    mutating func expectStatementEnd(closer: Token.Symbol?) throws {
        switch current.kind {
        case .newline, .symbol(.semicolon), .endOfInput: return
        case .symbol(let symbol) where symbol == closer: return
        default:
            throw error("expected the end of the statement, found \(describe(current))",
                        hint: "put each statement on its own line or separate them with ';'")
        }
    }

    // statement = set_statement | if_statement | for_statement | repeat_statement | while_statement | try_statement
    //           | break_statement | continue_statement | stop_statement | return_statement
    //           | shortcut_declaration | automation_declaration | expression_statement ;
    mutating func parseStatement() throws -> Statement {
        enter(.statement)
        switch current.identifier {
        case "set": return try parseSet()
        case "if": return try parseIf()
        case "for": return try parseFor()
        case "repeat" where !repeatCallsAction(): return try parseRepeat()
        case "while": return try parseWhile()
        case "try" where peek().isSymbol(.leftBrace): return try parseTry()
        case "break" where endsStatement(peek()): return parseLoopExit(.breakStatement, .breakLoop)
        case "continue" where endsStatement(peek()): return parseLoopExit(.continueStatement, .continueLoop)
        case "stop" where endsStatement(peek()): return parseStop()
        case "return": return try parseReturn()
        case "shortcut" where peek().kind.isText: return try parseShortcut()
        case "automation" where peek().kind.isText: return try parseAutomation()
        default:
            if let name = current.identifier, peek().isSymbol(.assign) {
                // A habit of most languages; here `=` alone never sets anything.
                throw error("'\(name) = …' sets nothing: a variable is set with 'set'", hint: "write 'set \(name) = …'",
                            fix: Diagnostic.Fix(span: Span(current.span.start, current.span.start), replacement: "set "))
            }
            if let operatorText = operatorStartingLine() {
                throw error("'\(operatorText)' can't start a line: a statement continues on the next line only after an operator, not before one",
                            hint: "move '\(operatorText)' to the end of the line above")
            }
            return try parseExpressionStatement()
        }
    }

    /// The operator a statement starts with, when it starts a line: nearly always the second half of a line
    /// broken before the operator (`+ 1`, `and x`, `.title`, `-> name`). A line continues only when it ends
    /// with the operator (grammar/auto.ebnf, "Where a line continues"), so this says so instead of "expected a
    /// value". Not `-` and `not`, which may start a value, nor `|`, which does continue the line above.
    func operatorStartingLine() -> String? {
        guard index > 0, tokens[index - 1].kind == .newline else { return nil }
        switch current.kind {
        case .symbol(let symbol) where symbol != .minus && (Self.isBinary(symbol) || [.dot, .arrow, .comma].contains(symbol)):
            return symbol.rawValue
        case .identifier(let word) where ["starts", "ends"].contains(word) && peek().isWord("with"):
            return word + " with"
        case .identifier(let word) where ["and", "or", "otherwise", "contains", "in", "between"].contains(word) && !endsStatement(peek()):
            // Followed by more: alone, the word could be a variable's name (`set in = 1`, then `in`).
            return word
        default:
            return nil
        }
    }

    /// Whether a line starting with `repeat` calls an action whose name starts so (`repeat text "ab" count: 2`, a
    /// shortcut of the standard library) rather than being a loop: a word follows, and no `times` comes before the
    /// statement ends. A count that is a number or in parentheses is always a loop's.
    func repeatCallsAction() -> Bool {
        guard peek().identifier != nil else { return false }
        var position = index + 1
        while position < tokens.count, !endsStatement(tokens[position]) {
            if tokens[position].isWord("times") { return false }
            position += 1
        }
        return true
    }

    func endsStatement(_ token: Token) -> Bool {
        switch token.kind {
        case .newline, .endOfInput, .symbol(.semicolon), .symbol(.rightBrace): return true
        default: return false
        }
    }

    // expression_statement = pipeline [ "->" identifier ] ;
    mutating func parseExpressionStatement() throws -> Statement {
        enter(.expressionStatement)
        let expression = try parsePipeline()
        let name = try parseResultName()
        return Statement(kind: .expression(expression), span: expression.span.to(previous.span), resultName: name)
    }

    mutating func parseResultName() throws -> Identifier? {
        guard accept(.arrow) else { return nil }
        skipNewlines()
        return try expectIdentifier("after '->' to name the result")
    }

    // set_statement = "set" identifier "=" pipeline ;
    mutating func parseSet() throws -> Statement {
        enter(.setStatement)
        let start = advance().span
        let name = try expectIdentifier("after 'set'")
        _ = try expect(.assign, "after 'set \(name.name)'", hint: "write 'set \(name.name) = value'")
        skipNewlines()
        let value = try parsePipeline()
        return Statement(kind: .set(name, value), span: start.to(previous.span), resultName: nil)
    }

    // if_statement = "if" pipeline block { "else" "if" pipeline block } [ "else" block ] ;
    mutating func parseIf() throws -> Statement {
        enter(.ifStatement)
        let start = advance().span
        var branches: [(condition: Expression, body: Block)] = []
        var otherwise: Block?
        branches.append((try parsePipeline(allowBraceArguments: false), try parseBlock(after: "the condition")))
        while nextSignificant().isWord("else") {
            skipNewlines()
            _ = advance()
            if acceptWord("if") {
                branches.append((try parsePipeline(allowBraceArguments: false), try parseBlock(after: "the condition")))
            } else {
                otherwise = try parseBlock(after: "'else'")
                break
            }
        }
        return Statement(kind: .ifElse(branches: branches, otherwise: otherwise), span: start.to(previous.span), resultName: nil)
    }

    // for_statement = "for" identifier "in" pipeline block ;
    mutating func parseFor() throws -> Statement {
        enter(.forStatement)
        let start = advance().span
        let name = try expectIdentifier("after 'for'")
        try expectWord("in", "after 'for \(name.name)'")
        skipNewlines()
        let sequence = try parsePipeline(allowBraceArguments: false)
        let body = try parseBlock(after: "the list")
        return Statement(kind: .forEach(name, sequence, body), span: start.to(previous.span), resultName: nil)
    }

    // repeat_statement = "repeat" expression "times" block ;
    mutating func parseRepeat() throws -> Statement {
        enter(.repeatStatement)
        let start = advance().span
        let count = try parseExpression()
        try expectWord("times", "after the count", )
        let body = try parseBlock(after: "'times'")
        return Statement(kind: .repeatTimes(count, body), span: start.to(previous.span), resultName: nil)
    }

    // while_statement = "while" pipeline block ;
    mutating func parseWhile() throws -> Statement {
        enter(.whileStatement)
        let start = advance().span
        let condition = try parsePipeline(allowBraceArguments: false)
        let body = try parseBlock(after: "the condition")
        return Statement(kind: .whileLoop(condition, body), span: start.to(previous.span), resultName: nil)
    }

    // try_statement = "try" block "otherwise" block ;
    mutating func parseTry() throws -> Statement {
        enter(.tryStatement)
        let start = advance().span
        let body = try parseBlock(after: "'try'")
        guard nextSignificant().isWord("otherwise") else {
            throw error("expected 'otherwise { … }' after the block of 'try'", hint: "say what to do when the block fails: try { … } otherwise { show error }")
        }
        skipNewlines()
        _ = advance()
        let handler = try parseBlock(after: "'otherwise'")
        return Statement(kind: .attempt(body, otherwise: handler), span: start.to(previous.span), resultName: nil)
    }

    // break_statement = "break" ;  continue_statement = "continue" ;
    mutating func parseLoopExit(_ production: Production, _ kind: Statement.Kind) -> Statement {
        enter(production)
        return Statement(kind: kind, span: advance().span, resultName: nil)
    }

    // stop_statement = "stop" ;
    mutating func parseStop() -> Statement {
        enter(.stopStatement)
        return Statement(kind: .stop, span: advance().span, resultName: nil)
    }

    // return_statement = "return" [ pipeline ] ;
    mutating func parseReturn() throws -> Statement {
        enter(.returnStatement)
        let start = advance().span
        if endsStatement(current) { return Statement(kind: .returnValue(nil), span: start, resultName: nil) }
        let value = try parsePipeline()
        return Statement(kind: .returnValue(value), span: start.to(previous.span), resultName: nil)
    }

    // block = "{" { statement_end } { statement statement_end } "}" ;
    mutating func parseBlock(after context: String) throws -> Block {
        enter(.block)
        // `if x = 3 {`: the `=` of `set` where `==` was meant.
        let open = try expect(.leftBrace, "after \(context)", hint: current.isSymbol(.assign) ? "to compare, write '=='" : nil)
        var statements: [Statement] = []
        try nested { parser in try parser.parseStatements(into: &statements, until: .rightBrace) }
        guard current.isSymbol(.rightBrace) else {
            throw error("this '{' is never closed", at: open.span, hint: "add a '}' at the end of the block")
        }
        let close = advance()
        return Block(statements: statements, span: open.span.to(close.span))
    }

    /// A block passed over: its braces matched, token by token (a text's braces are inside its token), and an empty
    /// block in its place.
    mutating func skipBlock() throws -> Block {
        let open = try expect(.leftBrace, "after the shortcut's parameters")
        var depth = 1
        while depth > 0 {
            if atEnd { throw error("this '{' is never closed", at: open.span, hint: "add a '}' at the end of the block") }
            if current.isSymbol(.leftBrace) { depth += 1 } else if current.isSymbol(.rightBrace) { depth -= 1 }
            _ = advance()
        }
        return Block(statements: [], span: open.span.to(previous.span))
    }

    // shortcut_declaration = "shortcut" text [ "(" [ parameter_declaration { "," parameter_declaration } ] ")" ]
    //                        [ "phrases" list ] block ;
    mutating func parseShortcut() throws -> Statement {
        enter(.shortcutDeclaration)
        let start = advance().span
        let nameToken = advance()
        guard case .text(let pieces) = nameToken.kind, pieces.count == 1, case .literal(let name) = pieces[0],
              name.contains(where: { !$0.isWhitespace }) else {
            throw error("a shortcut's name is a plain text without interpolation", at: nameToken.span)
        }
        var parameters: [ShortcutDeclaration.ParameterDeclaration] = []
        if accept(.leftParen) {
            skipNewlines()
            while !current.isSymbol(.rightParen) {
                parameters.append(try parseParameterDeclaration())
                skipNewlines()
                if !accept(.comma) { break }
                skipNewlines()
            }
            _ = try expect(.rightParen, "to close the parameter list")
        }
        var phrases: [Expression] = []
        if nextSignificant().isWord("phrases") {
            skipNewlines()
            _ = advance()
            let list = try parseList()
            if case .list(let items) = list.kind { phrases = items }
        }
        if nextSignificant().isSymbol(.leftBrace) { skipNewlines() }
        let body = skipsShortcutBodies ? try skipBlock() : try parseBlock(after: "the shortcut's parameters")
        let declaration = ShortcutDeclaration(name: name, nameSpan: nameToken.span, parameters: parameters, phrases: phrases, body: body)
        return Statement(kind: .shortcut(declaration), span: start.to(previous.span), resultName: nil)
    }

    // parameter_declaration = identifier ":" type [ "=" expression ] ;
    mutating func parseParameterDeclaration() throws -> ShortcutDeclaration.ParameterDeclaration {
        enter(.parameterDeclaration)
        let name = try expectIdentifier("for a parameter")
        _ = try expect(.colon, "after the parameter name", hint: "write '\(name.name): Text' or '\(name.name): Int = 3'")
        skipNewlines()
        let type = try parseType()
        var defaultValue: Expression?
        if accept(.assign) {
            skipNewlines()
            defaultValue = try parseExpression()
        }
        return .init(name: name, type: type, defaultValue: defaultValue)
    }

    // type = ( identifier | "[" type "]" ) [ "?" ] ;
    mutating func parseType() throws -> TypeAnnotation {
        enter(.type)
        var type: TypeAnnotation
        if current.isSymbol(.leftBracket) {
            let open = advance().span
            skipNewlines()
            let element = try nested { try $0.parseType() }
            skipNewlines()
            let close = try expect(.rightBracket, "to close the list type")
            type = .list(element, open.to(close.span))
        } else {
            type = .named(try expectIdentifier("for a type"))
        }
        if current.isSymbol(.question), !current.spaceBefore {
            type = .optional(type, type.span.to(advance().span))
        }
        return type
    }
}

extension Token.Kind {
    var isText: Bool {
        if case .text = self { return true }
        return false
    }
}
