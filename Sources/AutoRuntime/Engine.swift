import AutoIntents

/// Runs compiled programs. An engine is configuration only — what the host registered for its intents, and the
/// default limits — so one engine runs any number of programs at once, from any task: everything a run changes
/// (its frames, `it`, its step count and deadline, the dialogs it holds back) lives in a `Run` of its own.
package struct Engine: Sendable {
    /// The host's dependencies, for `IntentContext.dependency(_:)`.
    package let dependencies: Dependencies
    /// The limits of a run that gives none of its own.
    package var limits: RunLimits
    /// What runs may touch outside the engine (files, the network, programs, the environment): intents check it.
    package var grants: Grants

    package init(registry: Registry, limits: RunLimits = RunLimits(), grants: Grants = .all) {
        self.dependencies = registry.dependencies
        self.limits = limits
        self.grants = grants
    }

    /// Runs `program`: `arguments` fill its first slots (a script's `args`). The outcome says how the run ended;
    /// nothing is thrown.
    /// - `interaction`: how the run talks to people (a terminal, a test's scripted answers, nobody).
    /// - `cancellation`: set from outside (Ctrl-C) to stop the run; the intent running sees it.
    /// - `whatIf`: stop before the first intent that changes anything, saying what it would do.
    /// - `session`: a REPL session's state before the run — its variables' values in their slots and `it` — which
    ///   the outcome gives back as the run left it, also when the run failed part way.
    /// - `it`: what `it` starts as (an automation's scheduled instant).
    /// - `trace`: where each action is recorded as it runs (an automation's run history).
    /// - `writes`: told each path an intent is allowed to write (a file automation ignores its own writes).
    ///
    /// On the caller's executor: a run of immediate calls (`auto -e 'show 1'`) hops to no other thread, so starting
    /// one starts none. Only a time limit's race runs the program in a task of its own.
    nonisolated(nonsending) package func run(_ program: Program, arguments: [Value] = [], interaction: any Interaction,
                    cancellation: CancellationFlag = CancellationFlag(), limits: RunLimits? = nil,
                    whatIf: Bool = false, session: SessionState? = nil, it: Value = .null, trace: RunTrace? = nil,
                    writes: (@Sendable (String) -> Void)? = nil) async -> RunOutcome {
        let limits = limits ?? self.limits
        let dependencies = self.dependencies, grants = self.grants
        let start: nonisolated(nonsending) @Sendable (ContinuousClock.Instant?) async -> RunOutcome = { deadline in
            let context = IntentContext(interaction: interaction, cancellation: cancellation, dependencies: dependencies, grants: grants,
                                        json: JSONReader.codec(limits: limits.values), writes: writes)
            let run = Run(program: program, context: context, limits: limits, deadline: deadline, whatIf: whatIf, trace: trace)
            guard let session else { return await run.start(arguments: arguments, it: it) }
            return await run.start(arguments: session.slots, it: session.it, keepingState: true)
        }
        guard let maxDuration = limits.maxDuration else { return await start(nil) }
        let deadline = ContinuousClock.now + maxDuration
        // The run and a timer race: when the timer wins, the run's task is cancelled, so that an intent that is
        // awaiting (a sleep, a request) stops too instead of running on past the limit; the run then ends with the
        // time limit as its error.
        return await withTaskGroup(of: RunOutcome?.self) { group in
            group.addTask { await start(deadline) }
            group.addTask {
                try? await Task.sleep(until: deadline, clock: .continuous)
                return nil
            }
            var outcome: RunOutcome?
            while outcome == nil, let next = await group.next() {
                outcome = next
                group.cancelAll()
            }
            return outcome ?? RunOutcome(ending: .cancelled(reason: "interrupted"), lastStatementShowedDialog: false)
        }
    }
}

/// The values a REPL session keeps between entries: its variables by slot (`args` first) and `it`.
package struct SessionState: Sendable {
    package var slots: [Value]
    package var it: Value
    package init(slots: [Value] = [.list([])], it: Value = .null) {
        self.slots = slots
        self.it = it
    }
}

/// How a run ended.
package struct RunOutcome: Sendable {
    package enum Ending: Sendable {
        /// The script ran to its end (or `stop`): its result, the value of its last statement or what `return` gave.
        case completed(Value)
        /// `whatIf`: the run stopped before the first intent that changes anything, having said what it would do.
        case stoppedBeforeChange
        case failed(RuntimeError)
        /// Stopped on purpose: a declined confirmation, Ctrl-C.
        case cancelled(reason: String)
    }

    package let ending: Ending
    /// Whether the script's last statement showed a dialog: a front end that prints the result may leave it out,
    /// since the statement already said what it did.
    package let lastStatementShowedDialog: Bool
    /// A session's state as the run left it, when the run was given one.
    package let session: SessionState?

    package init(ending: Ending, lastStatementShowedDialog: Bool, session: SessionState? = nil) {
        self.ending = ending
        self.lastStatementShowedDialog = lastStatementShowedDialog
        self.session = session
    }

    /// The script's result: the value of its last statement when that statement makes one — an expression, an
    /// action that returns something, `return value` — and nil after `set`, `show`, a control statement or `stop`.
    /// One rule for every front end: `--json` writes it (`null` when there is none), people see it printed.
    package func result(of program: Program) -> Value? {
        guard case .completed(let value) = ending, program.main.endsWithValue else { return nil }
        return value
    }

    /// The result as printed for people: not `nil`, and not when the last statement already said what it did.
    package func printedResult(of program: Program) -> Value? {
        guard let value = result(of: program), !value.isNull, !lastStatementShowedDialog else { return nil }
        return value
    }

    /// The result, or the run's error (`RuntimeError`, or `RunCancelled` for a cancelled run): for callers that
    /// handle the ways a run ends as errors. A stop before a change gives nil.
    package func value() throws -> Value {
        switch ending {
        case .completed(let value): return value
        case .stoppedBeforeChange: return .null
        case .failed(let error): throw error
        case .cancelled(let reason): throw RunCancelled(reason)
        }
    }
}
