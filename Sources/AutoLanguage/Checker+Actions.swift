import AutoIntents
import AutoRuntime

/// Resolving actions: which intent the words name, which overload the input's type picks, and which
/// parameter each argument fills.
extension Checker {
    struct Candidate {
        let intent: IntentDescriptor
        /// The script wrote the intent's whole name, not just its first words (`open book`, not `open`).
        let exact: Bool
        /// The former name the script called it by (`IntentDescriptor.formerNames`); nil for its name.
        var formerName: String? = nil
    }

    mutating func bindAction(words: [Identifier], arguments: [ActionArgument], piped: BoundExpression?, span: Span,
                             expected: ValueType? = nil) -> BoundExpression {
        // A lone word may be a variable or a built-in name: `x`, `it`, `today`.
        if words.count == 1, arguments.isEmpty, piped == nil, let value = lookupName(words[0], expected: expected) {
            warnIfFormerCase(value, named: words[0])
            return value
        }
        if let quantity = quantityWords(words, arguments: arguments) {
            if words.count == 2 { return bind(quantity) }
            return bindAction(words: Array(words.dropLast(2)), arguments: [ActionArgument(label: nil, value: quantity)], piped: piped,
                              span: span, expected: expected)
        }
        guard let (candidates, used) = findCandidates(words) else {
            reportUnknownAction(words, hasArguments: !arguments.isEmpty || piped != nil)
            return .error(span)
        }
        symbols?.call(candidates[0].intent, at: words[0].span.to(words[used - 1].span), in: file)
        var positional = arguments.filter { $0.label == nil }.map(\.value)
        var labeled = arguments.filter { $0.label != nil }
        var input: BoundExpression? = piped
        var inputWord: Identifier?
        if used < words.count, startsNestedAction(Array(words[used...])) {
            // `show plural 3 word: "book"` reads as `show (plural 3 word: "book")`: the inner action takes every
            // argument after its name, as a command does in a shell.
            let innerSpan = words[used].span.to(span)
            let inner = bindAction(words: Array(words[used...]), arguments: arguments, piped: nil, span: innerSpan)
            if piped != nil {
                error("the input of '\(candidates[0].intent.name)' already comes from the pipe", innerSpan,
                      hint: "put the inner action in parentheses and label it, e.g. 'name: (…)'")
                return .error(span)
            }
            input = inner
            positional = []
            labeled = []
        } else if used + 3 == words.count, positional.isEmpty,
                  candidates.contains(where: { $0.intent.parameterIndex(named: words[used + 1].name) != nil }) {
            // The input, a label and its value, all three names: `move file it to folder`.
            let value = words[used + 2]
            labeled.insert(ActionArgument(label: words[used + 1], value: Expression(kind: .name(value), span: value.span)), at: 0)
            positional.insert(Expression(kind: .name(words[used]), span: words[used].span), at: 0)
        } else if used + 2 == words.count, positional.isEmpty, labelsVariable(Array(words[used...]), of: candidates) {
            // A parameter's name and a variable, its value: `import books from path`.
            let value = words[used + 1]
            labeled.insert(ActionArgument(label: words[used], value: Expression(kind: .name(value), span: value.span)), at: 0)
        } else if used + 2 == words.count {
            // The input, then the label of the value after them: `write text body to "notes.txt"`.
            let label = words[used + 1]
            guard !positional.isEmpty else {
                error("'\(label.name)' needs a value after it", label.span, hint: "write '\(label.name) VALUE'")
                return .error(span)
            }
            labeled.insert(ActionArgument(label: label, value: positional.removeFirst()), at: 0)
            positional.insert(Expression(kind: .name(words[used]), span: words[used].span), at: 0)
        } else if used < words.count, !positional.isEmpty, lookupName(words[used], expected: nil) == nil,
                  candidates.contains(where: { $0.intent.parameterIndex(named: words[used].name) != nil }) {
            // A parameter's name before a value labels it, as in a sentence: `import books from "more.csv"`.
            labeled.insert(ActionArgument(label: words[used], value: positional.removeFirst()), at: 0)
        } else if used < words.count {
            // A word after the intent's name is its input: `open book b`, `open shelf currentlyReading`.
            let word = words[used]
            positional.insert(Expression(kind: .name(word), span: word.span), at: 0)
        }
        if piped != nil, let first = positional.first {
            error("the input of '\(candidates[0].intent.name)' already comes from the pipe", first.span,
                  hint: "label this argument, e.g. 'name: value'")
            return .error(span)
        }
        // The input's type picks among overloads, so it is bound before the intent is chosen. A bare word
        // may name an enum case of a candidate's input, which only that candidate can tell.
        if let first = positional.first {
            if case .name(let name) = first.kind, lookupName(name, expected: nil) == nil, registry.intent(named: name.name) == nil {
                inputWord = name
            } else {
                input = bind(first)
            }
        }
        guard let intent = choose(among: candidates, input: input, inputWord: inputWord, words: words, span: span) else {
            return .error(span)
        }
        warnIfRenamedOrDeprecated(intent, among: candidates, words: words)
        if let inputWord {
            input = resolveName(inputWord, expected: intent.input?.type)
        }
        if let first = positional.first { warnIfArgumentSwallowsArithmetic(first, of: intent) }

        var bound = [BoundExpression?](repeating: nil, count: intent.parameters.count)
        if let input {
            guard let parameter = intent.input else {
                error("'\(intent.name)' takes no input", input.span)
                return .error(span)
            }
            bound[0] = checkArgument(input, for: parameter, of: intent, allowMapping: true)
        }
        if positional.count > 1 {
            let names = intent.parameters.dropFirst().map { "'\($0.name): …'" }.joined(separator: ", ")
            error("'\(intent.name)' takes one unlabeled argument, its input\(intent.input.map { " '\($0.name)'" } ?? "")", positional[1].span,
                  hint: Self.meantInsteadOfArgument(positional[1], after: positional[0])
                      ?? (names.isEmpty ? "remove the extra arguments" : "label the others: \(names)"))
        }
        for argument in labeled {
            let label = argument.label!
            guard let index = intent.parameterIndex(named: label.name) else {
                let names = intent.parameters.map(\.name)
                error("'\(intent.name)' has no parameter '\(label.name)'", label.span,
                      hint: names.isEmpty ? "it takes no parameters" : (NearestNames.suggest(label.name, from: names).isEmpty
                          ? "its parameters: " + names.joined(separator: ", ") : NearestNames.hint(for: label.name, in: names)))
                _ = bind(argument.value)
                continue
            }
            if bound[index] != nil {
                error("'\(intent.parameters[index].name)' is given twice", label.span)
                continue
            }
            if intent.parameters[index].name.lowercased() != label.name.lowercased() {
                let current = intent.parameters[index].name
                warnFormerName(label, of: "'\(intent.name)'", now: current, write: current + ":")
            }
            if case .typeNamedBy(index) = intent.resultRule {
                bound[index] = bindTypeName(argument.value)
                continue
            }
            let value = bind(argument.value, expected: intent.parameters[index].type)
            bound[index] = checkArgument(value, for: intent.parameters[index], of: intent, allowMapping: false)
        }
        if uncheckedShortcuts.contains(intent.name) { calledUncheckedShortcut = true }
        var type = shortcutOutputTypes[intent.name] ?? intent.outputType
        switch intent.resultRule {
        case .fixed: break
        case .elementOf(let index): type = bound[index]?.type.elementType ?? .any
        case .typeNamedBy(let index): type = bound[index].map { askedType($0) } ?? .text
        }
        if let input = bound.first ?? nil, let parameter = intent.input, mapsOver(input.type, parameter.type) {
            type = .list(type)
        }
        if file === script { checkGranted(intent, span) }
        let action = BoundAction(intent: intent, arguments: bound, piped: piped != nil, span: span)
        return BoundExpression(kind: .action(action), type: type, span: span)
    }

    /// A call the grants refuse outright is an error before anything runs. One granted for some paths, hosts or
    /// programs can only be judged on the values it gets: the intent checks them when it runs.
    mutating func checkGranted(_ intent: IntentDescriptor, _ span: Span) {
        for capability in intent.capabilities.sorted() where !grants.grantsAny(capability) {
            error("'\(intent.name)' needs to \(capability.summary), and this run may not", span,
                  hint: "grant it with \(capability.flag)" + (capability == .env ? "" : ", or \(capability.flag)=… for some of them"))
        }
    }

    /// The intents named by the first words (their whole name, or its first words), and how many words
    /// that took. What is left is one word of input (`open book b`) or a nested action (`show plural 3 …`).
    func findCandidates(_ words: [Identifier]) -> ([Candidate], Int)? {
        for used in stride(from: words.count, through: 1, by: -1) {
            let candidates = intents(namedBy: words[0..<used])
            if candidates.isEmpty { continue }
            let rest = Array(words[used...])
            if rest.isEmpty || startsNestedAction(rest) { return (candidates, used) }
            // One more word is the input when it names a value (`open book b`, `open currentlyReading`), or
            // when the words named a whole intent. Otherwise it is more likely a typo in the name (`list bookz`).
            if rest.count == 1, candidates.contains(where: \.exact) || namesInput(rest[0], of: candidates) {
                return (candidates, used)
            }
            // Two more: the input, then a parameter's name labelling the value that follows, as a sentence reads
            // (`write text body to "notes.txt"`).
            if rest.count == 2, namesInput(rest[0], of: candidates), lookupName(rest[1], expected: nil) == nil,
               candidates.contains(where: { $0.intent.parameterIndex(named: rest[1].name) != nil }) {
                return (candidates, used)
            }
            // Two: a parameter's name and a variable as its value (`import books from path`).
            if rest.count == 2, labelsVariable(rest, of: candidates) { return (candidates, used) }
            // Three: the input, the label and its value, a variable too (`move file it to folder`).
            if rest.count == 3, namesInput(rest[0], of: candidates), lookupName(rest[1], expected: nil) == nil,
               lookupName(rest[2], expected: nil) != nil, candidates.contains(where: { $0.intent.parameterIndex(named: rest[1].name) != nil }) {
                return (candidates, used)
            }
        }
        return nil
    }

    /// A value and a unit ending the words, `n minutes`, which the parser reads as words of an action: a quantity, on
    /// its own (`set d = n minutes`) or the input after an action's name (`wait n minutes`).
    func quantityWords(_ words: [Identifier], arguments: [ActionArgument]) -> Expression? {
        guard arguments.isEmpty, words.count >= 2, let unit = words.last, Units.isUnit(unit.name) else { return nil }
        let count = words[words.count - 2]
        guard lookupName(count, expected: nil) != nil else { return nil }
        return Expression(kind: .quantity(Expression(kind: .name(count), span: count.span), unit: unit), span: count.span.to(unit.span))
    }

    /// Whether two words after an intent's name are a parameter's name and a variable, its value.
    func labelsVariable(_ words: [Identifier], of candidates: [Candidate]) -> Bool {
        lookupName(words[0], expected: nil) == nil && lookupName(words[1], expected: nil) != nil
            && candidates.contains { $0.intent.parameterIndex(named: words[0].name) != nil }
    }

    /// Whether a word after an intent's name is its input: a variable, or a case of a candidate's enum input.
    func namesInput(_ word: Identifier, of candidates: [Candidate]) -> Bool {
        lookupName(word, expected: nil) != nil || candidates.contains { candidate in
            guard case .enumeration(let type)? = candidate.intent.input?.type else { return false }
            return type.caseIndex(named: word.name) != nil
        }
    }

    func intents(namedBy words: ArraySlice<Identifier>) -> [Candidate] {
        let prefix = words.map { $0.name.lowercased() }
        guard let first = prefix.first else { return [] }
        return (registry.intentsByFirstWord[first] ?? []).compactMap { position in
            let intent = registry.intents[position]
            if intent.words.count >= prefix.count, zip(intent.words, prefix).allSatisfy({ $0 == $1 }) {
                return Candidate(intent: intent, exact: intent.words.count == prefix.count)
            }
            // A title it had before still names it; only whole, so that a former name offers no prefixes.
            for (index, former) in intent.formerWords.enumerated() where former.count == prefix.count && zip(former, prefix).allSatisfy({ $0 == $1 }) {
                return Candidate(intent: intent, exact: true, formerName: intent.formerNames[index])
            }
            return nil
        }
    }

    /// Warns of a call by a former name or of a deprecated intent, saying what to write instead.
    mutating func warnIfRenamedOrDeprecated(_ intent: IntentDescriptor, among candidates: [Candidate], words: [Identifier]) {
        guard let first = words.first else { return }
        if let former = candidates.first(where: { $0.intent === intent })?.formerName {
            let span = first.span.to(words[min(words.count, former.split(separator: " ").count) - 1].span)
            warning("'\(former)' is now called '\(intent.name)'", span, hint: "write '\(intent.name)'",
                    fix: Diagnostic.Fix(span: span, replacement: intent.name))
        }
        if let deprecation = intent.deprecation {
            let span = first.span.to(words[min(words.count, intent.words.count) - 1].span)
            warning("'\(intent.name)' is deprecated: \(deprecation.message)", span,
                    hint: intent.replacementName.map { "use '\($0)' instead" })
        }
    }

    /// Whether words left after an intent's name begin another action rather than name a variable.
    /// Whether the words after an action's name start another action (`show plural 3 word: "book"`). Not when the
    /// first is a variable the script declared: after an action's name a variable is a value, even one named as an
    /// action is (`write text csv to "out.csv"` with a variable `csv`). A lone word that names some other value (an
    /// enum case, `it`) is one too; before more words, an enum case's name may start an action (`show read text f`).
    func startsNestedAction(_ words: [Identifier]) -> Bool {
        if scope.lookup(words[0].name) != nil { return false }
        if words.count == 1, lookupName(words[0], expected: nil) != nil { return false }
        return findCandidates(words) != nil
    }

    mutating func reportUnknownAction(_ allWords: [Identifier], hasArguments: Bool) {
        // A variable after the name is the input, not part of the name: report 'opne book', not 'opne book b'.
        var words = allWords
        while words.count > 1, let last = words.last, lookupName(last, expected: nil) != nil { words.removeLast() }
        let phrase = words.map(\.name).joined(separator: " ")
        let span = words[0].span.to(words[words.count - 1].span)
        let names = registry.intents.map(\.name)
        var hint = NearestNames.hint(for: phrase, in: names, listing: "actions")
        if allWords.count == 1, hasArguments, let variable = lookupName(allWords[0], expected: nil) {
            _ = variable
            error("'\(allWords[0].name)' is a variable, not an action", allWords[0].span,
                  hint: "to subtract, put spaces on both sides: '\(allWords[0].name) - 1'")
            return
        }
        if allWords.count == 1 && !hasArguments {
            let near = NearestNames.suggest(phrase, from: names + scope.names)
            hint = near.isEmpty ? "no variable or action has this name; '\(commandName) intents' lists the actions"
                : "did you mean " + near.map { "'\($0)'" }.joined(separator: " or ") + "?"
            let ambiguous = ambiguousCaseHint(phrase)
            error("unknown name '\(phrase)'", span, hint: ambiguous ?? hint, fix: ambiguous == nil ? Self.fix(span, nearest: near) : nil)
            return
        }
        if let intent = registry.intent(named: phrase), words.count < allWords.count {
            // The name is right; the words after it are what can't be read (a variable named as a label, say).
            let rest = allWords[words.count...].map(\.name).joined(separator: " ")
            error("'\(intent.name)' can't read '\(rest)' after its name", allWords[words.count].span.to(allWords[allWords.count - 1].span),
                  hint: "give the input, then each other argument with its label and a colon: '\(intent.name) VALUE "
                      + (intent.parameters.dropFirst().first.map { "\($0.name): …'" } ?? "'"))
            return
        }
        error("unknown action '\(phrase)'", span, hint: hint, fix: Self.fix(span, nearest: NearestNames.suggest(phrase, from: names)))
    }

    /// Picks the intent among same-named candidates by the type of the input.
    mutating func choose(among candidates: [Candidate], input: BoundExpression?, inputWord: Identifier?,
                         words: [Identifier], span: Span) -> IntentDescriptor? {
        if candidates.count == 1 { return candidates[0].intent }
        var fitting = candidates
        if let input, input.type != .any {
            fitting = candidates.filter { candidate in
                guard let parameter = candidate.intent.input else { return false }
                return input.type.isAssignable(to: parameter.type) || mapsOver(input.type, parameter.type)
            }
        } else if let inputWord {
            fitting = candidates.filter { candidate in
                guard case .enumeration(let enumeration)? = candidate.intent.input?.type else { return false }
                return enumeration.caseIndex(named: inputWord.name) != nil
            }
        }
        if fitting.count == 1 { return fitting[0].intent }
        if let exact = only(fitting, where: \.exact) { return exact }
        // An input of exactly the parameter's type beats one that only converts (a Text naming an enum case).
        if let input, input.type != .any, let precise = only(fitting, where: { $0.intent.input?.type == input.type }) {
            return precise
        }
        let phrase = words.map(\.name).joined(separator: " ")
        // Five at most: a host of a thousand intents would otherwise be listed whole in one message, and completion,
        // which checks every prefix typed, would write that message on each key.
        let shown = fitting.isEmpty ? candidates : fitting
        let listed = shown.prefix(5).map { candidate in
            "'\(candidate.intent.name)'" + (candidate.intent.input.map { " (\($0.type))" } ?? "")
        }.joined(separator: ", ") + (shown.count > 5 ? " and \(shown.count - 5) more" : "")
        if fitting.isEmpty, let input {
            error("no '\(phrase)' action takes \(input.type) as its input", input.span, hint: "the candidates: \(listed)")
        } else {
            error("'\(phrase)' is ambiguous: it could be \(listed)", span,
                  hint: "write the whole name, or give an input whose type picks one")
        }
        return nil
    }

    /// The intent of the one candidate that passes `test`, if exactly one does; without a list of those that pass, as
    /// completion judges an offer among a thousand intents that share their first words.
    func only(_ candidates: [Candidate], where test: (Candidate) -> Bool) -> IntentDescriptor? {
        guard let first = candidates.firstIndex(where: test),
              !candidates[(first + 1)...].contains(where: test) else { return nil }
        return candidates[first].intent
    }

    /// `as Int`, `as Shelf`: a type name, encoded as a value the runtime reads back (a builtin type's name,
    /// or a case of the enum type).
    mutating func bindTypeName(_ expression: Expression) -> BoundExpression {
        guard case .name(let name) = expression.kind else {
            error("'as' is followed by a type's name, e.g. 'as Int'", expression.span)
            return .error(expression.span)
        }
        let type = resolveType(.named(name)).base
        switch type {
        case .enumeration(let enumeration):
            return BoundExpression(kind: .constant(.enumCase(EnumCaseValue(type: enumeration, index: 0))), type: type, span: expression.span)
        case .entity(let entity):
            error("'ask' can't ask for a \(entity.typeName)", name.span,
                  hint: "let people pick one: 'choose \"Which?\" from (find \(entity.plural) …)'")
            return .error(expression.span)
        case .list, .record, .recordOf:
            error("'ask' asks for a single value, not a \(type)", name.span)
            return .error(expression.span)
        default:
            return BoundExpression(kind: .constant(.text(type.description)), type: type, span: expression.span)
        }
    }

    func askedType(_ bound: BoundExpression) -> ValueType {
        isError(bound) ? .any : bound.type
    }

    /// Whether a list of `given` fills a single-value parameter of type `parameter` one element at a time.
    func mapsOver(_ given: ValueType, _ parameter: ValueType) -> Bool {
        guard case .list(let element) = given, parameter.takesOneValue else { return false }
        return element.isAssignable(to: parameter)
    }

    mutating func checkArgument(_ value: BoundExpression, for parameter: ParameterInfo, of intent: IntentDescriptor,
                                allowMapping: Bool) -> BoundExpression {
        if case .constant(let constant) = value.kind {
            let converted = coerceConstant(constant, to: parameter.type, at: value.span)
            if let problem = Coercion.rangeProblem(converted, for: parameter) {
                error("'\(parameter.name)' of '\(intent.name)' must be \(problem)", value.span)
            }
            if converted.type.isAssignable(to: parameter.type) || (converted.isNull && !parameter.isRequired) {
                return BoundExpression(kind: .constant(converted), type: converted.type, span: value.span)
            }
        }
        if isError(value) { return value }
        // A text names an entity through its type's text search: `open book "Emma"`.
        if value.type == .text || (allowMapping && value.type == .list(.text)), case .entity(let type) = parameter.type {
            guard let query = registry.query(for: type) else {
                // Without a query, `find` can't work either: say what the host lacks, not a way that fails too.
                error("'\(intent.name)' expects a \(type.typeName) for '\(parameter.name)', and \(type.plural) can't be found or named: "
                      + "the host registered no query for them", value.span,
                      hint: "give '\(intent.name)' a \(type.typeName) that another action made, or register a query for \(type.plural) in the host")
                return value
            }
            if query.canFindByText { return value }
            error("'\(intent.name)' expects a \(type.typeName) for '\(parameter.name)'; \(type.plural) can't be named by text here", value.span,
                  hint: "find one first: 'find \(type.plural) where … | \(intent.name)'")
            return value
        }
        let fits = value.type.isAssignable(to: parameter.type) || (allowMapping && mapsOver(value.type, parameter.type))
            || (value.type == .null && !parameter.isRequired)
        if !fits {
            error("'\(intent.name)' expects \(parameter.type) for '\(parameter.name)', got \(value.type)", value.span)
        }
        return value
    }

    /// `set y = sq 3 + 1` is the square of 4: the action takes the whole expression, as `show x + 1` shows `x + 1`.
    /// When the action gives a number and the argument starts with a number written out, `(sq 3) + 1` is the likely
    /// meaning (the square of 4 would be written `sq 4`), so the reading is pointed out. `fact n - 1` is left alone:
    /// there the whole expression is as likely meant. Written `sq (3 + 1)` or `(sq 3) + 1`, there is no warning.
    mutating func warnIfArgumentSwallowsArithmetic(_ argument: Expression, of intent: IntentDescriptor) {
        guard case .binary(let op, let left, _) = argument.kind, [.add, .subtract, .multiply, .divide, .remainder].contains(op),
              argument.span.start == left.span.start, [.int, .decimal, .any].contains(intent.outputType) else { return }
        switch left.kind {
        case .integer, .decimal: break
        default: return
        }
        let name = intent.name
        warning("'\(name)' takes all of this as its argument, so its result is not part of the '\(op.rawValue)'", argument.span,
                hint: "write '\(name) (…)' to keep this meaning, or '(\(name) …) \(op.rawValue) …' to apply '\(op.rawValue)' to the result")
    }

    /// What a second unlabeled argument likely was: `show 10 kb` (a unit in the wrong case), `show xs [0]` (an
    /// index with a space before it).
    static func meantInsteadOfArgument(_ extra: Expression, after previous: Expression) -> String? {
        switch (previous.kind, extra.kind) {
        case (.integer, .name(let word)), (.decimal, .name(let word)):
            let units = Units.durations.flatMap { [$0.singular, $0.plural] } + Units.sizes.map(\.name) + Units.periods.flatMap { [$0.singular, $0.plural] }
            if let unit = units.first(where: { $0.lowercased() == word.name.lowercased() }) {
                return "units are written as they are named: '\(unit)'"
            }
            return NearestNames.suggest(word.name, from: units).first.map { "did you mean the unit '\($0)'?" }
        case (_, .list(let items)) where items.count == 1:
            return "to index a list, write '[' right after it, with no space: 'xs[0]'"
        default:
            return nil
        }
    }
}
