import AutoIntents
import AutoRuntime
import Foundation
import Synchronization

/// Talks to the person at the terminal: `show` writes a line; questions, choices and `y/N` confirmations
/// are asked on standard error and answered on standard input; progress is a bar redrawn in place on a
/// terminal and plain periodic lines elsewhere. Where nobody can answer (`--no-input`, input that is not a
/// terminal), every question fails with `NoAnswerError`, which the engine reports with the intent and line.
package final class TerminalInteraction: Interaction, Sendable {
    package let console: Console
    /// With `--json`, standard output carries only the result.
    package let showsOnStandardError: Bool
    package let canAsk: Bool
    package let approvesConfirmations: Bool
    /// Standard error is a terminal: progress is drawn in place there.
    package let drawsInPlace: Bool
    /// A line typed, nil at the end of input; it throws `RunCancelled` when Ctrl-C stops the wait (the REPL's).
    package let readAnswer: @Sendable () throws -> String?
    package let clock: @Sendable () -> ContinuousClock.Instant
    package let state = Mutex(ProgressState())
    /// Whether a question is waiting for its answer: Ctrl-C then ends the run at once, since the read
    /// can't see the cancellation flag.
    package static let readingAnswer = Atomic<Bool>(false)

    /// Why questions can't be asked, when they can't: said in the error, since a pipe into the script looks
    /// like a terminal to its author.
    package let noAnswerReason: String

    package init(console: Console, showsOnStandardError: Bool, canAsk: Bool, approvesConfirmations: Bool,
                noAnswerReason: String = "the run is not interactive",
                drawsInPlace: Bool = isatty(2) == 1,
                readAnswer: @escaping @Sendable () throws -> String? = { readLine() },

                clock: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.console = console
        self.showsOnStandardError = showsOnStandardError
        self.canAsk = canAsk
        self.noAnswerReason = noAnswerReason
        self.approvesConfirmations = approvesConfirmations
        self.drawsInPlace = drawsInPlace
        self.readAnswer = readAnswer
        self.clock = clock
    }

    // MARK: Output

    package func show(_ dialog: Dialog) async {
        _ = showNow(dialog)
    }

    /// Writing a line never waits for anyone. A list `show` shows goes one element per line (or a table) when it is
    /// read on a terminal; in a pipe, and beside `--json`, it stays the one line a script's output has.
    package func showNow(_ dialog: Dialog) -> Bool {
        if case .list(let items)? = dialog.value, !showsOnStandardError, let width = console.outputColumns() {
            writeAboveProgress(TerminalLayout.list(items, width: width), toError: false)
        } else {
            writeAboveProgress(dialog.full + "\n", toError: showsOnStandardError)
        }
        return true
    }

    /// Writes without garbling the progress bar: the bar is cleared, the text written, and the bar redrawn
    /// under it, except while a question waits for its answer (the next progress event redraws it then).
    package func writeAboveProgress(_ text: String, toError: Bool, redraw: Bool = true) {
        state.withLock { state in
            if state.barVisible {
                console.writeError("\r\u{1B}[2K")
                state.barVisible = false
            }
            if toError { console.writeError(text) } else { console.writeOut(text) }
            if redraw, drawsInPlace, !state.tasks.isEmpty { draw(&state, force: true) }
        }
    }

    package func prompt(_ text: String) {
        let colour = console.colourError
        writeAboveProgress((colour ? "\u{1B}[1;36m?\u{1B}[0m " : "? ") + text, toError: true, redraw: false)
    }

    /// Draws the prompt and reads the answer. The question counts as waiting from before its prompt is drawn:
    /// a Ctrl-C pressed once the prompt can be seen then always ends the run at once, instead of only
    /// cancelling it while the read goes on waiting.
    package func answer(after text: String) throws -> String? {
        Self.readingAnswer.store(true, ordering: .sequentiallyConsistent)
        defer { Self.readingAnswer.store(false, ordering: .sequentiallyConsistent) }
        prompt(text)
        return try readAnswer()
    }

    // MARK: Questions

    package func requestValue(_ request: ValueRequest) async throws -> Value {
        guard canAsk else { throw NoAnswerError(question: request.prompt, reason: noAnswerReason) }
        if let reason = request.reason { writeAboveProgress(reason + "\n", toError: true, redraw: false) }
        for _ in 0..<3 {
            guard let line = try answer(after: request.prompt + " ") else { throw Self.endOfInput }
            if let value = TypedAnswer.parse(line, as: request.type) { return value }
            writeAboveProgress("That is not \(TypedAnswer.expected(request.type)).\n", toError: true, redraw: false)
        }
        throw IntentError("no valid answer to '\(request.prompt)'")
    }

    package func choose(_ request: ChoiceRequest) async throws -> Int {
        guard canAsk else { throw NoAnswerError(question: request.prompt, reason: noAnswerReason) }
        var list = ""
        for (index, option) in request.options.enumerated() {
            list += String(format: "%3d) ", index + 1) + option.title + (option.subtitle.map { " — \($0)" } ?? "") + "\n"
        }
        prompt(request.prompt + "\n")
        writeAboveProgress(list, toError: true, redraw: false)
        for _ in 0..<3 {
            guard let line = try answer(after: "Choose 1–\(request.options.count): ")?.trimmingCharacters(in: .whitespaces) else { throw Self.endOfInput }
            if let number = Int(line), (1...request.options.count).contains(number) { return number - 1 }
            if let index = request.options.firstIndex(where: { $0.title.caseInsensitiveCompare(line) == .orderedSame }) { return index }
            writeAboveProgress("Type a number from 1 to \(request.options.count).\n", toError: true, redraw: false)
        }
        throw IntentError("no valid choice for '\(request.prompt)'")
    }

    package func confirm(_ request: ConfirmationRequest) async throws -> Bool {
        if approvesConfirmations { return true }
        guard canAsk else { throw NoAnswerError(question: request.prompt, reason: noAnswerReason, isConfirmation: true) }
        let warning = request.isDestructive && console.colourError ? "\u{1B}[1;31m" : ""
        guard let line = try answer(after: "\(warning)\(request.prompt)\(warning.isEmpty ? "" : "\u{1B}[0m") [y/N] ") else { throw Self.endOfInput }
        return TypedAnswer.yesOrNo(line) == true
    }

    /// Ctrl-D at a prompt: the person ended the input instead of answering, which stops the run as Ctrl-C does.
    package static let endOfInput = RunCancelled("no answer (the input ended)")

    // MARK: Progress

    package struct Task: Sendable {
        let label: String
        let total: Int?
        let parent: Int?
        let started: ContinuousClock.Instant
        var completed = 0
        /// When a plain (not in-place) line was last written for it, and at which tenth.
        var lastLine: ContinuousClock.Instant
        var lastTenth = -1
    }

    package struct ProgressState {
        var tasks: [Int: Task] = [:]
        var order: [Int] = []
        var barVisible = false
        var lastDraw: ContinuousClock.Instant?
    }

    package func progress(_ event: ProgressEvent) async {
        let now = clock()
        state.withLock { state in
            switch event {
            case .started(let id, let parent, let label, let total):
                state.tasks[id] = Task(label: label, total: total, parent: parent, started: now, lastLine: now)
                state.order.append(id)
                if drawsInPlace { draw(&state, force: true) } else { console.writeError("\(label)…\n") }
            case .advanced(let id, let completed):
                guard var task = state.tasks[id] else { return }
                task.completed = completed
                if !drawsInPlace { plainLine(&task, now: now) }
                state.tasks[id] = task
                if drawsInPlace { draw(&state, force: false) }
            case .finished(let id), .stopped(let id):
                guard let task = state.tasks.removeValue(forKey: id) else { return }
                state.order.removeAll { $0 == id }
                let elapsed = Self.clockText(now - task.started)
                let ending = if case .stopped = event { "stopped at \(Self.countText(task)) after \(elapsed)" }
                    else { "done, \(Self.countText(task)) in \(elapsed)" }
                if drawsInPlace {
                    if state.barVisible { console.writeError("\r\u{1B}[2K") }
                    state.barVisible = false
                    if task.parent == nil { console.writeError("\(task.label): \(ending)\n") }
                    if !state.tasks.isEmpty { draw(&state, force: true) }
                } else {
                    console.writeError("\(task.label): \(ending)\n")
                }
            }
        }
    }

    /// Without a terminal: a line a second at most, or at each tenth of the way.
    package func plainLine(_ task: inout Task, now: ContinuousClock.Instant) {
        let tenth = task.total.map { $0 > 0 ? task.completed * 10 / $0 : 10 } ?? -1
        guard now - task.lastLine >= .seconds(1) || tenth > task.lastTenth else { return }
        task.lastLine = now
        task.lastTenth = tenth
        console.writeError("\(task.label): \(Self.countText(task))\(Self.percentText(task))\n")
    }

    /// The innermost running task, with its parents' labels, drawn over the current line of standard error.
    package func draw(_ state: inout ProgressState, force: Bool) {
        let now = clock()
        if !force, let last = state.lastDraw, now - last < .milliseconds(80) { return }
        guard let id = state.order.last, let task = state.tasks[id] else { return }
        state.lastDraw = now
        var labels = [task.label]
        var parent = task.parent
        while let next = parent, let outer = state.tasks[next] {
            labels.insert(outer.label, at: 0)
            parent = outer.parent
        }
        let line = Self.barLine(labels: labels, task: task, elapsed: now - task.started, width: StandardStream.error.terminalColumns ?? 80)
        console.writeError("\r\u{1B}[2K" + line)
        state.barVisible = true
    }

    /// `Importing › books.csv [#########-----------]  45%  450/1000  0:03, about 0:04 left`
    package static func barLine(labels: [String], task: Task, elapsed: Duration, width: Int) -> String {
        var tail = "  " + clockText(elapsed)
        var estimate = ""
        var bar = ""
        if let total = task.total, total > 0 {
            let fraction = min(1, Double(task.completed) / Double(total))
            tail = String(format: " %3d%%  %d/%d", Int(fraction * 100), task.completed, total) + tail
            if task.completed > 0, fraction < 1 {
                let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                estimate = ", about " + clockText(.seconds(seconds / fraction * (1 - fraction))) + " left"
            }
            let cells = 20
            let filled = Int(fraction * Double(cells))
            bar = " [" + String(repeating: "#", count: filled) + String(repeating: "-", count: cells - filled) + "]"
        } else {
            let frames = ["|", "/", "-", "\\"]
            bar = " " + frames[Int(elapsed.components.seconds) % frames.count] + (task.completed > 0 ? " \(task.completed)" : "")
        }
        // On a narrow terminal the estimate goes first, then the bar; the line never wraps.
        if 10 + bar.count + tail.count + estimate.count > width { estimate = "" }
        if 10 + bar.count + tail.count > width { bar = "" }
        tail += estimate
        var label = labels.joined(separator: " › ")
        let room = max(1, width - bar.count - tail.count - 1)
        if label.count > room { label = String(label.prefix(max(0, room - 1))) + "…" }
        return String((label + bar + tail).prefix(max(1, width - 1)))
    }

    package static func countText(_ task: Task) -> String {
        task.total.map { "\(task.completed)/\($0)" } ?? "\(task.completed)"
    }

    package static func percentText(_ task: Task) -> String {
        guard let total = task.total, total > 0 else { return "" }
        return " (\(task.completed * 100 / total)%)"
    }

    package static func clockText(_ duration: Duration) -> String {
        let seconds = max(0, Int(duration.components.seconds))
        return seconds >= 3600 ? String(format: "%d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60)
            : String(format: "%d:%02d", seconds / 60, seconds % 60)
    }

}
