import AutoIntents
import AutoLanguage
import CLinux
import Dispatch
import Foundation
import Logging
import Synchronization

/// `auto daemon`: loads the automations of some scripts, fires them on time under one run store, reloads a script
/// when it changes — a broken edit keeps the version running and says what is wrong — and on SIGTERM or SIGINT
/// stops taking fires and gives the runs going a grace period.
package final class Daemon: Sendable {
    /// How a script's text is compiled: the host's intents and prelude.
    package typealias Compile = @Sendable (SourceFile) -> Result<CompiledScript, CompilationFailure>

    package struct Options: Sendable {
        /// Scripts, and folders whose `.auto` files are scripts.
        package var paths: [String]
        package var store: RunStoreLocation
        package var grace: Duration
        package var retention: Retention
        /// What the automations' runs may touch outside the engine (the compile closure should check the same).
        package var grants: Grants
        /// How long the store's check at start may read it (`StoreCheck`): about a gigabyte in 10 s.
        package var storeCheckLimit: Duration = .seconds(10)
        /// Where fires and runs are counted (`auto daemon --metrics`); nowhere by default.
        package var metrics = DaemonMetrics()
        /// On a shared store: the node's name in logs and `auto automations status` (the host's name by default), and
        /// its lease.
        package var nodeName: String?
        /// The host program's version, which a node says it runs (`status` shows it during a rolling upgrade).
        package var version = "unknown"
        package var cluster = NodeMembership.Timing()
        package init(paths: [String], store: RunStoreLocation = .sqlite(path: SQLiteRunStore.defaultPath), grace: Duration = .seconds(10),
                    retention: Retention = Retention(), grants: Grants = .all) {
            self.paths = paths
            self.store = store
            self.grace = grace
            self.retention = retention
            self.grants = grants
        }
    }

    package struct StartError: Error, Sendable, CustomStringConvertible {
        package let description: String
    }

    let options: Options
    let compile: Compile
    let logger: Logger
    let clock: any SchedulerClock
    /// Each script's automations as last loaded, by the script's path; a script that fails to compile keeps its
    /// previous ones.
    let loaded = Mutex<[String: [LoadedAutomation]]>([:])
    let reloads = DispatchQueue(label: "auto.daemon.reload")

    package init(options: Options, compile: @escaping Compile, logger: Logger, clock: any SchedulerClock = SystemClock()) {
        self.options = options
        self.compile = compile
        var logger = logger
        // On a shared store, every line of a node's log says which node it is, as the lines of its runs say which run.
        if options.store.isShared { logger[metadataKey: "node"] = "\(options.nodeName ?? Self.hostName)" }
        self.logger = logger
        self.clock = clock
    }

    /// What this daemon says of itself when it joins a cluster.
    var nodeInfo: NodeInfo {
        NodeInfo(name: options.nodeName ?? Self.hostName, host: Self.hostName, pid: getpid(), version: options.version)
    }

    static var hostName: String { ProcessInfo.processInfo.hostName }

    /// The scripts the paths name: each file, and each folder's `.auto` files (not its subfolders).
    package static func scripts(in paths: [String]) throws(StartError) -> (scripts: [String], folders: [String]) {
        var scripts: [String] = [], folders: [String] = []
        for path in paths {
            let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
            var status = stat()
            guard FileCalls.stat(absolute, &status) == 0 else {
                throw StartError(description: "\(path): no such file or folder")
            }
            if status.st_mode & S_IFMT == S_IFDIR {
                folders.append(absolute)
                let names = ((try? FileTree.entries(of: absolute)) ?? []).map(\.name)
                scripts += names.filter { $0.hasSuffix(".auto") }.sorted().map { absolute + "/" + $0 }
            } else {
                folders.append((absolute as NSString).deletingLastPathComponent)
                scripts.append(absolute)
            }
        }
        return (scripts, folders)
    }

    /// Runs until SIGTERM or SIGINT; the store is locked for the daemon's life. Throws when it can't start: another
    /// daemon holds the store, the store is damaged or can't be used, a path names nothing.
    package func run() async throws(StartError) {
        // First of all: a SIGTERM while the store opens or the scripts load (systemd stopping a daemon that is
        // starting) then stops it gracefully once it is up, instead of killing it half-way.
        let stop = await Self.stopSignals()
        // Reading a script takes a lease on it (`ScriptRead`): a writer opening it meanwhile makes the kernel send
        // SIGIO, whose default action would end the daemon.
        signal(SIGIO, SIG_IGN)
        let store: any RunStore, shared: (any ClusterStore)?
        switch options.store {
        case .sqlite(let path):
            // The store is locked, then checked, before anything is written to it.
            let checkedInFull: Bool
            do {
                let lock = try StoreLock(store: path)
                checkedInFull = try StoreCheck.run(path, within: options.storeCheckLimit)
                store = try SQLiteRunStore(path: path, holding: lock)
            } catch {
                throw StartError(description: error.description)
            }
            shared = nil
            if !checkedInFull {
                logger.warning("the run store was not checked in full", metadata: ["reason": "reading it takes longer than \(options.storeCheckLimit)"])
            }
        case .postgres(let url):
            guard let opened = try await whenAvailable(stop, { () throws(RunStoreError) in try await PostgresRunStore.open(url: url, logger: logger, nodeName: nodeInfo.name) })
            else { return logger.info("stopped before the run store could be reached") }
            (store, shared) = (opened, opened)
        }
        let (scripts, folders) = try Self.scripts(in: options.paths)
        if options.store.isShared {
            for (key, paths) in Dictionary(grouping: scripts, by: options.store.scriptKey) where paths.count > 1 {
                throw StartError(description: "two scripts are named \(key) (\(paths.joined(separator: ", "))): on a shared store a script is "
                                 + "known by its file name, the same on every node")
            }
        }
        let selfWrites = SelfWrites(clock: clock)
        let scheduler = Scheduler(store: store, clock: clock, logger: logger, retention: options.retention, grants: options.grants,
                                  writes: selfWrites, metrics: options.metrics, clustered: shared != nil)
        let membership = shared.map { NodeMembership(store: $0, scheduler: scheduler, info: nodeInfo, timing: options.cluster, logger: logger,
                                                     metrics: options.metrics) }
        let fileTriggers = FileTriggers(store: store, clock: clock, logger: logger, selfWrites: selfWrites)
        guard try await whenAvailable(stop, { () throws(RunStoreError) in try await scheduler.start() }) != nil else {
            await (store as? PostgresRunStore)?.close()
            return logger.info("stopped before the run store could be reached")
        }
        // The folders are watched before the scripts are read: an edit made while they load is reloaded after.
        // Changed scripts are reloaded one change at a time, in order.
        let watched = Set(scripts), watchedFolders = Set(options.paths.compactMap { path -> String? in
            var isFolder: ObjCBool = false
            let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
            return FileManager.default.fileExists(atPath: absolute, isDirectory: &isFolder) && isFolder.boolValue ? absolute : nil
        })
        let changes = AsyncStream<[String]>.makeStream()
        let watcher: FileWatcher?
        do {
            watcher = try FileWatcher(folders: folders) { paths in changes.continuation.yield(paths) }
        } catch {
            logger.warning("scripts are not reloaded when they change", metadata: ["reason": "\(error)"])
            watcher = nil
        }
        for script in scripts { load(script) }
        await apply(to: scheduler, fileTriggers)
        let total = loaded.withLock { $0.values.reduce(0) { $0 + $1.count } }
        logger.info("daemon started", metadata: ["scripts": "\(scripts.count)", "automations": "\(total)", "store": "\(options.store)"])
        giveBackMemory()
        await withTaskGroup(of: Void.self) { group in
            if let membership { group.addTask { await membership.run() } }
            group.addTask {
                for await paths in changes.stream {
                    let scripts = Set(paths.filter { path in
                        path.hasSuffix(".auto") && (watched.contains(path) || watchedFolders.contains((path as NSString).deletingLastPathComponent))
                    })
                    guard !scripts.isEmpty else { continue }
                    for script in scripts.sorted() { self.load(script) }
                    await self.apply(to: scheduler, fileTriggers)
                    self.giveBackMemory()
                }
            }
            await stop.wait()
            logger.info("stopping", metadata: ["grace": "\(options.grace)"])
            changes.continuation.finish()
            fileTriggers.stopAll()
            // A node hands its automations over first: the others fire them while its runs get their grace.
            await membership?.leave()
            await scheduler.stop(grace: options.grace)
            group.cancelAll()
        }
        _ = watcher
        logger.info("daemon stopped")
        await (store as? PostgresRunStore)?.close()
    }

    /// What `work` returns, tried again while the store is unavailable (`RunStoreError.isUnavailable`): a daemon started
    /// with its PostgreSQL server (at boot, or while the server restarts) waits for it, saying so, with a pause that grows
    /// from half a second to ten. Nil when a stop signal came meanwhile; any other failure ends the start.
    func whenAvailable<T>(_ stop: StopSignal, _ work: () async throws(RunStoreError) -> T) async throws(StartError) -> T? {
        var pause = Duration.milliseconds(500)
        while true {
            do {
                return try await work()
            } catch where error.isUnavailable {
                logger.error("the run store can't be reached; the daemon tries again", metadata: ["error": "\(error)", "in": "\(pause)"])
            } catch {
                throw StartError(description: error.description)
            }
            let until = ContinuousClock.now + pause
            while ContinuousClock.now < until {
                if stop.isFired { return nil }
                try? await Task.sleep(for: .milliseconds(50))
            }
            pause = min(pause * 2, .seconds(10))
        }
    }

    /// Compiles one script and keeps its automations; a script that is gone loses them, and one that can't be read
    /// (`ScriptRead`) or no longer compiles keeps the ones it had, with the reason or its errors in the log.
    func load(_ script: String) {
        let text: String
        switch ScriptRead.read(script) {
        case .text(let read):
            text = read
        case .gone:
            if loaded.withLock({ $0.removeValue(forKey: script) }) != nil {
                logger.warning("script gone: its automations stop", metadata: ["script": "\(script)"])
            }
            return
        case .beingWritten:
            // Not an error: a save that renames its file into place before closing it shows this for a moment.
            logger.info("script is being written; it is read when its writer closes it", metadata: ["script": "\(script)"])
            return
        case .unreadable(let reason):
            let kept = loaded.withLock { $0[script] != nil }
            logger.error(kept ? "script can't be read; its previous version keeps running" : "script can't be read; it is not loaded",
                         metadata: ["script": "\(script)", "reason": "\(reason)"])
            return
        }
        let key = options.store.scriptKey(script)
        if let other = loaded.withLock({ $0.keys.first { $0 != script && options.store.scriptKey($0) == key } }) {
            logger.error("script not loaded: on a shared store a script is known by its file name, and another script has it",
                         metadata: ["script": "\(script)", "other": "\(other)"])
            return
        }
        switch compile(SourceFile(name: script, text: text)) {
        case .success(let compiled):
            let automations = LoadedAutomation.all(in: compiled, script: key)
            let previous = loaded.withLock { $0.updateValue(automations, forKey: script) }
            logger.info(previous == nil ? "script loaded" : "script reloaded", metadata: ["script": "\(script)", "automations": "\(automations.count)"])
            // Once per load, not per fire: a script that calls an intent by a former name keeps running, and its
            // author reads in the log what to write instead.
            for warning in compiled.warnings {
                var metadata: Logger.Metadata = ["script": "\(script)", "line": "\(warning.file.location(of: warning.span.start).line)"]
                if let hint = warning.hint { metadata["hint"] = "\(hint)" }
                logger.warning("\(warning.message)", metadata: metadata)
            }
        case .failure(let failure):
            let errors = failure.diagnostics.filter { $0.severity == .error }
            let kept = loaded.withLock { $0[script] != nil }
            logger.error(kept ? "script has errors; its previous version keeps running" : "script has errors; it is not loaded",
                         metadata: ["script": "\(script)", "errors": "\(errors.count)",
                                    "first": "\(errors.first.map { "\($0.file.name):\($0.file.location(of: $0.span.start).line): \($0.message)" } ?? "")"])
        }
    }

    /// Hands every loaded automation, with its schedule, to the scheduler, and the file automations their watches.
    func apply(to scheduler: Scheduler, _ fileTriggers: FileTriggers) async {
        var all: [(LoadedAutomation, (any FireSchedule)?)] = []
        let automations = loaded.withLock { $0.values.flatMap { $0 } }
        all.reserveCapacity(automations.count)
        // Automations with the same trigger share one schedule (many fire `every day at 07:00`): one parse, one copy.
        var schedules: [Automation.Trigger: (any FireSchedule)?] = [:]
        for automation in automations {
            do {
                let trigger = automation.automation.trigger
                if let schedule = schedules[trigger] {
                    all.append((automation, schedule))
                    continue
                }
                let schedule = try Schedules.schedule(for: trigger)
                schedules[trigger] = schedule
                all.append((automation, schedule))
            } catch {
                logger.error("automation not scheduled", metadata: ["automation": "\(automation.key.name)", "error": "\(error)"])
            }
        }
        do {
            try await scheduler.load(all)
        } catch {
            logger.error("the run store failed while automations were loaded", metadata: ["error": "\(error)"])
        }
        await fileTriggers.update(automations, scheduler: scheduler)
    }

    /// Before idling, possibly for hours, what loading left goes back to the system: the heap's freed memory
    /// (compiling leaves a lot) and the pages of the binary that loading read.
    func giveBackMemory() {
        _ = malloc_trim(0)
        ExecutablePages.release()
    }

    /// SIGTERM and SIGINT, as an event to wait for; their default actions are replaced for the daemon's life.
    /// Returns once both are handled: libdispatch registers a source later, on its own thread, and a signal that
    /// came between `SIG_IGN` and then would be lost.
    static func stopSignals() async -> StopSignal {
        let stop = StopSignal()
        for number in [SIGTERM, SIGINT] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { stop.fire() }
            await withCheckedContinuation { (registered: CheckedContinuation<Void, Never>) in
                source.setRegistrationHandler { registered.resume() }
                source.resume()
            }
            stop.keep(source)
        }
        return stop
    }
}

/// A one-time event: the first signal to stop. Unchecked: the sources are only kept, to stay alive.
final class StopSignal: @unchecked Sendable {
    private let state = Mutex<(fired: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))
    private var sources: [any DispatchSourceSignal] = []

    func keep(_ source: any DispatchSourceSignal) { sources.append(source) }

    var isFired: Bool { state.withLock { $0.fired } }

    func fire() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.fired = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    func wait() async {
        await withCheckedContinuation { continuation in
            let fired = state.withLock { state in
                if !state.fired { state.waiters.append(continuation) }
                return state.fired
            }
            if fired { continuation.resume() }
        }
    }
}
