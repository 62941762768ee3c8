import AutoTestSupport
import Foundation
import Testing

/// `auto format` through the built binary: files rewritten in place (and only when they change), folders, standard
/// input to standard output, `--check`, and the files it can't format reported by name while the others are formatted.
@Suite struct FormatCommandTests {
    static let messy = "if true {\nshow   1 # one\n\n\n}\r\nset x=[1,2]\n"
    static let canonical = "if true {\n  show 1  # one\n}\nset x = [1, 2]\n"

    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder("format-command")
    }

    func write(_ name: String, _ text: String, mode: Int = 0o644) throws -> String {
        let path = folder(name)
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return path
    }

    func read(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    func mode(_ path: String) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    func inode(_ path: String) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? NSNumber)?.intValue ?? -1
    }

    @Test func aFileIsRewrittenInPlaceOnlyWhenItChanges() async throws {
        let messy = try write("messy.auto", Self.messy, mode: 0o750)
        let tidy = try write("tidy.auto", Self.canonical)
        let tidyInode = try inode(tidy)
        let result = try await BinaryRunner.runAwaiting(["format", messy, tidy])
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardOutput == "\(messy): formatted\n")
        #expect(result.standardError == "")
        #expect(try read(messy) == Self.canonical)
        #expect(try mode(messy) == 0o750, "the file keeps its permissions")
        #expect(try read(tidy) == Self.canonical)
        #expect(try inode(tidy) == tidyInode, "a formatted file is not written again")
        // Twice changes nothing.
        let again = try await BinaryRunner.runAwaiting(["format", messy, tidy])
        #expect(again.exitCode == 0 && again.standardOutput == "" && again.standardError == "", "\(again)")
        // No temporary file is left beside them.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["messy.auto", "tidy.auto"])
    }

    @Test func checkListsWhatWouldChangeAndChangesNothing() async throws {
        let messy = try write("messy.auto", Self.messy)
        let tidy = try write("tidy.auto", Self.canonical)
        let result = try await BinaryRunner.runAwaiting(["format", "--check", messy, tidy])
        #expect(result.exitCode == 1, "\(result.standardError)")
        #expect(result.standardOutput == "\(messy): would reformat\n")
        #expect(try read(messy) == Self.messy)
        let clean = try await BinaryRunner.runAwaiting(["format", "--check", tidy])
        #expect(clean.exitCode == 0 && clean.standardOutput == "" && clean.standardError == "", "\(clean)")
    }

    @Test func aFolderStandsForItsScriptsInOrder() async throws {
        let b = try write("scripts/b.auto", Self.messy)
        let a = try write("scripts/sub/a.auto", Self.messy)
        let first = try write("scripts/a.auto", Self.messy)
        let hidden = try write("scripts/.hidden/c.auto", Self.messy)
        let other = try write("scripts/notes.txt", Self.messy)
        let scripts = folder("scripts")
        let check = try await BinaryRunner.runAwaiting(["format", "--check", scripts + "/"])
        #expect(check.exitCode == 1)
        #expect(check.standardOutput == [first, b, a].map { "\($0): would reformat\n" }.joined(), "\(check.standardOutput)")
        let result = try await BinaryRunner.runAwaiting(["format", scripts])
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardOutput == [first, b, a].map { "\($0): formatted\n" }.joined(), "\(result.standardOutput)")
        for path in [first, a, b] { #expect(try read(path) == Self.canonical) }
        for path in [hidden, other] { #expect(try read(path) == Self.messy, "\(path) is left alone") }
    }

    @Test func standardInputGoesToStandardOutput() async throws {
        for arguments in [["format"], ["format", "-"]] {
            let result = try await BinaryRunner.runAwaiting(arguments, input: Self.messy)
            #expect(result.exitCode == 0, "\(result.standardError)")
            #expect(result.standardOutput == Self.canonical)
            #expect(result.standardError == "")
        }
        let check = try await BinaryRunner.runAwaiting(["format", "--check", "-"], input: Self.messy)
        #expect(check.exitCode == 1 && check.standardOutput == "<stdin>: would reformat\n", "\(check)")
        let clean = try await BinaryRunner.runAwaiting(["format", "--check"], input: Self.canonical)
        #expect(clean.exitCode == 0 && clean.standardOutput == "", "\(clean)")
        let mixed = try await BinaryRunner.runAwaiting(["format", "-", try write("x.auto", Self.messy)])
        #expect(mixed.exitCode == 2 && mixed.standardError.contains("'-' formats standard input"), "\(mixed)")
    }

    /// A syntax error is reported as `auto check` reports it, the file left alone, the others formatted; exit 2.
    @Test func aScriptWithSyntaxErrorsIsReportedAndLeftAlone() async throws {
        let broken = "show 1\nset x = (1 +\nshow   2\n"
        let bad = try write("bad.auto", broken)
        let messy = try write("messy.auto", Self.messy)
        let result = try await BinaryRunner.runAwaiting(["format", bad, messy])
        #expect(result.exitCode == 2)
        let check = try await BinaryRunner.runAwaiting(["check", bad])
        #expect(check.exitCode == 2 && check.standardError.contains("\(bad):2:"), "\(check.standardError)")
        #expect(result.standardError == check.standardError, "format:\n\(result.standardError)\ncheck:\n\(check.standardError)")
        #expect(result.standardOutput == "\(messy): formatted\n")
        #expect(try read(bad) == broken)
        #expect(try read(messy) == Self.canonical)
        // From standard input, the script goes through as it came, so a filter loses nothing.
        let piped = try await BinaryRunner.runAwaiting(["format"], input: broken)
        #expect(piped.exitCode == 2 && piped.standardOutput == broken && piped.standardError.contains("<stdin>:2:"), "\(piped)")
    }

    @Test func aFileThatCantBeReadOrWrittenIsNamedAndTheOthersAreFormatted() async throws {
        let missing = folder("missing.auto")
        let readOnly = try write("read-only.auto", Self.messy, mode: 0o444)
        let messy = try write("messy.auto", Self.messy)
        let result = try await BinaryRunner.runAwaiting(["format", missing, readOnly, messy])
        #expect(result.exitCode == 2)
        #expect(result.standardError.contains("error: \(missing): no such file\n"), "\(result.standardError)")
        #expect(result.standardError.contains("error: \(readOnly): is read-only; not formatted\n"), "\(result.standardError)")
        #expect(result.standardOutput == "\(messy): formatted\n")
        #expect(try read(readOnly) == Self.messy && mode(readOnly) == 0o444)
        #expect(try read(messy) == Self.canonical)
        // --check only reads: a read-only file is listed like any other; the missing one still fails.
        let check = try await BinaryRunner.runAwaiting(["format", "--check", missing, readOnly])
        #expect(check.exitCode == 2 && check.standardOutput == "\(readOnly): would reformat\n", "\(check)")
    }

    /// A link is followed: the file it names is formatted, and the link stays a link.
    @Test func aLinkedScriptIsFormattedThroughTheLink() async throws {
        let target = try write("target.auto", Self.messy)
        let link = folder("link.auto")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let result = try await BinaryRunner.runAwaiting(["format", link])
        #expect(result.exitCode == 0 && result.standardOutput == "\(link): formatted\n", "\(result)")
        #expect(try read(target) == Self.canonical)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
    }
}
