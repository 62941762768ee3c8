import AutoIntents
import AutoLanguage
import AutoRuntime
import Crypto
import Foundation
import Logging

/// What the automations of one compiled script share: the registry their bodies were checked against (the host's
/// intents with the script's and the prelude's shortcuts) and the shortcuts' graphs.
package final class LoadedScript: Sendable {
    package let registry: Registry
    package let shortcuts: [ActionGraph]

    init(_ compiled: CompiledScript) {
        registry = compiled.registry
        shortcuts = compiled.program.shortcuts
    }
}

/// An automation ready to fire: where it comes from, its trigger and options, its body's graph and its script's
/// shortcuts. A class, sharing its script's parts: the daemon and the scheduler's entry hold the same one, and a
/// daemon of 10,000 automations keeps 10,000 (an inline copy, with its own registry, took ~250 bytes more each).
package final class LoadedAutomation: Sendable {
    package let key: AutomationKey
    package let automation: Automation
    package let script: LoadedScript

    init(key: AutomationKey, automation: Automation, script: LoadedScript) {
        self.key = key
        self.automation = automation
        self.script = script
    }

    /// The SHA-256 of its declaration, in hex: nodes sharing a store fire an automation only while they have the
    /// definition the store has (`ClusterStore.define`), so an edited script rolled out node by node doesn't fire on two
    /// schedules at once.
    package var definition: String {
        SHA256.hash(data: Array(automation.declaration.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// What a fire runs: the body, with the shortcuts it may call.
    package func program() throws(CompilationFailure) -> Program {
        Program(main: try automation.graph(), shortcuts: script.shortcuts)
    }

    /// The automations of a compiled script, keyed by the script's path.
    package static func all(in compiled: CompiledScript, script path: String) -> [LoadedAutomation] {
        let script = LoadedScript(compiled)
        return compiled.automations.map { automation in
            LoadedAutomation(key: AutomationKey(script: path, name: automation.name), automation: automation, script: script)
        }
    }
}

/// Told what each run of an automation is allowed to write (through the file intents) and when it ends: a file
/// automation doesn't trigger itself with its own writes.
package protocol RunWrites: Sendable {
    func run(_ id: RunID, of automation: AutomationKey, wrote path: String)
    func runEnded(_ id: RunID, of automation: AutomationKey)
}

/// Runs one fire of an automation, unattended, and records it: claimed in the store first — a fire claimed before
/// (it ran, or a crash stopped it) never runs again — then run by the engine with nobody to answer, `it` the
/// scheduled instant, and its ending and steps recorded. One log line when it starts and one when it ends.
package struct FireRunner: Sendable {
    package let store: any RunStore
    package let logger: Logger
    package let now: @Sendable () -> Date
    /// What runs may touch outside the engine.
    package let grants: Grants
    package let writes: (any RunWrites)?

    package init(store: any RunStore, logger: Logger, now: @escaping @Sendable () -> Date = { Date() }, grants: Grants = .all,
                writes: (any RunWrites)? = nil) {
        self.store = store
        self.logger = logger
        self.now = now
        self.grants = grants
        self.writes = writes
    }

    /// The run as recorded; nil when the fire had been claimed before. A run by hand may be given `answers` and
    /// approve confirmations, as a script run from the command line may.
    package func run(_ loaded: LoadedAutomation, _ fire: Fire, cancellation: CancellationFlag = CancellationFlag(),
                     answers: PresetAnswers? = nil, approveConfirmations: Bool = false) async throws(RunStoreError) -> RunRecord? {
        guard let id = try await store.claim(fire, at: now()) else { return nil }
        try await record(await execute(loaded, fire, run: id, cancellation: cancellation, answers: answers, approveConfirmations: approveConfirmations))
        return try await store.run(id)
    }

    /// Runs a fire already claimed as `id`, and records how it ended.
    package func perform(_ loaded: LoadedAutomation, _ fire: Fire, run id: RunID, cancellation: CancellationFlag = CancellationFlag())
        async throws(RunStoreError) -> RunRecord? {
        try await record(await execute(loaded, fire, run: id, cancellation: cancellation))
        return try await store.run(id)
    }

    /// How a run ended, not yet recorded.
    struct EndedRun: Sendable {
        let id: RunID
        let ending: RunEnding
        let steps: [RunTrace.Step]
        let droppedSteps: Int
        let started: ContinuousClock.Instant
        let metadata: Logger.Metadata
    }

    /// Runs the body of a fire claimed as `id`: how it ended, for `record`. Apart so that the scheduler can record
    /// the end and stop counting the run for its mode in one step.
    func execute(_ loaded: LoadedAutomation, _ fire: Fire, run id: RunID, cancellation: CancellationFlag,
                 answers: PresetAnswers? = nil, approveConfirmations: Bool = false) async -> EndedRun {
        let automation = loaded.automation
        var metadata: Logger.Metadata = ["automation": "\(automation.name)", "run": "\(id)"]
        metadata["scheduled"] = "\(ValueFormatter.iso8601(fire.scheduled))"
        if fire.manual { metadata["manual"] = "true" }
        if fire.caughtUp { metadata["caughtUp"] = "true" }
        if let files = fire.files {
            metadata["files"] = "\(files.files.count)"
            if files.fromRescan { metadata["rescan"] = "true" }
        }
        logger.info("run started", metadata: metadata)
        let started = ContinuousClock.now
        let trace = RunTrace()
        let engine = Engine(registry: loaded.script.registry, limits: RunLimits(maxDuration: automation.timeout), grants: grants)
        var interaction: any Interaction = UnattendedInteraction(
            automation: automation.name, run: id, confirmsAutomatically: automation.confirmsAutomatically || approveConfirmations,
            logger: logger, manual: fire.manual)
        if let answers { interaction = AnsweringInteraction(interaction, answers: answers) }
        let (arguments, it) = Self.inputs(of: fire, loaded)
        let key = loaded.key
        var observer: (@Sendable (String) -> Void)?
        if let writes { observer = { path in writes.run(id, of: key, wrote: path) } }
        let program: Program
        do {
            program = try loaded.program()
        } catch {
            writes?.runEnded(id, of: key)
            let first = error.diagnostics.first
            return EndedRun(id: id, ending: RunEnding(.failed, message: first?.message ?? "the body could not be compiled",
                                                      location: first.map { $0.file.location(of: $0.span.start).description }),
                            steps: [], droppedSteps: 0, started: started, metadata: metadata)
        }
        let outcome = await engine.run(program, arguments: arguments, interaction: interaction, cancellation: cancellation, it: it,
                                       trace: trace, writes: observer)
        writes?.runEnded(id, of: key)
        let ending: RunEnding
        switch outcome.ending {
        case .completed, .stoppedBeforeChange: ending = RunEnding(.succeeded)
        case .failed(let error): ending = RunEnding(.failed, message: error.message, location: error.location?.description)
        case .cancelled(let reason): ending = RunEnding(.cancelled, message: reason)
        }
        return EndedRun(id: id, ending: ending, steps: trace.steps, droppedSteps: trace.dropped, started: started, metadata: metadata)
    }

    /// Records how a run ended, and says so in the log. On the caller's executor: the scheduler records a run's end
    /// within one of its operations, which a hop to another executor would hold open across two thread switches.
    nonisolated(nonsending) func record(_ run: EndedRun) async throws(RunStoreError) {
        try await store.finish(run.id, run.ending, steps: run.steps, droppedSteps: run.droppedSteps, at: now())
        var metadata = run.metadata
        metadata["took"] = "\(Self.milliseconds(ContinuousClock.now - run.started)) ms"
        if let message = run.ending.message { metadata["error"] = "\(run.ending.location.map { "\($0): " } ?? "")\(message)" }
        logger.log(level: run.ending.outcome == .succeeded ? .info : .warning, "run \(run.ending.outcome.rawValue)", metadata: metadata)
    }

    /// What a run starts with, in the slots the checker gave them (`AutomationTriggerNames`): `args` (empty), then
    /// `scheduled`, the instant the run was due, which `it` starts as. Under a file trigger, `files`, all the files of
    /// its events in order, and `file` and `it`, the first; a run by hand has no events: `file` is the folder watched
    /// and `files` empty.
    static func inputs(of fire: Fire, _ loaded: LoadedAutomation) -> (arguments: [Value], it: Value) {
        guard case .file(let trigger) = loaded.automation.trigger else { return ([.list([]), .date(fire.scheduled)], .date(fire.scheduled)) }
        guard let files = fire.files?.files.map({ Value.file(FileRef(path: $0)) }), let first = files.first else {
            let folder = Value.file(FileRef(path: trigger.folder(scriptFolder: (loaded.key.script as NSString).deletingLastPathComponent)))
            return ([.list([]), .list([]), folder], folder)
        }
        return ([.list([]), .list(files), first], first)
    }

    static func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    }
}
