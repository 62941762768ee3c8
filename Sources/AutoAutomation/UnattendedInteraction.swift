import AutoIntents
import Logging

/// How a fire's run talks to people when nobody is there: what it shows and logs goes to the daemon's log, in its
/// format and with the run's automation and id, a question fails the run saying why, and a confirmation does too —
/// unless the automation says `confirm automatically`.
package struct UnattendedInteraction: Interaction {
    let automation: String
    let run: RunID
    let confirmsAutomatically: Bool
    let logger: Logger

    package init(automation: String, run: RunID, confirmsAutomatically: Bool, logger: Logger) {
        self.automation = automation
        self.run = run
        self.confirmsAutomatically = confirmsAutomatically
        self.logger = logger
    }

    static let reason = "automations run unattended"

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
        throw NoAnswerError(question: request.prompt, reason: Self.reason)
    }

    package func choose(_ request: ChoiceRequest) async throws -> Int {
        throw NoAnswerError(question: request.prompt, reason: Self.reason)
    }

    package func confirm(_ request: ConfirmationRequest) async throws -> Bool {
        if confirmsAutomatically { return true }
        throw NoAnswerError(question: request.prompt, reason: Self.reason + "; write 'confirm automatically' to allow it")
    }

    package func progress(_ event: ProgressEvent) async {}
}
