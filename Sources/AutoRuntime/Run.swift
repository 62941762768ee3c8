import AutoIntents

/// One run of a program: everything that changes while it runs. A run belongs to the task that started it and is
/// never shared — it is not Sendable — so its hot state skips the dynamic exclusivity checks that would otherwise
/// run on every step of a loop; that is sound because only that task touches it.
///
/// The work is split by concern: the executor (`Run+Execute`, running a body's `Code`), expressions (`Run+Expressions`), `find`
/// (`Run+Find`), intent calls (`Run+Calls`) and their arguments (`Run+Arguments`).
final class Run {
    let program: Program
    let context: IntentContext
    let limits: RunLimits
    /// `--what-if`: stop before the first intent that changes anything, saying what it would do.
    let whatIf: Bool
    /// Where each action is recorded, for a run history; nil records nothing.
    let trace: RunTrace?
    /// Whether calls may go through their sites (`ActionCall+Bound`): not when each is recorded or only said.
    let callsThroughSites: Bool

    var interaction: any Interaction { context.interaction }
    /// The context's, kept here too: read on every call, from the run it is one load.
    let cancellation: CancellationFlag

    @exclusivity(unchecked) var steps = 0
    /// The step count at which the limits are checked next: every 1,024 steps, and at the step limit itself.
    @exclusivity(unchecked) var nextCheck = 0
    @exclusivity(unchecked) var callDepth = 0
    /// Dialogs shown so far, and how many there were when the current top-level statement began.
    @exclusivity(unchecked) var dialogs = 0
    @exclusivity(unchecked) var dialogsBeforeStatement = 0
    @exclusivity(unchecked) var scriptFrame: Frame?
    /// Dialogs of immediate intents that the interaction could only show by awaiting: shown, in order, once the
    /// node that made them is done.
    @exclusivity(unchecked) var pendingDialogs: [Dialog] = []
    /// Ctrl-C and the deadline, also set as the task's for long built-ins. The deadline is kept there, behind a
    /// reference, and read only in functions never inlined into the hot ones (see `Interruption.shouldStop`).
    let interruption: Interruption

    /// Thrown to end a `--what-if` run before the first change.
    struct WhatIfStop: Error {}

    init(program: Program, context: IntentContext, limits: RunLimits, deadline: ContinuousClock.Instant?, whatIf: Bool, trace: RunTrace? = nil) {
        self.trace = trace
        self.program = program
        self.context = context
        self.limits = limits
        interruption = Interruption(cancellation: context.cancellation, deadline: deadline, maxSteps: limits.maxSteps,
                                    memory: limits.values.givenMaxBytes.flatMap(RunMemory.init))
        self.whatIf = whatIf
        cancellation = context.cancellation
        callsThroughSites = trace == nil && !whatIf
        nextCheck = min(1024, stepCeiling)
    }

    /// Runs the program's main graph to its end and says how it ended. `it` starts as given; with `keepingState`
    /// the outcome holds the script frame's slots and `it` as the run left them (a REPL session's next state).
    nonisolated(nonsending) func start(arguments: [Value], it: Value = .null, keepingState: Bool = false) async -> RunOutcome {
        let ending: RunOutcome.Ending
        var state: SessionState? {
            guard keepingState, let frame = scriptFrame else { return nil }
            return SessionState(slots: Array(frame.slots), it: frame.it)
        }
        do {
            let result = try await runScript(arguments: arguments, it: it)
            return RunOutcome(ending: .completed(result), lastStatementShowedDialog: dialogs > dialogsBeforeStatement, session: state)
        } catch is WhatIfStop {
            await showPendingDialogs()
            return RunOutcome(ending: .stoppedBeforeChange, lastStatementShowedDialog: true, session: state)
        } catch let error as RuntimeError {
            ending = .failed(error)
        } catch {
            ending = stopped(by: error).map(RunOutcome.Ending.failed) ?? .cancelled(reason: (error as? RunCancelled)?.reason ?? "interrupted")
        }
        // What a loop showed before it failed is still shown, before the error.
        await showPendingDialogs()
        return RunOutcome(ending: ending, lastStatementShowedDialog: false, session: state)
    }

    /// A cancellation that the time limit caused is the time limit's error; any other is a cancellation (nil).
    @inline(never)
    func stopped(by error: any Error, at location: SourceLocation? = nil) -> RuntimeError? {
        guard let deadline = interruption.deadline, let maxDuration = limits.maxDuration, ContinuousClock.now >= deadline else { return nil }
        return RuntimeError("the run took longer than its time limit and was stopped", at: location,
                            kind: .timeLimit(maxDuration))
    }

    /// Runs the script, with its interruption bound for the built-ins (`Interruption.current`). The binding is the
    /// synchronous `withValue`'s for as long as the script runs without awaiting, and the async one's only from its
    /// first await: the async `withValue` runs its body on the cooperative pool, and a script of immediate calls
    /// (`auto -e 'show 1'`) started the pool's threads for nothing, 0.7–1.2 ms of its 3.5.
    nonisolated(nonsending) func runScript(arguments: [Value], it: Value) async throws -> Value {
        let graph = program.main, code = graph.code
        let frame = frame(for: graph, arguments: arguments, it: it)
        scriptFrame = frame
        var pc = 0
        let pause = try Interruption.$current.withValue(interruption) { try advanceHandling(code, frame, &pc) }
        if case .ended(let ending) = pause, pendingDialogs.isEmpty { return result(of: ending, frame) }
        let ending = try await Interruption.$current.withValue(interruption) { try await execute(code, frame, from: pc, after: pause) }
        return result(of: ending, frame)
    }

    /// Runs a shortcut's graph in a frame of its own. Returns its result.
    nonisolated(nonsending) func call(_ graph: ActionGraph, arguments: [Value]) async throws -> Value {
        let frame = frame(for: graph, arguments: arguments, it: .null)
        return result(of: try await execute(graph.code, frame), frame)
    }

    /// A graph's frame, `arguments` in its first slots.
    func frame(for graph: ActionGraph, arguments: [Value], it: Value) -> Frame {
        let frame = Frame(slotCount: graph.slotNames.count, loopCount: graph.code.loopCount)
        frame.it = it
        for (index, argument) in arguments.enumerated() where index < frame.slots.count { frame.slots[index] = argument }
        return frame
    }

    /// What a body that ended so gives back: `return`'s value, or else its `it`.
    func result(of ending: Ending, _ frame: Frame) -> Value {
        switch ending {
        case .normal, .stop: return frame.it
        case .returned: return frame.returned
        }
    }

    // MARK: Limits

    /// The first step over the limit (the limit itself is allowed), without overflowing at `Int.max`.
    var stepCeiling: Int { limits.maxSteps < Int.max ? limits.maxSteps + 1 : Int.max }

    @inline(__always)
    func countStep(_ node: Node) throws {
        steps &+= 1
        if steps >= nextCheck { try checkLimits(node) }
    }

    @inline(never)
    func checkLimits(_ node: Node) throws {
        nextCheck = min(steps &+ 1024, stepCeiling)
        try checkCancellation(at: node.location)
        // A built-in's own steps (`Interruption.charge`) count with the run's.
        if steps &+ interruption.builtinSteps.load(ordering: .relaxed) > limits.maxSteps {
            throw RuntimeError("the run took more than \(limits.maxSteps) steps and was stopped; it may loop forever",
                               at: node.location, kind: .stepLimit(limits.maxSteps))
        }
    }

    /// An expression's error as the run's, at `location`; for a long built-in that stopped, why the run stopped.
    func located(_ error: EvaluationError, at location: SourceLocation) -> any Error {
        guard error.isInterruption else { return RuntimeError(error.message, at: location, kind: error.kind) }
        return stopped(by: RunCancelled(), at: location) ?? RunCancelled()
    }

    /// Ctrl-C and the time limit, between steps and inside long built-ins.
    @inline(never)
    func checkCancellation(at location: SourceLocation?) throws {
        if let deadline = interruption.deadline, ContinuousClock.now > deadline, let error = stopped(by: RunCancelled(), at: location) { throw error }
        if context.isCancelled { throw RunCancelled() }
    }

    // MARK: Dialogs

    /// Shows a dialog from an awaiting intent, after those that wait to be shown.
    nonisolated(nonsending) func showDialog(_ dialog: Dialog) async {
        showNow(dialog)
        await showPendingDialogs()
    }

    /// Shows a dialog at once where the interaction can; otherwise it waits for `showPendingDialogs`.
    func showNow(_ dialog: Dialog) {
        dialogs += 1
        if !pendingDialogs.isEmpty || !interaction.showNow(dialog) { pendingDialogs.append(dialog) }
    }

    /// Shows the dialogs `showNow` kept, in order.
    nonisolated(nonsending) func showPendingDialogs() async {
        while !pendingDialogs.isEmpty {
            let dialog = pendingDialogs.removeFirst()
            await interaction.show(dialog)
        }
    }
}
