import ArgumentParser
import AutoTerminal
import AutoIntents
import AutoLanguage
import Foundation

/// Where a command's script comes from: `-e CODE`, a file, or `-` for standard input.
struct ScriptSourceOptions: ParsableArguments {
    @Option(name: .customShort("e"), help: ArgumentHelp("Run CODE instead of a file; several run in order, as lines of one script.", valueName: "CODE"))
    var expressions: [String] = []

    /// The code of every `-e`, one after the other (as `perl -e` and `sed -e` join theirs), or nil without one.
    var expression: String? { expressions.isEmpty ? nil : expressions.joined(separator: "\n") }

    func load(path: String?) throws -> SourceFile {
        if let expression { return SourceFile(name: "-e", text: expression) }
        guard let path else { throw ValidationError("give a script file, '-' for standard input, or -e CODE") }
        return try Self.load(path)
    }

    /// The script at `path` (`-`: standard input); one that can't be read is a usage error.
    static func load(_ path: String) throws -> SourceFile {
        do { return try ScriptFile.load(path) } catch { throw ValidationError(error.description) }
    }
}
