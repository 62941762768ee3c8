import AutoCLI
import Foundation
import LibraryHost

// `library` is the whole `auto` command line over a SQLite library of books: `library run`, `library -e`,
// `library check`, `library graph`, `library intents`, plus `--db PATH` to choose the database.
var arguments = Array(CommandLine.arguments.dropFirst())
let path = Library.databasePath(from: &arguments) ?? LibraryDatabase.defaultPath
do {
    let database = try LibraryDatabase(path: path)
    await AutoCommandLine.main(try Library.host(database: database), arguments: arguments)
} catch {
    FileHandle.standardError.write(Data("library: can't open the library at \(path): \(error)\n".utf8))
    exit(1)
}
