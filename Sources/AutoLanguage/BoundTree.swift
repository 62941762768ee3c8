import AutoIntents
import AutoRuntime

/// The checker's output: the syntax tree with every name resolved and every expression typed.
/// The compiler turns it into an ActionGraph.

struct BoundExpression {
    indirect enum Kind {
        case constant(Value)
        case local(slot: Int, name: String)
        case it
        case list([BoundExpression])
        case record(keys: [String], values: [BoundExpression])
        case interpolation([BoundInterpolationPart])
        case property(BoundExpression, PropertyAccess)
        case index(BoundExpression, BoundExpression)
        case negate(BoundExpression)
        case not(BoundExpression)
        case arithmetic(ArithmeticOperator, BoundExpression, BoundExpression)
        case compare(ComparisonOperator, BoundExpression, BoundExpression)
        case between(BoundExpression, BoundExpression, BoundExpression)
        case and(BoundExpression, BoundExpression)
        case or(BoundExpression, BoundExpression)
        case function(BuiltinFunction, [BoundExpression])
        /// An intent call; the compiler hoists it into a node of its own.
        case action(BoundAction)
        /// `find …`, planned; hoisted like an action.
        case find(BoundFind)
        /// `find files in …`: a walk of a folder, evaluated in the engine (no host query, no hoisting).
        case findFiles(BoundFileSearch)
        case filter(BoundExpression, BoundCondition)
        case sort(BoundExpression, [BoundSortKey])
        case limit(BoundExpression, BoundExpression)
        /// `xs | each expression`: the expression evaluated with `it` as each element.
        case each(BoundExpression, BoundExpression)
        /// `a otherwise b`: b's value when a fails.
        case otherwise(BoundExpression, BoundExpression)
        /// `group by`, `count by` and `distinct`: the elements grouped by the key at a path.
        case group(BoundExpression, [PropertyAccess], Grouping)
        /// Stands in for an expression that had an error, so checking goes on.
        case error
    }
    let kind: Kind
    let type: ValueType
    let span: Span

    static func error(_ span: Span) -> BoundExpression { BoundExpression(kind: .error, type: .any, span: span) }
}

enum BoundInterpolationPart {
    case literal(String)
    case value(BoundExpression)
}

struct BoundAction {
    let intent: IntentDescriptor
    /// One per parameter of the intent.
    let arguments: [BoundExpression?]
    /// Whether the input came through a pipe (the graph labels that edge "pipe").
    let piped: Bool
    let span: Span
}

struct BoundStatement {
    enum Kind {
        case expression(BoundExpression, resultSlot: Int?)
        case set(slot: Int, BoundExpression)
        case ifElse([(condition: BoundExpression, body: [BoundStatement])], otherwise: [BoundStatement]?)
        case forEach(slot: Int, BoundExpression, [BoundStatement])
        case repeatTimes(BoundExpression, [BoundStatement])
        case whileLoop(BoundExpression, [BoundStatement])
        /// `try { … } otherwise { … }`; the slot of `error`, the message, in the second block.
        case attempt([BoundStatement], errorSlot: Int, otherwise: [BoundStatement])
        case breakLoop
        case continueLoop
        case stop
        case returnValue(BoundExpression?)
    }
    let kind: Kind
    let span: Span
}

/// A script or a shortcut body, checked: its statements and the names of its slots.
struct BoundBody {
    let name: String
    let file: SourceFile
    let statements: [BoundStatement]
    let slotNames: [String]
}

/// A where-clause: property paths of the candidate compared with values of the script.
indirect enum BoundCondition {
    case compare(path: [PropertyAccess], names: [String], ComparisonOperator, BoundExpression)
    case and(BoundCondition, BoundCondition)
    case or(BoundCondition, BoundCondition)
    case not(BoundCondition)
}

struct BoundSortKey {
    let path: [PropertyAccess]
    let names: [String]
    let descending: Bool
    /// Texts order by their lowercase forms. The host's query is never asked for such a key: it declares
    /// only plain sorts.
    let ignoringCase: Bool

    /// "title desc ignoring case", as the plan summary shows the key.
    var description: String {
        names.joined(separator: ".") + (descending ? " desc" : "") + (ignoringCase ? " ignoring case" : "")
    }
}

/// `find files in FOLDER recursive hidden where … sort by … limit n`.
struct BoundFileSearch {
    /// A file or a text; nil for the current folder.
    let folder: BoundExpression?
    let recursive: Bool
    let hidden: Bool
    let condition: BoundCondition?
    let sort: [BoundSortKey]
    let limit: BoundExpression?
}

/// `find`, with the decision of what the host's query does and what the engine does.
struct BoundFind {
    enum Source {
        case all
        case suggested
        case matching(BoundExpression)
        case pushed([(property: String, op: ComparisonOperator, value: BoundExpression)], ComparatorMode, [QuerySort], pushesLimit: Bool)
    }
    let query: QueryDescriptor
    let source: Source
    let condition: BoundCondition?
    let sort: [BoundSortKey]
    let limit: BoundExpression?
    /// `| count by p` or `| group by p` right after the find, on a property of its entity: grouped on what the host
    /// returns, before its entities are values (`FindCall.grouping`).
    var grouping: (property: Int, Grouping)?
    var summary: String
    let span: Span
}
