import Foundation

/// systemd.syntax(7)'s quoting: items separated by whitespace, `"…"` and `'…'` keeping spaces, and C escapes
/// (`\n`, `\x41`, `\u00e9`, `\s` for a space). For `ExecStart=` and `Environment=` values.
enum SystemdQuoting {
    /// One item, and whether it was written as a bare `;` (which separates commands; `\;` is a `;` argument).
    struct Word: Equatable {
        let text: String
        let isSeparator: Bool
    }

    struct Failure: Error, Equatable, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    static func words(_ value: String) throws(Failure) -> [Word] {
        var words: [Word] = []
        var characters = Array(value.unicodeScalars)[...]
        while true {
            while let first = characters.first, first == " " || first == "\t" { characters.removeFirst() }
            guard !characters.isEmpty else { return words }
            var text = String.UnicodeScalarView(), raw = String.UnicodeScalarView()
            var quote: Unicode.Scalar?
            while let scalar = characters.first {
                if quote == nil, scalar == " " || scalar == "\t" { break }
                characters.removeFirst()
                raw.append(scalar)
                if let open = quote, scalar == open {
                    quote = nil
                } else if quote == nil, scalar == "\"" || scalar == "'" {
                    quote = scalar
                } else if scalar == "\\" {
                    text.append(try escape(&characters, raw: &raw))
                } else {
                    text.append(scalar)
                }
            }
            if let open = quote { throw Failure(message: "the quote \(open) is never closed") }
            words.append(Word(text: String(text), isSeparator: String(raw) == ";"))
        }
    }

    /// The character a C escape stands for; the backslash is already read.
    static func escape(_ characters: inout ArraySlice<Unicode.Scalar>, raw: inout String.UnicodeScalarView) throws(Failure) -> Unicode.Scalar {
        guard let letter = characters.popFirst() else { throw Failure(message: "a backslash ends the value; write \\\\ for a backslash") }
        raw.append(letter)
        let simple: [Unicode.Scalar: Unicode.Scalar] = ["a": "\u{07}", "b": "\u{08}", "f": "\u{0C}", "n": "\n", "r": "\r", "t": "\t",
                                                        "v": "\u{0B}", "\\": "\\", "\"": "\"", "'": "'", "s": " ", ";": ";"]
        if let scalar = simple[letter] { return scalar }
        func digits(_ count: Int, radix: Int) throws(Failure) -> Unicode.Scalar {
            let taken = characters.prefix(count)
            guard taken.count == count, let value = UInt32(String(String.UnicodeScalarView(taken)), radix: radix), value != 0,
                  let scalar = Unicode.Scalar(value) else {
                throw Failure(message: "'\\\(letter)\(String(String.UnicodeScalarView(taken)))' is not a valid escape")
            }
            characters.removeFirst(count)
            raw.append(contentsOf: taken)
            return scalar
        }
        switch letter {
        case "x": return try digits(2, radix: 16)
        case "u": return try digits(4, radix: 16)
        case "U": return try digits(8, radix: 16)
        case "0"..."7":
            characters.insert(letter, at: characters.startIndex)
            raw.removeLast()
            return try digits(3, radix: 8)
        default:
            throw Failure(message: "'\\\(letter)' is not an escape systemd knows (systemd.syntax(7)); write \\\\ for a backslash")
        }
    }
}

/// One command of an `ExecStart=` line as systemd.service(5) runs it: the program, its arguments, and what its
/// prefixes (`-`, `@`, `:`, `+`, `!`, `!!`) ask for.
struct SystemdCommand: Equatable {
    var program: String
    /// As written, before `$VAR` expansion.
    var arguments: [String]
    /// `-`: a failure counts as success.
    var ignoresFailure = false
    /// `@`: the second word is the program's `argv[0]`.
    var argumentZero: String?
    /// `:`: `$VAR` and `${VAR}` are left as written.
    var expandsVariables = true
    /// `+`, `!`, `!!`: the privileges it runs with, which the daemon's runs can't change.
    var privilegePrefix: String?

    /// The commands of one value: several when a bare `;` separates them.
    static func commands(in value: String) throws(SystemdQuoting.Failure) -> [SystemdCommand] {
        var commands: [SystemdCommand] = []
        var words: [String] = []
        func finish() throws(SystemdQuoting.Failure) {
            guard !words.isEmpty else { throw SystemdQuoting.Failure(message: "a ';' with no command before it") }
            commands.append(try command(words))
            words = []
        }
        for word in try SystemdQuoting.words(value) {
            if word.isSeparator { try finish() } else { words.append(word.text) }
        }
        try finish()
        return commands
    }

    static func command(_ words: [String]) throws(SystemdQuoting.Failure) -> SystemdCommand {
        var first = Substring(words[0])
        var command = SystemdCommand(program: "", arguments: Array(words.dropFirst()))
        var argumentZero = false
        while let prefix = first.first, "-@:+!".contains(prefix) {
            first = first.dropFirst()
            switch prefix {
            case "-": command.ignoresFailure = true
            case "@": argumentZero = true
            case ":": command.expandsVariables = false
            default: command.privilegePrefix = (command.privilegePrefix ?? "") + String(prefix)
            }
        }
        guard !first.isEmpty else { throw SystemdQuoting.Failure(message: "the command has prefixes but no program") }
        guard first.hasPrefix("/") || !first.contains("/") else {
            throw SystemdQuoting.Failure(message: "'\(first)' is neither an absolute path nor a name found in systemd's search path")
        }
        guard !first.contains("$") else { throw SystemdQuoting.Failure(message: "the program may not be a variable (systemd.service(5))") }
        command.program = String(first)
        if argumentZero {
            guard !command.arguments.isEmpty else { throw SystemdQuoting.Failure(message: "'@' needs a second word, the program's argv[0]") }
            command.argumentZero = command.arguments.removeFirst()
        }
        return command
    }

    /// The arguments with `$VAR` (a whole word: its value split at whitespace, quotes respected) and `${VAR}` (its
    /// value exactly) replaced, `$$` made `$`, as systemd does when it starts the command; and the names used that
    /// `environment` has no value for (systemd makes them empty).
    func expandedArguments(_ environment: [String: String]) -> (arguments: [String], unset: [String]) {
        guard expandsVariables else { return (arguments, []) }
        var unset: [String] = []
        var result: [String] = []
        for argument in arguments {
            if argument.first == "$", argument.count > 1, Self.isName(argument.dropFirst()) {
                let name = String(argument.dropFirst())
                if environment[name] == nil { unset.append(name) }
                let value = environment[name] ?? ""
                result += (try? SystemdQuoting.words(value).map(\.text)) ?? value.split(whereSeparator: \.isWhitespace).map(String.init)
                continue
            }
            var text = "", rest = Substring(argument)
            while let dollar = rest.firstIndex(of: "$") {
                text += rest[..<dollar]
                rest = rest[dollar...].dropFirst()
                if rest.first == "$" {
                    text += "$"
                    rest = rest.dropFirst()
                } else if rest.first == "{", let close = rest.firstIndex(of: "}"), Self.isName(rest[rest.index(after: rest.startIndex)..<close]) {
                    let name = String(rest[rest.index(after: rest.startIndex)..<close])
                    if environment[name] == nil { unset.append(name) }
                    text += environment[name] ?? ""
                    rest = rest[close...].dropFirst()
                } else {
                    // A `$NAME` inside a word is left as it is: systemd expands it only as a word of its own.
                    text += "$"
                }
            }
            result.append(text + rest)
        }
        return (result, unset)
    }

    static func isName(_ text: Substring) -> Bool {
        guard let first = text.first, first == "_" || (first.isASCII && first.isLetter) else { return false }
        return text.allSatisfy { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
    }
}
