/// How an intent reads as a sentence, "Open {book} on {shelf}", with its parameters in braces: what `intents
/// describe`, `--what-if`, graphs and completion show. A summary may follow the values a call gives, as Shortcuts'
/// parameter relationships do: one sentence when a parameter has a value or equals one, another otherwise.
///
/// ```swift
/// static let parameterSummary: ParameterSummary? = "Open {book} on {shelf}"
///
/// static let parameterSummary: ParameterSummary? = .when("shelf", .equalTo(Shelf.read),
///     ParameterSummary("Add {title} by {author} to {shelf}, rated {rating}", secondary: ["pages"]),
///     otherwise: ParameterSummary("Add {title} by {author} to {shelf}", secondary: ["pages"]))
/// ```
///
/// Each sentence names some parameters; `secondary` ones are shown below it, `hidden` ones not at all (a script may
/// still give them). A parameter that some sentence names, but not the one that applies to a call's values, is not
/// shown for that call: in the example, `rating` is offered only once `shelf` is `read`. A parameter that no sentence
/// names is shown with every one, and one a condition tests with the sentences its value chose. Registration checks every branch: each name is one of the intent's parameters,
/// each condition's value fits its parameter, and a hidden parameter is optional or has a default.
public struct ParameterSummary: Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// A summary: one sentence, or a choice among summaries by a parameter's value.
    package indirect enum Shape: Sendable {
        case sentence(SummarySentence)
        case when(parameter: String, condition: ParameterCondition, then: ParameterSummary, otherwise: ParameterSummary)
        case choice(parameter: String, cases: [Case], otherwise: ParameterSummary)
    }
    package let shape: Shape

    /// The summary a sentence spells, `{name}` for each parameter.
    public init(stringLiteral template: String) {
        self.init(template)
    }

    /// A sentence naming parameters in braces; `secondary` parameters are shown below it and `hidden` ones not at all.
    public init(_ sentence: String, secondary: [String] = [], hidden: [String] = []) {
        shape = .sentence(SummarySentence(template: sentence, secondary: secondary, hidden: hidden))
    }

    package init(parts: [SummarySentence.Part]) {
        shape = .sentence(SummarySentence(parts: parts, secondary: [], hidden: []))
    }

    init(shape: Shape) {
        self.shape = shape
    }

    /// `summary` when `parameter`'s value meets `condition`, else `otherwise`.
    public static func when(_ parameter: String, _ condition: ParameterCondition, _ summary: ParameterSummary,
                            otherwise: ParameterSummary) -> ParameterSummary {
        ParameterSummary(shape: .when(parameter: parameter, condition: condition, then: summary, otherwise: otherwise))
    }

    /// The summary of the first case equal to `parameter`'s value, else `default`.
    ///
    /// ```swift
    /// .switch("shelf", [.case(Shelf.read, "Log {book} as read"), .case(Shelf.wantToRead, "Save {book} for later")],
    ///         default: "Move {book} to {shelf}")
    /// ```
    public static func `switch`(_ parameter: String, _ cases: [Case], default otherwise: ParameterSummary) -> ParameterSummary {
        ParameterSummary(shape: .choice(parameter: parameter, cases: cases, otherwise: otherwise))
    }

    /// One case of `ParameterSummary.switch`: a value, and the summary when the parameter equals it.
    public struct Case: Sendable {
        package let value: Value
        package let valueType: ValueType
        package let summary: ParameterSummary

        /// The summary when the parameter equals `value`.
        public static func `case`<V: IntentValue>(_ value: V, _ summary: ParameterSummary) -> Case {
            Case(value: value.autoValue, valueType: V.valueType, summary: summary)
        }
    }

    /// One sentence, the conditions under which it applies in words (`["shelf is read"]`), and the parameters they
    /// test, lower-cased: shown with the sentence, since their values chose it.
    package struct Leaf: Sendable {
        package let conditions: [String]
        package let tested: [String]
        package let sentence: SummarySentence
    }

    /// Every sentence, each with the conditions that lead to it, in the order declared.
    package var leaves: [Leaf] {
        func leaf(_ condition: String, _ parameter: String, _ leaf: Leaf) -> Leaf {
            Leaf(conditions: [condition] + leaf.conditions, tested: [parameter.lowercased()] + leaf.tested, sentence: leaf.sentence)
        }
        switch shape {
        case .sentence(let sentence):
            return [Leaf(conditions: [], tested: [], sentence: sentence)]
        case .when(let parameter, let condition, let then, let otherwise):
            return then.leaves.map { leaf(condition.phrase(parameter), parameter, $0) }
                + otherwise.leaves.map { leaf(condition.negatedPhrase(parameter), parameter, $0) }
        case .choice(let parameter, let cases, let otherwise):
            let others = cases.map { ParameterCondition.written($0.value) }
            return cases.flatMap { option in
                option.summary.leaves.map { leaf("\(parameter) is \(ParameterCondition.written(option.value))", parameter, $0) }
            } + otherwise.leaves.map { leaf("\(parameter) is none of \(others.joined(separator: ", "))", parameter, $0) }
        }
    }

    /// Whether the sentence depends on values.
    package var varies: Bool {
        if case .sentence = shape { return false }
        return true
    }

    /// Every parameter some sentence names, shows below it or hides.
    package var mentioned: [String] {
        var names: [String] = []
        for leaf in leaves {
            for name in leaf.sentence.named + leaf.sentence.secondary + leaf.sentence.hidden where !names.contains(name.lowercased()) {
                names.append(name.lowercased())
            }
        }
        return names
    }

    /// The sentence as declared, `Open {book} on {shelf}`; one that varies says each case: `when shelf is read: …;
    /// otherwise: …`.
    public var description: String {
        switch shape {
        case .sentence(let sentence): return sentence.description
        default: return leaves.map { "when \($0.conditions.joined(separator: " and ")): \($0.sentence)" }.joined(separator: "; ")
        }
    }
}

/// One sentence of a summary: words and parameters in braces, and the parameters shown below it or not at all.
package struct SummarySentence: Sendable, CustomStringConvertible {
    /// A piece of the sentence: words as written, or a parameter's name.
    package enum Part: Sendable, Equatable {
        case text(String)
        case parameter(String)
    }
    package let parts: [Part]
    package let secondary: [String]
    package let hidden: [String]

    package init(parts: [Part], secondary: [String], hidden: [String]) {
        self.parts = parts
        self.secondary = secondary
        self.hidden = hidden
    }

    init(template: String, secondary: [String], hidden: [String]) {
        var parts: [Part] = []
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            if open > rest.startIndex { parts.append(.text(String(rest[..<open]))) }
            parts.append(.parameter(String(rest[rest.index(after: open)..<close])))
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { parts.append(.text(String(rest))) }
        self.init(parts: parts, secondary: secondary, hidden: hidden)
    }

    /// The parameters the sentence names, in its order.
    package var named: [String] {
        parts.compactMap { part in
            if case .parameter(let name) = part { return name }
            return nil
        }
    }

    /// The parameters it shows: those it names, then the secondary ones.
    package var shown: [String] { named + secondary }

    /// The sentence with each parameter replaced by `fill(name)`, or "…" where that gives nil: the compiler fills
    /// in the script's text for graphs, the runtime the values an intent runs with.
    /// Appended part by part: `joined()` runs the standard library's generic code, whose first use scans every
    /// conformance record of the binary, and the compiler fills a summary on every start.
    package func filled(_ fill: (String) -> String?) -> String {
        var sentence = ""
        for part in parts {
            switch part {
            case .text(let text): sentence += text
            case .parameter(let name): sentence += fill(name) ?? "…"
            }
        }
        return sentence
    }

    /// The sentence as declared: `Open {book} on {shelf}`.
    package var description: String {
        filled { "{\($0)}" }
    }
}

/// What a parameter's value is tested for, to choose a summary (`ParameterSummary.when`).
public struct ParameterCondition: Sendable {
    package enum Test: Sendable {
        /// Given, or a default that is not nil.
        case hasValue
        case hasNoValue
        case compare(ComparisonOperator, Value)
    }
    package let test: Test
    /// The type of the value compared with; nil for `hasAnyValue` and `hasNoValue`.
    package let valueType: ValueType?

    /// The parameter has a value: given, or a default that is not nil.
    public static let hasAnyValue = ParameterCondition(test: .hasValue, valueType: nil)
    /// The parameter has no value.
    public static let hasNoValue = ParameterCondition(test: .hasNoValue, valueType: nil)

    /// The value equals `value`.
    public static func equalTo<V: IntentValue>(_ value: V) -> ParameterCondition { compare(.equal, value) }
    /// The value is not `value`.
    public static func notEqualTo<V: IntentValue>(_ value: V) -> ParameterCondition { compare(.notEqual, value) }
    /// The value is one of `values`.
    public static func oneOf<V: IntentValue>(_ values: [V]) -> ParameterCondition {
        ParameterCondition(test: .compare(.oneOf, .list(values.map(\.autoValue))), valueType: V.valueType)
    }
    /// The value is less than `value`.
    public static func lessThan<V: IntentValue>(_ value: V) -> ParameterCondition { compare(.less, value) }
    /// The value is at most `value`.
    public static func lessThanOrEqualTo<V: IntentValue>(_ value: V) -> ParameterCondition { compare(.lessOrEqual, value) }
    /// The value is more than `value`.
    public static func greaterThan<V: IntentValue>(_ value: V) -> ParameterCondition { compare(.greater, value) }
    /// The value is at least `value`.
    public static func greaterThanOrEqualTo<V: IntentValue>(_ value: V) -> ParameterCondition { compare(.greaterOrEqual, value) }

    static func compare<V: IntentValue>(_ op: ComparisonOperator, _ value: V) -> ParameterCondition {
        ParameterCondition(test: .compare(op, value.autoValue), valueType: V.valueType)
    }

    /// The condition in words, as `intents describe` says it: `shelf is read`, `rating has a value`, `pages > 300`.
    package func phrase(_ parameter: String) -> String {
        switch test {
        case .hasValue: return "\(parameter) has a value"
        case .hasNoValue: return "\(parameter) has no value"
        case .compare(let op, let value): return "\(parameter) " + Self.phrase(op, value)
        }
    }

    /// The opposite condition in words: what `otherwise` applies to.
    package func negatedPhrase(_ parameter: String) -> String {
        switch test {
        case .hasValue: return "\(parameter) has no value"
        case .hasNoValue: return "\(parameter) has a value"
        case .compare(let op, let value):
            let opposite: [ComparisonOperator: ComparisonOperator] = [.equal: .notEqual, .notEqual: .equal, .less: .greaterOrEqual,
                                                                      .lessOrEqual: .greater, .greater: .lessOrEqual, .greaterOrEqual: .less]
            if let flipped = opposite[op] { return "\(parameter) " + Self.phrase(flipped, value) }
            return "\(parameter) is none of " + Self.written(value, listing: true)
        }
    }

    static func phrase(_ op: ComparisonOperator, _ value: Value) -> String {
        switch op {
        case .equal: return "is \(written(value))"
        case .notEqual: return "is not \(written(value))"
        case .oneOf: return "is one of \(written(value, listing: true))"
        default: return "\(op.rawValue) \(written(value))"
        }
    }

    /// A value as a script writes it: `read`, `"Fantasy"`, `300`; a list's items joined with commas.
    package static func written(_ value: Value, listing: Bool = false) -> String {
        switch value {
        case .text(let text): return "\"\(text)\""
        case .int(let number): return String(number)
        case .decimal(let number): return "\(number)"
        case .bool(let flag): return flag ? "true" : "false"
        case .enumCase(let option): return option.identifier
        case .null: return "nil"
        case .list(let items) where listing: return items.map { written($0) }.joined(separator: ", ")
        case .list(let items): return "[" + items.map { written($0) }.joined(separator: ", ") + "]"
        default: return "a \(value.type)"
        }
    }
}
