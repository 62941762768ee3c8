import AutoIntents
import Logging

/// How a fire's run talks to people when nobody is there: what it shows goes to the daemon's log, a question
/// fails the run saying why, and a confirmation does too — unless the automation says `confirm automatically`.
package struct UnattendedInteraction: Interaction {
    let automation: String
    let confirmsAutomatically: Bool
    let logger: Logger

    package init(automation: String, confirmsAutomatically: Bool, logger: Logger) {
        self.automation = automation
        self.confirmsAutomatically = confirmsAutomatically
        self.logger = logger
    }

    static let reason = "automations run unattended"

    package func show(_ dialog: Dialog) async {
        logger.info("\(dialog.full)", metadata: ["automation": "\(automation)"])
    }

    package func showNow(_ dialog: Dialog) -> Bool {
        logger.info("\(dialog.full)", metadata: ["automation": "\(automation)"])
        return true
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
