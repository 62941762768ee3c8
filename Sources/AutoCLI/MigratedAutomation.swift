import AutoRuntime
import Foundation

/// An automation that `auto migrate crontab` or `auto migrate timer` writes for a job scheduled elsewhere: its
/// trigger and options as the language writes them, and a body that runs the job's program with `run command` and
/// fails the run when the program does, so the run history says what cron's mail or the journal said.
struct MigratedAutomation: Equatable {
    /// Unique in the file it is written to (`MigratedScript` makes it so).
    var name: String
    /// As the language writes it: `cron "*/5 * * * *" in "Europe/Paris"`, `every day at 07:30`.
    var trigger: String
    /// Each as written: `catch up`, `timeout 10 minutes`.
    var options: [String] = []
    /// Lines written as comments above the automation: where it came from, and what could not be carried over.
    var comments: [String] = []
    /// The program and its arguments as `run command` takes them: `/bin/sh` and `["-c", "…"]` for a shell line.
    var program: String
    var arguments: [String] = []
    /// Variables set (a value) or removed (nil) in what the program inherits, in the order the job gave them.
    var environment: [(name: String, value: String?)] = []
    /// What the program reads on standard input (cron's text after `%`).
    var input: String?
    /// The folder it runs in (a service's `WorkingDirectory=`).
    var folder: String?
    /// The program's failure doesn't fail the run (a service's `-` prefix): the run goes on to `then`.
    var ignoresFailure = false
    /// Programs run after it, in order, with the same environment and folder (a oneshot service's further
    /// `ExecStart=` lines); the first that fails ends the run, as systemd stops at it.
    var then: [Step] = []

    /// A program run after the first.
    struct Step: Equatable {
        var program: String
        var arguments: [String] = []
        var ignoresFailure = false
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.name == rhs.name && lhs.trigger == rhs.trigger && lhs.options == rhs.options && lhs.comments == rhs.comments
            && lhs.program == rhs.program && lhs.arguments == rhs.arguments && lhs.input == rhs.input && lhs.folder == rhs.folder
            && lhs.environment.map(\.name) == rhs.environment.map(\.name) && lhs.environment.map(\.value) == rhs.environment.map(\.value)
            && lhs.ignoresFailure == rhs.ignoresFailure && lhs.then == rhs.then
    }

    /// The automation as a script declares it, two spaces indenting its body.
    var source: String {
        var lines = comments.map { Self.comment($0) }
        let header = (["automation", ValueFormatter.quoted(name), trigger] + options).joined(separator: " ")
        lines.append(header + " {")
        let steps = [Step(program: program, arguments: arguments, ignoresFailure: ignoresFailure)] + then
        for (index, step) in steps.enumerated() {
            var call = "run command \(ValueFormatter.quoted(step.program))"
            if !step.arguments.isEmpty { call += " arguments: [" + step.arguments.map { ValueFormatter.quoted($0) }.joined(separator: ", ") + "]" }
            if !environment.isEmpty {
                call += " environment: {" + environment.map { "\(ValueFormatter.quoted($0.name)): \($0.value.map { ValueFormatter.quoted($0) } ?? "nil")" }
                    .joined(separator: ", ") + "}"
            }
            if let folder { call += " folder: \(ValueFormatter.quoted(folder))" }
            if index == 0, let input { call += " input: \(ValueFormatter.quoted(input))" }
            lines.append("  set result = \(call)")
            guard !step.ignoresFailure else { continue }
            // With several programs, the message says which one failed.
            let who = steps.count == 1 ? "" : ValueFormatter.quoted(step.program).dropFirst().dropLast() + " "
            lines.append("  if result.status != 0 { fail \"\(who)exited with \\(result.status): \\(result.stderr)\" }")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// A comment line; a line break in what it says starts another comment line.
    static func comment(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "#" : "# \($0)" }.joined(separator: "\n")
    }

}

/// The `.auto` file `auto migrate crontab|timer` prints: a header of comments, then each automation, named
/// uniquely (a second "backup" becomes "backup 2": the run history is kept by name).
enum MigratedScript {
    static func source(header: [String], automations: [MigratedAutomation]) -> String {
        var taken: Set<String> = []
        var parts = header.isEmpty ? [] : [header.map(MigratedAutomation.comment).joined(separator: "\n") + "\n"]
        for var automation in automations {
            let base = automation.name
            var number = 2
            while taken.contains(automation.name) {
                automation.name = "\(base) \(number)"
                number += 1
            }
            taken.insert(automation.name)
            parts.append(automation.source)
        }
        return parts.joined(separator: "\n")
    }
}
