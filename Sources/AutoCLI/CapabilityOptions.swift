import AutoTerminal
import ArgumentParser
import AutoIntents
import Foundation

/// `--sandbox` and `--allow-read[=PATHS]`, `--allow-write[=PATHS]`, `--allow-net[=HOSTS]`, `--allow-run[=PROGRAMS]`,
/// `--allow-env`: what a run may touch outside the engine (Deno's flags). Without any of them a run is granted
/// everything, as a shell script is; with `--sandbox` or any `--allow-…`, only what the flags list.
struct CapabilityOptions: ParsableArguments {
    @Flag(name: .long, help: "Grant nothing outside the engine: no files, network, programs or environment, except what --allow-… adds.")
    var sandbox = false

    @Option(name: .customLong("allow-read"), help: ArgumentHelp(
        "Grant reading files: alone, anywhere; =PATHS (comma-separated), under those only. Implies --sandbox for the rest.",
        valueName: "paths"))
    var allowRead: [String] = []

    @Option(name: .customLong("allow-write"), help: ArgumentHelp(
        "Grant writing files: alone, anywhere; =PATHS, under those only. Implies --sandbox for the rest.", valueName: "paths"))
    var allowWrite: [String] = []

    @Option(name: .customLong("allow-net"), help: ArgumentHelp(
        "Grant the network: alone, any host; =HOSTS (host or host:port), those only. Implies --sandbox for the rest.", valueName: "hosts"))
    var allowNet: [String] = []

    @Option(name: .customLong("allow-run"), help: ArgumentHelp(
        "Grant starting programs: alone, any; =PROGRAMS (names or paths), those only. Implies --sandbox for the rest.",
        valueName: "programs"))
    var allowRun: [String] = []

    @Flag(name: .customLong("allow-env"), help: "Grant reading environment variables. Implies --sandbox for the rest.")
    var allowEnvironment = false

    /// What a bare `--allow-read` (anything) is turned into before parsing: ArgumentParser's options need a value.
    static let everything = "*"
    static let scopedFlags = ["--allow-read", "--allow-write", "--allow-net", "--allow-run"]

    /// Gives each bare `--allow-read|write|net|run` the value that means "anything", up to the script's own
    /// arguments: the first `--`, or the first word that names a script (`.auto`, or `-` for standard input),
    /// after which every word is the script's. The code after `-e` is never one of them.
    static func expandBareFlags(_ arguments: [String]) -> [String] {
        var result: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" || argument == "-" || argument.hasSuffix(".auto") { return result + arguments[index...] }
            if argument == "-e", index + 1 < arguments.count {
                result += [argument, arguments[index + 1]]
                index += 2
                continue
            }
            result.append(scopedFlags.contains(argument) ? argument + "=" + everything : argument)
            index += 1
        }
        return result
    }

    /// The grants these flags give, `unflagged` when none is given (everything, for a script run by the person
    /// who wrote it); a path that can't be resolved (a link loop) is a usage error. Each program `--allow-run`
    /// names is resolved here, once: a name to the file PATH finds for it now, a path to its file, links resolved
    /// (`Grants.programs`); the run starts those files only. One that is not found, or that is under a folder
    /// `--allow-write` grants (the run could change it before starting it), is a usage error.
    func grants(unflagged: Grants = .all) throws -> Grants {
        let restricted = sandbox || !allowRead.isEmpty || !allowWrite.isEmpty || !allowNet.isEmpty || !allowRun.isEmpty || allowEnvironment
        guard restricted else { return unflagged }
        let grants = Grants(read: try Self.scope(allowRead, paths: true), write: try Self.scope(allowWrite, paths: true),
                            net: try Self.scope(allowNet, paths: false), run: try Self.scope(allowRun, paths: false), env: allowEnvironment)
        if case .only(let programs) = grants.run {
            for program in programs {
                guard let file = grants.programs[program] else { throw ValidationError("--allow-run=\(program): \(Grants.ProgramRefusal.notFound(program))") }
                if let folder = grants.writableFolder(holding: file) {
                    throw ValidationError("--allow-run=\(program): '\(file)' is in '\(folder)', which --allow-write grants; "
                                          + "a run never starts a file it may change")
                }
            }
        }
        return grants
    }

    /// Each flag may come several times and list several values; `*` anywhere (a bare flag) grants everything.
    static func scope(_ values: [String], paths: Bool) throws -> Grants.Scope {
        let listed = values.flatMap { $0.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) } }
        if listed.contains(everything) { return .all }
        let items = listed.filter { !$0.isEmpty }
        guard !items.isEmpty else { return values.isEmpty ? .none : .all }
        guard paths else { return .only(items) }
        do {
            return .only(try items.map { try GrantedPath.resolve($0) })
        } catch {
            throw ValidationError("\(error)")
        }
    }
}
