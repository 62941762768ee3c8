import AutoHost
import Foundation

/// The main of `library`: the whole `auto` command line over a SQLite library of books (`library run`, `library -e`,
/// `library check`, `library mcp`, …), plus `--db PATH` to choose the database.
public enum LibraryCommandLine {
    public static func main() async -> Never {
        var arguments = Array(CommandLine.arguments.dropFirst())
        let path: String
        do {
            path = try DatabaseOption.take(from: &arguments) ?? LibraryDatabase.defaultPath
        } catch {
            FileHandle.standardError.write(Data("library: \(error)\n".utf8))
            exit(2)  // a usage error, as the command line's own
        }
        // Opened on the first query or write: help, usage errors, `check`, `graph` and `intents` create no file.
        // When it can't be opened, no part of a script can go on: the reason is said plainly and the run ends.
        let database = LibraryDatabase(path: path) { problem in
            FileHandle.standardError.write(Data("library: \(problem)\n".utf8))
            exit(1)  // a run-time error
        }
        await AutoHost.main(name: "library", arguments: arguments) { registry in
            try Library.register(into: &registry, database: database)
        }
    }
}
