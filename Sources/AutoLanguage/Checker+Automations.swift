import AutoIntents
import AutoRuntime
import Foundation

/// Automations: whether each trigger and option makes sense (a time of day, days, a duration above zero, a
/// known time zone, a mode), and each body, checked as a program of its own where `it` is the scheduled instant.
extension Checker {
    /// An automation whose trigger and body are checked, waiting to be compiled.
    struct CheckedAutomation {
        let declaration: AutomationDeclaration
        let trigger: Automation.Trigger
        let mode: Automation.Mode
        let catchUp: Bool
        let confirmsAutomatically: Bool
        let timeout: Duration?
        let debounce: Duration?
        let poll: Duration?
        let body: BoundBody
        /// The whole declaration, where its body is compiled from (`AutomationBodies`).
        let span: Span
    }

    /// Day names a trigger may list, to ISO weekdays (1 Monday … 7 Sunday); `weekday` and `weekend` are several.
    static let triggerDays: [String: [Int]] = {
        var days: [String: [Int]] = ["weekday": [1, 2, 3, 4, 5], "weekend": [6, 7]]
        for (index, name) in Automation.Trigger.dayNames.enumerated() {
            days[name.lowercased()] = [index + 1]
            days[String(name.lowercased().prefix(3))] = [index + 1]
        }
        return days
    }()

    /// Checks the automations declared at the top level of `program`; at a REPL prompt (`session`) there are none.
    mutating func checkAutomations(in program: SyntaxTree, session: SessionScope?) -> [CheckedAutomation] {
        file = program.file
        var checked: [CheckedAutomation] = []
        var names: Set<String> = []
        for statement in program.statements {
            guard case .automation(let declaration) = statement.kind else { continue }
            if session != nil {
                error("an automation runs under the daemon, not at the prompt", declaration.nameSpan,
                      hint: "put it in a script and run '\(commandName) daemon script.auto'")
                continue
            }
            if !names.insert(declaration.name.lowercased()).inserted {
                error("an automation named '\(declaration.name)' is already declared in this file", declaration.nameSpan,
                      hint: "give each automation its own name: the run history is kept by name")
            }
            let trigger = checkTrigger(declaration.trigger)
            let options = checkOptions(declaration.options, fileTrigger: trigger.map(\.isFileTrigger))
            beginBody()
            _ = scope.assign("args", type: .list(.text))
            // The trigger's value under names of its own, which `it` starts as and no statement takes away: the slots
            // after `args`, in this order (`FireRunner.inputs`).
            let names = AutomationTriggerNames(isFile: { if case .file = declaration.trigger { true } else { false } }())
            for (name, type) in names.variables { _ = scope.assign(name, type: type) }
            scope.itType = names.itType
            automationTrigger = names
            defer { automationTrigger = nil }
            returnTypes = []
            let statements = bindBlock(declaration.body.statements)
            let body = BoundBody(name: declaration.name, file: file, statements: statements, slotNames: scope.slotNames)
            guard let trigger else { continue }
            checked.append(CheckedAutomation(declaration: declaration, trigger: trigger, mode: options.mode, catchUp: options.catchUp,
                                             confirmsAutomatically: options.confirms, timeout: options.timeout,
                                             debounce: options.debounce, poll: options.poll, body: body, span: statement.span))
        }
        return checked
    }

    mutating func checkTrigger(_ trigger: TriggerSyntax) -> Automation.Trigger? {
        switch trigger {
        case .interval(let expression):
            guard let duration = positiveDuration(expression, of: "an automation's interval") else { return nil }
            return .interval(duration)
        case .weekly(let names, let time):
            var days = Set<Int>()
            for name in names {
                guard let listed = Self.triggerDays[name.name.lowercased()] else {
                    error("'\(name.name)' is not a day", name.span,
                          hint: "write a day of the week (monday … sunday, or mon … sun), weekday or weekend")
                    continue
                }
                days.formUnion(listed)
            }
            guard checkTime(time) else { return nil }
            return .weekly(days: names.isEmpty ? nil : days.sorted(), hour: time.hour, minute: time.minute)
        case .once(let text, let span):
            guard let date = DateParsing.parse(text) else {
                error("'\(text)' is not a date and time", span, hint: "write it as \"2026-12-24 18:00\" (the machine's time zone)")
                return nil
            }
            return .once(date)
        case .cron(let expression, let span, let zone):
            do throws(CronExpression.ParseError) {
                let parsed = try CronExpression(parsing: expression)
                if !parsed.canFire {
                    error("'\(expression)' can never fire: no month has such a day", span, hint: "check the day-of-month and month fields")
                    return nil
                }
            } catch {
                let start = span.start + min(error.offset, span.end - span.start)
                self.error(error.message, Span(start, min(span.end, start + error.length)),
                           hint: "five fields: minute hour day-of-month month day-of-week, e.g. \"*/10 9-17 * * mon-fri\"")
                return nil
            }
            if let zone, TimeZone(identifier: zone.name) == nil {
                error("'\(zone.name)' is not a time zone this machine knows", zone.span,
                      hint: "write an IANA name such as \"Europe/Paris\" or \"America/New_York\"")
                return nil
            }
            return .cron(expression: expression, zone: zone?.name)
        case .file(let syntax):
            guard let event = FileTrigger.Event(rawValue: syntax.event.name) else {
                error("'\(syntax.event.name)' is not a file event", syntax.event.span, hint: "write created, changed, deleted or any")
                return nil
            }
            if syntax.path.text.isEmpty {
                error("the folder to watch is empty", syntax.path.span, hint: "write 'in \"~/Downloads\"'")
                return nil
            }
            if let glob = syntax.glob {
                do throws(FileGlobError) {
                    _ = try FileGlob(glob.text)
                } catch {
                    // The column counts characters; the span, bytes.
                    let offset = glob.text.prefix(max(0, error.column - 1)).utf8.count
                    let start = glob.span.start + min(offset, glob.span.end - glob.span.start)
                    self.error(error.reason, Span(start, min(glob.span.end, start + 1)))
                    return nil
                }
            }
            return .file(FileTrigger(event: event, path: syntax.path.text, glob: syntax.glob?.text, recursive: syntax.recursive))
        }
    }

    /// Whether a time of day is one: 00:00 to 23:59.
    mutating func checkTime(_ time: TimeOfDaySyntax) -> Bool {
        guard (0...23).contains(time.hour), (0...59).contains(time.minute) else {
            error("\(file.text(of: time.span)) is not a time of day", time.span, hint: "hours go from 00 to 23 and minutes from 00 to 59")
            return false
        }
        return true
    }

    /// A constant duration above zero, or an error that says what was wrong with it.
    mutating func positiveDuration(_ expression: Expression, of what: String) -> Duration? {
        let bound = bind(expression)
        switch Self.constantValue(of: bound) {
        case .duration(let duration)?:
            guard duration > .zero else {
                error("\(what) must be more than zero", expression.span)
                return nil
            }
            return duration
        case .period?:
            error("\(what) is elapsed time, and months and years are not", expression.span,
                  hint: "for a day of the month, write a cron trigger: cron \"0 9 1 * *\"")
        case nil where bound.type == .any:
            break  // its error is said
        default:
            error("\(what) is a duration such as 15 minutes, and this is \(bound.type)", expression.span)
        }
        return nil
    }

    /// `fileTrigger` nil when the trigger had an error: then options that need one aren't blamed for it.
    mutating func checkOptions(_ options: [AutomationOptionSyntax], fileTrigger: Bool?)
        -> (mode: Automation.Mode, catchUp: Bool, confirms: Bool, timeout: Duration?, debounce: Duration?, poll: Duration?) {
        var mode: Automation.Mode?
        var catchUp = false, confirms = false
        var timeout: Duration?, debounce: Duration?, poll: Duration?
        for option in options {
            switch option {
            case .mode(let name, let bound):
                if mode != nil { error("the mode is given twice", name.span) }
                switch name.name {
                case "single", "restart":
                    if let bound { error("'mode \(name.name)' takes no number", bound.span, hint: "only queued and parallel have a bound") }
                    mode = name.name == "single" ? .single : .restart
                case "queued", "parallel":
                    let count = bound?.value ?? Automation.defaultBound
                    if let bound, bound.value < 1 { error("the bound of 'mode \(name.name)' is at least 1", bound.span) }
                    mode = name.name == "queued" ? .queued(max(1, count)) : .parallel(max(1, count))
                default:
                    error("'\(name.name)' is not a mode", name.span, hint: "write single, queued, parallel or restart")
                }
            case .catchUp(let span):
                if catchUp { error("'catch up' is given twice", span) }
                catchUp = true
            case .confirmAutomatically(let span):
                if confirms { error("'confirm automatically' is given twice", span) }
                confirms = true
            case .timeout(let expression):
                if timeout != nil { error("the timeout is given twice", expression.span) }
                timeout = positiveDuration(expression, of: "a timeout")
            case .debounce(let expression), .poll(let expression):
                let isDebounce: Bool
                if case .debounce = option { isDebounce = true } else { isDebounce = false }
                let name = isDebounce ? "debounce" : "poll every"
                if fileTrigger == false {
                    error("'\(name)' is for file triggers (when file …)", expression.span)
                    continue
                }
                if (isDebounce ? debounce : poll) != nil { error("'\(name)' is given twice", expression.span) }
                let duration = positiveDuration(expression, of: isDebounce ? "a debounce" : "a polling interval")
                if isDebounce { debounce = duration } else { poll = duration }
            }
        }
        return (mode ?? .single, catchUp, confirms, timeout, debounce, poll)
    }
}

/// The names an automation's body gives its trigger's value: under a file trigger `file`, the first file of the
/// events (the folder watched, in a run by hand), and `files`, all of them (several under `debounce`); under a time
/// trigger `scheduled`, the instant the run was due. `it` starts as `file` or `scheduled`, and the next statement
/// with a result makes it that result, so a body that goes on after `make folder` names the file, not `it`.
struct AutomationTriggerNames {
    let isFile: Bool

    /// In slot order, after `args`.
    var variables: [(name: String, type: ValueType)] {
        isFile ? [("files", .list(.file)), ("file", .file)] : [("scheduled", .date)]
    }

    var names: [String] { variables.map(\.name) }
    var itType: ValueType { isFile ? .file : .date }
    /// The name to write instead of `it` for the trigger's value.
    var valueName: String { isFile ? "file" : "scheduled" }

    func meaning(of name: String) -> String {
        switch name {
        case "files": return "the list of files that fired the automation"
        case "file": return "the file that fired the automation"
        default: return "the instant the automation's run was due"
        }
    }
}
