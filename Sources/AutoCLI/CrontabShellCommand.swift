/// A job's command as cron hands it to the shell (cronie's do_command.c, Vixie cron's): the first `%` not after a
/// backslash ends the command, and what follows is the standard input, each further such `%` a line break and a
/// line break added at the end; `\%` is a `%` in both parts, and any other backslash is left for the shell.
struct CrontabShellCommand: Equatable {
    /// What `$SHELL -c` runs.
    var command: String
    /// The standard input; nil without a `%` or with nothing after it (cron's pipe then gives the job nothing to
    /// read, as an empty input does).
    var input: String?
    /// Byte offset, in the command as written, of the `%` that ended the command when it is inside quotes: cron
    /// knows no quotes, so `date +"%Y"` ends at the `%`, which was surely meant as a percent sign.
    var quotedPercent: Int?

    init(_ written: String) {
        let bytes = Array(written.utf8)
        var command: [UInt8] = []
        var escaped = false
        // The shell's quoting, followed only to notice a `%` inside quotes.
        var quote: UInt8?
        var shellEscaped = false
        var split: Int?
        for (offset, byte) in bytes.enumerated() {
            if escaped {
                escaped = false
                if byte == UInt8(ascii: "%") {
                    command[command.count - 1] = byte
                    shellEscaped = false
                    continue
                }
            } else if byte == UInt8(ascii: "%") {
                split = offset
                if quote != nil { quotedPercent = offset }
                break
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            }
            command.append(byte)
            if shellEscaped {
                shellEscaped = false
            } else if let open = quote {
                if byte == open { quote = nil } else if open == UInt8(ascii: "\""), byte == UInt8(ascii: "\\") { shellEscaped = true }
            } else if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") {
                quote = byte
            } else if byte == UInt8(ascii: "\\") {
                shellEscaped = true
            }
        }
        self.command = String(decoding: command, as: UTF8.self)
        guard let split, split + 1 < bytes.count else { return }
        input = Self.input(bytes[(split + 1)...])
    }

    /// The text after the first `%` as the job reads it: `%` a line break, `\%` a `%`, any other backslash kept,
    /// and a line break at the end when the text doesn't end with one (none for an empty text).
    static func input(_ written: ArraySlice<UInt8>) -> String {
        var out: [UInt8] = []
        var escaped = false
        // Whether to end with a line break: cron decides it on the last byte written, but for the backslash an
        // escape gives back.
        var needsLineBreak = false
        for byte in written {
            var byte = byte
            if escaped {
                if byte != UInt8(ascii: "%") { out.append(UInt8(ascii: "\\")) }
            } else if byte == UInt8(ascii: "%") {
                byte = UInt8(ascii: "\n")
            }
            // A backslash after a backslash escapes the next byte in turn, as cron's loop has it.
            escaped = byte == UInt8(ascii: "\\")
            if !escaped {
                out.append(byte)
                needsLineBreak = byte != UInt8(ascii: "\n")
            }
        }
        if escaped { out.append(UInt8(ascii: "\\")) }
        if needsLineBreak { out.append(UInt8(ascii: "\n")) }
        return String(decoding: out, as: UTF8.self)
    }
}
