import AutoIntents
import Synchronization

/// Lets a long built-in — a sort, a filter, showing or joining a big list — stop when its run is cancelled or out
/// of time, instead of running on past Ctrl-C or the time limit: the run sets one for its task, and the built-in
/// looks at it every few thousand elements (a look is a task-local read and two loads).
package final class Interruption: Sendable {
    @TaskLocal static var current: Interruption?

    let cancellation: CancellationFlag
    let deadline: ContinuousClock.Instant?
    /// The run's step limit, which the work of a long built-in counts against too (`charge`).
    let maxSteps: Int
    /// Steps that built-ins did inside one node (a regular expression's backtracking), counted with the run's own
    /// steps against `maxSteps`, so that no built-in can hold the run's thread forever when no time limit is set.
    let builtinSteps = Atomic<Int>(0)

    /// What the run holds, when its values' memory is bounded (`--max-memory`).
    let memory: RunMemory?

    init(cancellation: CancellationFlag, deadline: ContinuousClock.Instant?, maxSteps: Int = RunLimits().maxSteps, memory: RunMemory? = nil) {
        self.cancellation = cancellation
        self.deadline = deadline
        self.maxSteps = maxSteps
        self.memory = memory
    }

    /// How many elements a long built-in handles between two looks.
    package static let stride = 4096

    /// Never inlined, nor is anything that reads the deadline: `ContinuousClock.Instant`'s size is only known at run
    /// time, and a function that holds one, even on a path it rarely takes, looks up its metadata on every call —
    /// inlined into the evaluator, that was a quarter more instructions in a loop.
    @inline(never)
    var shouldStop: Bool {
        cancellation.isCancelled || Task.isCancelled || deadline.map { ContinuousClock.now > $0 } ?? false
    }

    /// Whether the current run should stop: a built-in that can't throw stops early with what it has, and the
    /// caller throws `check()`, so that nothing it built after the stop is used or shown.
    package static var isRequested: Bool { current?.shouldStop ?? false }

    /// Throws when the current run should stop. The executor then reports why: a cancellation, or the time limit.
    static func check() throws(EvaluationError) {
        if isRequested { throw EvaluationError.interrupted }
    }

    /// Counts `steps` of a built-in's own work against the step limit, and throws when the run should stop: it was
    /// cancelled, its time is up, or the steps are over the limit (`what` names the work in that error).
    @inline(never)
    func charge(_ steps: Int, for what: String) throws(EvaluationError) {
        if shouldStop { throw EvaluationError.interrupted }
        let total = builtinSteps.add(steps, ordering: .relaxed).newValue
        if total > maxSteps {
            throw EvaluationError("\(what) took more than \(maxSteps) steps and was stopped", kind: .stepLimit(maxSteps))
        }
    }
}
