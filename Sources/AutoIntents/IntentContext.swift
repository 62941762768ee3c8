import Synchronization

/// What `perform` receives: the way to talk to people (ask, choose, confirm, show), to report progress, to notice
/// cancellation, and to ask the run's grants before touching files, the network, programs or the environment.
///
/// ```swift
/// let author = try await context.requestValue("Who wrote it?", as: String.self)
/// try await context.requestConfirmation("Import \(rows.count) books?", actionName: "Import")
/// let progress = await context.progress("Importing", total: rows.count)
/// for row in rows { …; try await progress.advance() }
/// ```
public final class IntentContext: Sendable {
    package let interaction: any Interaction
    package let cancellation: CancellationFlag
    /// What the host registered for its intents to use (`Registry.register(dependency:)`): a database, a client.
    let dependencies: Dependencies
    /// What the run may touch outside the engine: an intent asks `authorize` before it acts.
    package let grants: Grants
    /// Told each path the run is allowed to write, as `authorize(.write, …)` allows it: what a file automation
    /// ignores of its own doing.
    let writes: (@Sendable (String) -> Void)?
    /// The engine's JSON (`parseJson` and `json`), for intents that read or write it: the engine fills it in.
    package let json: ValueCodec
    @usableFromInline let progressIDs = Atomic<Int>(0)
    /// Progress tasks started and not finished yet: the engine finishes those an intent leaves open when it ends. An
    /// array (a few at most, nested): destroying even an empty `Set<Int>` made its metadata, which scans every
    /// conformance record of the binary, at the end of every run.
    let openProgress = Mutex<[Int]>([])
    /// How to prepare each type of intent the run has opened (`IntentOpening`): a few types at most, so an array.
    let openings = Mutex<[IntentOpening]>([])

    package init(interaction: any Interaction, cancellation: CancellationFlag, dependencies: Dependencies = Dependencies(),
                grants: Grants = .all, json: ValueCodec = .unavailable("JSON"), writes: (@Sendable (String) -> Void)? = nil) {
        self.interaction = interaction
        self.cancellation = cancellation
        self.dependencies = dependencies
        self.grants = grants
        self.writes = writes
        self.json = json
    }

    /// The path an intent reads (`.read`) or writes (`.write`), resolved (`~`, relative to the current folder, `..`
    /// and symbolic links followed), once the run's grants allow it; an error that names the path and the grant
    /// otherwise. Call it before touching the file, and use the path it returns, so that what was checked is what
    /// is touched. Without `followingLink`, a link at the end of the path is the object itself (what a move, a
    /// rename or a delete acts on), and only the folders above it are followed.
    public func authorize(_ capability: Capability, path: String, followingLink: Bool = true) throws -> String {
        let resolved: String
        do {
            resolved = try GrantedPath.resolve(path, followingLink: followingLink)
        } catch {
            throw IntentError("\(error)")
        }
        guard grants.allows(capability, path: resolved) else {
            throw IntentError(grants.refusal(capability, "'\(resolved)'"))
        }
        if capability == .write { writes?(resolved) }
        return resolved
    }

    /// Throws unless the run may reach `host` (on `port`).
    public func authorize(host: String, port: Int? = nil) throws {
        guard grants.allows(host: host, port: port) else {
            throw IntentError(grants.refusal(.net, port.map { "\(host):\($0)" } ?? host))
        }
    }

    /// The absolute path of the file to start for `program` (a name or a path), once the run's grants allow it
    /// (`Grants.executable(for:)`): with `--allow-run=NAMES`, only the files those names were resolved to when the
    /// run started, never a file under a folder the run may write. Start that path, not `program`, so that no
    /// later lookup on PATH picks another file; an error that names the program and the grant otherwise.
    @discardableResult
    public func authorize(program: String) throws -> String {
        do {
            return try grants.executable(for: program)
        } catch {
            throw IntentError(error.description)
        }
    }

    /// Throws unless the run may read environment variables.
    public func authorizeEnvironment() throws {
        guard grants.env else { throw IntentError(grants.refusal(.env, "")) }
    }

    /// The host's dependency of type `T`, as registered with `Registry.register(dependency:)`. (An intent usually
    /// declares it as a `@Dependency` property instead, which registration checks.)
    public func dependency<T>(_ type: T.Type = T.self) throws -> T {
        guard let value = dependencies[T.self] else { throw IntentError("this intent needs a \(T.self), and the host registered none") }
        return value
    }

    /// Whether the run was cancelled (Ctrl-C), or its time limit passed.
    public var isCancelled: Bool { cancellation.isCancelled || Task.isCancelled }

    /// Throws `RunCancelled` once the run was cancelled (Ctrl-C) or its time limit passed; long intents call it
    /// between steps.
    public func checkCancellation() throws {
        if isCancelled { throw RunCancelled() }
    }

    /// Says something to people while the intent runs, before its result: "Reading 3 files…".
    public func show(_ dialog: Dialog) async { await interaction.show(dialog) }

    /// Asks for a value and goes on with the answer; throws when nobody can answer (a run without a terminal).
    public func requestValue<T: IntentValue>(_ prompt: String, as type: T.Type = T.self) async throws -> T {
        let value = try await interaction.requestValue(ValueRequest(prompt: prompt, type: T.valueType))
        guard let typed = T(autoValue: value) else { throw IntentError("expected \(T.valueType), got \(value.type)") }
        return typed
    }

    /// The error to throw when `parameter` is missing or its value unusable: the engine asks for it (with its
    /// question, after `reason`) and runs `perform` again with the answer.
    /// `throw context.needsValue("from", reason: "more.csv: no such file")`.
    public func needsValue(_ parameter: String, reason: String? = nil) -> any Error {
        NeedsValueError(parameter: parameter, reason: reason)
    }

    /// Lets people pick one of `options`, shown with their display representations.
    public func choose<T: IntentValue>(_ prompt: String, from options: [T]) async throws -> T {
        guard !options.isEmpty else { throw IntentError("there is nothing to choose from for '\(prompt)'") }
        if options.count == 1 { return options[0] }
        let index = try await interaction.choose(ChoiceRequest(prompt: prompt, options: options.map { Self.choice(for: $0.autoValue) }))
        guard options.indices.contains(index) else { throw IntentError("no option \(index + 1) for '\(prompt)'") }
        return options[index]
    }

    /// How a value reads in a list of choices: an entity by its title and subtitle, an enum case by name.
    package static func choice(for value: Value) -> Choice {
        switch value {
        case .entity(let entity): return Choice(title: entity.display.title, subtitle: entity.display.subtitle)
        case .enumCase(let value): return Choice(title: value.displayName)
        case .text(let text): return Choice(title: text)
        default: return Choice(title: "\(value)")
        }
    }

    /// Confirms the whole action; declining stops the run as cancelled, not failed.
    public func requestConfirmation(_ prompt: String, actionName: String? = nil, destructive: Bool = false) async throws {
        let request = ConfirmationRequest(prompt: prompt, actionName: actionName, isDestructive: destructive)
        guard try await interaction.confirm(request) else { throw RunCancelled("declined: \(prompt)") }
    }

    /// Confirms one parameter's value ("Use 'Emma' for book?"); declining cancels the run.
    public func confirm<T: IntentValue>(_ value: T, for parameter: String) async throws {
        let shown = Self.choice(for: value.autoValue).title
        try await requestConfirmation("Use '\(shown)' for \(parameter)?")
    }

    /// Starts reporting progress: `total` steps, or indeterminate when nil. Tasks nest with `child`.
    public func progress(_ label: String, total: Int?) async -> ProgressReporter {
        await ProgressReporter.start(label: label, total: total, parent: nil, context: self)
    }

    func nextProgressID() -> Int { progressIDs.add(1, ordering: .relaxed).newValue }

    /// The last progress task started so far: `finishProgress(after:)` finishes the ones started since. Inlined: the
    /// engine reads it twice on every awaiting call, and as a call into this module it was 1.5% of such a call's time.
    @inlinable package func progressMark() -> Int { progressIDs.load(ordering: .relaxed) }

    /// Ends every progress task started after `mark` that is still open: an intent's, when it ends. A task of an
    /// intent that failed is reported stopped, not done.
    package func finishProgress(after mark: Int, failed: Bool) async {
        let open = openProgress.withLock { tasks in
            let left = tasks.filter { $0 > mark }
            tasks.removeAll { $0 > mark }
            return left.sorted(by: >)
        }
        // Innermost first, as the intent would have finished them.
        for id in open { await interaction.progress(failed ? .stopped(id: id) : .finished(id: id)) }
    }
}

/// Reports one task's progress. Advance it as work is done, and finish it when done.
public final class ProgressReporter: Sendable {
    package let id: Int
    package let total: Int?
    let context: IntentContext
    let completed = Atomic<Int>(0)

    init(id: Int, total: Int?, context: IntentContext) {
        self.id = id
        self.total = total
        self.context = context
    }

    static func start(label: String, total: Int?, parent: Int?, context: IntentContext) async -> ProgressReporter {
        let reporter = ProgressReporter(id: context.nextProgressID(), total: total, context: context)
        context.openProgress.withLock { $0.append(reporter.id) }
        await context.interaction.progress(.started(id: reporter.id, parent: parent, label: label, total: total))
        return reporter
    }

    /// `by` more steps are done; also checks for cancellation, so a loop that reports progress stops on Ctrl-C.
    public func advance(by steps: Int = 1) async throws {
        let now = completed.add(steps, ordering: .relaxed).newValue
        await context.interaction.progress(.advanced(id: id, completed: now))
        try context.checkCancellation()
    }

    /// Ends the task. The engine finishes a task its intent left open when the intent ends, so an intent need
    /// not finish one on every way out; finishing twice is harmless.
    public func finish() async {
        let wasOpen = context.openProgress.withLock { tasks in
            guard let index = tasks.firstIndex(of: id) else { return false }
            tasks.remove(at: index)
            return true
        }
        guard wasOpen else { return }
        await context.interaction.progress(.finished(id: id))
    }

    /// A task nested under this one.
    public func child(_ label: String, total: Int?) async -> ProgressReporter {
        await ProgressReporter.start(label: label, total: total, parent: id, context: context)
    }
}
