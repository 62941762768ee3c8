import Foundation

/// What a timer's service runs, read from its unit file as systemd.service(5) and systemd.exec(5) say: the
/// commands of `ExecStartPre=`, `ExecStart=` and `ExecStartPost=` in order, the environment of `Environment=` and
/// `EnvironmentFile=`, and the folder of `WorkingDirectory=`; and warnings for what an automation can't carry over.
struct SystemdService {
    struct Command: Equatable {
        var program: String
        var arguments: [String]
        var ignoresFailure: Bool
    }

    var commands: [Command] = []
    /// In the order first set; a later assignment replaces the value.
    var environment: [(name: String, value: String)] = []
    var folder: String?
    var description: String?
    var warnings: [UnitWarning] = []
    var errors: [UnitFileError] = []

    /// Settings read here, or that change nothing for a run started by a timer.
    static let understood: Set<String> = ["Type", "ExecStart", "ExecStartPre", "ExecStartPost", "Environment", "EnvironmentFile",
                                          "WorkingDirectory", "RemainAfterExit", "User", "Group", "DynamicUser"]
    /// systemd's fixed search path for a program named without a folder.
    static let searchPath = ["/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"]
    /// Variables systemd sets for every service, which `$VAR` may use without `Environment=`.
    static let managerVariables = ["HOME", "USER", "LOGNAME", "SHELL", "XDG_RUNTIME_DIR", "PATH"]

    init(file: SystemdUnitFile, specifiers: UnitSpecifiers, processEnvironment: [String: String]) {
        let service = file.entries(in: "Service")
        guard !service.isEmpty else {
            errors.append(UnitFileError(location: UnitLocation(file: file.path, line: 0), message: "it has no [Service] section to run"))
            return
        }
        description = file.last("Description", in: "Unit")?.value
        for entry in file.entries(in: "Unit") where !["Description", "Documentation"].contains(entry.key) {
            warnings.append(UnitWarning(location: entry.location, message: "\(entry.key)= is not carried over: an automation has no dependencies or conditions"))
        }
        for entry in service where !Self.understood.contains(entry.key) {
            warnings.append(UnitWarning(location: entry.location, message: "\(entry.key)= is not carried over: the automation runs the program without it"))
        }
        for key in ["User", "Group", "DynamicUser"] {
            if let entry = file.last(key, in: "Service"), !entry.value.isEmpty {
                warnings.append(UnitWarning(location: entry.location, message: "\(key)=\(entry.value) can't be carried over: the automation runs the program as the daemon's user"))
            }
        }
        readEnvironment(file, specifiers: specifiers)
        readFolder(file, specifiers: specifiers, home: processEnvironment["HOME"] ?? NSHomeDirectory())
        var variables = processEnvironment.filter { Self.managerVariables.contains($0.key) }
        for (name, value) in environment { variables[name] = value }
        readCommands(file, specifiers: specifiers, variables: variables)
    }

    mutating func resolve(_ entry: SystemdUnitFile.Entry, _ specifiers: UnitSpecifiers) -> String {
        let (text, unknown) = specifiers.resolve(entry.value)
        for specifier in unknown {
            warnings.append(UnitWarning(location: entry.location, message: "the specifier \(specifier) is not one auto resolves; it is left as written"))
        }
        return text
    }

    mutating func set(_ name: String, _ value: String) {
        if let index = environment.firstIndex(where: { $0.name == name }) { environment[index].value = value } else { environment.append((name, value)) }
    }

    /// `Environment=` assignments, then the files of `EnvironmentFile=`, which override them as systemd has it.
    mutating func readEnvironment(_ file: SystemdUnitFile, specifiers: UnitSpecifiers) {
        for entry in file.list("Environment", in: "Service") {
            let value = resolve(entry, specifiers)
            do {
                for word in try SystemdQuoting.words(value) {
                    guard let equals = word.text.firstIndex(of: "="), SystemdCommand.isName(word.text[..<equals]) else {
                        warnings.append(UnitWarning(location: entry.location, message: "'\(word.text)' is not NAME=VALUE; systemd ignores it, and so does the automation"))
                        continue
                    }
                    set(String(word.text[..<equals]), String(word.text[word.text.index(after: equals)...]))
                }
            } catch {
                errors.append(UnitFileError(location: entry.location, message: "Environment=: \(error)"))
            }
        }
        for entry in file.list("EnvironmentFile", in: "Service") {
            var path = resolve(entry, specifiers)
            let optional = path.hasPrefix("-")
            if optional { path.removeFirst() }
            guard path.hasPrefix("/") else {
                errors.append(UnitFileError(location: entry.location, message: "EnvironmentFile=\(path) is not an absolute path, which systemd requires"))
                continue
            }
            guard let data = FileManager.default.contents(atPath: path) else {
                if !optional {
                    errors.append(UnitFileError(location: entry.location, message: "EnvironmentFile=\(path): there is no such file (with '-' before the path, systemd would go on without it)"))
                }
                continue
            }
            do {
                for (name, value) in try EnvironmentFileReader.assignments(String(decoding: data, as: UTF8.self)) { set(name, value) }
            } catch {
                errors.append(UnitFileError(location: UnitLocation(file: path, line: error.line), message: error.message))
            }
        }
    }

    /// `WorkingDirectory=`: `~` is the home folder; `-` before it lets a missing folder pass.
    mutating func readFolder(_ file: SystemdUnitFile, specifiers: UnitSpecifiers, home: String) {
        guard let entry = file.last("WorkingDirectory", in: "Service"), !entry.value.isEmpty else { return }
        var path = resolve(entry, specifiers)
        if path.hasPrefix("-") { path.removeFirst() }
        if path == "~" { path = home } else if path.hasPrefix("~/") { path = home + path.dropFirst() }
        guard path.hasPrefix("/") else {
            errors.append(UnitFileError(location: entry.location, message: "WorkingDirectory=\(path) is not an absolute path or ~, which systemd requires"))
            return
        }
        folder = path
    }

    mutating func readCommands(_ file: SystemdUnitFile, specifiers: UnitSpecifiers, variables: [String: String]) {
        let type = file.last("Type", in: "Service")
        let starts = file.list("ExecStart", in: "Service")
        var startCount = 0
        for key in ["ExecStartPre", "ExecStart", "ExecStartPost"] {
            for entry in file.list(key, in: "Service") {
                let parsed: [SystemdCommand]
                do {
                    parsed = try SystemdCommand.commands(in: resolve(entry, specifiers))
                } catch {
                    errors.append(UnitFileError(location: entry.location, message: "\(key)=: \(error)"))
                    continue
                }
                if key == "ExecStart" {
                    startCount += parsed.count
                    if startCount > 1, type?.value != "oneshot" {
                        errors.append(UnitFileError(location: entry.location, message: "a service runs several ExecStart= commands only with Type=oneshot; systemd refuses this one"))
                    }
                }
                for command in parsed { append(command, entry: entry, variables: variables) }
            }
        }
        if starts.isEmpty {
            errors.append(UnitFileError(location: UnitLocation(file: file.path, line: 0), message: "it has no ExecStart= to run"))
        }
        if let type, !["oneshot", "simple", "exec"].contains(type.value) {
            warnings.append(UnitWarning(location: type.location, message: "Type=\(type.value) is not carried over: a run waits for the program to exit"))
        }
    }

    mutating func append(_ command: SystemdCommand, entry: SystemdUnitFile.Entry, variables: [String: String]) {
        let (arguments, unset) = command.expandedArguments(variables)
        for name in Set(unset).sorted() {
            warnings.append(UnitWarning(location: entry.location, message: "$\(name) is set neither by Environment= nor by EnvironmentFile=; systemd passes it empty, and so does the automation"))
        }
        if let zero = command.argumentZero {
            warnings.append(UnitWarning(location: entry.location, message: "'@' can't be carried over: the program gets its own name as argv[0], not '\(zero)'"))
        }
        if let prefix = command.privilegePrefix {
            warnings.append(UnitWarning(location: entry.location, message: "the prefix '\(prefix)' can't be carried over: the program runs with the daemon's privileges"))
        }
        var program = command.program
        if !program.hasPrefix("/") {
            if let found = Self.searchPath.map({ $0 + "/" + program }).first(where: { FileManager.default.isExecutableFile(atPath: $0) }) {
                program = found
            } else {
                warnings.append(UnitWarning(location: entry.location, message: "'\(program)' is in none of systemd's folders (\(Self.searchPath.joined(separator: ":"))); the automation looks for it in the daemon's PATH"))
            }
        }
        commands.append(Command(program: program, arguments: arguments, ignoresFailure: command.ignoresFailure))
    }
}

/// A warning about a timer or its service, at its place: what the automation does differently.
struct UnitWarning: Equatable, CustomStringConvertible {
    let location: UnitLocation
    let message: String
    var description: String { "\(location): warning: \(message)" }
}

/// The `KEY=VALUE` lines of an `EnvironmentFile=`, as systemd.exec(5) reads them: `#` and `;` comments, values
/// in double quotes (with `\"`, `\\`, `\$` escapes) or single quotes, and a backslash that continues a line.
enum EnvironmentFileReader {
    struct Failure: Error {
        let line: Int
        let message: String
    }

    static func assignments(_ text: String) throws(Failure) -> [(String, String)] {
        var result: [(String, String)] = []
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)[...]
        var number = 0
        while var line = lines.popFirst() {
            number += 1
            let first = number
            while line.hasSuffix("\\"), !line.hasSuffix("\\\\"), let next = lines.popFirst() {
                line = String(line.dropLast()) + next
                number += 1
            }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") || trimmed.hasPrefix(";") { continue }
            var assignment = Substring(trimmed)
            if assignment.hasPrefix("export ") { assignment = assignment.dropFirst(7).drop { $0 == " " } }
            guard let equals = assignment.firstIndex(of: "="), SystemdCommand.isName(assignment[..<equals].trimmingCharacters(in: .whitespaces)[...]) else {
                throw Failure(line: first, message: "'\(trimmed)' is not NAME=VALUE")
            }
            let name = assignment[..<equals].trimmingCharacters(in: .whitespaces)
            var raw = assignment[assignment.index(after: equals)...].drop { $0 == " " }
            var value = ""
            while let character = raw.popFirst() {
                switch character {
                case "'":
                    guard let close = raw.firstIndex(of: "'") else { throw Failure(line: first, message: "the quote ' is never closed") }
                    value += raw[..<close]
                    raw = raw[close...].dropFirst()
                case "\"":
                    var closed = false
                    while let inner = raw.popFirst() {
                        if inner == "\"" { closed = true; break }
                        if inner == "\\", let escaped = raw.first, "\"\\`$".contains(escaped) {
                            value.append(escaped)
                            raw = raw.dropFirst()
                        } else {
                            value.append(inner)
                        }
                    }
                    guard closed else { throw Failure(line: first, message: "the quote \" is never closed") }
                case "\\":
                    if let escaped = raw.popFirst() { value.append(escaped) }
                default:
                    value.append(character)
                }
            }
            result.append((name, value.trimmingCharacters(in: .whitespaces)))
        }
        return result
    }
}
