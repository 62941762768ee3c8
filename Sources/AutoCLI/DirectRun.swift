import AutoTerminal
import AutoLanguage

/// `auto -e CODE` and `auto SCRIPT ARGS…` with no option: the forms a cron line, a shebang and a file event use
/// most, run without ArgumentParser. Parsing builds every command's options through reflection and dynamic casts,
/// a third of a whole `auto -e 'show 1'`; here the run gets `RunOptions()`, which are the defaults `run`'s options
/// have. Anything else (an option, `-`, several `-e`, an unreadable script) takes the parser's path, which also
/// reports its errors.
enum DirectRun {
    /// The script and its `args` when `arguments` (after `run` was put in front of a script's name) hold nothing
    /// but them; nil otherwise.
    static func plain(_ arguments: [String]) -> (script: SourceFile, arguments: [String])? {
        var words = arguments[...]
        let named = words.first == "run"
        if named { words = words.dropFirst() }
        guard let first = words.first else { return nil }
        let source: SourceFile
        if first == "-e" {
            guard words.count >= 2, let code = words.dropFirst().first, !code.hasPrefix("-") else { return nil }
            source = SourceFile(name: "-e", text: code)
            words = words.dropFirst(2)
        } else {
            // A script's name comes after `run` (put there for `auto SCRIPT`): a first word that is not one names
            // another command.
            guard named, !first.hasPrefix("-"), let file = try? ScriptFile.load(first) else { return nil }
            source = file
            words = words.dropFirst()
        }
        // What follows is the script's `args`; a word that looks like an option is left to the parser to place.
        guard !words.contains(where: { $0.hasPrefix("-") }) else { return nil }
        return (source, Array(words))
    }
}
