import Foundation

/// Writes what a campaign found: one `.auto` file per distinct failure, ready to become a golden fixture
/// once fixed, and the summary printed at the end.
public enum FailureReport {
    /// `Fuzz/failures/<kind>-<hash of the signature>.auto`, with a header of comments that says which
    /// oracle failed, the command line and how to get the case back. One file per signature: a later
    /// campaign that finds the same failure leaves the first reproducer alone.
    public static func save(_ group: FailureGroup, seed: UInt64, binary: String, folder: String) -> String? {
        let name = "\(group.finding.kind.rawValue)-\(hash(group.finding.signature)).auto"
        let path = folder + "/" + name
        if FileManager.default.fileExists(atPath: path) { return path }
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let program = group.minimised ?? group.first.program.bytes
        let lines = program.isEmpty ? 0 : program.split(separator: 0x0A, omittingEmptySubsequences: false).count - (program.last == 0x0A ? 1 : 0)
        let text = header(group, seed: seed, programLines: lines)
        let bytes = Array(text.utf8) + program + (program.last == 0x0A ? [] : [0x0A])
        return FileManager.default.createFile(atPath: path, contents: Data(bytes)) ? path : nil
    }

    /// Comment lines only, none starting with `expect`, so the Fixture reader sees no expectation until
    /// someone writes the one the fix should give.
    static func header(_ group: FailureGroup, seed: UInt64, programLines: Int) -> String {
        let first = group.first
        let original = first.program.bytes.split(separator: 0x0A, omittingEmptySubsequences: false).count
        var lines = [
            "auto-fuzz found: \(group.finding.kind.rawValue) — \(group.finding.detail)",
            "oracle: \(oracle(group.finding.kind))",
            "command: \(group.configuration.commandLine(script: "THIS_FILE"))",
            "case: swift run auto-fuzz --seed \(seed) --only \(first.index)   (\(group.occurrences) failing run\(group.occurrences == 1 ? "" : "s") in that campaign)",
            "origin: \(first.program.origin.prefix(160))",
            group.minimised == nil ? "not minimised: \(original) line\(original == 1 ? "" : "s")"
                : "minimised from \(original) line\(original == 1 ? "" : "s") to \(programLines)",
        ]
        let standardError = first.result.standardErrorText.split(separator: "\n").prefix(3).map { String($0.prefix(200)) }
        if !standardError.isEmpty { lines.append("stderr: " + standardError.joined(separator: " ⏎ ")) }
        return lines.map { "# " + $0.replacingOccurrences(of: "\n", with: " ") }.joined(separator: "\n") + "\n"
    }

    static func oracle(_ kind: FailureKind) -> String {
        switch kind {
        case .crash: return "the process ends with an exit code in {0, 1, 2, 130}, never by a signal"
        case .exitCode: return "the exit code is one of 0, 1, 2, 130"
        case .invalidJSON: return "with --json and exit 0, standard output is one line of valid JSON"
        case .outputOnFailure: return "with --json, a run that fails writes nothing to standard output"
        case .outputAfterCompileError: return "after a compile error (exit 2) nothing runs, so nothing is on standard output"
        case .timeoutOverrun: return "a run with --timeout T ends by T plus the slack"
        case .outputAfterDeadline: return "a run with --timeout T writes nothing after T plus the slack"
        case .hang: return "every run ends: the process was killed at the harness's hard deadline"
        }
    }

    /// FNV-1a: a stable file name for a signature, the same on every machine and every run.
    static func hash(_ text: String) -> String {
        var value: UInt32 = 0x811C_9DC5
        for byte in text.utf8 {
            value ^= UInt32(byte)
            value = value &* 0x0100_0193
        }
        return String(format: "%08x", value)
    }

    // MARK: The summary

    public static func summary(_ summary: Campaign.Summary, options: CampaignOptions) -> String {
        var out = String(format: "auto-fuzz: seed %llu, %d programs in %.1f s (%.1f per second), %d jobs, %@\n",
                         options.seed, summary.cases, summary.seconds, Double(summary.cases) / max(summary.seconds, 0.001),
                         options.jobs, options.binary)
        for family in summary.tally.keys.sorted() {
            let statuses = summary.tally[family]!
            let total = statuses.values.reduce(0, +)
            let shares = statuses.keys.sorted().map { status in
                String(format: "%d: %.0f%%", status, 100 * Double(statuses[status]!) / Double(total))
            }
            let average = 1000 * (summary.wallTimes[family] ?? 0) / Double(total)
            out += "  " + family.padding(toLength: 10, withPad: " ", startingAt: 0) + String(format: "%6d  %5.0f ms a run   exit ", total, average)
                + shares.joined(separator: "  ") + "\n"
        }
        let confirmed = summary.groups.filter(\.confirmed)
        if confirmed.isEmpty {
            out += "no failure\n"
        } else {
            out += "\(confirmed.count) distinct failure\(confirmed.count == 1 ? "" : "s"):\n"
        }
        for group in summary.groups {
            let size = group.minimised.map { "\($0.count) bytes" } ?? "\(group.first.program.bytes.count) bytes, not minimised"
            out += "  \(group.confirmed ? "" : "(not confirmed) ")\(group.finding.kind.rawValue): \(group.finding.signature)\n"
            out += "      \(group.occurrences) run\(group.occurrences == 1 ? "" : "s"), e.g. case \(group.first.index) — \(group.finding.detail.prefix(200))\n"
            out += "      \(group.savedAs ?? "not saved") (\(size))\n"
        }
        return out
    }
}
