import Foundation

/// The syntax tree the parser builds: what was written, with spans, before any name is resolved.
/// Parse errors leave `.error` nodes behind so the checker can go on and report more.

package struct Identifier: Sendable, Hashable {
    package let name: String
    package let span: Span
}

package struct SyntaxTree: Sendable {
    package let file: SourceFile
    package let statements: [Statement]
}

package struct Block: Sendable {
    package let statements: [Statement]
    package let span: Span
}

package struct Statement: Sendable {
    package indirect enum Kind: Sendable {
        /// An expression, an action or a pipeline; its value becomes `it`.
        case expression(Expression)
        case set(Identifier, Expression)
        case ifElse(branches: [(condition: Expression, body: Block)], otherwise: Block?)
        case forEach(Identifier, Expression, Block)
        case repeatTimes(Expression, Block)
        case whileLoop(Expression, Block)
        /// `try { … } otherwise { … }`: the second block runs when the first fails, with `error` its message.
        case attempt(Block, otherwise: Block)
        /// `break` and `continue`: leave the innermost loop, or go on with its next pass.
        case breakLoop
        case continueLoop
        case stop
        case returnValue(Expression?)
        case shortcut(ShortcutDeclaration)
        case automation(AutomationDeclaration)
        case error
    }
    package let kind: Kind
    package let span: Span
    /// `-> name` after the statement.
    package let resultName: Identifier?
}

package struct ShortcutDeclaration: Sendable {
    package struct ParameterDeclaration: Sendable {
        package let name: Identifier
        package let type: TypeAnnotation
        package let defaultValue: Expression?
    }
    package let name: String
    package let nameSpan: Span
    package let parameters: [ParameterDeclaration]
    package let phrases: [Expression]
    package let body: Block
}

/// `automation "name" <trigger> <options> { … }`, as written; the checker resolves the trigger and options.
package struct AutomationDeclaration: Sendable {
    package let name: String
    package let nameSpan: Span
    package let trigger: TriggerSyntax
    package let options: [AutomationOptionSyntax]
    package let body: Block
}

/// When an automation fires, as written.
package enum TriggerSyntax: Sendable {
    /// `every 15 minutes`, `every hour`: a duration of elapsed time.
    case interval(Expression)
    /// `every day at 07:30` (no days: every day), `every monday, friday at 09:00`, `every weekday at 08:00`.
    case weekly(days: [Identifier], time: TimeOfDaySyntax)
    /// `at "2026-12-24 18:00"`: once.
    case once(text: String, span: Span)
    /// `cron "*/10 9-17 * * mon-fri" in "Europe/Paris"`; `span` is the expression's text, quotes excluded.
    case cron(expression: String, span: Span, zone: (name: String, span: Span)?)
    /// `when file created in "~/Downloads" matching "*.pdf" recursive`.
    case file(FileTriggerSyntax)
}

/// `when file <event> in <path> [matching <glob>] [recursive]`, as written; spans are the texts' insides.
package struct FileTriggerSyntax: Sendable {
    package let event: Identifier
    package let path: (text: String, span: Span)
    package let glob: (text: String, span: Span)?
    package let recursive: Bool
}

/// `07:30`: a wall-clock time, checked by the checker.
package struct TimeOfDaySyntax: Sendable {
    package let hour: Int
    package let minute: Int
    package let span: Span
}

/// What an automation does when it fires while a run of it is going, and how it runs.
package enum AutomationOptionSyntax: Sendable {
    /// `mode single`, `mode queued 5`, `mode parallel 3`, `mode restart`.
    case mode(Identifier, bound: (value: Int, span: Span)?)
    /// `catch up`: after downtime, the latest missed fire runs once.
    case catchUp(Span)
    /// `confirm automatically`: a destructive intent runs without asking.
    case confirmAutomatically(Span)
    /// `timeout 5 minutes`.
    case timeout(Expression)
    /// `debounce 2 seconds` (file triggers): one run for a burst of events, once they have been quiet that long.
    case debounce(Expression)
    /// `poll every 10 seconds` (file triggers): scan the folder on a clock, where the file system has no inotify.
    case poll(Expression)
}

/// `Int`, `Book`, `[Text]`, `Text?`.
package indirect enum TypeAnnotation: Sendable {
    case named(Identifier)
    case list(TypeAnnotation, Span)
    case optional(TypeAnnotation, Span)

    package var span: Span {
        switch self {
        case .named(let name): return name.span
        case .list(_, let span), .optional(_, let span): return span
        }
    }
}

package struct Expression: Sendable {
    package indirect enum Kind: Sendable {
        case integer(Int)
        case decimal(Decimal)
        case text([TextSegment])
        case bool(Bool)
        case null
        /// `90 seconds`, `10 KB`.
        case quantity(Expression, unit: Identifier)
        case list([Expression])
        case record([(key: Identifier, value: Expression)])
        /// A lone name: a variable, `it`, `now`, `today`, `args`.
        case name(Identifier)
        case member(Expression, Identifier)
        /// `xs[0]`, `t[-1]`, `r[name]`.
        case index(Expression, Expression)
        /// A built-in function: `count(x)`.
        case function(Identifier, [Expression])
        case unary(UnaryOperator, Expression)
        case binary(BinaryOperator, Expression, Expression)
        /// `number(t) otherwise 0`: the right side's value when the left side fails.
        case otherwise(Expression, Expression)
        /// `x between low and high`: both ends included.
        case between(Expression, low: Expression, high: Expression)
        /// `open book b rating: 5`: the words that name the intent (and maybe an identifier argument after
        /// them; the checker splits them against the registry), then the arguments.
        case action(words: [Identifier], arguments: [ActionArgument])
        /// `a | b | c`: the first stage is any expression, the others are actions or list stages.
        case pipeline([Expression])
        case find(FindExpression)
        /// `filter where …`, `sort by …`, `limit n` as pipeline stages.
        case listStage(ListStage)
        case error
    }

    package enum TextSegment: Sendable {
        case literal(String)
        case interpolation(Expression)
    }

    package let kind: Kind
    package let span: Span
}

package struct ActionArgument: Sendable {
    package let label: Identifier?
    package let value: Expression
}

package enum UnaryOperator: String, Sendable {
    case negate = "-"
    case not = "not"
}

package enum BinaryOperator: String, Sendable, CaseIterable {
    case or, and
    case equal = "==", notEqual = "!=", less = "<", lessEqual = "<=", greater = ">", greaterEqual = ">="
    case contains, startsWith = "starts with", endsWith = "ends with", isIn = "in"
    case add = "+", subtract = "-", multiply = "*", divide = "/", remainder = "%"
}

/// `find books matching "x" where … sort by … limit n`; `find files in "~/Downloads" recursive where …`.
package struct FindExpression: Sendable {
    package let typeName: Identifier
    /// `in FOLDER recursive hidden`: where a file search walks (files only).
    package let walk: FolderWalk?
    package let matching: Expression?
    package let condition: Expression?
    package let sort: [SortKey]
    package let limit: Expression?
}

/// `in "~/Downloads" recursive hidden` after `find files`: the folder (the current one when no `in` is written),
/// whether its folders are walked too, and whether names starting with a dot are kept.
package struct FolderWalk: Sendable {
    package let folder: Expression?
    package let recursive: Bool
    package let hidden: Bool
    package let span: Span
}

package struct SortKey: Sendable {
    package let path: [Identifier]
    package let descending: Bool
    /// Where `ignoring case` is written, when it is: the key's texts order by their lowercase forms.
    package let ignoringCase: Span?
}

package enum ListStage: Sendable {
    case filter(Expression)
    case sort([SortKey])
    case limit(Expression)
    /// `each it.pages * 2`: the expression's value for each element, which is `it` inside it.
    case each(Expression)
    /// `group by genre`: `{key, items}` records, one per distinct key, in the order keys first appear.
    case group(by: [Identifier])
    /// `count by author`: `{key, count}` records, in the order keys first appear.
    case count(by: [Identifier])
    /// `distinct`: the first of each run of equal elements, wherever they are in the list.
    case distinct
}
