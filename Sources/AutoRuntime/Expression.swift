import AutoIntents

/// A resolved, pure expression: names are slots, properties are indices, operators are chosen. Actions
/// never appear inside one; the compiler hoists them into graph nodes that run before it.
///
/// It is compiled as it is built: each kind of node is a closure holding its operands' closures
/// (`Expr+Compiled`), so evaluating one is a call per node with everything resolved, rather than a walk of an
/// enum tree that switches on each node and counts a reference to each child it reads.
package struct Expr: Sendable {
    typealias Evaluator = @Sendable (Run, Frame) throws(EvaluationError) -> Value

    /// Constants, variables and `it`, the leaves read most often, are read in place: no closure is made for them
    /// (a closure that holds a value is an allocation, and a graph has as many leaves as operators), and the
    /// operator above one may read it without a call.
    enum Kind: Sendable {
        case constant(Value)
        case local(Int)
        case it
        case compiled(Evaluator)
        /// `x op n`, a variable and a whole number: compiled, and kept recognisable so that `set y = x op n` becomes
        /// one instruction that computes on Ints in place (`Instruction.intUpdate`).
        case slotArithmetic(ArithmeticOperator, slot: Int, constant: Int, Evaluator)
    }

    let kind: Kind

    init(_ kind: Kind) {
        self.kind = kind
    }

    init(_ evaluate: @escaping Evaluator) {
        kind = .compiled(evaluate)
    }

    /// The expression's value in a frame of a run.
    @inline(__always)
    func evaluate(_ run: Run, _ frame: Frame) throws(EvaluationError) -> Value {
        switch kind {
        case .constant(let value): return value
        case .local(let slot): return frame.slots[slot]
        case .it: return frame.it
        case .compiled(let evaluate), .slotArithmetic(_, _, _, let evaluate): return try evaluate(run, frame)
        }
    }

    /// The expression as one closure, for a closure built once that calls it on every run: holding the closure
    /// itself, it borrows it, where calling `evaluate` on a held `Expr` copies the closure out of the enum (a
    /// retain and a release per call). A leaf gets a closure of its own here.
    var evaluator: Evaluator {
        switch kind {
        case .constant(let value): return { _, _ throws(EvaluationError) in value }
        case .local(let slot): return { _, frame throws(EvaluationError) in frame.slots[slot] }
        case .it: return { _, frame throws(EvaluationError) in frame.it }
        case .compiled(let evaluate), .slotArithmetic(_, _, _, let evaluate): return evaluate
        }
    }

    /// The closure of a compiled expression, nil for a leaf: for a closure that reads leaves in place (`evaluate`) and
    /// holds a compiled child's closure itself.
    var compiled: Evaluator? {
        switch kind {
        case .compiled(let evaluate), .slotArithmetic(_, _, _, let evaluate): return evaluate
        case .constant, .local, .it: return nil
        }
    }

    /// The value, when the expression is a constant (the checker resolved it before the run).
    package var constantValue: Value? {
        if case .constant(let value) = kind { return value }
        return nil
    }
}

/// What a grouping stage makes of each group of elements with equal keys.
package enum Grouping: Sendable {
    /// `group by`: a `{key, items}` record.
    case items
    /// `count by`: a `{key, count}` record.
    case count
    /// `distinct`: the group's first element.
    case distinct

    package var stageName: String {
        switch self {
        case .items: return "group by"
        case .count: return "count by"
        case .distinct: return "distinct"
        }
    }
}

/// A where-clause: comparisons of a candidate's property paths with values.
package indirect enum ConditionPlan: Sendable {
    /// `path <op> value`; for `between` the value is a list of the two ends.
    case compare(path: [PropertyAccess], ComparisonOperator, Expr)
    case and(ConditionPlan, ConditionPlan)
    case or(ConditionPlan, ConditionPlan)
    case not(ConditionPlan)
}

/// `find files in FOLDER recursive hidden where … sort by … limit n`, ready to run.
package struct FileSearchPlan: Sendable {
    /// Evaluates to a file or a text path; nil for the current folder.
    package let folder: Expr?
    package let recursive: Bool
    package let hidden: Bool
    package let condition: ConditionPlan?
    package let sort: [SortPlan]
    package let limit: Expr?
    package init(folder: Expr?, recursive: Bool, hidden: Bool, condition: ConditionPlan?, sort: [SortPlan], limit: Expr?) {
        self.folder = folder
        self.recursive = recursive
        self.hidden = hidden
        self.condition = condition
        self.sort = sort
        self.limit = limit
    }
}

/// One key of a sort: a property path of the element.
package struct SortPlan: Sendable {
    package let path: [PropertyAccess]
    package let descending: Bool
    /// `ignoring case`: texts order by their lowercase forms (`ListQueries.foldingCase`).
    package let ignoringCase: Bool
    package init(path: [PropertyAccess], descending: Bool, ignoringCase: Bool = false) {
        self.path = path
        self.descending = descending
        self.ignoringCase = ignoringCase
    }
}

package enum InterpolationPart: Sendable {
    case literal(String)
    case value(Expr)
}

package enum ArithmeticOperator: String, Sendable {
    case add = "+", subtract = "-", multiply = "*", divide = "/", remainder = "%"
}


/// How a `.name` is read, decided by the checker from the type on its left.
package indirect enum PropertyAccess: Sendable, CustomStringConvertible {
    /// An entity property by index in its type's property list.
    case entity(AnyEntityType, Int)
    case datePart(DatePart)
    case file(FileProperty)
    /// By name at run time, for values whose type the checker could not know (records, `Any`).
    case dynamic(String)
    /// Applied to every element of a list: `books.title`.
    case each(PropertyAccess)

    package var description: String {
        switch self {
        case .entity(let type, let index): return type.properties[index].name
        case .datePart(let part): return part.rawValue
        case .file(let property): return property.rawValue
        case .dynamic(let name): return name
        case .each(let inner): return inner.description
        }
    }
}

package enum DatePart: String, Sendable, CaseIterable {
    case year, month, day, hour, minute, second
    /// `Wednesday`, `May`.
    case weekday, monthName
    /// Midnight at the start of the date's day, week (weeks start on Monday, as ISO 8601 has them), month or year.
    case startOfDay, startOfWeek, startOfMonth, startOfYear

    package var type: ValueType {
        switch self {
        case .year, .month, .day, .hour, .minute, .second: return .int
        case .weekday, .monthName: return .text
        case .startOfDay, .startOfWeek, .startOfMonth, .startOfYear: return .date
        }
    }
}

package enum FileProperty: String, Sendable, CaseIterable {
    case name, path, `extension`, size, modified, created, kind, parent, exists

    /// Whether reading it asks the file system (and so the run's read grant), not only the path.
    package var readsFileSystem: Bool { ![.name, .path, .extension, .parent].contains(self) }

    /// What reading it gives: `kind` is "file", "folder", "link" or "other"; a file that isn't there has nil for the
    /// properties read from the file system.
    package var type: ValueType {
        switch self {
        case .size: return .size
        case .modified, .created: return .date
        case .exists: return .bool
        case .parent: return .file
        case .name, .path, .extension, .kind: return .text
        }
    }
}

/// The built-in functions of LANGUAGE.md §5, plus `now` and `today`.
package enum BuiltinFunction: String, Sendable, CaseIterable {
    case count, first, last, sum, average, min, max, join, text, number, date, round, abs
    /// The Int at or below a number, and at or above it: `floor(7 / 2)` is whole division.
    case floor, ceiling
    /// `format(d, "EEEE, d MMMM")`, `format(x, "#,##0.00")`: a date or a number written with a pattern.
    case format
    /// On texts (`TextFunctions`).
    case split, words, lines, characters, trim, upper, lower, capitalize, replace, padLeft, padRight
    /// `json(x)`: a value as JSON text; `parseJson(t)`: JSON text as a value (`JSONReader`); `valueAt(x, "items.0.name")`:
    /// the value at a path of keys and indexes, or nil.
    case json, parseJson, valueAt
    /// Regular expressions on texts (`RegexFunctions`): `matches(t, "^\\d+$")`, `match`, `allMatches`, `captures`,
    /// `replaceMatches(t, "(\\w+)@", "$1 at ")`.
    case matches, match, allMatches, captures, replaceMatches
    /// Dates (`DateFunctions`): `parseDate(t, "d MMM yyyy")`, `difference(a, b, "days")`.
    case parseDate, difference
    case now, today, yesterday, tomorrow

    /// The functions whose first argument must be a text (`first` and `last` take a list too).
    package static let onTexts: Set<BuiltinFunction> = [.split, .words, .lines, .characters, .trim, .upper, .lower, .capitalize,
                                                       .replace, .padLeft, .padRight, .parseJson,
                                                       .matches, .match, .allMatches, .captures, .replaceMatches, .parseDate]

    /// The functions whose second argument is a regular expression.
    package static let withPattern: Set<BuiltinFunction> = [.matches, .match, .allMatches, .captures, .replaceMatches]

    /// The Dates scripts read as names, without parentheses: `now`, `today`, `yesterday`, `tomorrow`. The one list the
    /// checker resolves, completion offers and the parser keeps out of its function names.
    package static let readAsNames: [BuiltinFunction] = [.now, .today, .yesterday, .tomorrow]

    /// Whether scripts call it with parentheses, `count(x)`, rather than read it as a name (`readAsNames`).
    package var isCalled: Bool { !Self.readAsNames.contains(self) }
}
