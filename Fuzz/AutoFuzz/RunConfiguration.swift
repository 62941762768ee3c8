/// How one program is run: the options of `auto run`, what standard input and output are, the time zone.
/// Drawn per case from the campaign's seed, so that every combination meets every kind of program.
public struct RunConfiguration: Sendable, Hashable, CustomStringConvertible {
    public enum Input: String, Sendable {
        /// /dev/null: reads end at once.
        case empty
        /// No file descriptor 0 at all.
        case closed
        /// The script itself, read with `auto run -`.
        case script
    }

    public enum Output: String, Sendable {
        /// A pipe the harness reads: the only mode in which stdout can be checked.
        case pipe
        /// No file descriptor 1 at all.
        case closed
        /// A pipe whose reading end is already closed, as in `auto … | true`.
        case brokenPipe
    }

    public var json = false
    /// As passed on the command line, odd values included (`inf`, `-1`, `1e-9`).
    public var timeout: String?
    public var maxSteps: String?
    public var maxDepth: String?
    public var noInput = false
    public var yes = false
    public var whatIf = false
    public var input = Input.empty
    public var output = Output.pipe
    public var timeZone: String?
    public var arguments: [String] = []

    public init() {}

    /// The timeout in seconds when it is one the binary should honour: a finite number above zero.
    public var timeoutSeconds: Double? {
        guard let timeout, let seconds = Double(timeout), seconds.isFinite, seconds > 0, seconds < 1e6 else { return nil }
        return seconds
    }

    /// The arguments after the binary's path; `script` is the program's file (unused when it comes on stdin).
    public func arguments(script: String) -> [String] {
        var result = ["run"]
        if json { result.append("--json") }
        if let timeout { result += ["--timeout", timeout] }
        if let maxSteps { result += ["--max-steps", maxSteps] }
        if let maxDepth { result += ["--max-depth", maxDepth] }
        if noInput { result.append("--no-input") }
        if yes { result.append("--yes") }
        if whatIf { result.append("--what-if") }
        result.append(input == .script ? "-" : script)
        return result + arguments
    }

    /// The command as a person would type it, for reports: `auto run --json --timeout 0.5 FILE`.
    public func commandLine(script: String) -> String {
        var words = ["auto"] + arguments(script: script).map(Self.quoted)
        if input == .script { words += ["<", script] }
        if let timeZone { words.insert("TZ=\(timeZone)", at: 0) }
        switch output {
        case .pipe: break
        case .closed: words.append(">&-")
        case .brokenPipe: words.append("| true")
        }
        if input == .closed { words.append("<&-") }
        return words.joined(separator: " ")
    }

    static func quoted(_ word: String) -> String {
        let plain = !word.isEmpty && word.allSatisfy { $0.isLetter || $0.isNumber || "-_./:=+".contains($0) }
        return plain ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    public var description: String { commandLine(script: "FILE") }

    /// The configuration of case `index` of campaign `seed`. A program that may run away always gets a
    /// real timeout, so that the only unbounded runs are the ones the binary itself fails to bound.
    public static func draw(seed: UInt64, index: Int, program: FuzzProgram) -> RunConfiguration {
        var random = FuzzRandom(seed: seed, index: index, stream: 3)
        var configuration = RunConfiguration()
        configuration.json = random.chance(0.5)
        if random.chance(0.55) {
            configuration.timeout = random.weighted([(12, random.pick(["0.3", "0.5", "1", "2"])),
                                                     (1, random.pick(["inf", "nan", "-1", "0", "1e-9", "1e300", "0.0000001",
                                                                      "9223372036854775807", "abc", "", "-inf", "1e-300"]))])
        }
        // Mostly values a program can run under; now and then one the option parser must refuse, or a
        // limit that stops the run at once.
        if random.chance(0.3) {
            configuration.maxSteps = random.weighted([(6, "10000"), (6, "1000000"), (2, "100"), (1, "0"), (1, "1"), (1, "-1"),
                                                      (1, "9223372036854775807"), (1, "99999999999999999999"), (1, "1.5")])
        }
        if random.chance(0.15) {
            configuration.maxDepth = random.weighted([(4, "256"), (4, "500"), (2, "10000"), (1, "1"), (1, "10"), (1, "0"),
                                                      (1, "501"), (1, "-5")])
        }
        // A deeply nested program meets the depth limit it is allowed to raise (up to 500) half the time: the
        // default of 256 would stop almost all of them at the parser.
        if program.origin.hasPrefix("extreme: deep") && random.chance(0.5) {
            configuration.maxDepth = random.pick(["400", "500"])
        }
        configuration.noInput = random.chance(0.3)
        configuration.yes = random.chance(0.1)
        configuration.whatIf = random.chance(0.05)
        configuration.input = random.weighted([(16, .empty), (3, .closed), (2, .script)])
        // A script on stdin can't hold a NUL (it is read as text); such programs go through a file.
        if configuration.input == .script && program.bytes.contains(0) { configuration.input = .empty }
        configuration.output = random.weighted([(46, .pipe), (2, .closed), (2, .brokenPipe)])
        if random.chance(0.2) {
            configuration.timeZone = random.pick(["UTC", "Pacific/Kiritimati", "America/St_Johns", "Asia/Kathmandu",
                                                  "Europe/Paris", "Australia/Lord_Howe", "Invalid/Zone"])
        }
        if random.chance(0.1) {
            configuration.arguments = random.pick([["a"], [""], ["日本", "b"], ["--json"], ["-e", "show 1"]])
        }
        if !program.isBounded && configuration.timeoutSeconds == nil {
            configuration.timeout = random.pick(["0.3", "0.5", "1"])
        }
        return configuration
    }
}
