import AutoIntents
import AutoLanguage
import AutoRuntime

/// The text of `intents describe`: the title, the summary sentence, parameters and result.
package enum IntentDescriptionText {
    /// The description of the intent, entity type or enum called `name`; nil when nothing is.
    /// `program`: the shortcuts' graphs, for what a shortcut needs (what the intents its body calls need); without it,
    /// what the intent declares.
    /// `name` may go on with labelled values, as a call gives them (`add book shelf: read`): then only what applies
    /// to those values is described, when the intent's summary follows them.
    package static func describe(_ name: String, in registry: Registry, program: Program?) -> String? {
        if let intent = registry.intent(named: name) { return render(intent, appShortcuts: registry.appShortcuts, program: program) }
        if let entity = registry.entityType(named: name) { return render(entity, query: registry.query(for: entity)) }
        if let enumeration = registry.enumType(named: name) { return render(enumeration) }
        if let (intent, given) = call(name, in: registry) {
            return render(intent, appShortcuts: registry.appShortcuts, program: program, given: given)
        }
        return nil
    }

    /// The intent a call's text starts with (its longest name) and the values the text gives it as literals.
    static func call(_ text: String, in registry: Registry) -> (IntentDescriptor, [String: Value])? {
        let completer = Completer(registry: registry)
        var lexer = Lexer(file: SourceFile(name: "<describe>", text: text))
        let tokens = lexer.tokenize()
        guard let intent = completer.intent(startingStage: tokens), tokens.count > Completer.wordCount(of: intent) else { return nil }
        return (intent, completer.literalArguments(of: intent, in: text, from: 0, excluding: nil))
    }

    /// The names nearest to one that names nothing.
    package static func hint(for name: String, in registry: Registry) -> String? {
        let names = registry.intents.map(\.name) + registry.entityTypes.map(\.singular) + registry.enumTypes.map(\.name)
        return NearestNames.hint(for: name, in: names, listing: "intents and types")
    }

    /// `appShortcuts`: the host's and those of shortcuts written with `phrases`, for the sentences that run this intent
    /// through `say`.
    /// `given`: values a call gives by parameter name; then the sentence and parameters that apply to them, alone.
    package static func render(_ intent: IntentDescriptor, appShortcuts: [RegisteredShortcut] = [], program: Program?,
                               given: [String: Value]? = nil) -> String {
        var text = "\(intent.title)\n"
        let summary = intent.summary, leaves = summary.leaves
        if let given {
            let value = intent.summaryValue(given: given)
            for sentence in summary.sentences(value) { text += "  \(sentence)\n" }
            text += "  (for " + given.keys.sorted().map { "\($0): \(ParameterCondition.written(given[$0] ?? .null))" }.joined(separator: ", ") + ")\n"
        } else if summary.varies {
            for leaf in leaves { text += "  When \(leaf.conditions.joined(separator: " and ")): \(leaf.sentence)\n" }
        } else {
            text += "  \(summary)\n"
        }
        if !intent.description.text.isEmpty { text += "\n  \(intent.description.text)\n" }
        if let deprecation = intent.deprecation {
            text += "\n  Deprecated: \(deprecation.message)" + (intent.replacementName.map { "; use '\($0)' instead" } ?? "") + "\n"
        }
        text += "\n"
        if intent.parameters.isEmpty {
            text += "Parameters: none\n"
        } else {
            text += "Parameters:\n"
            let shown = given.map { intent.applicableParameters(intent.summaryValue(given: $0)) } ?? intent.parameters
            for (index, parameter) in intent.parameters.enumerated() where shown.contains(where: { $0 === parameter }) {
                var facts = [parameter.type.description]
                facts.append(parameter.isRequired ? "required" : "optional")
                if let value = parameter.defaultValue { facts.append("default \(ValueFormatter.inline(value))") }
                if let range = parameter.range { facts.append(Coercion.describe(range)) }
                if parameter.options != nil { facts.append("options from the host") }
                if index == 0 { facts.append("input") }
                text += "  \(parameter.name): \(facts.joined(separator: ", "))"
                if parameter.title.lowercased() != parameter.name.lowercased() { text += " — \(parameter.title)" }
                text += "\n"
                if let question = parameter.question { text += "      asks: \(question)\n" }
                if !parameter.formerNames.isEmpty { text += "      formerly: \(parameter.formerNames.joined(separator: ", "))\n" }
                if given == nil, let applies = appliance(of: parameter, in: leaves) { text += "      \(applies)\n" }
            }
        }
        text += "Result: \(intent.outputType == .null ? "nothing" : intent.outputType.description)"
        if let name = intent.description.resultName { text += " (\(name))" }
        text += "\n"
        if intent.sideEffect != .none { text += "Side effect: \(intent.sideEffect == .destructive ? "destructive, confirmed before it runs" : "changes things")\n" }
        let needs = program?.capabilities(of: intent) ?? intent.capabilities
        if !needs.isEmpty {
            text += "Needs: " + needs.sorted().map { "\($0.summary) (\($0.flag))" }.joined(separator: ", ") + "\n"
        }
        if !intent.formerNames.isEmpty { text += "Formerly: " + intent.formerNames.map { "'\($0)'" }.joined(separator: ", ") + "\n" }
        if let category = intent.description.category { text += "Category: \(category)\n" }
        if !intent.description.searchKeywords.isEmpty { text += "Keywords: \(intent.description.searchKeywords.joined(separator: ", "))\n" }
        for registered in appShortcuts where registered.intent === intent {
            let phrases = registered.shortcut.phrases.map { "\"\($0.filled(applicationName: registered.applicationName) { "{\($0)}" })\"" }
            // A shortcut written in the language has phrases; the host's, declared in Swift, are App Shortcuts.
            let kind = intent.origin == nil ? "App Shortcut" : "Phrases"
            text += "\(kind) ('\(registered.applicationName) say …'): \(phrases.joined(separator: ", "))\n"
        }
        if let origin = intent.origin { text += "Declared at: \(origin)\n" }
        return text
    }

    /// When a parameter is shown, if not always: "only when shelf is read", or "hidden" when no sentence shows it.
    /// `leaves`: the summary's (`ParameterSummary.leaves`).
    static func appliance(of parameter: ParameterInfo, in leaves: [ParameterSummary.Leaf]) -> String? {
        let name = parameter.name.lowercased()
        let mentioned = leaves.contains { leaf in
            leaf.tested.contains(name) || (leaf.sentence.shown + leaf.sentence.hidden).contains { $0.lowercased() == name }
        }
        guard mentioned else { return nil }
        let showing = leaves.filter { $0.tested.contains(name) || $0.sentence.shown.contains { $0.lowercased() == name } }
        if showing.isEmpty { return "hidden: a script may give it; completion and help don't offer it" }
        guard showing.count < leaves.count else { return nil }
        return "only when " + showing.map { $0.conditions.joined(separator: " and ") }.joined(separator: ", or when ")
    }

    /// An entity type: its properties, and how scripts find its entities (what the host's query does, and what the
    /// engine does itself).
    package static func render(_ type: AnyEntityType, query: QueryDescriptor?) -> String {
        var text = "\(type.typeName)\n  an entity: '\(type.singular)' and '\(type.plural)' in scripts\n\nProperties:\n"
        for property in type.properties {
            var facts: [String] = []
            if property.title.lowercased() != property.name.lowercased() { facts.append(property.title) }
            if let query, query.isPropertyQuery {
                let operators = ComparisonOperator.allCases.filter { query.supports(property.name, $0) }.map(\.rawValue)
                if !operators.isEmpty { facts.append("the host filters with " + operators.joined(separator: " ")) }
                if query.sortableProperties.contains(property.name.lowercased()) { facts.append("the host sorts by it") }
            }
            text += "  \(property.name): \(property.type)" + (facts.isEmpty ? "" : " — " + facts.joined(separator: "; ")) + "\n"
        }
        guard let query else {
            return text + "Finding: none; \(type.plural) are made by intents, not looked up\n"
        }
        var ways = ["by id"]
        if query.canFindByText {
            let how = query.canSearchText ? "the host searches" : "the engine matches titles"
            ways.append("by text ('find \(type.plural) matching \"…\"', or a '\(type.singular)' parameter given as text; \(how))")
        }
        if query.canEnumerate {
            ways.append("all ('find \(type.plural)'); the engine filters and sorts by any property what the host doesn't")
        } else if query.isPropertyQuery {
            ways.append("by what the host filters; anything else in a where-clause or a sort is an error before the run")
        }
        return text + "Finding: " + ways.joined(separator: "; ") + "\n"
    }

    /// An enum: its cases, as scripts may write them.
    package static func render(_ type: AnyEnumType) -> String {
        var text = "\(type.typeName)\n  an enum: a case is written as its name or its display name\n\nCases:\n"
        let width = type.cases.map(\.identifier.count).max() ?? 0
        for item in type.cases {
            text += "  " + item.identifier.padding(toLength: width, withPad: " ", startingAt: 0)
            text += item.displayName == item.identifier ? "\n" : "  \"\(item.displayName)\"\n"
        }
        return text
    }

    /// One line per intent, by name, with its input and result types; `detailed` adds the description and where
    /// a shortcut is declared (the REPL's `:intents` leaves them out).
    package static func lines(_ intents: [IntentDescriptor], detailed: Bool) -> String {
        let width = intents.map(\.name.count).max() ?? 0
        var lines = ""
        for intent in intents.sorted(by: { $0.name < $1.name }) {
            let input = intent.input.map { "(\($0.type))" } ?? "()"
            let result = intent.outputType == .null ? "" : " → \(intent.outputType)"
            let about = !detailed || intent.description.text.isEmpty ? "" : "  \(intent.description.text)"
            var kind = detailed ? intent.origin.map { "  [shortcut, \($0)]" } ?? "" : ""
            if intent.deprecation != nil { kind += "  [deprecated" + (intent.replacementName.map { ": use '\($0)'" } ?? "") + "]" }
            lines += intent.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  \(input)\(result)\(about)\(kind)\n"
        }
        return lines
    }
}
