import ArgumentParser
import AutoIntents
import AutoLanguage
import AutoStdlib
import AutoTerminal
import Foundation

/// `auto format [--check] [PATHS…]`: scripts rewritten in the canonical layout (`Formatter`), in place, or standard
/// input to standard output.
struct FormatCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "format", abstract: "Lay scripts out the one canonical way: indentation, spaces, blank lines, comments.",
        discussion: """
            Each file is rewritten in place when its layout changes (replaced whole, never half written, its permissions \
            kept) and 'PATH: formatted' is printed; a file already formatted is left untouched and nothing is printed. A \
            folder stands for every .auto file under it, in order of name (names starting with '.' are left out). With \
            '-', or no path when standard input is not a terminal, the script is read from standard input and written \
            formatted to standard output (as it came, if it can't be formatted). Only the whitespace changes: never a token, never where a line breaks. A script \
            with syntax errors is reported as 'check' reports it and left alone; a file that can't be read or written \
            is reported by name; the other files are formatted all the same, and the exit code is 2. With --check \
            nothing is written: each file that would change is listed ('PATH: would reformat') and the exit code is 1 \
            if there is one. docs/LANGUAGE.md ("Formatting") has the rules.
            """)

    @Flag(help: "Change nothing: list the files that would change ('PATH: would reformat'); exit 1 if there is one.")
    var check = false

    @Argument(help: "Scripts, and folders whose .auto files (in subfolders too) are formatted; '-' for standard input.")
    var paths: [String] = []

    func validate() throws {
        if paths.contains("-"), paths.count > 1 {
            throw ValidationError("'-' formats standard input to standard output: give it alone")
        }
        if paths.isEmpty, isatty(STDIN_FILENO) == 1 {
            throw ValidationError("give the scripts or folders to format, or '-' to format standard input")
        }
    }

    func run() throws {
        var formatter = ScriptFormatter(check: check, console: .standard)
        if paths.isEmpty || paths == ["-"] {
            formatter.formatStandardInput()
        } else {
            for path in paths { formatter.format(path: path) }
        }
        if formatter.failed { throw CommandExit(code: ExitCode.usageError) }
        if formatter.wouldChange { throw CommandExit(code: ExitCode.runtimeError) }
    }
}

/// The work of `auto format`, file by file: what it found, for the exit code.
struct ScriptFormatter {
    let check: Bool
    let console: Console
    /// A file couldn't be read, written or formatted (exit 2).
    private(set) var failed = false
    /// With --check, a file would change (exit 1).
    private(set) var wouldChange = false

    init(check: Bool, console: Console) {
        self.check = check
        self.console = console
    }

    /// `path`, a file or a folder of them. Every problem is reported and remembered; nothing stops the others.
    mutating func format(path: String) {
        var status = stat()
        if FileCalls.stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            for file in scripts(under: path) { formatFile(file) }
        } else {
            formatFile(path)
        }
    }

    /// The `.auto` files under `folder`, in the order `find` lists them by name, its hidden files and folders left out.
    mutating func scripts(under folder: String) -> [String] {
        var root = folder
        while root.count > 1, root.hasSuffix("/") { root.removeLast() }
        var found: [String] = []
        do {
            try FileTree(root: root, recursive: true, hidden: false).walk { folder, name, isFolder in
                if !isFolder, name.hasSuffix(".auto") { found.append(FileTree.path(of: name, in: folder)) }
                return true
            }
        } catch {
            fail("\(folder): \(error)")
        }
        return found
    }

    mutating func formatFile(_ path: String) {
        let script: SourceFile
        do {
            script = try ScriptFile.load(path)
        } catch {
            return fail(error.description)
        }
        guard let formatted = formatted(script) else { return }
        guard formatted != script.text else { return }
        if check {
            wouldChange = true
            return console.writeOut("\(path): would reformat\n")
        }
        // The file a link points to is rewritten; the link stays.
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        var status = stat()
        // A rename would replace a read-only file all the same: refuse it, as an editor would, whoever runs this.
        if FileCalls.stat(target, &status) == 0, status.st_mode & 0o222 == 0 || FileCalls.access(target, W_OK) != 0 {
            return fail("\(path): is read-only; not formatted")
        }
        do {
            try AtomicFile.replaceContents(of: target, with: formatted)
            console.writeOut("\(path): formatted\n")
        } catch {
            fail("\(path): not formatted: \(error)")
        }
    }

    /// Standard input, formatted to standard output (with --check, only whether it would change).
    mutating func formatStandardInput() {
        let name = "<stdin>"
        let text: String
        switch DescriptorReading.readAll(STDIN_FILENO, limit: ScriptFile.maxBytes) {
        case .bytes(let bytes):
            guard let decoded = String(validating: bytes, as: UTF8.self) else { return fail("\(name): the input is not UTF-8 text") }
            text = decoded
        case .tooLong:
            return fail("\(name): is longer than a script may be (\(ScriptFile.maxBytes >> 20) MB)")
        case .failed(let code):
            return fail("\(name): can't be read (\(String(cString: strerror(code))))")
        }
        let script = SourceFile(name: name, text: text)
        guard let formatted = formatted(script) else {
            // Nothing is lost in a filter (`auto format - < a > b`, an editor's `:%!auto format`): what can't be
            // formatted goes through as it came, the exit code saying it wasn't.
            if !check { console.writeOut(text) }
            return
        }
        if check {
            if formatted != text {
                wouldChange = true
                console.writeOut("\(name): would reformat\n")
            }
            return
        }
        console.writeOut(formatted)
    }

    /// The script's canonical text, or nil once its problems are reported.
    mutating func formatted(_ script: SourceFile) -> String? {
        switch Formatter.format(script) {
        case .success(let text):
            return text
        case .failure(let failure):
            for diagnostic in failure.diagnostics { console.writeError(diagnostic.rendered(colour: console.colourError)) }
            failed = true
            return nil
        }
    }

    mutating func fail(_ message: String) {
        console.writeError("error: \(message)\n")
        failed = true
    }
}
