import AutoIntents
import Synchronization

/// How one tool call's run talks to the person behind the assistant. Questions, choices and confirmations are MCP
/// elicitation, when the client declared it can elicit; otherwise nobody can answer, and the run fails as a script
/// run with `--no-input` does, saying why (a destructive intent is then refused, never run unconfirmed). Progress is
/// MCP progress notifications for the call's progress token. Dialogs are kept for the tool's result.
final class McpInteraction: Interaction {
    let connection: McpConnection
    let canElicit: Bool
    /// The call's `_meta.progressToken`, a string or an integer; nil when the client wants no progress.
    let progressToken: JSON?
    let addresses: ResourceAddresses
    private let dialogs = Mutex<[String]>([])
    private let progressState = Mutex(ProgressState())

    init(connection: McpConnection, canElicit: Bool, progressToken: JSON?, addresses: ResourceAddresses) {
        self.addresses = addresses
        self.connection = connection
        self.canElicit = canElicit
        self.progressToken = progressToken
    }

    /// What the run said, in order.
    var shown: [String] { dialogs.withLock { $0 } }

    func show(_ dialog: Dialog) async {
        dialogs.withLock { $0.append(dialog.full) }
    }

    func requestValue(_ request: ValueRequest) async throws -> AutoIntents.Value {
        var field = ToolSchemas.schema(for: request.type, addresses: addresses)
        field["title"] = .string(request.parameter ?? "Answer")
        let message = (request.reason.map { "\($0)\n" } ?? "") + request.prompt
        guard let answer = try await elicit(message, field: field)?["value"] else { throw RunCancelled("'\(request.prompt)' was not answered") }
        do {
            return try JSONValues.value(answer, as: request.type)
        } catch {
            throw IntentError("the answer to '\(request.prompt)': \(error.message)")
        }
    }

    /// The options as a titled enum: the value is the option's number, the title what people read.
    func choose(_ request: ChoiceRequest) async throws -> Int {
        let options: [JSON] = request.options.enumerated().map { index, option in
            .object(["const": .string(String(index + 1)), "title": .string(option.subtitle.map { "\(option.title) — \($0)" } ?? option.title)])
        }
        let field: [String: JSON] = ["type": "string", "title": .string(request.parameter ?? "Choice"), "oneOf": .array(options),
                                     "enum": .array(request.options.indices.map { .string(String($0 + 1)) })]
        guard case .string(let chosen)? = try await elicit(request.prompt, field: field)?["value"], let number = Int(chosen) else {
            throw RunCancelled("'\(request.prompt)' was not answered")
        }
        return number - 1
    }

    /// Accepting confirms, unless the person unticked the box; declining or cancelling doesn't.
    func confirm(_ request: ConfirmationRequest) async throws -> Bool {
        let field: [String: JSON] = ["type": "boolean", "title": .string(request.actionName ?? "Confirm"), "default": true]
        guard let content = try await elicit(request.prompt, field: field) else { return false }
        return content["value"]?.boolValue ?? true
    }

    /// Asks through the client with a form of one field, `value`; nil when the person declined or cancelled. The call's
    /// cancellation ends the wait at once (the client may never answer), as does the end of the input; the client's
    /// error is the run's.
    private func elicit(_ message: String, field: [String: JSON]) async throws -> [String: JSON]? {
        guard canElicit else { throw NoAnswerError(question: message, reason: "the MCP client can't ask: it did not declare elicitation") }
        let params: JSON = ["message": .string(message),
                            "requestedSchema": ["type": "object", "properties": ["value": .object(field)], "required": ["value"]]]
        let result: JSON
        do {
            result = try await connection.request("elicitation/create", params: params)
        } catch is CancellationError {
            throw RunCancelled()
        } catch let error as JSONRPCError {
            throw IntentError("the MCP client could not ask '\(message)': \(error.message)")
        }
        switch (result["action"], result["content"]) {
        case (.string("accept")?, .object(let content)?): return content
        case (.string("accept")?, nil), (.string("accept")?, .null?): return [:]
        case (.string("decline")?, _), (.string("cancel")?, _): return nil
        default: throw IntentError("the MCP client answered '\(message)' with what is not an elicitation's result: \(String(decoding: result.encoded, as: UTF8.self))")
        }
    }

    /// Progress goes out for the call's top-level tasks, one after another on one scale that only grows (MCP wants
    /// progress to increase): a task's steps count from where the tasks before it ended. Nested tasks are the
    /// detail of their parent's and are left out.
    func progress(_ event: ProgressEvent) async {
        guard let progressToken else { return }
        let update = progressState.withLock { $0.apply(event) }
        guard let update else { return }
        var params: [String: JSON] = ["progressToken": progressToken, "progress": .double(update.progress), "message": .string(update.message)]
        if let total = update.total { params["total"] = .double(total) }
        await connection.notify("notifications/progress", params: .object(params))
    }
}

/// The top-level tasks a run reported and where the scale stands.
struct ProgressState {
    struct Tracked {
        let label: String
        let total: Int?
        var completed = 0
    }
    var tasks: [Int: Tracked] = [:]
    /// Where the tasks that ended left the scale.
    var offset = 0.0

    /// The notification the event makes, nil for a nested task's.
    mutating func apply(_ event: ProgressEvent) -> (progress: Double, total: Double?, message: String)? {
        switch event {
        case .started(let id, nil, let label, let total):
            tasks[id] = Tracked(label: label, total: total)
            return (offset, total.map { offset + Double($0) }, label)
        case .advanced(let id, let completed):
            guard var task = tasks[id] else { return nil }
            task.completed = max(task.completed, completed)
            tasks[id] = task
            return (offset + Double(task.completed), task.total.map { offset + Double($0) }, task.label)
        case .finished(let id):
            guard let task = tasks.removeValue(forKey: id) else { return nil }
            offset += Double(max(task.completed, task.total ?? 0))
            return (offset, offset, task.label)
        case .stopped(let id):
            // The call's result says why it stopped; the scale goes on from where the task got to.
            offset += Double(tasks.removeValue(forKey: id)?.completed ?? 0)
            return nil
        case .started:
            return nil
        }
    }
}
