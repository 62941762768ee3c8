/// `--db PATH`, the library's own option, taken out of the arguments before the engine's command line
/// reads them. It belongs before the script: what follows a script is the script's `args`, so a `--db`
/// there is refused rather than quietly handed to the script (or quietly taken from it).
public enum DatabaseOption {
    /// A mistake in how `--db` is given; the command exits 2, as for any usage error.
    public struct UsageError: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// The engine's subcommands: after `check`, `graph` or `intents` every word is a file or a name, so
    /// `--db` may come anywhere (they never open the database, but `--db` is no error for them).
    static let subcommands: Set<String> = ["run", "check", "graph", "intents", "repl", "daemon", "automations", "say", "shortcuts",
                                           "mcp", "migrate", "help"]
    /// The options of `run` that take a value: the word after them is not the script.
    static let optionsWithValues: Set<String> = ["-e", "--max-steps", "--timeout", "--max-depth", "--max-memory", "--answer", "--answers"]

    /// The path given with `--db PATH` or `--db=PATH`, removed from `arguments`; nil without one.
    public static func take(from arguments: inout [String]) throws(UsageError) -> String? {
        var path: String?
        var index = 0
        var command = "run"
        // The first word that is no option: the script, or with `-e` the first of the script's args.
        var script: String?
        while index < arguments.count {
            let argument = arguments[index]
            // From `--` on, every word is the script's (ArgumentParser hands the `--` on too).
            if argument == "--" { break }
            if argument == "--db" || argument.hasPrefix("--db=") {
                let value = argument == "--db" ? (index + 1 < arguments.count ? arguments[index + 1] : nil) : String(argument.dropFirst(5))
                guard let value, !value.isEmpty, !value.hasPrefix("-") else {
                    throw UsageError(description: "--db needs the path of a library database: --db books.sqlite")
                }
                if let script {
                    throw UsageError(description: "--db after '\(script)' would be one of the script's args; put it before the script: --db \(value) \(script)")
                }
                if path != nil { throw UsageError(description: "--db is given twice") }
                path = value
                arguments.removeSubrange(index..<(argument == "--db" ? index + 2 : index + 1))
                continue
            }
            if index == 0, subcommands.contains(argument) {
                command = argument
            } else if optionsWithValues.contains(argument) {
                index += 1
            } else if (argument == "-" || !argument.hasPrefix("-")), command == "run", script == nil {
                script = argument
            }
            index += 1
        }
        return path
    }
}
