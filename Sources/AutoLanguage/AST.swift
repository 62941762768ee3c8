import Foundation

/// The syntax tree the parser builds: what was written, with spans, before any name is resolved.
/// Parse errors leave `.error` nodes behind so the checker can go on and report more.

public struct Identifier: Sendable, Hashable {
    public let name: String
    public let span: Span
}

public struct SyntaxTree: Sendable {
    public let file: SourceFile
    public let statements: [Statement]
}

public struct Block: Sendable {
    public let statements: [Statement]
    public let span: Span
}

public struct Statement: Sendable {
    public indirect enum Kind: Sendable {
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
    public let kind: Kind
    public let span: Span
    /// `-> name` after the statement.
    public let resultName: Identifier?
}

public struct ShortcutDeclaration: Sendable {
    public struct ParameterDeclaration: Sendable {
        public let name: Identifier
        public let type: TypeAnnotation
        public let defaultValue: Expression?
    }
    public let name: String
    public let nameSpan: Span
    public let parameters: [ParameterDeclaration]
    public let phrases: [Expression]
    public let body: Block
}

/// `automation "name" <trigger> <options> { … }`, as written; the checker resolves the trigger and options.
public struct AutomationDeclaration: Sendable {
    public let name: String
    public let nameSpan: Span
    public let trigger: TriggerSyntax
    public let options: [AutomationOptionSyntax]
    public let body: Block
}

/// When an automation fires, as written.
public enum TriggerSyntax: Sendable {
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
public struct FileTriggerSyntax: Sendable {
    public let event: Identifier
    public let path: (text: String, span: Span)
    public let glob: (text: String, span: Span)?
    public let recursive: Bool
}

/// `07:30`: a wall-clock time, checked by the checker.
public struct TimeOfDaySyntax: Sendable {
    public let hour: Int
    public let minute: Int
    public let span: Span
}

/// What an automation does when it fires while a run of it is going, and how it runs.
public enum AutomationOptionSyntax: Sendable {
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
public indirect enum TypeAnnotation: Sendable {
    case named(Identifier)
    case list(TypeAnnotation, Span)
    case optional(TypeAnnotation, Span)

    public var span: Span {
        switch self {
        case .named(let name): return name.span
        case .list(_, let span), .optional(_, let span): return span
        }
    }
}

public struct Expression: Sendable {
    public indirect enum Kind: Sendable {
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

    public enum TextSegment: Sendable {
        case literal(String)
        case interpolation(Expression)
    }

    public let kind: Kind
    public let span: Span
}

public struct ActionArgument: Sendable {
    public let label: Identifier?
    public let value: Expression
}

public enum UnaryOperator: String, Sendable {
    case negate = "-"
    case not = "not"
}

public enum BinaryOperator: String, Sendable, CaseIterable {
    case or, and
    case equal = "==", notEqual = "!=", less = "<", lessEqual = "<=", greater = ">", greaterEqual = ">="
    case contains, startsWith = "starts with", endsWith = "ends with", isIn = "in"
    case add = "+", subtract = "-", multiply = "*", divide = "/", remainder = "%"
}

/// `find books matching "x" where … sort by … limit n`; `find files in "~/Downloads" recursive where …`.
public struct FindExpression: Sendable {
    public let typeName: Identifier
    /// `in FOLDER recursive hidden`: where a file search walks (files only).
    public let walk: FolderWalk?
    public let matching: Expression?
    public let condition: Expression?
    public let sort: [SortKey]
    public let limit: Expression?
}

/// `in "~/Downloads" recursive hidden` after `find files`: the folder (the current one when no `in` is written),
/// whether its folders are walked too, and whether names starting with a dot are kept.
public struct FolderWalk: Sendable {
    public let folder: Expression?
    public let recursive: Bool
    public let hidden: Bool
    public let span: Span
}

public struct SortKey: Sendable {
    public let path: [Identifier]
    public let descending: Bool
    /// Where `ignoring case` is written, when it is: the key's texts order by their lowercase forms.
    public let ignoringCase: Span?
}

public enum ListStage: Sendable {
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
