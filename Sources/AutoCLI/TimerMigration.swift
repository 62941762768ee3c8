import AutoLanguage
import Foundation

/// A systemd timer and the service it starts, as the automations `auto migrate timer` writes: one per `OnCalendar=`
/// expression, running the service's commands; with the warnings for what fires or runs differently, and the errors
/// for what can't be carried over at all (then nothing is written).
struct TimerMigration {
    var automations: [MigratedAutomation] = []
    var warnings: [UnitWarning] = []
    var errors: [UnitFileError] = []

    /// Settings of [Timer] that fire relative to boot or to a unit's activation, which no trigger does.
    static let monotonic = ["OnActiveSec", "OnBootSec", "OnStartupSec", "OnUnitActiveSec", "OnUnitInactiveSec"]
    /// Settings of [Timer] that move the fire off its time; the daemon fires on time, and says so.
    static let onTime: [String: String] = [
        "AccuracySec": "the daemon fires on time, not anywhere within a window of that length",
        "RandomizedDelaySec": "the daemon fires on time, with no random delay",
        "FixedRandomDelay": "the daemon fires on time, with no random delay",
        "WakeSystem": "the daemon doesn't wake a suspended machine; it fires when the machine resumes (with catch up, a run missed while asleep)",
    ]

    /// `machineZone` is the zone of an expression that names none; `now` starts the search for daylight-saving gaps.
    init(timerPath: String, machineZone: TimeZone = .current, now: Date = Date(),
         environment: [String: String] = ProcessInfo.processInfo.environment) {
        let timerName = (timerPath as NSString).lastPathComponent
        guard timerName.hasSuffix(".timer") else {
            errors.append(UnitFileError(location: UnitLocation(file: timerPath, line: 0), message: "this is not a .timer unit file"))
            return
        }
        let timer: SystemdUnitFile
        switch Result(catching: { () throws(UnitFileError) in try SystemdUnitFile.load(timerPath) }) {
        case .success(let file): timer = file
        case .failure(let error):
            errors.append(error)
            return
        }
        let userUnit = Self.isUserUnit(timerPath)
        let timerSpecifiers = UnitSpecifiers(unitName: timerName, userUnit: userUnit, environment: environment)
        let settings = timer.entries(in: "Timer")
        guard !settings.isEmpty else {
            errors.append(UnitFileError(location: UnitLocation(file: timerPath, line: 0), message: "it has no [Timer] section"))
            return
        }
        // What fires it: an empty assignment to any of these resets them all (systemd.timer(5)).
        var events: [SystemdUnitFile.Entry] = []
        var persistent = false
        for entry in settings {
            switch entry.key {
            case _ where entry.key == "OnCalendar" || Self.monotonic.contains(entry.key):
                if entry.value.isEmpty { events.removeAll() } else { events.append(entry) }
            case "Persistent":
                persistent = boolean(entry) ?? persistent
            case "OnClockChange", "OnTimezoneChange":
                if boolean(entry) == true {
                    errors.append(UnitFileError(location: entry.location, message: "\(entry.key)= fires when the clock or the time zone changes, which no trigger does"))
                }
            case _ where Self.onTime[entry.key] != nil:
                if entry.key == "WakeSystem" || entry.key == "FixedRandomDelay", boolean(entry) != true { continue }
                warnings.append(UnitWarning(location: entry.location, message: "\(entry.key)=\(entry.value) is not carried over: \(Self.onTime[entry.key] ?? "")"))
            case "Unit", "RemainAfterElapse":
                continue
            default:
                warnings.append(UnitWarning(location: entry.location, message: "\(entry.key)= is not a [Timer] setting auto knows; it is not carried over"))
            }
        }
        for entry in events where Self.monotonic.contains(entry.key) {
            var message = "\(entry.key)=\(entry.value) fires relative to \(entry.key == "OnBootSec" ? "boot" : entry.key == "OnStartupSec" ? "the service manager's start" : entry.key == "OnActiveSec" ? "the timer's activation" : "the service's last activation"); "
                + "nothing in auto fires relative to boot or to a unit's activation, so this timer is not migrated"
            if entry.key == "OnUnitActiveSec" || entry.key == "OnUnitInactiveSec" {
                message += ". For a job that repeats, write an automation with `every <duration>` (it counts from its last fire), "
                    + "or an OnCalendar= expression and migrate again"
            }
            errors.append(UnitFileError(location: entry.location, message: message))
        }
        let calendars = events.filter { $0.key == "OnCalendar" }
        if events.isEmpty {
            errors.append(UnitFileError(location: UnitLocation(file: timerPath, line: 0), message: "it has no OnCalendar= to fire on"))
        }
        let service = readService(timer: timer, specifiers: timerSpecifiers, userUnit: userUnit, environment: environment)
        var triggers: [(OnCalendarTrigger, SystemdUnitFile.Entry)] = []
        for entry in calendars {
            do {
                let spec = try SystemdCalendarSpec(parsing: entry.value)
                triggers.append((try OnCalendarTrigger(spec, machineZone: machineZone, now: now), entry))
            } catch let error as SystemdCalendarSpec.ParseError {
                errors.append(UnitFileError(location: entry.location, message: "OnCalendar=\(entry.value): \(error)"))
            } catch {
                errors.append(UnitFileError(location: entry.location, message: "OnCalendar=\(entry.value) can't be carried over: \(error)"))
            }
        }
        guard errors.isEmpty, let service, let first = service.commands.first else { return }
        for (trigger, entry) in triggers {
            for note in trigger.notes where !note.hasPrefix("the hours are written") {
                warnings.append(UnitWarning(location: entry.location, message: note))
            }
        }
        if calendars.count > 1 {
            warnings.append(UnitWarning(location: calendars[1].location, message: "each OnCalendar= becomes an automation of its own; "
                                        + "when two fire at the same minute the program runs twice, where systemd starts the service once"))
        }
        let name = String(timerName.dropLast(".timer".count))
        for (trigger, entry) in triggers {
            var comments = ["From \(entry.location): OnCalendar=\(entry.value)"]
            if let description = service.description ?? timer.last("Description", in: "Unit")?.value { comments.insert(description, at: 0) }
            comments += trigger.notes.map { "Note: \($0)" }
            // The daylight-saving notes are already above, once each.
            let notes = Set(triggers.flatMap(\.0.notes))
            comments += warnings.filter { !notes.contains($0.message) }.map { "Warning: \($0.message) (\($0.location))" }
            let environment = service.environment.map { (name: $0.name, value: Optional($0.value)) }
            automations.append(MigratedAutomation(
                name: name, trigger: trigger.trigger.description, options: persistent ? ["catch up"] : [], comments: comments,
                program: first.program, arguments: first.arguments, environment: environment, folder: service.folder,
                ignoresFailure: first.ignoresFailure,
                then: service.commands.dropFirst().map { MigratedAutomation.Step(program: $0.program, arguments: $0.arguments, ignoresFailure: $0.ignoresFailure) }))
        }
    }

    /// The service `Unit=` names, or the timer's own name: found beside the timer.
    mutating func readService(timer: SystemdUnitFile, specifiers: UnitSpecifiers, userUnit: Bool, environment: [String: String]) -> SystemdService? {
        let timerName = (timer.path as NSString).lastPathComponent
        var serviceName = String(timerName.dropLast(".timer".count)) + ".service"
        var location = UnitLocation(file: timer.path, line: 0)
        if let unit = timer.last("Unit", in: "Timer"), !unit.value.isEmpty {
            serviceName = specifiers.resolve(unit.value).text
            location = unit.location
            guard serviceName.hasSuffix(".service") else {
                errors.append(UnitFileError(location: location, message: "Unit=\(unit.value) is not a service; auto migrates timers that start a service"))
                return nil
            }
        }
        let folder = (timer.path as NSString).deletingLastPathComponent
        var path = (folder.isEmpty ? "." : folder) + "/" + serviceName
        // An instance (`sync@photos.service`) is read from its template (`sync@.service`) when it has no file of its own.
        if !FileManager.default.fileExists(atPath: path), let at = serviceName.firstIndex(of: "@") {
            let template = (folder.isEmpty ? "." : folder) + "/" + serviceName[...at] + ".service"
            if FileManager.default.fileExists(atPath: template) { path = template }
        }
        guard FileManager.default.fileExists(atPath: path) else {
            errors.append(UnitFileError(location: location, message: "the service it starts is missing: there is no \(path)"))
            return nil
        }
        let file: SystemdUnitFile
        switch Result(catching: { () throws(UnitFileError) in try SystemdUnitFile.load(path) }) {
        case .success(let loaded): file = loaded
        case .failure(let error):
            errors.append(error)
            return nil
        }
        let service = SystemdService(file: file, specifiers: UnitSpecifiers(unitName: serviceName, userUnit: userUnit, environment: environment),
                                     processEnvironment: environment)
        warnings += service.warnings
        errors += service.errors
        return service
    }

    /// systemd's booleans: 1 yes y true t on, 0 no n false f off; anything else is an error at its line.
    mutating func boolean(_ entry: SystemdUnitFile.Entry) -> Bool? {
        switch entry.value.lowercased() {
        case "1", "yes", "y", "true", "t", "on": return true
        case "0", "no", "n", "false", "f", "off": return false
        default:
            errors.append(UnitFileError(location: entry.location, message: "\(entry.key)=\(entry.value) is not a boolean (yes or no)"))
            return nil
        }
    }

    /// A unit of the per-user manager (`~/.config/systemd/user`, `/etc/systemd/user`…), whose `%h` and `%t` are the
    /// user's; otherwise the system's.
    static func isUserUnit(_ path: String) -> Bool {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        return absolute.contains("/systemd/user/") || absolute.contains("/.config/systemd/") || !absolute.contains("/systemd/")
    }
}
