import AutoIntents
import AutoRuntime
import Logging

/// How a fire's run talks to people when nobody is there: what it shows and logs goes to the daemon's log, in its
/// format and with the run's automation and id, a question fails the run saying why, and a confirmation does too —
/// unless the automation says `confirm automatically` (or a run by hand was given `--yes`). The reason each refusal
/// gives says how to answer: in the script, or, for a run by hand, with `--answer` and `--yes`.
package struct UnattendedInteraction: Interaction {
    let automation: String
    let run: RunID
    let confirmsAutomatically: Bool
    let logger: Logger
    /// A run by hand (`automations run`), which takes answers and approval on its command line.
    let manual: Bool

    package init(automation: String, run: RunID, confirmsAutomatically: Bool, logger: Logger, manual: Bool = false) {
        self.automation = automation
        self.run = run
        self.confirmsAutomatically = confirmsAutomatically
        self.logger = logger
        self.manual = manual
    }

    /// Why nobody answers `key` (the parameter asking, else the question), and how to answer it.
    func reason(answering key: String) -> String {
        manual ? "automations run unattended, even by hand; answer it with \(PresetAnswers.option(key: key, value: "VALUE"))"
            : "automations run unattended; give the value in the script"
    }

    var confirmationReason: String {
        manual ? "automations run unattended, even by hand; approve it with --yes, or write 'confirm automatically'"
            : "automations run unattended; write 'confirm automatically' to allow it"
    }

    var metadata: Logger.Metadata { ["automation": "\(automation)", "run": "\(run)"] }

    package func show(_ dialog: Dialog) async {
        logger.info("\(dialog.full)", metadata: metadata)
    }

    package func showNow(_ dialog: Dialog) -> Bool {
        logger.info("\(dialog.full)", metadata: metadata)
        return true
    }

    package func log(_ line: String) {
        // Lines after the first indented, as on a terminal: a reader of the log sees they belong to this entry.
        logger.notice("\(line.replacingOccurrences(of: "\n", with: "\n    "))", metadata: metadata)
    }

    package func requestValue(_ request: ValueRequest) async throws -> Value {
        throw NoAnswerError(question: request.prompt, reason: reason(answering: request.parameter ?? request.prompt))
    }

    package func choose(_ request: ChoiceRequest) async throws -> Int {
        throw NoAnswerError(question: request.prompt, reason: reason(answering: request.parameter ?? request.prompt))
    }

    package func confirm(_ request: ConfirmationRequest) async throws -> Bool {
        if confirmsAutomatically { return true }
        throw NoAnswerError(question: request.prompt, reason: confirmationReason, isConfirmation: true)
    }

    package func progress(_ event: ProgressEvent) async {}
}
