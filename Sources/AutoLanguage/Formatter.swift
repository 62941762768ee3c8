/// `auto format`: a script laid out in the one canonical way, its meaning untouched.
///
/// The formatter works on tokens, not on the syntax tree: it keeps every token and every line break where they are
/// and decides only the whitespace between them. So it never joins or splits a line, and the question "does this
/// line continue the statement above?" (docs/LANGUAGE.md §2.2) has the same answer after formatting as before. The
/// syntax tree is read only to tell a block's `{ }` from a record's and to know where statements start.
///
/// The layout:
/// - **Indentation**: 2 spaces for each enclosing block `{ … }`. A line that continues a statement (an operator or a
///   `,` ended the line above, or the line starts with `|`, `phrases` or an automation's trigger or option) is
///   indented 4 more than the statement's first line; `else`, a `try`'s `otherwise` and a shortcut's `{` starting
///   a line are not continuations. Inside brackets `( )`, `[ ]` and a record's `{ }` left open at the end of a line,
///   the lines are indented 2 more than the line that opened them, and 4 more again when they continue an item (the
///   line above ended neither with a `,` nor with the opening bracket). A line that starts with a closing bracket is
///   indented as the line that opened that bracket (for a block, as its statement).
/// - **Spaces** between the tokens of a line: one, except none after `(` `[` `.` and a record's `{`; none before
///   `)` `]` `,` `.` `;` `:` and a record's `}`; none inside a time of day (`07:30`); none after a unary minus
///   (`-x`, `f(-1)`). A block's braces have one space inside (`if n < 0 { return "negative" }`). Where a space
///   means something it is kept exactly as written: before a `(`, `[` or `?` that follows a value (`count(x)` calls,
///   `show (x)` passes an argument; `xs[0]`, `Text?`), and around a `-` after a value (`show -1` passes minus one,
///   `x - 1` and `x-1` subtract, and become `x - 1`).
/// - **Literals** (numbers, texts with their `\( … )`) are copied as written.
/// - **Lines**: no trailing whitespace; at most one blank line in a row; none at the start or the end of the file,
///   after a line that ends with an opening bracket or before one that starts with a closing bracket; `\r\n`
///   becomes `\n`; the file ends with exactly one newline (an empty file stays empty). A `#!` first line is kept as
///   written.
/// - **Comments** stay on their line, their text as written less trailing whitespace. A comment on a line of its own
///   is indented as the code line after it (as the lines inside a block when that line closes it). Comments after code
///   on consecutive lines (no blank or comment-only line between them) form a run, aligned at one column: the
///   rightmost of two spaces past the longest code of the run and the columns its comments are written at. So a
///   comment always has at least two spaces before it, and columns chosen by hand (the `# expect:` comments of the
///   examples) are kept; this is the one place where the layout as written counts, and formatting twice changes
///   nothing more.
/// - `;` keeps its place, with no space before it and one after (`a; b`, `; ;`).
///
/// Safety: a script with syntax errors is not formatted (the errors are returned, as `auto check` reports them). The
/// result is lexed again and must give the same tokens — the same text, the same meaningful spaces, line breaks where
/// they were (a run of blank lines counting as one) — and the same comments; otherwise it is refused as a bug of the
/// formatter, and the script stays as it was.
package enum Formatter {
    /// The canonical layout of `file`, or why there is none.
    package static func format(_ file: SourceFile) -> Result<String, FormatFailure> {
        let (tree, parsed) = Parser.parse(file)
        let errors = parsed.filter { $0.severity == .error }
        guard errors.isEmpty else { return .failure(.syntaxErrors(errors)) }
        let source = LexedSource(file)
        let text = Layout(source: source, marks: SyntaxMarks(tree)).render()
        if let problem = LexedSource(SourceFile(name: file.name, text: text)).difference(from: source) {
            return .failure(.changedMeaning(problem))
        }
        return .success(text)
    }

    /// The canonical layout of `text`, named `name` in diagnostics.
    package static func format(text: String, name: String) -> Result<String, FormatFailure> {
        format(SourceFile(name: name, text: text))
    }
}

/// Why a script was not formatted.
package enum FormatFailure: Error, Sendable {
    /// The script doesn't parse: its errors, as `auto check` reports them. Nothing is formatted.
    case syntaxErrors([Diagnostic])
    /// The formatted text would not lex to the script's tokens: a bug of the formatter, reported at the first token
    /// that would change. The script is left as it is.
    case changedMeaning(Diagnostic)

    /// What to show: the syntax errors, or the one about the formatter.
    package var diagnostics: [Diagnostic] {
        switch self {
        case .syntaxErrors(let diagnostics): return diagnostics
        case .changedMeaning(let diagnostic): return [diagnostic]
        }
    }
}

/// What the formatter needs from the syntax tree: where statements start and which braces are a block's.
struct SyntaxMarks {
    /// The offset of each statement's first token.
    var statementStarts: Set<Int> = []
    /// The offsets of the `{` and `}` of every block; any other brace is a record's.
    var blockBraces: Set<Int> = []

    init(_ tree: SyntaxTree) {
        // An explicit stack rather than recursion: nesting is bounded by the parser, but needn't cost stack.
        var pending: [[Statement]] = [tree.statements]
        while let statements = pending.popLast() {
            for statement in statements {
                statementStarts.insert(statement.span.start)
                for block in Self.blocks(of: statement) {
                    blockBraces.insert(block.span.start)
                    blockBraces.insert(block.span.end - 1)
                    pending.append(block.statements)
                }
            }
        }
    }

    static func blocks(of statement: Statement) -> [Block] {
        switch statement.kind {
        case .ifElse(let branches, let otherwise): return branches.map(\.body) + (otherwise.map { [$0] } ?? [])
        case .forEach(_, _, let body), .repeatTimes(_, let body), .whileLoop(_, let body): return [body]
        case .attempt(let body, let handler): return [body, handler]
        case .shortcut(let declaration): return [declaration.body]
        case .automation(let declaration): return [declaration.body]
        case .expression, .set, .breakLoop, .continueLoop, .stop, .returnValue, .error: return []
        }
    }
}

/// A file's tokens and comments, and the checks that two of them mean the same.
struct LexedSource {
    let file: SourceFile
    /// Every token, newlines and the end of input included.
    let tokens: [Token]
    let comments: [Span]
    let diagnostics: [Diagnostic]
    /// The `#!` first line, without its line break.
    let shebang: String?

    init(_ file: SourceFile) {
        var lexer = Lexer(file: file)
        lexer.recordsComments = true
        self.file = file
        self.tokens = lexer.tokenize()
        self.comments = lexer.comments
        self.diagnostics = lexer.diagnostics
        if file.bytes.starts(with: Array("#!".utf8)) {
            let end = file.bytes.firstIndex(of: UInt8(ascii: "\n")) ?? file.bytes.count
            shebang = Self.trimmingLineEnd(file.text(of: Span(0, end)), all: false)
        } else {
            shebang = nil
        }
    }

    func text(_ index: Int) -> String { file.text(of: tokens[index].span) }

    /// The column a comment is written at: the characters before it on its line, counted as the formatter counts
    /// the code it writes (`String.count`), so that a column it wrote reads back the same.
    func writtenColumn(_ comment: Span) -> Int {
        var start = min(comment.start, file.bytes.count)
        while start > 0, file.bytes[start - 1] != UInt8(ascii: "\n") { start -= 1 }
        return file.text(of: Span(start, comment.start)).count
    }

    /// A comment's text as the formatter writes it: without trailing whitespace.
    func commentText(_ span: Span) -> String { Self.trimmingLineEnd(file.text(of: span), all: true) }

    /// `text` without the `\r` of a `\r\n` line end, or (`all`) without any trailing whitespace.
    static func trimmingLineEnd(_ text: String, all: Bool) -> String {
        var scalars = Substring(text).unicodeScalars
        while let last = scalars.last, last == "\r" || (all && (last == " " || last == "\t" || last == "\u{0B}" || last == "\u{0C}")) {
            scalars.removeLast()
        }
        return String(scalars)
    }

    /// Whether a token ends a value, so that what follows it may be an argument, a call or an index depending on
    /// the space between them: a name or word, a literal, or a closing bracket.
    static func endsValue(_ token: Token) -> Bool {
        switch token.kind {
        case .identifier, .integer, .decimal, .text, .invalid, .symbol(.rightParen), .symbol(.rightBracket), .symbol(.rightBrace),
             .symbol(.question):
            return true
        case .symbol, .newline, .endOfInput:
            return false
        }
    }

    /// How the `-` at `index` reads, by the rules of the parser (`Parser.isActionWord`, `startsArgument`): after a
    /// value, with a space before it and none after (`show -1`), it starts a negative argument; after a value
    /// otherwise it subtracts; anywhere else it negates.
    enum Minus { case negation, negativeArgument, subtraction }

    func minus(at index: Int) -> Minus {
        guard index > 0, Self.endsValue(tokens[index - 1]) else { return .negation }
        let next = tokens[min(index + 1, tokens.count - 1)]
        return tokens[index].spaceBefore && Parser.touchesNextToken(next) ? .negativeArgument : .subtraction
    }

    /// The tokens as the parser sees them: each one's text, and for those whose meaning depends on the space before
    /// them (a `(`, `[` or `?` after a value; a `-` after a value, with the token after it), whether it has one.
    /// Runs of line breaks count as one, and those at the start and the end don't count.
    func signature() -> [(text: String, span: Span)] {
        var signature: [(text: String, span: Span)] = []
        for (index, token) in tokens.enumerated() {
            switch token.kind {
            case .newline:
                if let last = signature.last, last.text != "\n" { signature.append(("\n", token.span)) }
            case .endOfInput:
                break
            case .symbol(.leftParen), .symbol(.leftBracket), .symbol(.question):
                let spaced = index > 0 && Self.endsValue(tokens[index - 1]) ? (token.spaceBefore ? " +" : " -") : ""
                signature.append((text(index) + spaced, token.span))
            case .symbol(.minus):
                let reading: String
                switch minus(at: index) {
                case .negation: reading = " negation"
                case .negativeArgument: reading = " argument"
                case .subtraction: reading = " subtraction"
                }
                signature.append((text(index) + reading, token.span))
            case .integer(.min):
                // 9223372036854775808 is valid only right after a minus.
                signature.append((text(index) + (token.spaceBefore ? " +" : " -"), token.span))
            default:
                signature.append((text(index), token.span))
            }
        }
        if signature.last?.text == "\n" { signature.removeLast() }
        return signature
    }

    /// Where `self`, the formatted text, differs from `original` in meaning: a diagnostic on the original, or nil.
    func difference(from original: LexedSource) -> Diagnostic? {
        func problem(_ what: String, at span: Span) -> Diagnostic {
            Diagnostic(.error, "formatting would change \(what) here, so the script is left as it is", at: span, in: original.file,
                       hint: "this is a bug of the formatter: please report it with the script")
        }
        if let first = diagnostics.first { return problem("the script (the result doesn't lex: \(first.message))", at: Span(0, 0)) }
        if shebang != original.shebang { return problem("the #! line", at: Span(0, 0)) }
        let before = original.signature(), after = signature()
        for (index, token) in before.enumerated() where index >= after.count || after[index].text != token.text {
            return problem("the tokens", at: token.span)
        }
        if after.count > before.count {
            return problem("the tokens", at: Span(original.file.bytes.count, original.file.bytes.count))
        }
        let commentsBefore = original.comments.map(original.commentText), commentsAfter = comments.map(commentText)
        for (index, comment) in commentsBefore.enumerated() where index >= commentsAfter.count || commentsAfter[index] != comment {
            return problem("a comment", at: original.comments[index])
        }
        if commentsAfter.count > commentsBefore.count { return problem("the comments", at: Span(0, 0)) }
        return nil
    }
}

/// The canonical text of a lexed, parsed file (the rules are at the top of this file).
struct Layout {
    let source: LexedSource
    let marks: SyntaxMarks

    /// One line of the source: its tokens (consecutive indices in `source.tokens`) and the comment that ends it.
    struct SourceLine {
        var tokens: [Int] = []
        var comment: Span?
        var isBlank: Bool { tokens.isEmpty && comment == nil }
    }

    /// An open bracket or block: how its lines are indented, and its closing line.
    struct Frame {
        let isBlock: Bool
        let contentIndent: Int
        let closeIndent: Int
    }

    /// A line of the result.
    enum OutputLine {
        case blank
        case verbatim(String)
        /// Indented code, and the comment after it with the column it was written at.
        case code(String, comment: String?, writtenColumn: Int)
        case comment(String)
    }

    var tokens: [Token] { source.tokens }

    func render() -> String {
        let lines = sourceLines()
        let (indents, levels) = indentation(of: lines)
        // For each line, the next line with code, which a comment line is indented as.
        var nextCode = [Int?](repeating: nil, count: lines.count + 1)
        for number in lines.indices.reversed() { nextCode[number] = lines[number].tokens.isEmpty ? nextCode[number + 1] : number }
        var output: [OutputLine] = []
        var blankPending = false, previousOpens = false
        for (number, line) in lines.enumerated() {
            if number == 0, let shebang = source.shebang {
                output.append(.verbatim(shebang))
                continue
            }
            if line.isBlank {
                blankPending = !output.isEmpty
                continue
            }
            let closes = line.tokens.first.map { isCloser(tokens[$0]) } ?? false
            if blankPending, !previousOpens, !closes { output.append(.blank) }
            blankPending = false
            previousOpens = line.tokens.last.map { isOpener(tokens[$0]) } ?? false
            let indent = String(repeating: " ", count: indents[number] ?? commentIndent(number, next: nextCode[number + 1], lines, indents, levels))
            let comment = line.comment.map(source.commentText)
            if line.tokens.isEmpty {
                output.append(.comment(indent + (comment ?? "")))
            } else {
                let written = line.comment.map(source.writtenColumn) ?? 0
                output.append(.code(indent + code(of: line), comment: comment, writtenColumn: written))
            }
        }
        alignTrailingComments(&output)
        let text = output.map { line -> String in
            switch line {
            case .blank: return ""
            case .verbatim(let text), .comment(let text): return text
            case .code(let code, let comment, _): return code + (comment.map { "  " + $0 } ?? "")
            }
        }
        return text.isEmpty ? "" : text.joined(separator: "\n") + "\n"
    }

    /// The source cut into lines at its newline tokens, each comment on the line it ends.
    func sourceLines() -> [SourceLine] {
        var lines = [SourceLine()]
        var comments = source.comments[...]
        for (index, token) in tokens.enumerated() {
            while let comment = comments.first, comment.start < token.span.start {
                lines[lines.count - 1].comment = comment
                comments.removeFirst()
            }
            switch token.kind {
            case .newline: lines.append(SourceLine())
            case .endOfInput: break
            default: lines[lines.count - 1].tokens.append(index)
            }
        }
        return lines
    }

    /// The indentation of each code line, and the indentation inside the innermost open bracket or block where each
    /// line starts (for comment lines).
    func indentation(of lines: [SourceLine]) -> (indents: [Int?], levels: [Int]) {
        var indents = [Int?](repeating: nil, count: lines.count)
        var levels = [Int](repeating: 0, count: lines.count)
        var stack = [Frame(isBlock: true, contentIndent: 0, closeIndent: 0)]
        for (number, line) in lines.enumerated() {
            let top = stack[stack.count - 1]
            levels[number] = top.contentIndent
            guard let first = line.tokens.first else { continue }
            let indent: Int
            if isCloser(tokens[first]) {
                indent = top.closeIndent
            } else if top.isBlock ? continuesStatement(first) : continuesItem(first) {
                indent = top.contentIndent + 4
            } else {
                indent = top.contentIndent
            }
            indents[number] = indent
            for index in line.tokens {
                let token = tokens[index]
                if isBlockBrace(token), token.isSymbol(.leftBrace) {
                    // A block's lines go 2 deeper than its statement, wherever its `{` is.
                    let statement = stack[stack.count - 1].contentIndent
                    stack.append(Frame(isBlock: true, contentIndent: statement + 2, closeIndent: statement))
                } else if isOpener(token) {
                    stack.append(Frame(isBlock: false, contentIndent: indent + 2, closeIndent: indent))
                } else if isCloser(token), stack.count > 1 {
                    stack.removeLast()
                }
            }
        }
        return (indents, levels)
    }

    /// A comment line's indentation: the next code line's, or the inside of the bracket or block that line closes.
    func commentIndent(_ number: Int, next: Int?, _ lines: [SourceLine], _ indents: [Int?], _ levels: [Int]) -> Int {
        guard let next, let first = lines[next].tokens.first, !isCloser(tokens[first]), let indent = indents[next] else {
            return levels[number]
        }
        return indent
    }

    /// Whether the line starting with the token at `index`, in a block, goes on with the statement above.
    func continuesStatement(_ index: Int) -> Bool {
        let token = tokens[index]
        if marks.statementStarts.contains(token.span.start) { return false }
        // `} else {`, `} otherwise {` and a shortcut's `{` may start a line; a `;` ends the statement before it.
        if token.isWord("else") || token.isWord("otherwise") || token.isSymbol(.semicolon) { return false }
        if isBlockBrace(token) { return false }
        return true
    }

    /// Whether the line starting with the token at `index`, inside brackets, goes on with the item above: the line
    /// above ended neither the item (with a `,`) nor an opening bracket, and this one doesn't start with a `,`.
    func continuesItem(_ index: Int) -> Bool {
        if tokens[index].isSymbol(.comma) { return false }
        var previous = index - 1
        while previous >= 0, tokens[previous].kind == .newline { previous -= 1 }
        guard previous >= 0 else { return false }
        return !tokens[previous].isSymbol(.comma) && !isOpener(tokens[previous])
    }

    /// The tokens of a line with the spaces between them.
    func code(of line: SourceLine) -> String {
        var code = ""
        for (position, index) in line.tokens.enumerated() {
            if position > 0, spaced(index) { code += " " }
            code += source.text(index)
        }
        return code
    }

    /// Whether a space goes before the token at `index`, which follows another on its line.
    func spaced(_ index: Int) -> Bool {
        let previous = tokens[index - 1], token = tokens[index]
        // Where a space means something, it stays as written (or as the parser reads it, for a `-`).
        let afterValue = LexedSource.endsValue(previous)
        if afterValue, token.isSymbol(.leftParen) || token.isSymbol(.leftBracket) || token.isSymbol(.question) {
            return token.spaceBefore
        }
        if afterValue, token.isSymbol(.minus) { return true }
        if previous.isSymbol(.minus) { return source.minus(at: index - 1) == .subtraction }
        // The rest is layout.
        switch token.kind {
        case .symbol(.rightParen), .symbol(.rightBracket), .symbol(.comma), .symbol(.dot), .symbol(.colon), .symbol(.question):
            return false
        case .symbol(.semicolon):
            // `a; b`, and `; ;` for an empty statement.
            return previous.isSymbol(.semicolon)
        case .symbol(.rightBrace):
            return isBlockBrace(token)
        default:
            break
        }
        switch previous.kind {
        case .symbol(.leftParen), .symbol(.leftBracket), .symbol(.dot):
            return false
        case .symbol(.leftBrace):
            return isBlockBrace(previous)
        case .symbol(.colon):
            // `07:30`, a time of day.
            if case .integer = token.kind, index >= 2, case .integer = tokens[index - 2].kind { return false }
            return true
        default:
            return true
        }
    }

    func isBlockBrace(_ token: Token) -> Bool {
        (token.isSymbol(.leftBrace) || token.isSymbol(.rightBrace)) && marks.blockBraces.contains(token.span.start)
    }

    func isOpener(_ token: Token) -> Bool {
        token.isSymbol(.leftParen) || token.isSymbol(.leftBracket) || token.isSymbol(.leftBrace)
    }

    func isCloser(_ token: Token) -> Bool {
        token.isSymbol(.rightParen) || token.isSymbol(.rightBracket) || token.isSymbol(.rightBrace)
    }

    /// Aligns the comments after code on consecutive lines at one column: two spaces past the longest code of the
    /// run, or further right where one of them was written further right.
    func alignTrailingComments(_ output: inout [OutputLine]) {
        var start = 0
        while start < output.count {
            guard case .code(_, .some, _) = output[start] else {
                start += 1
                continue
            }
            var end = start, column = 0
            while end < output.count, case .code(let code, .some, let written) = output[end] {
                column = max(column, code.count + 2, written)
                end += 1
            }
            for index in start..<end {
                if case .code(let code, .some(let comment), let written) = output[index] {
                    // The padding goes into the code: rendering adds the two spaces every trailing comment has.
                    let padded = code + String(repeating: " ", count: max(0, column - code.count - 2))
                    output[index] = .code(padded, comment: comment, writtenColumn: written)
                }
            }
            start = end
        }
    }
}
