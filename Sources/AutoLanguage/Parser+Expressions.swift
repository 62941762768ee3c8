import AutoRuntime

/// Pipelines, actions and operator expressions.
extension Parser {
    /// Words that can't be an action's words: operators and literals. Other keywords (`where`, `limit`,
    /// `times`, …) are reserved only where their construct is being parsed, so they may name variables.
    static let stopWords: Set<String> = [
        "and", "or", "not", "in", "contains", "starts", "ends", "between", "otherwise", "true", "false", "nil",
    ]

    /// Functions of other languages written out of habit, `len(xs)`, and what to write here. Only these: another name
    /// before `(` may be an action given a value in parentheses (`show(1)`).
    static let functionsOfOtherLanguages: [String: String] = {
        var hints: [String: String] = [:]
        for (names, function) in [(["len", "length", "size"], "count"), (["str", "string", "tostring"], "text"),
                                  (["int", "float", "parseint", "parsefloat", "tonumber"], "number"),
                                  (["lowercase", "tolowercase"], "lower"), (["uppercase", "touppercase"], "upper"), (["strip"], "trim")] {
            for name in names { hints[name] = "write '\(function)(…)'" }
        }
        hints["print"] = "write 'show …'"
        hints["sorted"] = "sort a list with a pipe: 'xs | sort by it'"
        return hints
    }()

    /// The words of the built-in functions, which are called with `(` right after the name.
    static let functionNames = Set(BuiltinFunction.allCases.filter(\.isCalled).map(\.rawValue))

    // pipeline = stage { "|" stage } ;
    mutating func parsePipeline(allowBraceArguments: Bool = true) throws -> Expression {
        enter(.pipeline)
        let startDepth = depth
        defer { depth = startDepth }
        let first = try parseStage(isFirst: true, allowBraceArguments: allowBraceArguments)
        var stages = [first]
        while current.isSymbol(.pipe) || (nextSignificant().isSymbol(.pipe) && current.kind == .newline) {
            try deepen()
            skipNewlines()
            _ = advance()
            skipNewlines()
            stages.append(try parseStage(isFirst: false, allowBraceArguments: allowBraceArguments))
        }
        if stages.count == 1 { return first }
        return Expression(kind: .pipeline(stages), span: first.span.to(stages[stages.count - 1].span))
    }

    // stage = find_query | filter_stage | sort_stage | limit_stage | each_stage | group_stage | distinct_stage
    //       | action | expression ;
    mutating func parseStage(isFirst: Bool, allowBraceArguments: Bool) throws -> Expression {
        enter(.stage)
        switch current.identifier {
        case "find" where peek().identifier != nil:
            return try parseFind()
        case "filter" where peek().isWord("where"):
            return try parseFilterStage()
        case "sort" where peek().isWord("by"):
            return try parseSortStage()
        case "limit" where !isFirst:
            return try parseLimitStage()
        case "each" where !isFirst:
            return try parseEachStage()
        case "group" where !isFirst && peek().isWord("by"), "count" where !isFirst && peek().isWord("by"):
            return try parseGroupStage()
        case "distinct" where !isFirst && endsStage(peek()):
            return try parseDistinctStage()
        default:
            break
        }
        if startsAction() { return try parseAction(allowBraceArguments: allowBraceArguments) }
        if !isFirst {
            throw error("expected an action after '|', found \(describe(current))",
                        hint: "a pipe passes its input to an action, e.g. '| show'")
        }
        return try parseExpression()
    }

    /// Whether a stage ends before `token`: `distinct` takes nothing, so `| distinct x` is an action named so.
    func endsStage(_ token: Token) -> Bool {
        endsStatement(token) || token.isSymbol(.pipe) || token.isSymbol(.arrow) || token.isSymbol(.rightParen)
    }

    /// An identifier that is not an operand of an operator, a member access, a function call or a label:
    /// `show x`, `open book b`, `add book "Circe"`. A lone name is an action of one word too; the checker
    /// decides whether it is a variable.
    func startsAction() -> Bool {
        guard let word = current.identifier, !Self.stopWords.contains(word) else { return false }
        return isActionWord(at: index)
    }

    func isActionWord(at position: Int) -> Bool {
        guard let word = tokens[position].identifier, !Self.stopWords.contains(word) else { return false }
        let next = tokens[min(position + 1, tokens.count - 1)]
        switch next.kind {
        case .symbol(.dot), .symbol(.colon):
            return false
        case .symbol(.leftBracket) where !next.spaceBefore:
            // `xs[0]` indexes a value; `show [1]` passes a list.
            return false
        case .symbol(.leftParen):
            // A function's call, or another language's (`len(xs)`), which the primary refuses with what to write.
            let function = Self.functionNames.contains(word) || Self.functionsOfOtherLanguages[word.lowercased()] != nil
            return !(function && !next.spaceBefore)
        case .symbol(.minus):
            // `show -1` passes minus one; `x - 1` subtracts, and so does a `-` that ends the line (`x -`, then
            // `1` on the next line), since a line that ends with an operator continues.
            return next.spaceBefore && Self.touchesNextToken(tokens[min(position + 2, tokens.count - 1)])
        case .symbol(let symbol):
            return !Self.isBinary(symbol)
        case .identifier(let following):
            return !["and", "or", "contains", "starts", "ends", "in", "between"].contains(following)
        default:
            return true
        }
    }

    /// Whether the symbol is a binary operator. A switch, not a set: making the first `Set<Token.Symbol>` scans every
    /// conformance record of the binary for `Hashable`, on every start.
    static func isBinary(_ symbol: Token.Symbol) -> Bool {
        switch symbol {
        case .equal, .notEqual, .less, .lessEqual, .greater, .greaterEqual, .plus, .minus, .star, .slash, .percent: true
        default: false
        }
    }

    // action = word { word } { argument } ;
    mutating func parseAction(allowBraceArguments: Bool) throws -> Expression {
        enter(.action)
        var words: [Identifier] = []
        while isActionWord(at: index) {
            let token = advance()
            words.append(named(token.identifier!, at: token.span))
        }
        var arguments: [ActionArgument] = []
        while startsArgument(allowBraceArguments: allowBraceArguments) {
            arguments.append(try parseArgument(allowBraceArguments: allowBraceArguments))
        }
        let span = words[0].span.to(previous.span)
        return Expression(kind: .action(words: words, arguments: arguments), span: span)
    }

    func startsArgument(allowBraceArguments: Bool) -> Bool {
        switch current.kind {
        case .identifier(let word):
            return !Self.stopWords.contains(word) || ["true", "false", "nil", "not"].contains(word)
        case .integer, .decimal, .text:
            return true
        case .symbol(.leftParen), .symbol(.leftBracket):
            return true
        case .symbol(.leftBrace):
            return allowBraceArguments
        case .symbol(.minus):
            return current.spaceBefore && Self.touchesNextToken(peek())
        default:
            return false
        }
    }

    /// Whether `token`, the one after a `-`, follows it with no space: what makes the `-` of `show -1` a
    /// negative argument. A newline or the end of the input right after the `-` doesn't: that `-` ends the line.
    static func touchesNextToken(_ token: Token) -> Bool {
        !token.spaceBefore && token.kind != .newline && token.kind != .endOfInput
    }

    // argument = identifier ":" expression | identifier expression | expression ;
    mutating func parseArgument(allowBraceArguments: Bool) throws -> ActionArgument {
        enter(.argument)
        if let label = current.identifier, peek().isSymbol(.colon) {
            let token = advance()
            _ = advance()
            skipNewlines()
            return ActionArgument(label: named(label, at: token.span), value: try parseExpression(allowBraces: allowBraceArguments))
        }
        // `choose "Which?" from books`: a word followed by a value labels it, as in a sentence.
        if let label = current.identifier, !Self.stopWords.contains(label), isActionWord(at: index) {
            let saved = index
            let token = advance()
            if startsArgument(allowBraceArguments: allowBraceArguments), current.identifier.map({ !Self.stopWords.contains($0) }) ?? true {
                return ActionArgument(label: named(label, at: token.span), value: try parseExpression(allowBraces: allowBraceArguments))
            }
            index = saved
        }
        return ActionArgument(label: nil, value: try parseExpression(allowBraces: allowBraceArguments))
    }

    // expression = or_expression { "otherwise" or_expression } ;
    mutating func parseExpression(allowBraces: Bool = true) throws -> Expression {
        enter(.expression)
        let startDepth = depth
        defer { depth = startDepth }
        var left = try parseOr(allowBraces)
        while acceptWord("otherwise") {
            try deepen()
            skipNewlines()
            let right = try parseOr(allowBraces)
            left = Expression(kind: .otherwise(left, right), span: left.span.to(right.span))
        }
        return left
    }

    // or_expression = and_expression { "or" and_expression } ;
    mutating func parseOr(_ allowBraces: Bool) throws -> Expression {
        enter(.orExpression)
        let startDepth = depth
        defer { depth = startDepth }
        var left = try parseAnd(allowBraces)
        while acceptWord("or") {
            try deepen()
            skipNewlines()
            let right = try parseAnd(allowBraces)
            left = Expression(kind: .binary(.or, left, right), span: left.span.to(right.span))
        }
        return left
    }

    // and_expression = not_expression { "and" not_expression } ;
    mutating func parseAnd(_ allowBraces: Bool) throws -> Expression {
        enter(.andExpression)
        let startDepth = depth
        defer { depth = startDepth }
        var left = try parseNot(allowBraces)
        while acceptWord("and") {
            try deepen()
            skipNewlines()
            let right = try parseNot(allowBraces)
            left = Expression(kind: .binary(.and, left, right), span: left.span.to(right.span))
        }
        return left
    }

    // not_expression = "not" not_expression | comparison ;
    mutating func parseNot(_ allowBraces: Bool) throws -> Expression {
        enter(.notExpression)
        if current.isWord("not") {
            let start = advance().span
            skipNewlines()
            let operand = try nested { try $0.parseNot(allowBraces) }
            return Expression(kind: .unary(.not, operand), span: start.to(operand.span))
        }
        return try parseComparison(allowBraces)
    }

    // comparison = additive [ comparator additive | "between" additive "and" additive ] ;
    // comparator = "==" | "!=" | "<" | "<=" | ">" | ">=" | "contains" | "starts" "with" | "ends" "with" | "in" ;
    mutating func parseComparison(_ allowBraces: Bool) throws -> Expression {
        enter(.comparison)
        let left = try parseAdditive(allowBraces)
        if acceptWord("between") {
            skipNewlines()
            let low = try parseAdditive(allowBraces)
            try expectWord("and", "between the two ends of 'between'")
            skipNewlines()
            let high = try parseAdditive(allowBraces)
            return Expression(kind: .between(left, low: low, high: high), span: left.span.to(high.span))
        }
        let op: BinaryOperator?
        switch current.kind {
        case .symbol(.equal): op = .equal
        case .symbol(.notEqual): op = .notEqual
        case .symbol(.less): op = .less
        case .symbol(.lessEqual): op = .lessEqual
        case .symbol(.greater): op = .greater
        case .symbol(.greaterEqual): op = .greaterEqual
        case .symbol(.assign):
            throw error("'=' assigns; compare with '=='", hint: "write 'set name = value' to assign")
        case .identifier("contains"): op = .contains
        case .identifier("in"): op = .isIn
        case .identifier("starts") where peek().isWord("with"): op = .startsWith
        case .identifier("ends") where peek().isWord("with"): op = .endsWith
        default: op = nil
        }
        guard let op else { return left }
        _ = advance()
        if op == .startsWith || op == .endsWith { _ = advance() }
        skipNewlines()
        let right = try parseAdditive(allowBraces)
        return Expression(kind: .binary(op, left, right), span: left.span.to(right.span))
    }

    // additive = multiplicative { ( "+" | "-" ) multiplicative } ;
    mutating func parseAdditive(_ allowBraces: Bool) throws -> Expression {
        enter(.additive)
        let startDepth = depth
        defer { depth = startDepth }
        var left = try parseMultiplicative(allowBraces)
        while true {
            let op: BinaryOperator
            if current.isSymbol(.plus) { op = .add } else if current.isSymbol(.minus) { op = .subtract } else { return left }
            try deepen()
            _ = advance()
            skipNewlines()
            let right = try parseMultiplicative(allowBraces)
            left = Expression(kind: .binary(op, left, right), span: left.span.to(right.span))
        }
    }

    // multiplicative = unary { ( "*" | "/" | "%" ) unary } ;
    mutating func parseMultiplicative(_ allowBraces: Bool) throws -> Expression {
        enter(.multiplicative)
        let startDepth = depth
        defer { depth = startDepth }
        var left = try parseUnary(allowBraces)
        while true {
            let op: BinaryOperator
            switch current.kind {
            case .symbol(.star): op = .multiply
            case .symbol(.slash): op = .divide
            case .symbol(.percent): op = .remainder
            default: return left
            }
            try deepen()
            _ = advance()
            skipNewlines()
            let right = try parseUnary(allowBraces)
            left = Expression(kind: .binary(op, left, right), span: left.span.to(right.span))
        }
    }

    // unary = "-" unary | postfix ;
    mutating func parseUnary(_ allowBraces: Bool) throws -> Expression {
        enter(.unary)
        if current.isSymbol(.minus) {
            let start = advance().span
            // The lexer reads 9223372036854775808 as Int.min, which only a minus in front makes valid.
            if case .integer(.min) = current.kind, !current.spaceBefore {
                let literal = advance()
                return Expression(kind: .integer(.min), span: start.to(literal.span))
            }
            skipNewlines()
            let operand = try nested { try $0.parseUnary(allowBraces) }
            return Expression(kind: .unary(.negate, operand), span: start.to(operand.span))
        }
        return try parsePostfix(allowBraces)
    }

    // postfix = primary { "." ( identifier | text ) | "[" pipeline "]" } ;
    mutating func parsePostfix(_ allowBraces: Bool) throws -> Expression {
        enter(.postfix)
        let startDepth = depth
        defer { depth = startDepth }
        var base = try parsePrimary(allowBraces)
        while current.isSymbol(.dot) || (current.isSymbol(.leftBracket) && !current.spaceBefore) {
            try deepen()
            if advance().isSymbol(.leftBracket) {
                skipNewlines()
                let index = try parsePipeline()
                skipNewlines()
                let close = try expect(.rightBracket, "to close the index", hint: "an index is written xs[0] or r[\"name\"]")
                base = Expression(kind: .index(base, index), span: base.span.to(close.span))
                continue
            }
            skipNewlines()
            // `r."first name"`: a field whose name is no identifier.
            if case .text(let pieces) = current.kind {
                let token = advance()
                guard pieces.count <= 1, case .literal(let name) = pieces.first ?? .literal("") else {
                    throw error("a field name after '.' is plain text, without \\( )", at: token.span,
                                hint: "to choose the field while the script runs, write r[name]")
                }
                let member = named(name, at: token.span)
                base = Expression(kind: .member(base, member), span: base.span.to(member.span))
                continue
            }
            let member = try expectIdentifier("after '.'")
            base = Expression(kind: .member(base, member), span: base.span.to(member.span))
        }
        return base
    }

    // primary = quantity | number | text | "true" | "false" | "nil" | list | record | function_call
    //         | identifier | "(" pipeline ")" ;
    mutating func parsePrimary(_ allowBraces: Bool) throws -> Expression {
        enter(.primary)
        let token = current
        switch token.kind {
        case .integer(let value):
            _ = advance()
            if value == .min {
                throw error("the number 9223372036854775808 does not fit in a 64-bit integer", at: token.span,
                            hint: "the smallest Int is written -9223372036854775808")
            }
            return try parseQuantity(Expression(kind: .integer(value), span: token.span))
        case .decimal(let value):
            _ = advance()
            return try parseQuantity(Expression(kind: .decimal(value), span: token.span))
        case .text(let pieces):
            _ = advance()
            return try parseText(pieces, span: token.span)
        case .identifier("true"):
            _ = advance()
            return Expression(kind: .bool(true), span: token.span)
        case .identifier("false"):
            _ = advance()
            return Expression(kind: .bool(false), span: token.span)
        case .identifier("nil"):
            _ = advance()
            return Expression(kind: .null, span: token.span)
        case .identifier(let name):
            if peek().isSymbol(.leftParen), !peek().spaceBefore {
                if Self.functionNames.contains(name) { return try parseFunctionCall() }
                if let hint = Self.functionsOfOtherLanguages[name.lowercased()] {
                    throw error("there is no function '\(name)'", hint: hint)
                }
            }
            _ = advance()
            return Expression(kind: .name(named(name, at: token.span)), span: token.span)
        case .symbol(.leftParen):
            _ = advance()
            skipNewlines()
            let inner = try nested { try $0.parsePipeline() }
            skipNewlines()
            let close = try expectCloser(.rightParen, opener: token, "to close '('")
            // A unit after the parentheses counts them: `(attempt * 2) seconds`.
            return try parseQuantity(Expression(kind: inner.kind, span: token.span.to(close.span)))
        case .symbol(.leftBracket):
            return try parseList()
        case .symbol(.leftBrace) where allowBraces:
            return try parseRecord()
        case .invalid:
            _ = advance()
            throw SyntaxError()
        case .endOfInput, .newline:
            // Point at what was left dangling (`set y = 1 +`), not past the end of the file.
            let last = lastSignificantToken()
            let hint = token.kind == .newline
                ? "a statement continues on the next line only after an operator or a punctuation mark ('|', ',', '.', '->' …): write the value on this line"
                : nil
            throw error("expected a value after \(describe(last)), found \(describe(token))", at: last.span, hint: hint)
        default:
            throw error("expected a value, found \(describe(token))")
        }
    }

    // function_call = identifier "(" [ pipeline { "," pipeline } ] ")" ;
    mutating func parseFunctionCall() throws -> Expression {
        enter(.functionCall)
        let nameToken = advance()
        let name = named(nameToken.identifier!, at: nameToken.span)
        _ = advance()
        var arguments: [Expression] = []
        skipNewlines()
        while !current.isSymbol(.rightParen) {
            arguments.append(try nested { try $0.parsePipeline() })
            skipNewlines()
            if !accept(.comma) { break }
            skipNewlines()
        }
        let close = try expectCloser(.rightParen, opener: nameToken, "to close the arguments of '\(name.name)'")
        return Expression(kind: .function(name, arguments), span: name.span.to(close.span))
    }

    // quantity = ( number | "(" pipeline ")" ) unit ;   (a variable and a unit: the checker, `Checker.quantityWords`)
    // unit = "second" | "seconds" | "minute" | … | "KB" | "MB" | "GB" | … ;
    mutating func parseQuantity(_ number: Expression) throws -> Expression {
        guard let unit = current.identifier, Units.isUnit(unit) else { return number }
        enter(.quantity)
        let token = advance()
        return Expression(kind: .quantity(number, unit: named(unit, at: token.span)), span: number.span.to(token.span))
    }

    // text = '"' { character | escape | "\(" pipeline ")" } '"' ;
    mutating func parseText(_ pieces: [Token.TextPiece], span: Span) throws -> Expression {
        enter(.text)
        var segments: [Expression.TextSegment] = []
        for piece in pieces {
            switch piece {
            case .literal(let text):
                segments.append(.literal(text))
            case .interpolation(let inner):
                if inner.start == inner.end {
                    diagnostics.append(Diagnostic(.error, "empty interpolation '\\()'", at: Span(inner.start - 2, inner.end + 1), in: file))
                    segments.append(.interpolation(Expression(kind: .error, span: inner)))
                    continue
                }
                var parser = Parser(file: file, range: inner.start..<inner.end, limits: limits, depth: depth, coverage: coverage)
                parser.isInterpolation = true
                var expression: Expression
                do {
                    expression = try parser.nested { try $0.parsePipeline() }
                    if !parser.atEnd { throw parser.error("unexpected \(parser.describe(parser.current)) in interpolation") }
                } catch is TooDeep {
                    diagnostics += parser.diagnostics
                    throw TooDeep()
                } catch {
                    expression = Expression(kind: .error, span: inner)
                }
                diagnostics += parser.diagnostics
                nameSpans += parser.nameSpans
                if let covered = parser.coverage { coverage?.formUnion(covered) }
                segments.append(.interpolation(expression))
            }
        }
        return Expression(kind: .text(segments), span: span)
    }

    // list = "[" [ pipeline { "," pipeline } [ "," ] ] "]" ;
    mutating func parseList() throws -> Expression {
        enter(.list)
        let open = try expect(.leftBracket, "to start a list")
        var items: [Expression] = []
        skipNewlines()
        while !current.isSymbol(.rightBracket) {
            items.append(try nested { try $0.parsePipeline() })
            skipNewlines()
            if !accept(.comma) { break }
            skipNewlines()
        }
        let close = try expectCloser(.rightBracket, opener: open, "to close the list", hint: "separate items with ','")
        return Expression(kind: .list(items), span: open.span.to(close.span))
    }

    // record = "{" [ identifier ":" pipeline { "," identifier ":" pipeline } [ "," ] ] "}" ;
    mutating func parseRecord() throws -> Expression {
        enter(.record)
        let open = advance()
        var fields: [(key: Identifier, value: Expression)] = []
        skipNewlines()
        while !current.isSymbol(.rightBrace) {
            let key: Identifier
            if case .text(let pieces) = current.kind, pieces.count == 1, case .literal(let name) = pieces[0] {
                key = named(name, at: advance().span)
            } else {
                key = try expectIdentifier("for a record field")
            }
            _ = try expect(.colon, "after the field name '\(key.name)'")
            skipNewlines()
            fields.append((key, try nested { try $0.parsePipeline() }))
            skipNewlines()
            if !accept(.comma) { break }
            skipNewlines()
        }
        let close = try expectCloser(.rightBrace, opener: open, "to close the record", hint: "separate fields with ','")
        return Expression(kind: .record(fields), span: open.span.to(close.span))
    }
}

extension Parser {
    /// A parser over an interpolation's span, sharing the outer parser's depth so nesting stays bounded.
    init(file: SourceFile, range: Range<Int>, limits: Limits, depth: Int, coverage: Set<Production>?) {
        var lexer = Lexer(file: file, range: range)
        self.tokens = lexer.tokenize()
        self.diagnostics = lexer.diagnostics
        self.file = file
        self.limits = limits
        self.depth = depth
        self.coverage = coverage
    }
}
