import AutoRuntime
import Foundation

/// An automation of a script, checked and compiled: when it fires, how its runs go, and the graph of its body.
/// The daemon schedules it; `auto graph` draws it with its trigger as the entry.
package struct Automation: Sendable {
    /// When it fires, as the script says it. Cron expressions are kept as written: the scheduler parses them
    /// (and `ScriptHost.compile` reports a bad one at its column).
    package enum Trigger: Sendable, Hashable {
        /// `every 15 minutes`: elapsed time, whatever the clock does.
        case interval(Duration)
        /// `every day at 07:30` (`days` nil), `every monday, friday at 09:00`: ISO weekdays, 1 Monday … 7 Sunday.
        case weekly(days: [Int]?, hour: Int, minute: Int)
        /// `at "2026-12-24 18:00"`: once, at that instant.
        case once(Date)
        /// `cron "…" in "Europe/Paris"`: five fields or an `@` name; the machine's zone when none is given.
        case cron(expression: String, zone: String?)
        /// `when file created in "~/Downloads" matching "*.pdf"`: on events of the files of a folder.
        case file(FileTrigger)

        /// On file events rather than on time: run by each daemon that watches the folder, never owned by one node.
        package var isFileTrigger: Bool {
            if case .file = self { return true }
            return false
        }
    }

    /// What happens when it fires while a run of it is still going.
    package enum Mode: Sendable, Equatable {
        /// The new fire is skipped (recorded as rejected).
        case single
        /// Runs wait their turn, at most this many waiting.
        case queued(Int)
        /// Runs go at once, at most this many together.
        case parallel(Int)
        /// The running run is cancelled and the new one starts.
        case restart
    }

    package let name: String
    package let trigger: Trigger
    package let mode: Mode
    /// After downtime, the latest missed fire runs once (the others are recorded as skipped).
    package let catchUp: Bool
    /// A destructive intent runs without a confirmation, as nobody is there to give one.
    package let confirmsAutomatically: Bool
    /// How long a run may take; nil for no limit beyond the engine's.
    package let timeout: Duration?
    /// File triggers: one run for a burst of events, once none came for this long (nil: a run per event).
    package let debounce: Duration?
    /// File triggers: scan the folder this often instead of asking inotify (file systems without it).
    package let poll: Duration?
    /// Where the declaration is written: its body is compiled from there when its graph is first asked for.
    let span: Span
    let nameSpan: Span
    let bodies: AutomationBodies
    /// Where the trigger is written, for errors found once the scheduler reads it: the cron expression's
    /// text (inside its quotes) and the zone's.
    package let file: SourceFile
    package let triggerSpans: (expression: Span, zone: Span?)

    /// The body, a program of its own: `args` is empty and `it` is the instant it was scheduled for; under a file
    /// trigger `it` is the file of the event and `files` (the second slot) every file of the batch.
    /// Compiled the first time it is asked for (`AutomationBodies`), then kept.
    package func graph() throws(CompilationFailure) -> ActionGraph {
        try bodies.graph(of: self)
    }

    /// The declaration as written, from `automation` to its closing brace: what nodes sharing a store compare to know
    /// they fire the same automation (its trigger, options and body).
    package var declaration: String { file.text(of: span) }

    /// `file.auto:3`.
    package var origin: String { "\(file.name):\(file.location(of: nameSpan.start).line)" }

    /// The default bound of `mode queued` and `mode parallel` without a number.
    package static let defaultBound = 10
}

/// `when file <event> in "<folder>" [matching "<glob>"] [recursive]`.
package struct FileTrigger: Sendable, Hashable {
    package enum Event: String, Sendable, CaseIterable {
        /// Created or moved in, once it is complete (written and closed).
        case created
        /// Written and closed, or replaced by a file moved over it (an editor's save).
        case changed
        /// Deleted or moved out.
        case deleted
        case any
    }

    package let event: Event
    /// As written: `~/Downloads`, or `notes`, relative to the script's folder.
    package let path: String
    /// A pattern of file names (`*.pdf`, `report-??.csv`, `{a,b}*`); nil for every file.
    package let glob: String?
    /// The folders inside too, those made later included.
    package let recursive: Bool

    package init(event: Event, path: String, glob: String?, recursive: Bool) {
        self.event = event
        self.path = path
        self.glob = glob
        self.recursive = recursive
    }

    /// The folder watched: `~` is the home folder, and a relative path is relative to the script's folder.
    package func folder(scriptFolder: String, home: String? = nil) -> String {
        if path == "~" || path.hasPrefix("~/") {
            let home = home ?? ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()
            return (home + path.dropFirst()).standardizedPath
        }
        if path.hasPrefix("/") { return path.standardizedPath }
        return (scriptFolder + "/" + path).standardizedPath
    }
}

extension String {
    /// `..`, `.` and doubled slashes taken out, without following links.
    fileprivate var standardizedPath: String { URL(fileURLWithPath: self).standardizedFileURL.path }
}

extension Automation.Trigger: CustomStringConvertible {
    static let dayNames = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

    /// As a script would write it: `every day at 07:30`, `every 15 minutes`, `cron "0 9 * * *" in "Europe/Paris"`.
    package var description: String {
        switch self {
        case .interval(let duration): return "every \(ValueFormatter.inline(.duration(duration)))"
        case .weekly(let days, let hour, let minute):
            let time = String(format: "%02d:%02d", hour, minute)
            guard let days else { return "every day at \(time)" }
            if days == [1, 2, 3, 4, 5] { return "every weekday at \(time)" }
            return "every " + days.map { Self.dayNames[$0 - 1].lowercased() }.joined(separator: ", ") + " at \(time)"
        case .once(let date): return "at \"\(ValueFormatter.inline(.date(date)))\""
        case .cron(let expression, let zone): return "cron \"\(expression)\"" + (zone.map { " in \"\($0)\"" } ?? "")
        case .file(let trigger):
            return "when file \(trigger.event.rawValue) in \"\(trigger.path)\"" + (trigger.glob.map { " matching \"\($0)\"" } ?? "")
                + (trigger.recursive ? " recursive" : "")
        }
    }
}

extension Automation.Mode: CustomStringConvertible {
    package var description: String {
        switch self {
        case .single: return "single"
        case .queued(let bound): return "queued \(bound)"
        case .parallel(let bound): return "parallel \(bound)"
        case .restart: return "restart"
        }
    }
}
