import ArgumentParser
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
        return try ScriptFile.load(path)
    }
}

/// A script named on the command line: a file, or `-` for standard input. Shared by the commands that take
/// `-e` and by `intents`, which reads a script only for its shortcuts.
enum ScriptFile {
    static func load(_ path: String) throws -> SourceFile {
        if path == "-" {
            let data = FileHandle.standardInput.readDataToEndOfFile()
            return SourceFile(name: "<stdin>", text: String(decoding: data, as: UTF8.self))
        }
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            guard let text = String(data: data, encoding: .utf8) else {
                throw ValidationError("\(path): the file is not UTF-8 text")
            }
            return SourceFile(name: path, text: text)
        } catch let error as ValidationError {
            throw error
        } catch {
            let reason = FileManager.default.fileExists(atPath: path) ? "can't be read" : "no such file"
            throw ValidationError("\(path): \(reason)")
        }
    }
}
