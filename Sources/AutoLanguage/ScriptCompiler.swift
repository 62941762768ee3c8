import AutoIntents
import AutoRuntime

/// A script ready to run: its program, and the registry with its shortcuts (and the prelude's) added.
package struct CompiledScript: Sendable {
    /// What `Engine.run` runs: the script's graph and every shortcut's.
    package let program: Program
    package let registry: Registry
    /// The shortcuts declared by the script and the prelude, with their graphs, in declaration order.
    package let shortcuts: [(name: String, graph: ActionGraph)]
    /// What is valid but likely a mistake, in the script itself (the prelude's are the library's own business).
    package let warnings: [Diagnostic]
    /// The script's variables after it, in slot order (`args` first), and the type of `it`: a REPL session's
    /// scope for its next entry.
    package let scope: SessionScope
    /// The script's automations, in declaration order; `auto run` runs none of them, the daemon schedules them.
    package let automations: [Automation]

    package var graph: ActionGraph { program.main }
}

/// What a REPL session has defined before an entry: its variables in slot order (`args` first) and the type of
/// `it`. An entry compiled with it sees them as its own.
package struct SessionScope: Sendable {
    package var variables: [(name: String, type: ValueType)]
    package var itType: ValueType
    package init(variables: [(name: String, type: ValueType)] = [("args", .list(.text))], itType: ValueType = .null) {
        self.variables = variables
        self.itType = itType
    }

    /// `args`, then `variables`: the scope of a line of code handed values as variables declared before it (`say`'s
    /// call, an MCP tool's), whose run gives their values in the same order.
    package static func declaring(_ variables: [(name: String, type: ValueType)]) -> SessionScope {
        SessionScope(variables: [("args", .list(.text))] + variables)
    }
}

/// What went wrong, located; `auto check` prints them all.
package struct CompilationFailure: Error, Sendable {
    package let diagnostics: [Diagnostic]
}

/// Which of the prelude's shortcuts are checked and compiled.
package enum PreludeBodies: Sendable {
    /// Every one: what listing, completing and describing need (each shortcut's result type comes from its body).
    case all
    /// Only when the script calls one; otherwise they are parsed and declared (their names stay taken) but their
    /// bodies are neither checked nor compiled. A run of a script that calls none starts 1.5 ms sooner.
    case whenCalled
}

/// The whole front half: parse, check, compile. Prelude files go first; their shortcuts are available to
/// the script.
package enum ScriptCompiler {
    /// `commandName` is the command people run the host as (`auto`, `library`), for hints that name its commands;
    /// `grants`, what the run will be granted (a call needing more is an error).
    package static func compile(_ source: SourceFile, prelude: [SourceFile] = [], registry: Registry,
                               limits: Parser.Limits = Parser.Limits(), commandName: String = "auto",
                               session: SessionScope? = nil, grants: Grants = .all,
                               preludeBodies: PreludeBodies = .all) -> Result<CompiledScript, CompilationFailure> {
        var first = FirstAttempt.whole
        if preludeBodies == .whenCalled { first = mentionsAShortcut(of: prelude, in: source) ? .preludeDeclared : .alone }
        // A small script that can't touch the prelude is compiled here, on the caller's thread, when it has room; an
        // error then compiles it all on the large stack.
        if first == .alone, source.text.utf8.count <= LargeStack.smallInput, LargeStack.currentThreadHasRoom(LargeStack.roomForSmallInput) {
            if let compiled = compileAlone(source, registry: registry, limits: limits, commandName: commandName, session: session,
                                           grants: grants) {
                return compiled
            }
            first = .whole
        }
        return LargeStack.run({ [first] in
            compileOnThisThread(source, prelude: prelude, registry: registry, limits: limits, commandName: commandName, session: session,
                                grants: grants, first: first)
        }, fallback: {
            let message = "not enough memory to compile: a thread with a \(LargeStack.size >> 20) MB stack could not be started"
            return .failure(CompilationFailure(diagnostics: [Diagnostic(.error, message, at: Span(0, 0), in: source,
                                                                        hint: "raise the address-space limit (ulimit -v)")]))
        })
    }

    /// What a `.whenCalled` compile tries before compiling the whole with every prelude body.
    enum FirstAttempt {
        /// The script without the prelude: it mentions none of its shortcuts (`mentionsAShortcut`).
        case alone
        /// The prelude's shortcuts declared, their bodies not even parsed unless the script calls one.
        case preludeDeclared
        /// Nothing: `.all` was asked for, or the script alone already gave an error.
        case whole
    }

    static func compileOnThisThread(_ source: SourceFile, prelude: [SourceFile], registry: Registry,
                                    limits: Parser.Limits, commandName: String, session: SessionScope?,
                                    grants: Grants, first: FirstAttempt) -> Result<CompiledScript, CompilationFailure> {
        func parsed(skippingPreludeBodies: Bool) -> (programs: [SyntaxTree], diagnostics: [Diagnostic]) {
            var parseDiagnostics: [Diagnostic] = []
            let programs = (prelude + [source]).map { file in
                // The limits are for the script; the prelude ships with the engine and always parses.
                let (program, diagnostics) = Parser.parse(file, limits: file === source ? limits : Parser.Limits(),
                                                          skippingShortcutBodies: skippingPreludeBodies && file !== source)
                parseDiagnostics += diagnostics
                return program
            }
            return (programs, parseDiagnostics)
        }
        // An error in the first attempt, or a call of an unchecked prelude shortcut, compiles it all, below.
        switch first {
        case .alone:
            if let compiled = compileAlone(source, registry: registry, limits: limits, commandName: commandName, session: session,
                                           grants: grants) {
                return compiled
            }
        case .preludeDeclared:
            let (programs, diagnostics) = parsed(skippingPreludeBodies: true)
            if let compiled = compile(programs, parseDiagnostics: diagnostics, source: source, registry: registry, limits: limits,
                                      commandName: commandName, session: session, grants: grants, preludeBodies: .whenCalled) {
                return compiled
            }
        case .whole:
            break
        }
        let (programs, diagnostics) = parsed(skippingPreludeBodies: false)
        // Every body is checked: this gives a result.
        return compile(programs, parseDiagnostics: diagnostics, source: source, registry: registry, limits: limits,
                       commandName: commandName, session: session, grants: grants, preludeBodies: .all)
            ?? .failure(CompilationFailure(diagnostics: diagnostics))
    }

    /// Where the script's variables and shortcuts are declared and used, as the checker resolves them, errors or not:
    /// for an editor. Every body is checked, as a whole compile checks them, and nothing is compiled.
    package static func index(_ source: SourceFile, prelude: [SourceFile] = [], registry: Registry) -> SymbolIndex {
        let index = SymbolIndex(script: source)
        let run = {
            // The script's parse also says which of its words are names, for highlighting.
            var parser = Parser(file: source)
            let script = parser.parseProgram()
            index.nameStarts = Set(parser.nameSpans.map(\.start))
            let programs = prelude.map { Parser.parse($0).0 } + [script]
            var checker = Checker(registry: registry, file: source)
            checker.symbols = index
            for shortcut in programs.flatMap({ checker.declareShortcuts(in: $0) }) { _ = checker.checkShortcut(shortcut) }
            _ = checker.checkAutomations(in: programs[programs.count - 1], session: nil)
            _ = checker.checkScript(programs[programs.count - 1], session: nil)
        }
        // On the large stack, as a compile: a deeply nested script is checked recursively.
        LargeStack.run(run, fallback: {})
        return index
    }

    /// The script without the prelude, for one that names none of its shortcuts (`mentionsAShortcut`); nil when that
    /// gives no answer: an error, which a whole compile reports with the prelude's names among the suggestions.
    static func compileAlone(_ source: SourceFile, registry: Registry, limits: Parser.Limits, commandName: String,
                             session: SessionScope?, grants: Grants) -> Result<CompiledScript, CompilationFailure>? {
        let (program, diagnostics) = Parser.parse(source, limits: limits)
        return compile([program], parseDiagnostics: diagnostics, source: source, registry: registry, limits: limits,
                       commandName: commandName, session: session, grants: grants, preludeBodies: .whenCalled)
    }

    /// Checks and compiles the parsed prelude files and script (the last of `programs`). nil, with `.whenCalled`, when
    /// the whole has to be compiled with every body (see below); never nil with `.all`.
    static func compile(_ programs: [SyntaxTree], parseDiagnostics: [Diagnostic], source: SourceFile, registry: Registry,
                        limits: Parser.Limits, commandName: String, session: SessionScope?, grants: Grants,
                        preludeBodies: PreludeBodies) -> Result<CompiledScript, CompilationFailure>? {
        var diagnostics = parseDiagnostics
        var checker = Checker(registry: registry, file: source)
        checker.commandName = commandName
        checker.grants = grants
        let pending = programs.flatMap { checker.declareShortcuts(in: $0) }
        if preludeBodies == .whenCalled {
            checker.uncheckedShortcuts = Set(pending.filter { $0.file !== source }.map { $0.descriptor.name })
        }
        let shortcutBodies = pending.map { shortcut in
            (shortcut: shortcut, body: checker.uncheckedShortcuts.contains(shortcut.descriptor.name)
                ? BoundBody(name: shortcut.descriptor.name, file: shortcut.file, statements: [], slotNames: shortcut.descriptor.parameters.map(\.name))
                : checker.checkShortcut(shortcut))
        }
        let automations = checker.checkAutomations(in: programs[programs.count - 1], session: session)
        let main = checker.checkScript(programs[programs.count - 1], session: session)
        // Each shortcut's descriptor as it is registered for good: with the result type its body gave. Calls in the
        // graphs name these, and the program holds the graphs in the order of the descriptors' indices. Its phrases are
        // registered with it, so that what `say` matches runs this descriptor.
        var finalRegistry = registry
        var finals: [String: IntentDescriptor] = [:]
        for (shortcut, _) in shortcutBodies {
            let type = checker.shortcutOutputTypes[shortcut.descriptor.name] ?? .any
            let final = shortcut.descriptor.withOutputType(type)
            finals[shortcut.descriptor.name] = final
            // The checker registered the same names without a clash.
            try? finalRegistry.add(final)
            guard !shortcut.phrases.isEmpty else { continue }
            for (index, error) in finalRegistry.register(phrases: shortcut.phrases.map(\.phrase), of: final, applicationName: commandName) {
                checker.diagnostics.append(Diagnostic(.error, error.message, at: shortcut.phrases[index].span, in: shortcut.file))
            }
        }
        // A call to a prelude shortcut whose body was left unchecked needs its result type, and an error is reported
        // as a whole compile reports it (with the prelude's names among the suggestions): both compile it all.
        if preludeBodies == .whenCalled,
           checker.calledUncheckedShortcut || (diagnostics + checker.diagnostics).contains(where: { $0.severity == .error }) {
            return nil
        }
        let scope = SessionScope(variables: checker.scope.declared.map { ($0.name, $0.type) }, itType: checker.scope.itType)
        diagnostics += checker.diagnostics
        for program in programs.dropLast() where programs.count > 1 {
            // A prelude's own top-level statements would run before every script: only shortcuts belong there.
            if let statement = program.statements.first(where: { if case .shortcut = $0.kind { return false }; return true }) {
                diagnostics.append(Diagnostic(.error, "a prelude file declares shortcuts only", at: statement.span, in: program.file))
            }
        }
        if diagnostics.contains(where: { $0.severity == .error }) {
            let fileOrder = Dictionary(programs.enumerated().map { ($1.file.name, $0) }, uniquingKeysWith: { a, _ in a })
            let sorted = diagnostics.sorted { a, b in
                (fileOrder[a.file.name] ?? 0, a.span.start) < (fileOrder[b.file.name] ?? 0, b.span.start)
            }
            return .failure(CompilationFailure(diagnostics: sorted))
        }
        let shortcuts = shortcutBodies.map { shortcut, body in
            (name: shortcut.descriptor.name, graph: Compiler.compile(body, registry: finalRegistry, shortcuts: finals))
        }
        let program = Program(main: Compiler.compile(main, registry: finalRegistry, shortcuts: finals), shortcuts: shortcuts.map(\.graph))
        // The bodies were checked above; each is compiled when it is first needed (a daemon's fire, `auto graph`).
        // Made only when there are automations: even empty, it cost a scan of the conformance records to destroy.
        let bodies = automations.isEmpty ? nil
            : AutomationBodies(file: source, registry: finalRegistry, limits: limits, commandName: commandName, grants: grants)
        let compiledAutomations = automations.map { automation in
            var spans: (expression: Span, zone: Span?) = (automation.declaration.nameSpan, nil)
            if case .cron(_, let span, let zone) = automation.declaration.trigger { spans = (span, zone?.span) }
            if case .file(let syntax) = automation.declaration.trigger { spans = (syntax.path.span, nil) }
            return Automation(name: automation.declaration.name, trigger: automation.trigger, mode: automation.mode,
                              catchUp: automation.catchUp, confirmsAutomatically: automation.confirmsAutomatically,
                              timeout: automation.timeout, debounce: automation.debounce, poll: automation.poll,
                              span: automation.span, nameSpan: automation.declaration.nameSpan, bodies: bodies!, file: source,
                              triggerSpans: spans)
        }
        let warnings = diagnostics.filter { $0.severity == .warning && $0.file.name == source.name }.sorted { $0.span.start < $1.span.start }
        return .success(CompiledScript(program: program, registry: finalRegistry, shortcuts: shortcuts, warnings: warnings, scope: scope,
                                       automations: compiledAutomations))
    }

}
