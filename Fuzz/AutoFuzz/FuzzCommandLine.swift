import Foundation

/// `auto-fuzz`'s command line. Written out by hand: the harness depends on Foundation (and ZIPFoundation, for
/// archives) only, so that it keeps building whatever the engine's dependencies become.
public enum FuzzCommandLine {
    public static let usage = """
        usage: auto-fuzz [--quick] [--count N] [--seed S] [--time-limit SECONDS] [--binary PATH]
                         [--generate] [--mutate-fixtures] [--jobs N] [--failures DIR] [--fixtures DIR]
                         [--no-minimise] [--memory-limit MIB] [--only INDEX [--print]] [--sandbox N] [--mcp N] [--verbose]

        Runs generated programs and mutated fixtures against the `auto` binary and checks that every run
        exits with 0, 1, 2 or 130, writes valid JSON under --json, and honours --timeout. Exits 1 if any
        check failed, after minimising one program per distinct failure into the failures folder. Then runs
        sandbox cases: scripts that try to leave `--allow-read/--allow-write` through links, hard links,
        malicious archives and programs, each checked to have changed and read nothing outside its folder;
        and MCP conversations: malformed, huge and early messages to `auto mcp`, checked against JSON-RPC 2.0.

          --quick              3000 programs, stopping new ones after 100 s; seed 1 unless --seed (for CI)
          --sandbox N          how many sandbox cases (default 150; 0 for none)
          --mcp N              how many MCP conversations (default 30; 0 for none)
          --count N            how many programs (default 3000)
          --seed S             the campaign's seed (default: from the clock, printed); a program is
                               reproducible from (seed, index)
          --time-limit S       start no new program after S seconds
          --binary PATH        the binary to test (default: `auto` beside auto-fuzz, i.e. in .build)
          --generate           generated programs only; --mutate-fixtures: mutated fixtures only (default: both)
          --jobs N             programs run at once (default 2)
          --failures DIR       where reproducers go (default Fuzz/failures); --no-save: nowhere
          --fixtures DIR       what --mutate-fixtures mutates (default Tests/Fixtures)
          --only INDEX         run that one case and show everything about it; with --print, only show it
          --memory-limit MIB   address-space limit of each run (default 2048, 0 for none)
          --slack SECONDS      how late output may come after a --timeout (default 1.5; the exit: twice that)
        """

    /// The repository holding this file: the default place of the fixtures and the failures folder.
    public static let repositoryRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// The `auto` built beside this executable (`.build/debug/auto` for `swift run auto-fuzz`).
    static var defaultBinary: String {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("auto").path
    }

    public static func main(_ arguments: [String]) -> Int32 {
        var options = CampaignOptions(binary: defaultBinary, fixturesFolder: repositoryRoot + "/Tests/Fixtures")
        options.failuresFolder = repositoryRoot + "/Fuzz/failures"
        var seedGiven = false, quick = false, generateOnly = false, mutateOnly = false
        var only: Int?, printOnly = false, sandboxCases = 150, mcpCases = 30
        var rest = arguments.dropFirst()[...]
        func value(_ name: String) -> String? {
            guard let next = rest.popFirst() else {
                FileHandle.standardError.write(Data("auto-fuzz: \(name) needs a value\n\(usage)\n".utf8))
                return nil
            }
            return next
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--quick": quick = true
            case "--count": guard let v = value(argument), let n = Int(v), n >= 0 else { return 2 }; options.count = n
            case "--seed": guard let v = value(argument), let s = UInt64(v) else { return 2 }; options.seed = s; seedGiven = true
            case "--time-limit": guard let v = value(argument), let t = Double(v) else { return 2 }; options.timeLimit = t
            case "--binary": guard let v = value(argument) else { return 2 }; options.binary = v
            case "--generate": generateOnly = true
            case "--mutate-fixtures": mutateOnly = true
            case "--jobs": guard let v = value(argument), let n = Int(v), n > 0 else { return 2 }; options.jobs = n
            case "--failures": guard let v = value(argument) else { return 2 }; options.failuresFolder = v
            case "--no-save": options.failuresFolder = nil
            case "--fixtures": guard let v = value(argument) else { return 2 }; options.fixturesFolder = v
            case "--no-minimise", "--no-minimize": options.minimise = false
            case "--memory-limit": guard let v = value(argument), let n = Int(v), n >= 0 else { return 2 }; options.memoryLimitMiB = n
            case "--slack":
                guard let v = value(argument), let s = Double(v), s > 0 else { return 2 }
                options.settings.outputSlack = s
                options.settings.exitSlack = 2 * s
            case "--only": guard let v = value(argument), let n = Int(v) else { return 2 }; only = n
            case "--print": printOnly = true
            case "--sandbox": guard let v = value(argument), let n = Int(v), n >= 0 else { return 2 }; sandboxCases = n
            case "--mcp": guard let v = value(argument), let n = Int(v), n >= 0 else { return 2 }; mcpCases = n
            case "--verbose", "-v": options.verbose = true
            case "--help", "-h":
                print(usage)
                return 0
            default:
                FileHandle.standardError.write(Data("auto-fuzz: unknown argument '\(argument)'\n\(usage)\n".utf8))
                return 2
            }
        }
        if quick {
            if !seedGiven { options.seed = 1 }
            options.timeLimit = options.timeLimit ?? 100
        } else if !seedGiven {
            options.seed = UInt64(Date().timeIntervalSince1970 * 1000) % 1_000_000
        }
        if generateOnly || mutateOnly {
            options.generate = generateOnly
            options.mutateFixtures = mutateOnly
        }
        guard FileManager.default.isExecutableFile(atPath: options.binary) else {
            FileHandle.standardError.write(Data("auto-fuzz: no binary at \(options.binary); build it (swift build --product auto) or give --binary\n".utf8))
            return 2
        }
        let log: @Sendable (String) -> Void = { line in FileHandle.standardError.write(Data((line + "\n").utf8)) }
        let campaign = Campaign(options: options, log: log)
        if let only { return show(only, campaign: campaign, run: !printOnly) }

        log("auto-fuzz: seed \(options.seed), \(options.count) programs\(options.timeLimit.map { String(format: " (at most %.0f s)", $0) } ?? ""), "
            + "\(options.jobs) jobs, \(campaign.fixtureCount) fixtures to mutate, binary \(options.binary)")
        let summary = campaign.run()
        print(FailureReport.summary(summary, options: options), terminator: "")
        let sandbox = SandboxEscapes(seed: options.seed, binary: options.binary, folder: campaign.workFolder)
        let escapes = sandbox.campaign(count: sandboxCases, jobs: options.jobs, log: log)
        for escape in escapes { print(escape) }
        let offProtocol = McpMessages(seed: options.seed, binary: options.binary).campaign(count: mcpCases, log: log)
        for failure in offProtocol { print(failure) }
        return summary.failed || !escapes.isEmpty || !offProtocol.isEmpty ? 1 : 0
    }

    /// `--only INDEX`: the program, its configuration and, unless `--print`, what the run did.
    static func show(_ index: Int, campaign: Campaign, run: Bool) -> Int32 {
        let program = campaign.program(for: index)
        let configuration = campaign.configuration(for: index, program: program)
        let write = { (text: String) in FileHandle.standardOutput.write(Data(text.utf8)) }
        write("# case \(index) of seed \(campaign.options.seed): \(program.origin)\n")
        write("# command: \(configuration.commandLine(script: "FILE"))\n")
        FileHandle.standardOutput.write(Data(program.bytes))
        guard run else { return 0 }
        let outcome = campaign.runCase(index, worker: "only")
        let result = outcome.result
        write(String(format: "\n# exit status %d after %.2f s%@\n", result.shellStatus, result.wallTime, result.killed ? " (killed)" : ""))
        write("# stdout: " + Oracles.excerpt(result.standardOutputText) + "\n")
        write("# stderr: " + Oracles.excerpt(result.standardErrorText) + "\n")
        if let finding = outcome.finding {
            write("# FAILED \(finding.kind.rawValue): \(finding.detail)\n")
            return 1
        }
        write("# passed every check\n")
        return 0
    }
}
