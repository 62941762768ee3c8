import AutoIntents
import AutoRuntime
import Foundation

extension Checker {
    /// A pipeline, an action or an expression: anything that may stand where a statement's value goes.
    mutating func bindPipeline(_ expression: Expression) -> BoundExpression {
        guard case .pipeline(let stages) = expression.kind else { return bind(expression) }
        var current = bind(stages[0])
        for stage in stages.dropFirst() {
            // `show xs | sort by a`: the action takes `xs` and gives nothing, so the pipe has nothing to pass on.
            if case .action(let action) = current.kind, Self.returnsNothing(current) {
                let input = action.arguments.first.flatMap { $0 }.map { file.text(of: $0.span) } ?? "…"
                let rest = file.text(of: stage.span)
                error("'\(action.intent.name)' gives no value, so nothing goes through this '|'", stage.span,
                      hint: "to \(action.intent.name) what the pipeline makes, put the pipeline in parentheses: '\(action.intent.name) (\(input) | \(rest))'")
                return .error(expression.span)
            }
            switch stage.kind {
            case .action(let words, let arguments):
                current = bindAction(words: words, arguments: arguments, piped: current, span: stage.span)
            case .listStage(let listStage):
                current = bindListStage(listStage, input: current, span: stage.span)
            default:
                error("expected an action after '|'", stage.span, hint: "a pipe passes its input to an action, e.g. '| show'")
                current = .error(stage.span)
            }
        }
        return current
    }

    mutating func bind(_ expression: Expression, expected: ValueType? = nil) -> BoundExpression {
        let span = expression.span
        switch expression.kind {
        case .integer(let value): return BoundExpression(kind: .constant(.int(value)), type: .int, span: span)
        case .decimal(let value): return BoundExpression(kind: .constant(.decimal(value)), type: .decimal, span: span)
        case .bool(let value): return BoundExpression(kind: .constant(.bool(value)), type: .bool, span: span)
        case .null: return BoundExpression(kind: .constant(.null), type: .null, span: span)
        case .text(let segments): return bindText(segments, span: span)
        case .quantity(let number, let unit): return bindQuantity(number, unit: unit, span: span)
        case .list(let items):
            // A list where a list of enum cases is expected may name the cases: `shelf in [read, wantToRead]`.
            let element = expected?.elementType
            let bound = items.map { item in
                if case .pipeline = item.kind { return bindPipeline(item) }
                return bind(item, expected: element)
            }
            let elementType = bound.dropFirst().reduce(bound.first?.type ?? .any) { $0.joined(with: $1.type) }
            return folded(BoundExpression(kind: .list(bound), type: .list(elementType), span: span))
        case .record(let fields):
            var keys: [String] = []
            var values: [BoundExpression] = []
            for field in fields {
                let value = bindPipeline(field.value)
                if keys.contains(field.key.name) {
                    error("the field '\(field.key.name)' appears twice in this record", field.key.span, hint: "remove one of them")
                    continue
                }
                keys.append(field.key.name)
                values.append(value)
            }
            let shape = RecordShape(names: keys, types: values.map(\.type))
            return folded(BoundExpression(kind: .record(keys: keys, values: values), type: .recordOf(shape), span: span))
        case .name(let name):
            return resolveName(name, expected: expected)
        case .otherwise(let attempt, let fallback):
            let first = bindPipeline(attempt)
            let second = bind(fallback, expected: first.type)
            return BoundExpression(kind: .otherwise(first, second), type: first.type.joined(with: second.type), span: span)
        case .member(let base, let member):
            if case .name(let typeName) = base.kind, lookupName(typeName, expected: nil) == nil, let enumeration = registry.enumType(named: typeName.name) {
                return bindQualifiedCase(enumeration, member, span: span)
            }
            return bindMember(bind(base), member, span: span)
        case .index(let base, let index):
            return bindIndex(bind(base), bindPipeline(index), span: span)
        case .function(let name, let arguments):
            return bindFunction(name, arguments, span: span)
        case .unary(let op, let operand):
            return bindUnary(op, bind(operand), span: span)
        case .binary(let op, let left, let right):
            return bindBinary(op, left, right, span: span)
        case .between(let value, let low, let high):
            let (v, l, h) = (bind(value), bind(low), bind(high))
            checkOrderable(v, l, "between", span)
            checkOrderable(v, h, "between", span)
            return BoundExpression(kind: .between(v, l, h), type: .bool, span: span)
        case .action(let words, let arguments):
            return bindAction(words: words, arguments: arguments, piped: nil, span: span, expected: expected)
        case .pipeline:
            return bindPipeline(expression)
        case .find(let find):
            return bindFind(find, span: span)
        case .listStage:
            error("'filter', 'sort by' and 'limit' need a list piped into them", span, hint: "write 'list | filter where …'")
            return .error(span)
        case .error:
            return .error(span)
        }
    }

    /// A list or record whose items are all constants becomes one constant.
    func folded(_ expression: BoundExpression) -> BoundExpression {
        guard let value = Self.constantValue(of: expression) else { return expression }
        return BoundExpression(kind: .constant(value), type: expression.type, span: expression.span)
    }

    mutating func bindText(_ segments: [Expression.TextSegment], span: Span) -> BoundExpression {
        var parts: [BoundInterpolationPart] = []
        for segment in segments {
            switch segment {
            case .literal(let text): parts.append(.literal(text))
            case .interpolation(let expression): parts.append(.value(bindPipeline(expression)))
            }
        }
        if parts.allSatisfy({ if case .literal = $0 { return true }; return false }) {
            let text = parts.map { if case .literal(let text) = $0 { text } else { "" } }.joined()
            return BoundExpression(kind: .constant(.text(text)), type: .text, span: span)
        }
        return BoundExpression(kind: .interpolation(parts), type: .text, span: span)
    }

    /// `90 seconds`, `1.5 KB`: one constant, computed exactly as the run would, or an error naming the range.
    mutating func bindQuantity(_ number: Expression, unit: Identifier, span: Span) -> BoundExpression {
        let amount: Value
        switch number.kind {
        case .integer(let value): amount = .int(value)
        case .decimal(let value): amount = .decimal(value)
        default:
            // A count known when the script runs, `(n * 2) seconds`, `n minutes`: one unit times the count, computed
            // as that product is (an overflow is a run-time error).
            let count = bind(number)
            let one = bindQuantity(Expression(kind: .integer(1), span: unit.span), unit: unit, span: unit.span)
            if isError(count) || isError(one) { return .error(span) }
            guard count.type.isNumeric || count.type == .any else {
                error("a count of \(unit.name) is a number, and this is \(count.type)", number.span,
                      hint: count.type == .text ? "convert it: number(…) \(unit.name)" : nil)
                return .error(span)
            }
            guard let type = arithmeticType(.multiply, one.type, count.type) else {
                error("a period of the calendar is a whole number of \(unit.name), and this is \(count.type)", number.span,
                      hint: "round it: round(…) \(unit.name)")
                return .error(span)
            }
            return BoundExpression(kind: .arithmetic(.multiply, one, count), type: type, span: span)
        }
        do throws(EvaluationError) {
            if let duration = Units.duration(named: unit.name) {
                return BoundExpression(kind: .constant(.duration(try DurationArithmetic.duration(amount, duration))), type: .duration, span: span)
            }
            if let unit = Units.period(named: unit.name) {
                guard case .int(let count) = amount else {
                    error("a period of the calendar is a whole number of \(unit.plural)", span,
                          hint: unit.months == 12 ? "write months for part of a year: 18 months" : "write days for part of a month: 45 days")
                    return .error(span)
                }
                let (months, overflow) = count.multipliedReportingOverflow(by: unit.months)
                let period = try DurationArithmetic.period(months: overflow ? nil : months, "\(count) \(unit.plural)")
                return BoundExpression(kind: .constant(.period(period)), type: .period, span: span)
            }
            if let size = Units.size(named: unit.name) {
                return BoundExpression(kind: .constant(.size(try SizeArithmetic.size(amount, size))), type: .size, span: span)
            }
        } catch let failure {
            error(failure.message, span)
            return .error(span)
        }
        error("unknown unit '\(unit.name)'", unit.span)
        return .error(span)
    }

    // MARK: Names

    /// A lone name: a variable, `it`, `now`, `today`, an enum case where one is expected, or an intent
    /// without arguments.
    mutating func resolveName(_ name: Identifier, expected: ValueType? = nil) -> BoundExpression {
        if name.name == "it", scope.lookup("it") == nil { warnIfItIsNoLongerTheTrigger(name.span) }
        if let value = lookupName(name, expected: expected) {
            warnIfFormerCase(value, named: name)
            return value
        }
        if let intent = registry.intent(named: name.name) {
            // An action that needs its input can't stand as a value: `show - (2 + 3)` subtracts from `show`.
            if let input = intent.input, input.isRequired {
                error("'\(intent.name)' is an action that needs its input '\(input.name)', not a value", name.span,
                      hint: "to use its result in an expression, put the call in parentheses: 'n * (\(intent.name) x)'; or pipe a value into it")
                return .error(name.span)
            }
            return bindAction(words: [name], arguments: [], piped: nil, span: name.span)
        }
        var candidates = scope.names + ["it"] + BuiltinFunction.readAsNames.map(\.rawValue)
        if case .enumeration(let enumeration)? = expected { candidates += enumeration.cases.map(\.identifier) }
        var hint = NearestNames.hint(for: name.name, in: candidates, listing: "variables here")
        let nearest = NearestNames.suggest(name.name, from: candidates)
        if case .enumeration(let enumeration)? = expected, nearest.isEmpty {
            hint = "a \(enumeration.typeName) is one of: " + enumeration.cases.map(\.identifier).joined(separator: ", ")
        }
        let ambiguous = ambiguousCaseHint(name.name)
        error("unknown name '\(name.name)'", name.span, hint: ambiguous ?? hint, fix: ambiguous == nil ? Self.fix(name.span, nearest: nearest) : nil)
        return .error(name.span)
    }

    /// Variables and built-in names only; nil when `name` is none of them.
    func lookupName(_ name: Identifier, expected: ValueType?) -> BoundExpression? {
        if let variable = scope.lookup(name.name) {
            symbols?.read(name, slot: variable.slot, type: variable.type, in: file)
            return BoundExpression(kind: .local(slot: variable.slot, name: name.name), type: variable.type, span: name.span)
        }
        if name.name == "it" { return BoundExpression(kind: .it, type: scope.itType, span: name.span) }
        // A Date read as a name. `yesterday` and `tomorrow` are not reserved, unlike `now` and `today`: a script's own
        // variable of either name, older than these, is found first above and still wins.
        if let function = BuiltinFunction.readAsNames.first(where: { $0.rawValue == name.name }) {
            return BoundExpression(kind: .function(function, []), type: .date, span: name.span)
        }
        if case .enumeration(let enumeration)? = expected, let index = enumeration.caseIndex(named: name.name) {
            return BoundExpression(kind: .constant(.enumCase(EnumCaseValue(type: enumeration, index: index))), type: expected!, span: name.span)
        }
        // Without a type to go by, a case's identifier names it when one enum alone has it: `set s = currentlyReading`.
        var owners = enumCases(withIdentifier: name.name)
        if owners.isEmpty {
            owners = registry.enumTypes.compactMap { type in type.namesFormerCase(name.name) ? type.caseIndex(named: name.name).map { (type, $0) } : nil }
        }
        if owners.count == 1, let (enumeration, index) = owners.first {
            return BoundExpression(kind: .constant(.enumCase(EnumCaseValue(type: enumeration, index: index))), type: .enumeration(enumeration), span: name.span)
        }
        return nil
    }

    /// In an automation's body, `it` read after a statement made it that statement's result: most likely meant as the
    /// trigger's value (`make folder …` then `move file it …` moved the folder, a File as the file was). Warned
    /// whatever the result's type; a result meant is better named (`-> folder`).
    mutating func warnIfItIsNoLongerTheTrigger(_ span: Span) {
        guard let trigger = automationTrigger, let setBy = scope.itSetBy else { return }
        let line = file.location(of: setBy.start).line
        let meaning = trigger.meaning(of: trigger.valueName)
        warning("'it' here is the result of line \(line)\(scope.itType == .any ? "" : ", \(scope.itType)"), not \(meaning)", span,
                hint: "write '\(trigger.valueName)' for \(meaning), or name the result of line \(line) with '-> name'")
    }

    /// The enums that have a case with exactly this identifier.
    func enumCases(withIdentifier name: String) -> [(AnyEnumType, Int)] {
        registry.enumTypes.compactMap { type in type.cases.firstIndex { $0.identifier == name }.map { (type, $0) } }
    }

    /// `Shelf.currentlyReading`: a case named with its enum, where the name alone is ambiguous or unclear.
    mutating func bindQualifiedCase(_ enumeration: AnyEnumType, _ member: Identifier, span: Span) -> BoundExpression {
        guard let index = enumeration.caseIndex(named: member.name) else {
            error("\(enumeration.typeName) has no case '\(member.name)'", member.span,
                  hint: "a \(enumeration.typeName) is one of: " + enumeration.cases.map(\.identifier).joined(separator: ", "))
            return .error(span)
        }
        warnIfFormerCase(member, of: enumeration, index: index)
        return BoundExpression(kind: .constant(.enumCase(EnumCaseValue(type: enumeration, index: index))), type: .enumeration(enumeration), span: span)
    }

    /// The same, for a name `lookupName` resolved (which can't warn: it is also asked while choosing a reading).
    mutating func warnIfFormerCase(_ value: BoundExpression, named name: Identifier) {
        guard case .constant(.enumCase(let found)) = value.kind else { return }
        warnIfFormerCase(name, of: found.type, index: found.index)
    }

    /// A case named by what it was called before: it still works, and the warning says (and `migrate` writes) its name.
    mutating func warnIfFormerCase(_ name: Identifier, of enumeration: AnyEnumType, index: Int) {
        guard enumeration.namesFormerCase(name.name) else { return }
        warnFormerName(name, of: enumeration.typeName, now: enumeration.cases[index].identifier)
    }

    /// The hint for a name that is a case of several enums.
    func ambiguousCaseHint(_ name: String) -> String? {
        let owners = enumCases(withIdentifier: name)
        guard owners.count > 1 else { return nil }
        return "'\(name)' is a case of " + owners.map(\.0.typeName).joined(separator: " and ") + ": name the enum, e.g. '\(owners[0].0.typeName).\(name)'"
    }

    // MARK: Properties

    mutating func bindMember(_ base: BoundExpression, _ member: Identifier, span: Span) -> BoundExpression {
        if case .error = base.kind { return .error(span) }
        guard let (access, type) = resolveProperty(member, on: base.type) else { return .error(span) }
        return BoundExpression(kind: .property(base, access), type: type, span: span)
    }

    mutating func resolveProperty(_ member: Identifier, on type: ValueType) -> (PropertyAccess, ValueType)? {
        let name = member.name
        switch type {
        case .entity(let entity):
            if let index = entity.propertyIndex[name.lowercased()] {
                let current = entity.properties[index].name
                if current.lowercased() != name.lowercased() { warnFormerName(member, of: entity.typeName, now: current) }
                return (.entity(entity, index), entity.properties[index].type)
            }
            if name == "id" { return (.dynamic("id"), .text) }
            let names = entity.properties.map(\.name)
            error("\(entity.singular) has no property '\(name)'", member.span,
                  hint: NearestNames.suggest(name, from: names).isEmpty ? "available: " + names.joined(separator: ", ")
                      : NearestNames.hint(for: name, in: names))
            return nil
        case .date:
            if let part = DatePart(rawValue: name) { return (.datePart(part), part.type) }
            error("a Date has no part '\(name)'", member.span,
                  hint: NearestNames.hint(for: name, in: DatePart.allCases.map(\.rawValue), listing: "parts"))
            return nil
        case .file:
            if let property = FileProperty(rawValue: name) { return (.file(property), property.type) }
            error("a File has no property '\(name)'", member.span,
                  hint: NearestNames.hint(for: name, in: FileProperty.allCases.map(\.rawValue)))
            return nil
        case .duration:
            guard Units.durationProperty(named: name) != nil else {
                error("a Duration has no property '\(name)'", member.span,
                      hint: NearestNames.hint(for: name, in: Units.durationPropertyNames, listing: "available"))
                return nil
            }
            return (.dynamic(name), .decimal)
        case .period:
            guard name == "months" || name == "years" else {
                error("a Period has no property '\(name)'", member.span, hint: "available: months, years")
                return nil
            }
            return (.dynamic(name), name == "months" ? .int : .decimal)
        case .list(let element):
            // `xs.count`: a property of a list maps over its elements, so this would say "Int has no property".
            if let function = Self.functionMeant(by: name), !Self.mayHaveMembers(element) {
                error("a list has no property '\(name)'", member.span, hint: "write \(function)(…) with the list inside")
                return nil
            }
            guard let (inner, innerType) = resolveProperty(member, on: element) else { return nil }
            return (.each(inner), .list(innerType))
        case .recordOf(let shape):
            guard let fieldType = shape.type(of: name) else {
                error("the record has no field '\(name)'", member.span,
                      hint: NearestNames.suggest(name, from: shape.names).isEmpty ? "its fields: " + shape.names.joined(separator: ", ")
                          : NearestNames.hint(for: name, in: shape.names))
                return nil
            }
            return (.dynamic(name), fieldType)
        case .record, .any:
            return (.dynamic(name), .any)
        case .null:
            return (.dynamic(name), .null)
        default:
            error("\(type) has no property '\(name)'", member.span,
                  hint: Self.functionMeant(by: name).map { "write \($0)(…) with the value inside" })
            return nil
        }
    }

    /// The built-in function someone probably meant by a property: `xs.count`, `t.length`, `t.upper`.
    static func functionMeant(by name: String) -> String? {
        if ["length", "size"].contains(name) { return "count" }
        guard let function = BuiltinFunction(rawValue: name), function.isCalled else { return nil }
        return function.rawValue
    }

    /// Whether elements of this type have properties of their own (`files.size` maps `size` over files), or may
    /// have one of any name: entities, records, values known only later.
    static func mayHaveMembers(_ type: ValueType) -> Bool {
        switch type {
        case .entity, .record, .recordOf, .any, .file, .date, .duration, .list: return true
        default: return false
        }
    }

    // MARK: Indexing

    /// `xs[i]` and `t[i]` take an Int (from 0; negative from the end), `r[key]` a Text. What is not there is
    /// `nil`, as `first` of an empty list is; a constant key a record's known shape lacks is an error.
    mutating func bindIndex(_ base: BoundExpression, _ index: BoundExpression, span: Span) -> BoundExpression {
        func needs(_ type: ValueType, _ what: String) -> Bool {
            guard index.type.isAssignable(to: type) || index.type == .any else {
                error("\(what) is indexed by \(type == .int ? "a whole number" : "a text"), and this is \(index.type)", index.span,
                      hint: type == .int ? "the first is xs[0], the last xs[-1]" : "write r[\"name\"]")
                return false
            }
            return true
        }
        var type = ValueType.any
        switch base.type {
        case .list(let element):
            guard needs(.int, "a list") else { return .error(span) }
            type = element
        case .text:
            guard needs(.int, "a text") else { return .error(span) }
            type = .text
        case .recordOf(let shape):
            guard needs(.text, "a record") else { return .error(span) }
            if case .constant(.text(let key)) = index.kind {
                guard let field = shape.type(of: key) else {
                    error("this record has no field '\(ValueFormatter.escapingControlCharacters(key))'", index.span,
                          hint: "its fields are \(shape.names.map { "'\($0)'" }.joined(separator: ", "))")
                    return .error(span)
                }
                type = field
            }
        case .record:
            guard needs(.text, "a record") else { return .error(span) }
        case .any, .null:
            break
        default:
            error("\(base.type) can't be indexed: xs[i] works on lists, texts and records", span,
                  hint: "read a property with '.', e.g. x.name")
            return .error(span)
        }
        return BoundExpression(kind: .index(base, index), type: type, span: span)
    }

    // MARK: Functions

    mutating func bindFunction(_ name: Identifier, _ arguments: [Expression], span: Span) -> BoundExpression {
        guard let function = BuiltinFunction(rawValue: name.name) else {
            error("unknown function '\(name.name)'", name.span)
            return .error(span)
        }
        let bound = arguments.map { bindPipeline($0) }
        let arity = BuiltinFunctions.arity(function)
        guard arity.contains(bound.count) else {
            let expected = arity.lowerBound == arity.upperBound ? "\(arity.lowerBound)" : "\(arity.lowerBound) to \(arity.upperBound)"
            error("'\(name.name)' takes \(expected) argument\(arity.upperBound == 1 ? "" : "s"), got \(bound.count)", span)
            return .error(span)
        }
        let first = bound.first?.type ?? .any
        var type: ValueType = .any
        switch function {
        case .count: type = .int
        case .first where bound.count == 2, .last where bound.count == 2: type = first
        case .first, .last: type = first.elementType ?? (first == .text ? .text : first)
        case .split, .words, .lines, .characters: type = .list(.text)
        case .trim, .upper, .lower, .capitalize, .replace, .padLeft, .padRight, .json: type = .text
        case .parseJson, .valueAt: type = .any
        case .matches: type = .bool
        case .match, .replaceMatches: type = .text
        case .allMatches, .captures: type = .list(.text)
        case .parseDate: type = .date
        case .difference: type = .int
        case .sum: type = first.elementType ?? .any
        case .average:
            switch first.elementType {
            case .int?, .decimal?: type = .decimal
            case .duration?, .size?: type = first.elementType!
            default: type = .any
            }
        case .min, .max: type = bound.count == 1 ? (first.elementType ?? .any) : bound.dropFirst().reduce(first) { $0.joined(with: $1.type) }
        case .join, .text: type = .text
        case .number: type = first == .int || first == .decimal ? first : .any
        case .date:
            type = .date
            if case .constant(.text(let text)) = bound[0].kind {
                guard let date = DateParsing.parse(text) else {
                    error("'\(ValueFormatter.escapingControlCharacters(text))' is not a date", bound[0].span,
                          hint: "write it as 2024-05-01 or 2024-05-01 07:30 (\(DateRange.description))")
                    return .error(span)
                }
                return BoundExpression(kind: .constant(.date(date)), type: .date, span: span)
            }
        case .round: type = bound.count == 2 ? .decimal : .int
        case .floor, .ceiling:
            type = .int
            if ![.any, .null, .int, .decimal].contains(first) { error("'\(name.name)' needs a number, and this is \(first)", bound[0].span) }
        case .format:
            type = .text
            if ![.any, .null, .date, .int, .decimal].contains(first) {
                error("'format' writes a date or a number, and this is \(first)", bound[0].span, hint: "to write any value as text, use text(…)")
            }
            if ![.any, .null, .text].contains(bound[1].type) {
                error("'format' needs a pattern text such as \"EEEE, d MMMM\" or \"#,##0.00\", and this is \(bound[1].type)", bound[1].span)
            }
        case .abs: type = first
        case .now, .today, .yesterday, .tomorrow: type = .date
        }
        if [.sum, .average, .min, .max, .join, .first, .last].contains(function), bound.count == 1 || function == .first || function == .last,
           ![.any, .null, .text].contains(first), first.elementType == nil {
            error("'\(name.name)' needs a list, and this is \(first)", bound[0].span)
        }
        if BuiltinFunction.withPattern.contains(function), case .constant(.text(let pattern)) = bound[1].kind {
            // A constant pattern is compiled now, so that a mistake in it is a compile-time error at the pattern.
            if let problem = RegexFunctions.problem(in: pattern) {
                error("'\(ValueFormatter.escapingControlCharacters(pattern))' is not a regular expression: \(problem)", bound[1].span)
            }
        }
        if BuiltinFunction.onTexts.contains(function), ![.any, .null, .text].contains(first) {
            error("'\(name.name)' needs a text, and this is \(first)", bound[0].span,
                  hint: first.elementType == .text ? "to do it to each text of a list, use 'for'" : "make it a text first with text(…)")
        }
        return BoundExpression(kind: .function(function, bound), type: type, span: span)
    }
}
