import AutoTestSupport
import Foundation
import LibraryExample
import Testing

/// `library`'s own option, `--db PATH`, and when the database is opened: only for a query or a write, so
/// help, usage errors and the commands that only read scripts create no file, and a `--db` that would be
/// lost among a script's args is refused.
@Suite final class LibraryCommandLineTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder("library-cli")
    }

    /// The files `arguments` left in an empty folder, run with HOME and XDG_DATA_HOME inside it, so that the
    /// default database would be created there too.
    func filesLeft(by arguments: [String]) async throws -> (result: BinaryRunner.Result, files: [String]) {
        let home = folder.url.appendingPathComponent("home-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        try "find books where author == \"Jane Austen\" | open\n".write(to: home.appendingPathComponent("a.auto"), atomically: true, encoding: .utf8)
        let result = try await LibraryBinary.runAwaiting(arguments, directory: home.path, environment: ["HOME": home.path, "XDG_DATA_HOME": ""])
        let files = FileManager.default.subpaths(atPath: home.path)?.filter { $0 != "a.auto" }.sorted() ?? []
        return (result, files)
    }

    static let openNothing: [[String]] = [
        ["--help"], ["--version"], ["--generate-completion-script", "bash"], ["help", "run"],
        ["check", "a.auto"], ["graph", "a.auto"], ["intents"], ["intents", "describe", "import books"],
        ["intents", "a.auto"], ["intents", "describe", "open", "book", "a.auto"],
        ["intents", "describe", "move book"],
        ["--db", "x.sqlite", "check", "a.auto"], ["--db", "x.sqlite", "--help"], ["--db", "x.sqlite", "intents"],
        ["-e", "show 1"], ["--db", "x.sqlite", "-e", "show 1 + 1"],
    ]

    @Test(arguments: openNothing)
    func commandsThatNeedNoDatabaseCreateNone(_ arguments: [String]) async throws {
        let (result, files) = try await filesLeft(by: arguments)
        #expect(result.exitCode == 0, "\(arguments): \(result.standardError)")
        #expect(files == [], "\(arguments) created \(files)")
    }

    static let usageErrors: [[String]] = [
        ["--bogus"], ["run"], ["--max-depth", "0", "-e", "1"], ["--db"], ["--db", "--json", "-e", "1"], ["--db="],
        ["--db", "x.sqlite", "--db", "y.sqlite", "-e", "1"], ["check"], ["--db", "x.sqlite", "a.auto", "--db", "y.sqlite"],
    ]

    @Test(arguments: usageErrors)
    func usageErrorsCreateNoDatabase(_ arguments: [String]) async throws {
        let (result, files) = try await filesLeft(by: arguments)
        #expect(result.exitCode == 2, "\(arguments): \(result.standardError)")
        #expect(files == [], "\(arguments) created \(files)")
        #expect(result.standardOutput == "")
    }

    @Test func aDatabaseIsCreatedOnTheFirstQuery() async throws {
        let (result, files) = try await filesLeft(by: ["--db", "books.sqlite", "a.auto"])
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardOutput.hasPrefix("Opening "))
        #expect(files.contains("books.sqlite"), "\(files)")
        let (byDefault, defaultFiles) = try await filesLeft(by: ["-e", "show count(find books)"])
        #expect(byDefault.standardOutput == "680\n", "\(byDefault.standardError)")
        #expect(defaultFiles.contains(".local/share/auto-library/library.sqlite"), "\(defaultFiles)")
    }

    @Test func dbWithoutAPathIsAUsageError() async throws {
        let (result, _) = try await filesLeft(by: ["--db"])
        #expect(result.standardError == "library: --db needs the path of a library database: --db books.sqlite\n")
    }

    /// What follows a script is its `args`: a `--db` there is refused, not handed to the script, not taken.
    @Test func dbAfterTheScriptIsRefused() async throws {
        let (result, files) = try await filesLeft(by: ["a.auto", "--db", "x.sqlite"])
        #expect(result.exitCode == 2)
        #expect(result.standardError == "library: --db after 'a.auto' would be one of the script's args; put it before the script: --db x.sqlite a.auto\n")
        #expect(files == [])
        let afterCode = try await filesLeft(by: ["-e", "show args", "one", "--db=x.sqlite"])
        #expect(afterCode.result.exitCode == 2)
        #expect(afterCode.result.standardError.contains("put it before the script"), "\(afterCode.result.standardError)")
    }

    @Test func dbBeforeTheScriptIsTakenAndArgsAfterItAreTheScripts() async throws {
        try "show args\n".write(to: folder.url.appendingPathComponent("args.auto"), atomically: true, encoding: .utf8)
        let result = try await LibraryBinary.runAwaiting(["--db", "lib.sqlite", "args.auto", "a", "--", "--db", "b"], directory: folder.path)
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardOutput == "[\"a\", \"--\", \"--db\", \"b\"]\n")
        // The script touched no book: no database either.
        #expect(!FileManager.default.fileExists(atPath: folder("lib.sqlite")))
        let equals = try await LibraryBinary.runAwaiting(["--db=lib.sqlite", "-e", "show count(find books)"], directory: folder.path)
        #expect(equals.standardOutput == "680\n", "\(equals.standardError)")
        #expect(FileManager.default.fileExists(atPath: folder("lib.sqlite")))
    }

    /// Whether this test process can run the binary as a user who is refused a folder: as root, only in a
    /// user namespace of its own (`unshare --user`), where root's files are not its own.
    static let canBeRefused: Bool = geteuid() != 0 || InstalledBinary.canHideBuildFolder

    /// Runs the binary as a user that can't write to folders made by this test.
    func runUnprivileged(_ arguments: [String]) async throws -> BinaryRunner.Result {
        if geteuid() != 0 { return try await LibraryBinary.runAwaiting(arguments, directory: folder.path) }
        return try await BinaryRunner.runAwaiting(["--user", LibraryBinary.path] + arguments, executable: "/usr/bin/unshare", directory: folder.path)
    }

    @Test(.enabled(if: canBeRefused)) func aLibraryInAnUnwritableFolderIsAPlainError() async throws {
        let locked = folder.url.appendingPathComponent("locked")
        try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: locked.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: locked.path) }
        for path in [locked.path + "/x.sqlite", locked.path + "/sub/x.sqlite"] {
            let result = try await runUnprivileged(["--db", path, "-e", "show count(find books)"])
            #expect(result.exitCode == 1)
            #expect(result.standardError == "library: can't create the library at \(path): permission denied\n")
        }
    }

    @Test func aFileThatIsNoLibraryIsAPlainError() async throws {
        let text = folder.url.appendingPathComponent("notes.sqlite")
        try String(repeating: "not a database\n", count: 100).write(to: text, atomically: true, encoding: .utf8)
        let result = try await LibraryBinary.runAwaiting(["--db", text.path, "-e", "find books limit 1"])
        #expect(result.exitCode == 1)
        #expect(result.standardError == "library: can't open the library at \(text.path): it is not a SQLite database\n")
        let aFolder = try await LibraryBinary.runAwaiting(["--db", folder.path, "-e", "add book \"X\""])
        #expect(aFolder.exitCode == 1)
        #expect(aFolder.standardError == "library: can't open the library at \(folder.path): it is a folder\n")
        let underAFile = try await LibraryBinary.runAwaiting(["--db", text.path + "/x.sqlite", "-e", "add book \"X\""])
        #expect(underAFile.standardError == "library: can't create the library at \(text.path)/x.sqlite: not a directory\n")
    }
}

extension LibraryCommandLineTests {
    /// `intents describe` knows entity types and enums, not only intents; hints name the host's own command.
    @Test func describeTellsOfEntitiesAndEnumsAndHintsNameTheHost() async throws {
        let book = try await filesLeft(by: ["intents", "describe", "books"]).result
        #expect(book.exitCode == 0, "\(book.standardError)")
        #expect(book.standardOutput.hasPrefix("Book\n  an entity: 'book' and 'books' in scripts\n"), "\(book.standardOutput)")
        #expect(book.standardOutput.contains("  readDate: Date — Date read; the host filters with == != < <= > >= in between; the host sorts by it\n"))
        #expect(book.standardOutput.contains("  added: Date — Date added; the host filters with == != < <= > >= in between; the host sorts by it\n"))
        #expect(book.standardOutput.contains("  shelf: Shelf — the host filters with == != in\n"), "the host doesn't sort by shelf")
        #expect(book.standardOutput.contains("Finding: by id; by text ('find books matching"))
        let shelf = try await filesLeft(by: ["intents", "describe", "Shelf"]).result
        #expect(shelf.standardOutput.contains("Cases:\n  wantToRead        \"Want to Read\"\n"), "\(shelf.standardOutput)")
        let unknown = try await filesLeft(by: ["intents", "describe", "bok"]).result
        #expect(unknown.exitCode == 2)
        #expect(unknown.standardError.contains("did you mean 'book'?"), "\(unknown.standardError)")
        let hint = try await filesLeft(by: ["check", "-e", "frobnicate"]).result
        #expect(hint.standardError.contains("'library intents' lists the actions"), "\(hint.standardError)")
    }
}

extension LibraryCommandLineTests {
    /// `library intents` reads a script's shortcuts over the host's own types, as `auto intents` does, and opens
    /// no database to do it.
    @Test func intentsListAndDescribeAScriptsShortcutsOverBooks() async throws {
        let home = folder.url.appendingPathComponent("shortcuts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        try """
            shortcut "shelve" (book: Book, on: Shelf = wantToRead) {
              return move book book to: on
            }
            """.write(to: home.appendingPathComponent("shelve.auto"), atomically: true, encoding: .utf8)
        let environment = ["HOME": home.path, "XDG_DATA_HOME": ""]
        let list = try await LibraryBinary.runAwaiting(["intents", "shelve.auto"], directory: home.path, environment: environment)
        #expect(list.exitCode == 0, "\(list.standardError)")
        let line = list.standardOutput.split(separator: "\n").first { $0.hasPrefix("shelve ") }
        #expect(line?.hasSuffix("(Book) → Book  A shortcut from shelve.auto.  [shortcut, shelve.auto:1]") == true, "\(list.standardOutput)")
        let describe = try await LibraryBinary.runAwaiting(["intents", "describe", "shelve", "shelve.auto"], directory: home.path, environment: environment)
        #expect(describe.exitCode == 0, "\(describe.standardError)")
        #expect(describe.standardOutput.contains("  book: Book, required, input\n  on: Shelf, optional, default Want to Read\nResult: Book\n"),
                "\(describe.standardOutput)")
        #expect(FileManager.default.subpaths(atPath: home.path) == ["shelve.auto"], "no database was created")
    }
}
