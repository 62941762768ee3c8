import Foundation

/// What a campaign is asked to do (FuzzCommandLine.swift reads it from the command line).
public struct CampaignOptions: Sendable {
    public var seed: UInt64 = 1
    public var count = 3000
    /// No new case starts after this many seconds (minimising what was found comes after).
    public var timeLimit: Double?
    public var binary: String
    public var generate = true
    public var mutateFixtures = true
    public var jobs = 2
    /// Where minimised reproducers go; nil: nowhere.
    public var failuresFolder: String?
    public var fixturesFolder: String
    public var minimise = true
    /// Runs of the binary one minimisation may use (fewer for timing failures, each of which takes seconds).
    public var minimiseBudget = 300
    public var settings = OracleSettings()
    /// Address-space limit of every run, in MiB (0: none).
    public var memoryLimitMiB = 2048
    public var verbose = false

    public init(binary: String, fixturesFolder: String) {
        self.binary = binary
        self.fixturesFolder = fixturesFolder
    }
}

/// One case: its program, how it was run, what happened and what the oracles said.
public struct CaseOutcome: Sendable {
    public let index: Int
    public let program: FuzzProgram
    public let configuration: RunConfiguration
    public let result: RunResult
    public let finding: Finding?
}

/// One distinct failure of a campaign, after grouping, confirming and minimising.
public struct FailureGroup: Sendable {
    public var finding: Finding
    /// The case that stands for the group: the shortest program, or for a timing failure the first of
    /// the slowest cases that failed again.
    public var first: CaseOutcome
    public var occurrences: Int
    public var confirmed = true
    public var minimised: [UInt8]?
    /// The first case's options with those the failure doesn't need taken away.
    public var configuration: RunConfiguration
    public var savedAs: String?

    init(finding: Finding, first: CaseOutcome) {
        self.finding = finding
        self.first = first
        occurrences = 0
        configuration = first.configuration
    }
}

/// Runs a campaign: cases `0..<count` of a seed, each generated or mutated, in `jobs` worker threads;
/// then groups the failures by signature, confirms the timing ones, minimises one of each and saves it.
public final class Campaign: @unchecked Sendable {
    public let options: CampaignOptions
    let mutator: FixtureMutator
    let log: @Sendable (String) -> Void
    let workFolder: String
    let sites: CrashSites

    private let lock = NSLock()
    private var nextIndex = 0
    private var failing: [CaseOutcome] = []
    private var casesRun = 0
    /// Exit statuses by the kind of program (`typed`, `extreme`, …) and status.
    private var tally: [String: [Int32: Int]] = [:]
    private var wallTimes: [String: Double] = [:]

    public init(options: CampaignOptions, log: @escaping @Sendable (String) -> Void) {
        self.options = options
        self.log = log
        // Every run's address space is limited through this process's own limit, which children inherit.
        ProcessRunner.limitAddressSpace(mebibytes: options.memoryLimitMiB)
        sites = CrashSites(binary: options.binary)
        mutator = FixtureMutator(corpus: options.mutateFixtures ? .load(under: options.fixturesFolder) : .init(files: []))
        workFolder = NSTemporaryDirectory() + "auto-fuzz-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try? FileManager.default.createDirectory(atPath: workFolder, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: workFolder)
    }

    public var fixtureCount: Int { mutator.corpus.files.count }

    // MARK: Cases

    /// Case `index`'s program: two of three cases are generated and one mutated when both are on.
    public func program(for index: Int) -> FuzzProgram {
        let mutate = options.mutateFixtures && !mutator.corpus.files.isEmpty && (!options.generate || index % 3 == 2)
        if mutate, let program = mutator.program(seed: options.seed, index: index) { return program }
        var random = FuzzRandom(seed: options.seed, index: index, stream: 4)
        return ProgramGenerator.program(seed: options.seed, index: index, mayRunAway: random.chance(0.1))
    }

    public func configuration(for index: Int, program: FuzzProgram) -> RunConfiguration {
        RunConfiguration.draw(seed: options.seed, index: index, program: program)
    }

    /// Runs `bytes` under `configuration` in the worker's folder.
    public func execute(_ bytes: [UInt8], _ configuration: RunConfiguration, worker: String) -> RunResult {
        let folder = workFolder + "/" + worker
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let script = folder + "/script.auto"
        _ = FileManager.default.createFile(atPath: script, contents: Data(bytes))
        return Self.run(binary: options.binary, script: script, bytes: bytes, configuration: configuration,
                        settings: options.settings, folder: folder)
    }

    /// One run of `binary` on a script file, as the oracles expect it: the environment a user has, with
    /// colour off and the Swift runtime's backtracer off (it takes seconds to symbolicate a crash).
    public static func run(binary: String, script: String, bytes: [UInt8], configuration: RunConfiguration,
                           settings: OracleSettings, folder: String) -> RunResult {
        var environment = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": folder,
                           "NO_COLOR": "1", "SWIFT_BACKTRACE": "enable=no", "LANG": "C.UTF-8"]
        if let zone = configuration.timeZone { environment["TZ"] = zone }
        var request = ProcessRunner.Request(executable: binary, arguments: configuration.arguments(script: script),
                                            environment: environment, input: configuration.input, output: configuration.output,
                                            hardDeadline: settings.hardDeadline(for: configuration))
        request.inputBytes = configuration.input == .script ? bytes : []
        return ProcessRunner.run(request)
    }

    public func runCase(_ index: Int, worker: String) -> CaseOutcome {
        let program = program(for: index)
        let configuration = configuration(for: index, program: program)
        let result = execute(program.bytes, configuration, worker: worker)
        let finding = check(result, configuration)
        return CaseOutcome(index: index, program: program, configuration: configuration, result: result, finding: finding)
    }

    /// `configuration` without each option, input or output mode the failure persists without: the
    /// command line in a reproducer's header should hold only what matters.
    public static func simplified(_ configuration: RunConfiguration, keepTimeout: Bool, fails: (RunConfiguration) -> Bool) -> RunConfiguration {
        var current = configuration
        let steps: [(inout RunConfiguration) -> Void] = [
            { $0.json = false }, { $0.maxSteps = nil }, { $0.maxDepth = nil }, { $0.noInput = false }, { $0.yes = false },
            { $0.whatIf = false }, { $0.timeZone = nil }, { $0.arguments = [] },
            { if $0.input == .closed { $0.input = .empty } }, { if !keepTimeout { $0.timeout = nil } },
        ]
        for step in steps {
            var candidate = current
            step(&candidate)
            if candidate != current && fails(candidate) { current = candidate }
        }
        return current
    }

    /// The oracles' verdict, with a crash told apart by where in the binary it happened.
    public func check(_ result: RunResult, _ configuration: RunConfiguration) -> Finding? {
        guard let finding = Oracles.check(result, configuration, settings: options.settings) else { return nil }
        guard finding.kind == .crash, let site = sites.site(in: result.standardErrorText) else { return finding }
        return Finding(kind: finding.kind, detail: finding.detail + ", in " + site, signature: finding.signature + " in " + site)
    }

    static func family(_ origin: String) -> String {
        String(origin.prefix { $0 != ":" })
    }

    // MARK: The campaign

    public struct Summary: Sendable {
        public var cases = 0
        public var seconds = 0.0
        public var tally: [String: [Int32: Int]] = [:]
        /// Seconds the runs of each kind of program took, together.
        public var wallTimes: [String: Double] = [:]
        public var groups: [FailureGroup] = []
        public var failed: Bool { groups.contains { $0.confirmed } }
    }

    public func run() -> Summary {
        let start = ProcessRunner.now()
        let done = DispatchGroup()
        for number in 0..<max(1, options.jobs) {
            done.enter()
            Thread { [self] in
                work(worker: "w\(number)", start: start)
                done.leave()
            }.start()
        }
        done.wait()
        var summary = Summary()
        summary.seconds = ProcessRunner.now() - start
        lock.lock()
        summary.cases = casesRun
        summary.tally = tally
        summary.wallTimes = wallTimes
        let failures = failing.sorted { $0.index < $1.index }
        lock.unlock()
        summary.groups = settle(failures)
        return summary
    }

    func work(worker: String, start: Double) {
        while true {
            lock.lock()
            let index = nextIndex
            nextIndex += 1
            lock.unlock()
            if index >= options.count { return }
            if let limit = options.timeLimit, ProcessRunner.now() - start > limit { return }
            var outcome = runCase(index, worker: worker)
            if outcome.finding != nil {
                // Kept until the end for the report: the beginning of what it wrote is enough.
                var result = outcome.result
                result.standardOutput = Array(result.standardOutput.prefix(16384))
                result.standardError = Array(result.standardError.prefix(16384))
                outcome = CaseOutcome(index: index, program: outcome.program, configuration: outcome.configuration,
                                      result: result, finding: outcome.finding)
            }
            if options.verbose, let finding = outcome.finding {
                log("case \(index): \(finding.kind.rawValue): \(finding.detail)")
            }
            let family = Self.family(outcome.program.origin)
            lock.lock()
            // Only failing cases are kept whole: a long run passes millions.
            if outcome.finding != nil { failing.append(outcome) }
            casesRun += 1
            tally[family, default: [:]][outcome.result.shellStatus, default: 0] += 1
            wallTimes[family, default: 0] += outcome.result.wallTime
            let done = casesRun
            lock.unlock()
            if done % 500 == 0 {
                log(String(format: "  %d cases, %.0f s", done, ProcessRunner.now() - start))
            }
        }
    }

    /// Groups failures by signature; confirms timing failures by running their first case twice more;
    /// minimises and saves one program per group.
    func settle(_ failing: [CaseOutcome]) -> [FailureGroup] {
        var groups: [String: FailureGroup] = [:]
        var members: [String: [CaseOutcome]] = [:]
        var order: [String] = []
        for outcome in failing {
            guard let finding = outcome.finding else { continue }
            let key = finding.kind.rawValue + " " + finding.signature
            if groups[key] == nil {
                groups[key] = FailureGroup(finding: finding, first: outcome)
                order.append(key)
            }
            groups[key]!.occurrences += 1
            members[key, default: []].append(outcome)
        }
        var settled: [FailureGroup] = []
        for key in order {
            var group = groups[key]!
            if group.finding.kind.isTiming {
                // A timing failure counts only if its case fails twice more; the slowest cases are tried
                // first, being the likeliest to fail again on a machine whose load varies.
                let candidates = members[key, default: []].sorted { $0.result.wallTime > $1.result.wallTime }.prefix(3)
                let confirmed = candidates.first { candidate in
                    for attempt in 1...2 {
                        let result = execute(candidate.program.bytes, candidate.configuration, worker: "confirm")
                        if check(result, candidate.configuration)?.signature != group.finding.signature {
                            log("not confirmed (rerun \(attempt) passed): case \(candidate.index), \(candidate.finding?.detail ?? "")")
                            return false
                        }
                    }
                    return true
                }
                guard let confirmed, let finding = confirmed.finding else {
                    group.confirmed = false
                    settled.append(group)
                    continue
                }
                (group.first, group.finding, group.configuration) = (confirmed, finding, confirmed.configuration)
            } else if let smallest = members[key, default: []].min(by: { $0.program.bytes.count < $1.program.bytes.count }) {
                // Of the same failure, the shortest program makes the smallest reproducer.
                group.first = smallest
                group.configuration = smallest.configuration
                if let finding = smallest.finding { group.finding = finding }
            }
            let first = group.first
            if options.minimise {
                log("minimising case \(first.index) (\(group.finding.kind.rawValue): \(group.finding.signature))…")
                let budget = group.finding.kind.isTiming ? min(options.minimiseBudget, 40) : options.minimiseBudget
                let signature = group.finding.signature
                let fails = { [self] (bytes: [UInt8], configuration: RunConfiguration) -> Bool in
                    check(execute(bytes, configuration, worker: "minimise"), configuration)?.signature == signature
                }
                let keepTimeout = group.finding.kind.isTiming || !first.program.isBounded
                var configuration = Self.simplified(first.configuration, keepTimeout: keepTimeout) { fails(first.program.bytes, $0) }
                var minimizer = Minimizer(budget: budget) { fails($0, configuration) }
                let program = minimizer.minimise(first.program.bytes)
                configuration = Self.simplified(configuration, keepTimeout: keepTimeout) { fails(program, $0) }
                group.minimised = program
                group.configuration = configuration
            }
            if let folder = options.failuresFolder {
                group.savedAs = FailureReport.save(group, seed: options.seed, binary: options.binary, folder: folder)
            }
            settled.append(group)
        }
        return settled.sorted { ($0.finding.kind, $0.first.index) < ($1.finding.kind, $1.first.index) }
    }
}
