import AutoIntents

/// A summary read against a call's values: which sentence applies, and which parameters it shows. One owner for
/// what `--what-if`, graphs, `intents describe`, `:help` and completion show of an intent whose summary varies.
extension ParameterSummary {
    /// The sentences that may apply when parameters have the values `value` gives: a parameter's value (`.null` for
    /// none), or nil when it is not known before the run (a variable's). One sentence when every value tested is
    /// known; every sentence of a branch whose value is not.
    package func sentences(_ value: (String) -> Value?) -> [SummarySentence] {
        choices(value).map(\.sentence)
    }

    /// The sentences that may apply, each with the parameters tested on the way to it (lower-cased).
    package func choices(_ value: (String) -> Value?) -> [(sentence: SummarySentence, tested: [String])] {
        func tested(_ parameter: String, _ chosen: [(sentence: SummarySentence, tested: [String])]) -> [(sentence: SummarySentence, tested: [String])] {
            chosen.map { ($0.sentence, [parameter.lowercased()] + $0.tested) }
        }
        switch shape {
        case .sentence(let sentence):
            return [(sentence, [])]
        case .when(let parameter, let condition, let then, let otherwise):
            guard let known = value(parameter) else { return tested(parameter, then.choices(value) + otherwise.choices(value)) }
            return tested(parameter, condition.holds(for: known) ? then.choices(value) : otherwise.choices(value))
        case .choice(let parameter, let cases, let otherwise):
            guard let known = value(parameter) else {
                return tested(parameter, cases.flatMap { $0.summary.choices(value) } + otherwise.choices(value))
            }
            let chosen = cases.first { ParameterCondition.same(known, $0.value) }?.summary ?? otherwise
            return tested(parameter, chosen.choices(value))
        }
    }

    /// The sentence for a call whose values are all known (`--what-if`), or the first that may apply.
    package func sentence(_ value: (String) -> Value?) -> SummarySentence {
        // Most summaries are one sentence, and the compiler asks for it on every start: no list is made for it.
        if case .sentence(let sentence) = shape { return sentence }
        // Every shape ends in sentences, so there is always a first.
        return sentences(value).first ?? SummarySentence(parts: [], secondary: [], hidden: [])
    }
}

extension ParameterCondition {
    /// Whether a parameter's value meets the condition; a comparison that can't be made (a text with a number) does
    /// not hold.
    package func holds(for value: Value) -> Bool {
        switch test {
        case .hasValue: return !value.isNull
        case .hasNoValue: return value.isNull
        case .compare(.equal, let wanted): return Self.same(value, wanted)
        case .compare(.notEqual, let wanted): return !Self.same(value, wanted)
        case .compare(.oneOf, .list(let wanted)): return wanted.contains { Self.same(value, $0) }
        case .compare(let op, let wanted): return (try? Operations.compare(op, Self.resolved(value, like: wanted), wanted)) ?? false
        }
    }

    /// Equal as a summary's case is: an enum case also by a text naming it (`shelf: "read"`).
    package static func same(_ value: Value, _ wanted: Value) -> Bool {
        Operations.equal(resolved(value, like: wanted), wanted)
    }

    static func resolved(_ value: Value, like wanted: Value) -> Value {
        guard case .text(let text) = value, case .enumCase(let option) = wanted, let index = option.type.caseIndex(named: text) else { return value }
        return .enumCase(EnumCaseValue(type: option.type, index: index))
    }
}

extension IntentDescriptor {
    /// Whether some parameter is shown only for some values, or never: what completion, `:help` and `describe`
    /// must then ask `applicableParameters` about.
    package var summaryHidesParameters: Bool {
        summary.varies || summary.leaves.contains { !$0.sentence.hidden.isEmpty }
    }

    /// The parameters shown for a call with the values `value` gives (nil: not known before the run), in declaration
    /// order: those the sentences that may apply name or show below them, those tested on the way to them (their
    /// values chose the sentence), and those no sentence mentions at all.
    package func applicableParameters(_ value: (String) -> Value?) -> [ParameterInfo] {
        guard summaryHidesParameters else { return parameters }
        let mentioned = summary.mentioned
        let shown = summary.choices(value).flatMap { $0.sentence.shown.map { $0.lowercased() } + $0.tested }
        return parameters.filter { shown.contains($0.name.lowercased()) || !mentioned.contains($0.name.lowercased()) }
    }

    /// A parameter's value for a summary, from the values given by name: what was given, else its default, else none.
    /// `unknown` names given with a value not known before the run.
    package func summaryValue(given: [String: Value], unknown: Set<String> = []) -> (String) -> Value? {
        { name in
            guard let index = self.parameterIndex(named: name) else { return .null }
            let parameter = self.parameters[index]
            if unknown.contains(parameter.name) { return nil }
            return given[parameter.name] ?? parameter.defaultValue ?? .null
        }
    }
}
