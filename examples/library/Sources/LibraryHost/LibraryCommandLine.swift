import AutoCLI
import Foundation

/// The main of the Library's binaries: `library` is the whole `auto` command line over a SQLite library of books
/// (`library run`, `library -e`, `library check`, …), plus `--db PATH` to choose the database; `library-mcp` is the
/// same with its `mcp` command serving (`adapt` is `McpCompanion.serving`).
public enum LibraryCommandLine {
    public static func main(_ adapt: (AutoHost) -> AutoHost = { $0 }) async -> Never {
        var arguments = Array(CommandLine.arguments.dropFirst())
        let path: String
        do {
            path = try DatabaseOption.take(from: &arguments) ?? LibraryDatabase.defaultPath
        } catch {
            FileHandle.standardError.write(Data("library: \(error)\n".utf8))
            exit(ExitCode.usageError)
        }
        // Opened on the first query or write: help, usage errors, `check`, `graph` and `intents` create no file.
        // When it can't be opened, no part of a script can go on: the reason is said plainly and the run ends.
        let database = LibraryDatabase(path: path) { problem in
            FileHandle.standardError.write(Data("library: \(problem)\n".utf8))
            exit(ExitCode.runtimeError)
        }
        do {
            await AutoCommandLine.main(adapt(try Library.host(database: database)), arguments: arguments)
        } catch {
            FileHandle.standardError.write(Data("library: \(error)\n".utf8))
            exit(ExitCode.runtimeError)
        }
    }
}
