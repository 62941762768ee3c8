import AutoTerminal
import ArgumentParser
import AutoAutomation
import AutoIntents
import AutoLanguage
import AutoRuntime
import Foundation
import Logging

/// `auto automations`: what is scheduled and what happened — list, next fires, history, a run's trace — and running
/// one by hand, enabling and disabling.
struct AutomationsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "automations", abstract: "List automations, their next fires and their run history.",
        subcommands: [ListAutomations.self, NextFires.self, History.self, Trace.self, RunAutomation.self, Enable.self, Disable.self,
                      AutomationsStatus.self],
        defaultSubcommand: ListAutomations.self)
}

/// The automations of scripts, compiled with the host: for `list`, `next` and `run`.
enum AutomationScripts {
    /// The automations of the scripts `paths` name, and whether some script was left out: one that can't be read or
    /// doesn't compile is reported (with its diagnostics, each at its location) and the others are loaded, as the
    /// daemon does. A path that names nothing is a usage error. Each is known as `store` knows it (`scriptKey`).
    static func load(_ paths: [String], grants: Grants = .all, store: RunStoreLocation) throws -> (automations: [LoadedAutomation], leftOut: Int) {
        let host = AutoCommandLine.host
        let scripts: [String]
        do {
            scripts = try Daemon.scripts(in: paths).scripts
        } catch {
            Console.standard.writeError("error: \(error)\n")
            throw CommandExit(code: ExitCode.usageError)
        }
        var automations: [LoadedAutomation] = []
        var leftOut = 0
        for script in scripts {
            let source: SourceFile
            do {
                source = SourceFile(name: script, text: try String(contentsOfFile: script, encoding: .utf8))
            } catch {
                Console.standard.writeError("error: \(script): can't be read\n")
                leftOut += 1
                continue
            }
            switch host.compile(source, grants: grants) {
            case .success(let compiled): automations += LoadedAutomation.all(in: compiled, script: store.scriptKey(script))
            case .failure(let failure):
                ScriptRunner(host: host, console: .standard).report(failure.diagnostics)
                leftOut += 1
            }
        }
        return (automations, leftOut)
    }

    /// One script's automation by name, for `next` and `run`: the script has to compile.
    static func automation(_ name: String, in script: String, grants: Grants = .all, store: RunStoreLocation) throws -> LoadedAutomation {
        let (automations, leftOut) = try load([script], grants: grants, store: store)
        if leftOut > 0 { throw CommandExit(code: ExitCode.usageError) }
        guard let automation = automations.first(where: { $0.key.name == name }) else {
            Console.standard.writeError("error: \(script) has no automation named '\(name)'\n")
            throw CommandExit(code: ExitCode.usageError)
        }
        return automation
    }

    static func store(_ option: StoreOption) async throws -> any RunStore {
        do {
            return try await option.location.open(logger: Logger(label: "auto.store"))
        } catch {
            Console.standard.writeError("error: \(error)\n")
            throw CommandExit(code: 1)
        }
    }

    /// The store to read a cursor from, when there is one: asking when something fires makes no store.
    static func existingStore(_ option: StoreOption) async throws -> (any RunStore)? {
        option.location.exists ? try await store(option) : nil
    }

    /// An automation's schedule and when it fires next, by the daemon's rule (`Schedules.next`), from its cursor in
    /// `store`.
    static func next(_ automation: LoadedAutomation, store: (any RunStore)?, now: Date) async throws
        -> (schedule: (any FireSchedule)?, next: NextFire) {
        let trigger = automation.automation.trigger
        let schedule: (any FireSchedule)?
        do {
            schedule = try Schedules.schedule(for: trigger)
        } catch {
            // The checker refuses a bad cron expression before this: the daemon would log it and not schedule it.
            Console.standard.writeError("error: \(automation.key.script): '\(automation.key.name)': \(error.message)\n")
            throw CommandExit(code: ExitCode.usageError)
        }
        return (schedule, Schedules.next(of: trigger, schedule: schedule, cursor: try await store?.cursor(of: automation.key), now: now))
    }

    /// The zone a trigger's instants are shown in: a cron's own (`in "Europe/Paris"`), or the machine's.
    static func zone(of trigger: Automation.Trigger) -> TimeZone {
        if case .cron(_, let name?) = trigger, let zone = TimeZone(identifier: name) { return zone }
        return .current
    }

    /// `every 15 minutes` before any daemon loaded it.
    static func afterLoad(_ interval: Duration) -> String {
        "\(ValueFormatter.inline(.duration(interval))) after a daemon loads it"
    }

    /// `2026-03-29T03:00:00+02:00`: the instant in the zone, with its offset (`Z` at UTC). Civil arithmetic, not an
    /// ISO8601DateFormatter: making one per instant was 75 µs of each of the thousand lines `next -n 1000` prints.
    static func iso(_ date: Date, in zone: TimeZone = .current) -> String {
        let offset = zone.secondsFromGMT(for: date)
        let local = Int(date.timeIntervalSince1970.rounded(.down)) + offset
        let day = LocalTime.civilDay(of: date, in: zone), second = local - day * 86_400
        let (year, month, dayOfMonth) = LocalTime.civilDate(ofDay: day)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let zoneText = offset == 0 ? "Z" : (offset < 0 ? "-" : "+") + two(abs(offset) / 3_600) + ":" + two(abs(offset) % 3_600 / 60)
        let yearText = String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year)
        return "\(yearText)-\(two(month))-\(two(dayOfMonth))T\(two(second / 3_600)):\(two(second % 3_600 / 60)):\(two(second % 60))\(zoneText)"
    }

    /// A date and time as `date()` reads it (the machine's zone), or ISO 8601 with an offset.
    static func date(_ text: String) -> Date? {
        DateParsing.parse(text) ?? ISO8601DateFormatter().date(from: text)
    }

    static func json(_ object: Any) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]),
              let text = String(data: data, encoding: .utf8) else { return "null" }
        return text
    }
}

struct ListAutomations: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "Name, trigger, next fire and last run of each automation.",
        discussion: """
            The next fire is the daemon's: counted from the last fire the store recorded, or from when a daemon first \
            loaded the automation (`every 15 minutes` before that says so). The list says when no daemon holds the \
            store. A script that can't be read or has errors is reported with them and the others are listed; the \
            exit code is then 2.
            """)

    @Argument(help: "Scripts or folders; without them, the automations the run store knows.")
    var paths: [String] = []
    @OptionGroup var store: StoreOption
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        // Before the store is opened: see `StoreLock.daemon(holding:)`.
        let location = self.store.location
        let daemon = location.isShared ? nil : StoreLock.daemon(holding: location.description)
        let store = try await AutomationScripts.store(self.store)
        let now = Date()
        var rows: [[String: Any]] = []
        var leftOut = 0
        let disabled = try await store.disabledNames()
        func last(_ run: RunRecord?, into row: inout [String: Any]) {
            row["last"] = run?.outcome.rawValue ?? "never ran"
            if let run { row["lastAt"] = AutomationScripts.iso(run.started ?? run.scheduled) }
        }
        if paths.isEmpty {
            for name in Set(try await store.runs(of: nil, limit: 10_000).map(\.automation.name)).sorted() {
                let run = try await store.runs(of: name, limit: 1).first
                var row: [String: Any] = ["name": name, "trigger": run?.trigger ?? "", "script": run?.automation.script ?? "",
                                          "enabled": !disabled.contains(name)]
                last(run, into: &row)
                rows.append(row)
            }
        } else {
            let loaded = try AutomationScripts.load(paths, store: location)
            leftOut = loaded.leftOut
            // On a shared store, which node fires each automation: its owner's name.
            var owners: [AutomationKey: String] = [:]
            if let shared = store as? any ClusterStore {
                let status = try await shared.status()
                for ownership in status.automations { owners[ownership.automation] = status.ownerName(of: ownership) }
            }
            for automation in loaded.automations {
                let trigger = automation.automation.trigger
                let next: String
                switch try await AutomationScripts.next(automation, store: store, now: now).next {
                case .at(let instant): next = AutomationScripts.iso(instant, in: AutomationScripts.zone(of: trigger))
                case .never: next = "never"
                case .onFileEvents: next = "on file events"
                case .afterLoad(let interval): next = AutomationScripts.afterLoad(interval)
                }
                var row: [String: Any] = ["name": automation.key.name, "trigger": trigger.description, "script": automation.key.script,
                                          "enabled": !disabled.contains(automation.key.name), "next": next]
                if location.isShared, !automation.automation.trigger.isFileTrigger { row["node"] = owners[automation.key] ?? "(no node)" }
                last(try await store.lastRun(of: automation.key), into: &row)
                rows.append(row)
            }
        }
        if json {
            for index in rows.indices { rows[index]["daemon"] = daemon != nil }
            Console.standard.writeOut(AutomationScripts.json(rows) + "\n")
        } else {
            var text = ""
            for row in rows {
                let name = row["name"] as? String ?? "", trigger = row["trigger"] as? String ?? ""
                var line = "\(name)  \(trigger)"
                if let next = row["next"] as? String { line += "  next \(next)" }
                if let node = row["node"] as? String { line += " on \(node)" }
                line += "  last \(row["last"] as? String ?? "")"
                if let at = row["lastAt"] as? String { line += " \(at)" }
                if row["enabled"] as? Bool == false { line += "  (disabled)" }
                text += line + "\n"
            }
            if daemon == nil, !location.isShared { text += "no daemon holds \(location): nothing fires until one runs (auto daemon SCRIPT|DIR…)\n" }
            Console.standard.writeOut(text)
        }
        if leftOut > 0 {
            Console.standard.writeError("error: \(leftOut) script\(leftOut == 1 ? "" : "s") not listed: see the errors above\n")
            throw CommandExit(code: ExitCode.usageError)
        }
    }
}

struct NextFires: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "next", abstract: "The next fire instants of a cron expression or of a script's automation.",
        discussion: """
            A script's automation fires as the daemon holding --store fires it: counted from the last fire recorded, or \
            from when a daemon first loaded it.
            auto automations next --cron "0 9 * * mon-fri" --in Europe/Paris -n 5
            auto automations next script.auto "morning digest" --store /tmp/runs.sqlite
            """)

    @Argument(help: "A script and the name of one of its automations (or use --cron).")
    var target: [String] = []
    @Option(help: "A cron expression.") var cron: String?
    @Option(name: .customLong("in"), help: "The time zone of --cron (IANA name); the machine's by default.") var zone: String?
    @Option(help: "Start after this date and time instead of now.") var after: String?
    @Option(name: .short, help: "How many.") var n: Int = 10
    @OptionGroup var store: StoreOption
    @Flag(help: "Print JSON.") var json = false

    func validate() throws {
        guard (cron == nil) != target.isEmpty else { throw ValidationError("give --cron EXPRESSION, or a script and an automation's name") }
        guard cron != nil || target.count == 2 else { throw ValidationError("give a script and the name of one of its automations") }
        guard n > 0, n <= 100_000 else { throw ValidationError("-n is from 1 to 100000") }
        if let after, AutomationScripts.date(after) == nil { throw ValidationError("--after takes a date and time such as \"2026-03-28 12:00\"") }
        if let zone, TimeZone(identifier: zone) == nil { throw ValidationError("'\(zone)' is not a time zone this machine knows") }
    }

    func run() async throws {
        let now = after.flatMap(AutomationScripts.date) ?? Date()
        let schedule: any FireSchedule
        let timeZone: TimeZone
        var first: Date?
        if let cron {
            do {
                let expression = try CronExpression(parsing: cron)
                guard expression.canFire else {
                    Console.standard.writeError("error: '\(cron)' can never fire: no month has such a day\n")
                    throw CommandExit(code: ExitCode.usageError)
                }
                timeZone = zone.flatMap(TimeZone.init(identifier:)) ?? .current
                schedule = CronSchedule(expression, timeZone: timeZone)
                first = schedule.nextFire(after: now)
            } catch let error as CronExpression.ParseError {
                Console.standard.writeError("error: \(cron): \(error.message)\n  \(cron)\n  \(String(repeating: " ", count: error.offset))^\n")
                throw CommandExit(code: ExitCode.usageError)
            }
        } else {
            let automation = try AutomationScripts.automation(target[1], in: target[0], store: store.location)
            let trigger = automation.automation.trigger
            timeZone = AutomationScripts.zone(of: trigger)
            let (timed, next) = try await AutomationScripts.next(automation, store: try await AutomationScripts.existingStore(store), now: now)
            guard let timed else {
                Console.standard.writeError("'\(target[1])' runs on file events (\(trigger)), not on a schedule\n")
                throw CommandExit(code: ExitCode.usageError)
            }
            schedule = timed
            switch next {
            case .at(let instant): first = instant
            case .never, .onFileEvents: first = nil
            case .afterLoad(let interval):
                Console.standard.writeOut(json ? "[]\n" : AutomationScripts.afterLoad(interval) + "\n")
                return
            }
        }
        let instants = first.map { [$0] + schedule.fires(after: $0, count: n - 1) } ?? []
        let fires = instants.map { AutomationScripts.iso($0, in: timeZone) }
        if json {
            Console.standard.writeOut(AutomationScripts.json(fires) + "\n")
        } else {
            Console.standard.writeOut(fires.isEmpty ? "never\n" : fires.map { $0 + "\n" }.joined())
        }
    }
}

struct History: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "history", abstract: "The latest runs, newest first, with their outcomes.")

    @Argument(help: "An automation's name; all of them without it.") var name: String?
    @Option(help: "How many runs.") var limit: Int = 20
    @OptionGroup var store: StoreOption
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        let runs = try await AutomationScripts.store(store).runs(of: name, limit: limit)
        if json {
            Console.standard.writeOut(AutomationScripts.json(runs.map(Self.object)) + "\n")
            return
        }
        if runs.isEmpty { return Console.standard.writeOut("no runs\(name.map { " of '\($0)'" } ?? "")\n") }
        var table = [["RUN", "AUTOMATION", "SCHEDULED", "OUTCOME", "FIRED BY", "TOOK", "DETAILS"]]
        for run in runs {
            var details = run.location.map { "\($0): " } ?? ""
            details += run.message ?? ""
            if !run.files.isEmpty { details += (details.isEmpty ? "" : "; ") + Self.files(run) }
            var took = ""
            if let started = run.started, let ended = run.ended { took = "\(Int((ended.timeIntervalSince(started) * 1000).rounded())) ms" }
            table.append(["\(run.id)", run.automation.name, AutomationScripts.iso(run.scheduled), run.outcome.rawValue, Self.firedBy(run), took,
                          details])
        }
        Console.standard.writeOut(Self.aligned(table))
    }

    /// What fired a run: its schedule, a person (`automations run`), the daemon catching up a fire it missed while
    /// down, file events, or a rescan of the folder (after lost events or downtime).
    static func firedBy(_ run: RunRecord) -> String {
        if run.manual { return "by hand" }
        if run.caughtUp { return "catch up" }
        if run.fromRescan { return "rescan" }
        return run.trigger.hasPrefix("when file") ? "file events" : "schedule"
    }

    /// Rows in columns two spaces apart, the last one as long as it is.
    static func aligned(_ rows: [[String]]) -> String {
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
            }.joined(separator: "  ").replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) + "\n"
        }.joined()
    }

    /// A file fire's files as a history line shows them: the first and how many more.
    static func files(_ run: RunRecord) -> String {
        run.files[0] + (run.files.count > 1 ? " and \(run.files.count - 1) more" : "")
    }

    static func object(_ run: RunRecord) -> [String: Any] {
        var object: [String: Any] = ["id": run.id, "automation": run.automation.name, "script": run.automation.script, "trigger": run.trigger,
                                     "scheduled": AutomationScripts.iso(run.scheduled), "manual": run.manual, "outcome": run.outcome.rawValue]
        if let started = run.started { object["started"] = AutomationScripts.iso(started) }
        if let ended = run.ended { object["ended"] = AutomationScripts.iso(ended) }
        if let message = run.message { object["message"] = message }
        if let location = run.location { object["location"] = location }
        if !run.files.isEmpty {
            object["files"] = run.files
            object["fromRescan"] = run.fromRescan
        }
        object["caughtUp"] = run.caughtUp
        return object
    }
}

struct Trace: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "trace", abstract: "The steps of one run: each action, its arguments, result and time.")

    @Argument(help: "The run's id, from history.") var run: Int64
    @OptionGroup var store: StoreOption
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        let store = try await AutomationScripts.store(self.store)
        guard let record = try await store.run(run) else {
            Console.standard.writeError("error: no run \(run) in \(self.store.location)\n")
            throw CommandExit(code: 1)
        }
        let steps = try await store.steps(of: run)
        let currentNames = Self.currentNames(in: try IntentsCommand.compiled(script: nil).registry)
        if json {
            var object = History.object(record)
            object["steps"] = steps.map { step -> [String: Any] in
                var item: [String: Any] = ["intent": step.intent, "arguments": step.arguments.map { [$0.name, $0.value] },
                                           "location": step.location.description,
                                           "startedAfterMs": Double(step.startedAfter.components.attoseconds / 1_000_000_000_000) / 1000
                                               + Double(step.startedAfter.components.seconds) * 1000,
                                           "durationMs": Double(step.duration.components.attoseconds / 1_000_000_000_000) / 1000
                                               + Double(step.duration.components.seconds) * 1000]
                if let id = step.intentID { item["intentId"] = id }
                if let now = Self.currentName(of: step, among: currentNames) { item["intentNow"] = now }
                if let result = step.result { item["result"] = result }
                if let error = step.error { item["error"] = error }
                return item
            }
            object["droppedSteps"] = record.droppedSteps
            Console.standard.writeOut(AutomationScripts.json(object) + "\n")
            return
        }
        var text = "run \(record.id) of '\(record.automation.name)' (\(record.trigger)), scheduled \(AutomationScripts.iso(record.scheduled)), fired by \(History.firedBy(record)): \(record.outcome.rawValue)\n"
        if let message = record.message { text += "  \(record.location.map { "\($0): " } ?? "")\(message)\n" }
        if !record.files.isEmpty {
            text += "  files\(record.fromRescan ? " (found by a rescan)" : ""): " + record.files.joined(separator: ", ") + "\n"
        }
        for step in steps {
            let arguments = step.arguments.map { "\($0.name): \($0.value)" }.joined(separator: ", ")
            let outcome = step.error.map { "failed: \($0)" } ?? "→ \(step.result ?? "")"
            let renamed = Self.currentName(of: step, among: currentNames).map { " (now '\($0)')" } ?? ""
            text += "  \(step.location.line):\(step.location.column)  \(step.intent)\(renamed)(\(arguments)) \(outcome)  \(step.duration.formatted(.units(allowed: [.seconds, .milliseconds, .microseconds], width: .narrow)))\n"
        }
        if record.droppedSteps > 0 { text += "  … and \(record.droppedSteps) more steps, not kept\n" }
        Console.standard.writeOut(text)
    }

    /// The host's intents' names by identifier, made once for all the steps: an identifier is made from the Swift
    /// type's name, which is not free.
    static func currentNames(in registry: Registry) -> [String: String] {
        Dictionary(registry.intents.map { ($0.identifier, $0.name) }, uniquingKeysWith: { first, _ in first })
    }

    /// What the step's intent is called now, when the host renamed it since the run (found by its identifier); nil
    /// when it has the name the step recorded, or is no longer there.
    static func currentName(of step: RunTrace.Step, among names: [String: String]) -> String? {
        guard let id = step.intentID, let name = names[id], name != step.intent else { return nil }
        return name
    }
}

struct RunAutomation: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "run", abstract: "Run a script's automation now, by hand; recorded as manual.")

    @Argument(help: "The script.") var script: String
    @Argument(help: "The automation's name.") var name: String
    @OptionGroup var store: StoreOption

    @OptionGroup(title: "Capabilities") var capabilities: CapabilityOptions

    @Flag(name: .long, help: "Approve its confirmations, as 'confirm automatically' does (questions still need answers).")
    var yes = false

    @OptionGroup var answers: AnswerOptions

    func run() async throws {
        let grants = try capabilities.grants()
        let presetAnswers = try answers.presetAnswers()
        let automation = try AutomationScripts.automation(name, in: script, grants: grants, store: store.location)
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        let runner = FireRunner(store: try await AutomationScripts.store(store), logger: Logger(label: "auto.automations"), grants: grants)
        let fire = Fire(automation: automation.key, trigger: automation.automation.trigger.description, scheduled: Date(), manual: true)
        guard let record = try await runner.run(automation, fire, answers: presetAnswers, approveConfirmations: yes) else {
            throw CommandExit(code: 1)
        }
        switch record.outcome {
        case .succeeded:
            ScriptRunner.reportUnused(presetAnswers, to: .standard)
            return
        case .cancelled: throw CommandExit(code: 130)
        default:
            Console.standard.writeError("error: \(record.location.map { "\($0): " } ?? "")\(record.message ?? "the run failed")\n")
            throw CommandExit(code: 1)
        }
    }
}

struct Enable: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "enable", abstract: "Let an automation's fires run again.")
    @Argument(help: "The automation's name.") var name: String
    @OptionGroup var store: StoreOption
    func run() async throws {
        try await AutomationScripts.store(store).setEnabled(true, for: name)
        Console.standard.writeOut("'\(name)' is enabled\n")
    }
}

struct Disable: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "disable", abstract: "Skip an automation's fires (recorded as skipped) until it is enabled.")
    @Argument(help: "The automation's name.") var name: String
    @OptionGroup var store: StoreOption
    func run() async throws {
        try await AutomationScripts.store(store).setEnabled(false, for: name)
        Console.standard.writeOut("'\(name)' is disabled\n")
    }
}
