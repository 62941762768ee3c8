import AutoLanguage

/// One line of a crontab, read as cronie reads it (user.c's load_user, env.c's load_env, entry.c's load_entry, the
/// same rules as Debian's Vixie cron): a comment or blank line, a variable, or a job. Offsets are the line's bytes.
enum CrontabLine: Equatable {
    /// Nothing but blanks, or a `#` first after them: cron skips it.
    case blank
    case comment(String)
    /// `NAME=value`, `NAME = "value"`: it applies to the jobs after it.
    case variable(name: String, value: String)
    case job(CrontabJob)

    /// What is wrong with a line cron would refuse, and where: byte offsets in the line.
    struct Mistake: Error, Equatable {
        let message: String
        let start: Int
        let end: Int
    }

    /// The names cron takes after `@`, spelt as it spells them (it compares case-sensitively).
    static let timeNames = ["yearly", "annually", "monthly", "weekly", "daily", "midnight", "hourly", "reboot"]

    static func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }

    /// `line` without its line break; `system` for /etc/crontab's format, with a user before the command.
    static func parse(_ line: String, system: Bool) throws(Mistake) -> CrontabLine {
        let bytes = Array(line.utf8)
        var index = 0
        while index < bytes.count, isBlank(bytes[index]) { index += 1 }
        guard index < bytes.count else { return .blank }
        if bytes[index] == UInt8(ascii: "#") { return .comment(String(decoding: bytes[(index + 1)...], as: UTF8.self)) }
        if let found = variable(in: bytes[index...]) {
            guard !found.name.isEmpty else { throw Mistake(message: "a variable line needs a name before its '='", start: index, end: bytes.count) }
            return .variable(name: found.name, value: found.value)
        }
        return .job(try CrontabJob.parse(bytes, from: index, system: system))
    }

    /// A variable line as load_env reads one, or nil when the line is none (it is then a job): a name, unquoted up to
    /// a blank or `=`, or in quotes; `=`; a value, blanks before it skipped, in quotes, or unquoted and trimmed of
    /// the blanks after it. Nothing may follow a closing quote but blanks. No `$` is expanded.
    static func variable(in text: ArraySlice<UInt8>) -> (name: String, value: String)? {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
        func isQuote(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") }
        var index = text.startIndex
        var name: [UInt8] = []
        if isQuote(text[index]) {
            let quote = text[index]
            index += 1
            while index < text.endIndex, text[index] != quote {
                if text[index] == UInt8(ascii: "=") { return nil }
                name.append(text[index])
                index += 1
            }
            guard index < text.endIndex else { return nil }
            index += 1
        } else {
            while index < text.endIndex, !isSpace(text[index]), text[index] != UInt8(ascii: "=") {
                name.append(text[index])
                index += 1
            }
        }
        while index < text.endIndex, isSpace(text[index]) { index += 1 }
        guard index < text.endIndex, text[index] == UInt8(ascii: "=") else { return nil }
        index += 1
        while index < text.endIndex, isSpace(text[index]) { index += 1 }
        var value: [UInt8] = []
        if index < text.endIndex, isQuote(text[index]) {
            let quote = text[index]
            index += 1
            while index < text.endIndex, text[index] != quote {
                value.append(text[index])
                index += 1
            }
            guard index < text.endIndex else { return nil }
            index += 1
            guard text[index...].allSatisfy(isSpace) else { return nil }
        } else {
            value = Array(text[index...])
            while let last = value.last, isSpace(last) { value.removeLast() }
        }
        return (String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self))
    }
}

/// A job line: when it runs, as whom (a system crontab's user) and the command, still with its `%`s.
struct CrontabJob: Equatable {
    enum Time: Equatable {
        /// The five fields, each as written, in a `CronExpression` that reads them as cron does.
        case fields([String], CronExpression)
        /// `@daily` and the like (the name without its `@`), and what it stands for.
        case named(String, CronExpression)
        case reboot
    }
    var time: Time
    /// Byte offsets of the time fields (or the `@name`) in the line.
    var timeStart: Int
    var timeEnd: Int
    var user: String?
    /// The rest of the line, as cron keeps it: trailing blanks included.
    var command: String
    /// Byte offset of the command in the line.
    var commandStart: Int
    /// cronie's `-` before the time: the job's runs are not logged.
    var unlogged = false
    /// cronie's `-n` before the command: mail only when the job fails.
    var mailOnlyOnError = false

    typealias Mistake = CrontabLine.Mistake

    static func parse(_ bytes: [UInt8], from start: Int, system: Bool) throws(Mistake) -> CrontabJob {
        var index = start
        func word() -> (start: Int, end: Int) {
            let wordStart = index
            while index < bytes.count, !CrontabLine.isBlank(bytes[index]) { index += 1 }
            return (wordStart, index)
        }
        func skipBlanks() { while index < bytes.count, CrontabLine.isBlank(bytes[index]) { index += 1 } }
        func text(_ range: (start: Int, end: Int)) -> String { String(decoding: bytes[range.start..<range.end], as: UTF8.self) }
        func noCommand(_ what: String) -> Mistake {
            Mistake(message: "the line ends after \(what): cron needs a command there", start: max(start, bytes.count - 1), end: bytes.count)
        }

        var unlogged = false
        if bytes[index] == UInt8(ascii: "-") {
            unlogged = true
            index += 1
        }
        let time: Time
        let timeStart = index
        if index < bytes.count, bytes[index] == UInt8(ascii: "@") {
            let name = word()
            let written = text((name.start + 1, name.end))
            guard CrontabLine.timeNames.contains(written) else {
                let known = CrontabLine.timeNames.map { "@" + $0 }.joined(separator: " ")
                throw Mistake(message: "'\(text(name))' is not a time cron knows (it knows \(known), in lower case)", start: name.start, end: name.end)
            }
            if written == "reboot" {
                time = .reboot
            } else {
                do {
                    time = .named(written, try CronExpression(parsing: "@" + written))
                } catch {
                    throw Mistake(message: error.message, start: name.start, end: name.end)
                }
            }
        } else {
            var fields: [(start: Int, end: Int)] = []
            let names = ["minute", "hour", "day of month", "month", "day of week"]
            for name in names {
                skipBlanks()
                guard index < bytes.count else {
                    throw Mistake(message: "the line ends before its \(name) field: a job has five time fields, then its command",
                                  start: max(start, bytes.count - 1), end: bytes.count)
                }
                let field = word()
                try checkCronReads(text(field), name: name, at: field.start)
                fields.append(field)
            }
            let written = fields.map(text)
            do {
                time = .fields(written, try CronExpression(parsing: text((fields[0].start, fields[4].end))))
            } catch {
                let offset = fields[0].start + error.offset
                throw Mistake(message: error.message, start: offset, end: offset + max(1, error.length))
            }
        }
        let timeEnd = index
        skipBlanks()
        guard index < bytes.count else { throw noCommand("the time") }
        // cron's check for a common typo: a sixth time field (seconds or years, which cron has not).
        if bytes[index] == UInt8(ascii: "*") {
            let field = word()
            throw Mistake(message: "'\(text(field))' where the \(system ? "user" : "command") goes: cron has five time fields, no seconds or years",
                          start: field.start, end: field.end)
        }
        var user: String?
        if system {
            let name = word()
            user = text(name)
            skipBlanks()
            guard index < bytes.count else { throw noCommand("the user") }
        }
        var mailOnlyOnError = false
        // cronie's options before the command: `-n` and a blank; a command that starts with another `-` it refuses.
        while index < bytes.count, bytes[index] == UInt8(ascii: "-") {
            let option = word()
            guard text(option) == "-n", !mailOnlyOnError, index < bytes.count else {
                throw Mistake(message: "'\(text(option))' before the command: cronie takes only '-n' (mail only on failure) there",
                              start: option.start, end: option.end)
            }
            mailOnlyOnError = true
            skipBlanks()
            guard index < bytes.count else { throw noCommand("'-n'") }
        }
        return CrontabJob(time: time, timeStart: timeStart, timeEnd: timeEnd, user: user,
                          command: String(decoding: bytes[index...], as: UTF8.self), commandStart: index,
                          unlogged: unlogged, mailOnlyOnError: mailOnlyOnError)
    }

    /// What the language would read otherwise than cron: `5/15` (cronie refuses it, Vixie cron reads `5`) and
    /// cronie's random `~`, which it draws again each time it loads the table.
    static func checkCronReads(_ field: String, name: String, at offset: Int) throws(Mistake) {
        var itemOffset = offset
        for item in field.split(separator: ",", omittingEmptySubsequences: false) {
            defer { itemOffset += item.utf8.count + 1 }
            let end = itemOffset + max(1, item.utf8.count)
            if item.contains("~") {
                throw Mistake(message: "'\(item)' in the \(name) field is cronie's random value, drawn again whenever cron loads the table; "
                              + "choose a value and write it", start: itemOffset, end: end)
            }
            let parts = item.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
            if parts.count == 2, parts[0] != "*", !parts[0].contains("-") {
                throw Mistake(message: "'\(item)' in the \(name) field: cronie refuses a step after a single value, and Vixie cron reads "
                              + "'\(parts[0])' alone; write '\(parts[0])-LAST/\(parts[1])' for every \(parts[1]) from \(parts[0])",
                              start: itemOffset, end: end)
            }
        }
    }
}
