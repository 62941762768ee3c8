import AutoIntents
import AutoRuntime
import Foundation

/// Resolves every name of a program against the registry and its own declarations, types every
/// expression and reports all it finds wrong, with hints. Shortcuts are registered first, so calls to
/// them type-check wherever they are declared.
struct Checker {
    var registry: Registry
    var diagnostics: [Diagnostic] = []
    var file: SourceFile
    var scope = Scope()
    /// The types `return` gave in the body being checked.
    var returnTypes: [ValueType] = []
    var inShortcut = false
    /// How many loops enclose the statement being checked: `break` and `continue` need one.
    var loopDepth = 0
    /// The host's command (`auto`, `library`), for hints that name its commands.
    var commandName = "auto"
    /// The result types of the shortcuts whose bodies are checked, by name (unique in a registry; a dictionary keyed by
    /// `ObjectIdentifier` cost a scan of every conformance record on every start): a call checked after the body
    /// knows it; one checked before (a recursion) has Any. Descriptors never change; the compiler gets ones with
    /// these types (`ScriptCompiler`).
    var shortcutOutputTypes: [String: ValueType] = [:]
    /// The prelude's shortcuts whose bodies are not checked (`PreludeBodies.whenCalled`), and whether the script
    /// calls one: then it is compiled again with them all.
    var uncheckedShortcuts: Set<String> = []
    var calledUncheckedShortcut = false
    /// Shortcuts declared so far, across the prelude and the script: the next one's index in the program.
    var shortcutCount = 0
    /// What the run will be granted: a call in the script to an intent needing something not granted at all is an
    /// error. The prelude's shortcuts are the engine's own; their intents check the grants when they run.
    var grants = Grants.all
    /// The script being checked, as opposed to the prelude files whose shortcuts are checked first.
    let script: SourceFile
    /// While an automation's body is checked: the names its trigger's value goes by, which no statement may change.
    var automationTrigger: AutomationTriggerNames?
    /// Where the script's names are declared and used, recorded when an editor asks (`ScriptCompiler.index`).
    var symbols: SymbolIndex?

    init(registry: Registry, file: SourceFile) {
        self.registry = registry
        self.file = file
        self.script = file
    }

    mutating func error(_ message: String, _ span: Span, hint: String? = nil, fix: Diagnostic.Fix? = nil) {
        diagnostics.append(Diagnostic(.error, message, at: span, in: file, hint: hint, fix: fix))
    }

    /// The fix for a misspelt name whose hint suggests one replacement alone: an editor applies it.
    static func fix(_ span: Span, nearest: [String]) -> Diagnostic.Fix? {
        nearest.count == 1 ? Diagnostic.Fix(span: span, replacement: nearest[0]) : nil
    }

    /// Valid, but likely not what was meant: the script still runs, and the front end prints the warning first.
    mutating func warning(_ message: String, _ span: Span, hint: String? = nil, fix: Diagnostic.Fix? = nil) {
        diagnostics.append(Diagnostic(.warning, message, at: span, in: file, hint: hint, fix: fix))
    }

    /// A name written as it was in an earlier version of the host (a parameter's, a property's, a case's): it still
    /// works, and the warning gives the current name, with the fix `migrate --write` applies. `write` is what the hint
    /// shows, when it is more than the name (a label's colon).
    mutating func warnFormerName(_ name: Identifier, of owner: String, now current: String, write: String? = nil) {
        warning("'\(name.name)' of \(owner) is now called '\(current)'", name.span, hint: "write '\(write ?? current)'",
                fix: Diagnostic.Fix(span: name.span, replacement: current))
    }

    // MARK: Shortcuts

    /// A shortcut declaration whose descriptor is registered, waiting for its body to be checked.
    struct PendingShortcut {
        let declaration: ShortcutDeclaration
        let file: SourceFile
        let descriptor: IntentDescriptor
        let parameterTypes: [ValueType]
        /// Its `phrases`, each with where it is written: registered with its final descriptor (`ScriptCompiler`).
        let phrases: [(phrase: ShortcutPhrase, span: Span)]
    }

    /// Registers the shortcuts declared at the top level of `program`.
    mutating func declareShortcuts(in program: SyntaxTree) -> [PendingShortcut] {
        file = program.file
        var pending: [PendingShortcut] = []
        for statement in program.statements {
            guard case .shortcut(let declaration) = statement.kind else { continue }
            var parameters: [ParameterInfo] = []
            var seen: Set<String> = []
            for parameter in declaration.parameters {
                let type = resolveType(parameter.type)
                if !seen.insert(parameter.name.name.lowercased()).inserted {
                    error("the parameter '\(parameter.name.name)' is declared twice", parameter.name.span)
                }
                var defaultValue: Value?
                if let expression = parameter.defaultValue {
                    var inner = Checker(registry: registry, file: file)
                    let bound = inner.bind(expression, expected: type.base)
                    diagnostics += inner.diagnostics
                    if let value = Self.constantValue(of: bound) {
                        defaultValue = coerceConstant(value, to: type.base, at: expression.span)
                        if !value.type.isAssignable(to: type.base), !(value.isNull && type.optional) {
                            error("the default of '\(parameter.name.name)' is \(value.type), but the parameter is \(type.base)", expression.span)
                        }
                    } else if inner.diagnostics.isEmpty {
                        error("a parameter's default must be a fixed value, such as 3, \"text\" or [1, 2]", expression.span)
                    }
                }
                parameters.append(ParameterInfo(
                    name: parameter.name.name, title: parameter.name.name, type: type.base,
                    isRequired: !type.optional && parameter.defaultValue == nil, defaultValue: defaultValue))
            }
            let location = file.location(of: declaration.nameSpan.start)
            let descriptor = IntentDescriptor(
                title: declaration.name, description: IntentDescription("A shortcut from \(file.name).", category: "Shortcuts"),
                parameters: parameters, outputType: .any, implementation: .shortcut(shortcutCount),
                origin: "\(file.name):\(location.line)")
            let phrases = declaration.phrases.compactMap { phrase in shortcutPhrase(phrase, parameters: parameters).map { ($0, phrase.span) } }
            do {
                try registry.add(descriptor)
                symbols?.declareShortcut(declaration.name, at: declaration.nameSpan, in: file)
                shortcutCount += 1
                pending.append(PendingShortcut(declaration: declaration, file: file, descriptor: descriptor, parameterTypes: parameters.map(\.type),
                                               phrases: phrases))
            } catch {
                self.error(error.message, declaration.nameSpan, hint: "give the shortcut another name")
            }
        }
        return pending
    }

    /// A shortcut's phrase as the phrase matcher reads it: a text whose `\(name)`s name the shortcut's parameters; nil,
    /// said, for anything else. What else a phrase must be (one parameter, of a type words can give) registration
    /// checks, as it checks an App Shortcut's.
    mutating func shortcutPhrase(_ phrase: Expression, parameters: [ParameterInfo]) -> ShortcutPhrase? {
        guard case .text(let segments) = phrase.kind else {
            error("a phrase is a text, such as \"describe \\(n)\"", phrase.span)
            return nil
        }
        var parts: [ShortcutPhrase.Part] = []
        for segment in segments {
            switch segment {
            case .literal(let text):
                parts.append(.text(text))
            case .interpolation(let inner):
                guard let name = Self.loneName(inner),
                      let parameter = parameters.first(where: { $0.name.lowercased() == name.lowercased() }) else {
                    let names = parameters.map { "\\(\($0.name))" }
                    error("a phrase's \\(…) names a parameter of its shortcut", inner.span,
                          hint: names.isEmpty ? "the shortcut has no parameters" : "its parameters: " + names.joined(separator: ", "))
                    return nil
                }
                parts.append(.parameter(parameter.name))
            }
        }
        return ShortcutPhrase(parts: parts)
    }

    /// The word of an expression that is one word: a name, or what the parser can't tell from an action's name.
    static func loneName(_ expression: Expression) -> String? {
        switch expression.kind {
        case .name(let name): name.name
        case .action(let words, let arguments) where words.count == 1 && arguments.isEmpty: words[0].name
        default: nil
        }
    }

    /// Checks a shortcut's body: its parameters are its first slots.
    mutating func checkShortcut(_ shortcut: PendingShortcut) -> BoundBody {
        file = shortcut.file
        beginBody()
        for (index, (parameter, type)) in zip(shortcut.descriptor.parameters, shortcut.parameterTypes).enumerated() {
            let slot = scope.assign(parameter.name, type: type)
            if index < shortcut.declaration.parameters.count {
                symbols?.declare(shortcut.declaration.parameters[index].name, slot: slot, type: type, in: file)
            }
        }
        returnTypes = []
        inShortcut = true
        let statements = bindBlock(shortcut.declaration.body.statements)
        inShortcut = false
        shortcutOutputTypes[shortcut.descriptor.name] = returnTypes.dropFirst().reduce(returnTypes.first ?? .null) { $0.joined(with: $1) }
        return BoundBody(name: shortcut.descriptor.name, file: file, statements: statements, slotNames: scope.slotNames)
    }

    /// Checks the statements of a script (its shortcut declarations were checked on their own).
    /// `args` is the first slot; a REPL entry's session variables come next, in the slots they had.
    mutating func checkScript(_ program: SyntaxTree, session: SessionScope? = nil) -> BoundBody {
        file = program.file
        beginBody()
        _ = scope.assign("args", type: .list(.text))
        for variable in session?.variables ?? [] where variable.name != "args" { _ = scope.assign(variable.name, type: variable.type) }
        if let session { scope.itType = session.itType }
        let statements = bindBlock(program.statements.filter {
            switch $0.kind {
            case .shortcut, .automation: return false
            default: return true
            }
        })
        return BoundBody(name: program.file.name, file: file, statements: statements, slotNames: scope.slotNames)
    }

    /// A new body (the script's, a shortcut's, an automation's): no variables yet.
    mutating func beginBody() {
        scope = Scope()
        symbols?.beginBody()
    }

    // MARK: Types

    struct ResolvedType {
        let base: ValueType
        let optional: Bool
    }

    mutating func resolveType(_ annotation: TypeAnnotation) -> ResolvedType {
        switch annotation {
        case .optional(let inner, _):
            return ResolvedType(base: resolveType(inner).base, optional: true)
        case .list(let element, _):
            return ResolvedType(base: .list(resolveType(element).base), optional: false)
        case .named(let name):
            if let builtin = ValueType.builtin(named: name.name) { return ResolvedType(base: builtin, optional: false) }
            if let entity = registry.entityType(named: name.name) { return ResolvedType(base: .entity(entity), optional: false) }
            if let enumeration = registry.enumType(named: name.name) { return ResolvedType(base: .enumeration(enumeration), optional: false) }
            let known = ["Int", "Decimal", "Text", "Bool", "Date", "Duration", "Size", "File", "List", "Record", "Any"]
                + registry.entityTypes.map(\.typeName) + registry.enumTypes.map(\.typeName)
            error("unknown type '\(name.name)'", name.span, hint: NearestNames.hint(for: name.name, in: known, listing: "types"))
            return ResolvedType(base: .any, optional: false)
        }
    }

    // MARK: Constants

    /// The value of an expression that needs nothing from a run: literals, lists and records of them.
    static func constantValue(of expression: BoundExpression) -> Value? {
        switch expression.kind {
        case .constant(let value): return value
        case .list(let items):
            var values: [Value] = []
            for item in items {
                guard let value = constantValue(of: item) else { return nil }
                values.append(value)
            }
            return .list(values)
        case .record(let keys, let items):
            var values: [Value] = []
            for item in items {
                guard let value = constantValue(of: item) else { return nil }
                values.append(value)
            }
            return .record(Record(keys: keys, values: values))
        default:
            return nil
        }
    }

    /// A constant converted where it is used as another type (a text naming an enum case), checked now.
    mutating func coerceConstant(_ value: Value, to type: ValueType, at span: Span) -> Value {
        if case .text(let text) = value, case .enumeration(let enumeration) = type, enumeration.caseIndex(named: text) == nil {
            error("'\(text)' is not a \(enumeration.typeName)", span, hint: "choose one of: " + Coercion.caseNames(of: enumeration))
            return value
        }
        return (try? Coercion.converted(value, to: type)) ?? value
    }
}
