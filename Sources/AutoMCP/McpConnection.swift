import Foundation
import Synchronization

/// One client on standard input and output, as MCP's JSON-RPC has it: each request is served in a task of its own, so
/// that a long `tools/call` holds up neither a ping nor the call's cancellation; `notifications/cancelled` cancels its
/// request's task, which then gets no response (MCP's rule); the server's own requests (elicitation) are matched with
/// the client's responses by id. Every message goes out whole on a line of its own (`LineWriter`). At the end of the
/// input the requests still running are cancelled, and so are the server's requests still waiting for an answer.
final class McpConnection: Sendable {
    /// Serves one request; its result, or a `JSONRPCError` (any other error is -32603).
    typealias Handler = @Sendable (McpRequest) async throws -> JSON

    /// How long the requests cancelled at the end of the input have to end before `run` returns anyway.
    static let endingGrace = Duration.seconds(5)

    private let input: Int32
    private let writer: LineWriter
    private let state = Mutex(State())

    private struct State {
        /// The client's requests being served, by id, each with the number that tells it from a later one of the same id.
        var running: [RequestID: (serial: Int, task: Task<JSON?, Never>)] = [:]
        var serials = 0
        /// The server's requests waiting for the client's response.
        var awaiting: [RequestID: CheckedContinuation<JSON, any Error>] = [:]
        var sent = 0
        /// Whether the input ended: nothing more can be answered.
        var closed = false
        /// `run`, waiting for the end of the input.
        var ending: CheckedContinuation<[Task<JSON?, Never>], Never>?
    }

    init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) {
        self.input = input
        self.writer = LineWriter(output)
    }

    /// Serves the client with `handler` until the end of the input, then waits (a little) for the cancelled requests.
    func run(_ handler: @escaping Handler) async {
        // A client that goes away while an answer is written makes the write fail, not the process end.
        signal(SIGPIPE, SIG_IGN)
        let left = await withCheckedContinuation { continuation in
            state.withLock { $0.ending = continuation }
            StdioLineTransport.startReading(input, receive: { [self] in receive($0, handler) }, ended: { [self] in inputEnded() })
        }
        await Self.wait(for: left, atMost: Self.endingGrace)
        writer.drain()
    }

    /// Sends a request of the server's and waits for the client's result. Throws the client's error, a
    /// `ConnectionClosed` when the input ends first, and `CancellationError` when the calling task is cancelled (the
    /// client is then told, with `notifications/cancelled`).
    func request(_ method: String, params: JSON) async throws -> JSON {
        let id = state.withLock { state -> RequestID in
            state.sent += 1
            return .string("auto-\(state.sent)")
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let open = state.withLock { state in
                    if !state.closed { state.awaiting[id] = continuation }
                    return !state.closed
                }
                guard open else { return continuation.resume(throwing: ConnectionClosed()) }
                if Task.isCancelled { return cancelRequest(id) }
                let writer = self.writer
                Task {
                    do { try await writer.write(JSONRPC.request(id: id, method: method, params: params)) } catch { answer(id, .failure(error)) }
                }
            }
        } onCancel: {
            cancelRequest(id)
        }
    }

    /// Sends a notification; a failure (the client went away) is not reported.
    func notify(_ method: String, params: JSON) async {
        try? await writer.write(JSONRPC.notification(method: method, params: params))
    }

    /// What the reader thread found in one line, handled at once and in order: so a cancellation finds the request it
    /// follows already running.
    private func receive(_ verdict: JSONRPCCheck.Verdict, _ handler: @escaping Handler) {
        var batch: [Task<JSON?, Never>] = []
        for message in verdict.messages {
            switch message {
            case .request(let id, let request):
                batch.append(serve(id, request, handler, alone: !verdict.isBatch))
            case .notification(let method, let params):
                // `notifications/initialized` needs nothing done; other notifications are ignored, as MCP says.
                if method == "notifications/cancelled", let id = params?["requestId"].flatMap(RequestID.init) {
                    state.withLock { $0.running[id]?.task }?.cancel()
                }
            case .response(let id, let result):
                answer(id, result.mapError { $0 as any Error })
            }
        }
        guard verdict.isBatch else { return verdict.answers.forEach(writer.enqueue) }
        guard !batch.isEmpty else {
            if !verdict.answers.isEmpty { writer.enqueue(.array(verdict.answers)) }
            return
        }
        let writer = self.writer, answers = verdict.answers, requests = batch
        Task {
            var responses = answers
            for task in requests { if let response = await task.value { responses.append(response) } }
            if !responses.isEmpty { try? await writer.write(.array(responses)) }
        }
    }

    /// Starts serving a request in a task of its own; the task gives the response, nil when the request was
    /// cancelled, and writes it itself when the request came `alone` (not in a batch).
    private func serve(_ id: RequestID, _ request: McpRequest, _ handler: @escaping Handler, alone: Bool) -> Task<JSON?, Never> {
        let writer = self.writer
        return state.withLock { locked in
            // Made and registered under the lock, so that the task, which takes itself out under it, finds itself in.
            locked.serials += 1
            let serial = locked.serials
            let task = Task { [self] in
                let response = await Self.respond(id, request, handler)
                state.withLock { state in
                    if state.running[id]?.serial == serial { state.running[id] = nil }
                }
                if alone, let response { try? await writer.write(response) }
                return response
            }
            if !locked.closed { locked.running[id] = (serial, task) } else { task.cancel() }
            return task
        }
    }

    private static func respond(_ id: RequestID, _ request: McpRequest, _ handler: Handler) async -> JSON? {
        do {
            let result = try await handler(request)
            return Task.isCancelled ? nil : JSONRPC.response(id: id, result: result)
        } catch {
            if Task.isCancelled || error is CancellationError { return nil }
            return JSONRPC.errorResponse(id: id, error as? JSONRPCError ?? .internalError("\(error)"))
        }
    }

    /// The client's response to request `id` of the server's; one to a request never sent, or no longer awaited, is
    /// ignored.
    private func answer(_ id: RequestID, _ result: Result<JSON, any Error>) {
        state.withLock { $0.awaiting.removeValue(forKey: id) }?.resume(with: result)
    }

    /// Stops waiting for the client's response to `id`, and tells the client so.
    private func cancelRequest(_ id: RequestID) {
        guard let continuation = state.withLock({ $0.awaiting.removeValue(forKey: id) }) else { return }
        continuation.resume(throwing: CancellationError())
        writer.enqueue(JSONRPC.notification(method: "notifications/cancelled", params: ["requestId": id.json, "reason": "the call was cancelled"]))
    }

    private func inputEnded() {
        let (awaiting, running, ending) = state.withLock { state in
            state.closed = true
            defer { state.awaiting = [:]; state.running = [:] }
            return (Array(state.awaiting.values), state.running.values.map(\.task), state.ending.take())
        }
        // Cancelled first, so that a call whose question fails now finds itself cancelled and writes nothing.
        for task in running { task.cancel() }
        for continuation in awaiting { continuation.resume(throwing: ConnectionClosed()) }
        ending?.resume(returning: running)
    }

    /// Waits until every task has ended or `limit` has passed, whichever comes first.
    private static func wait(for tasks: [Task<JSON?, Never>], atMost limit: Duration) async {
        let first = FirstOf()
        await withCheckedContinuation { continuation in
            first.set(continuation)
            Task {
                for task in tasks { _ = await task.value }
                first.resume()
            }
            Task {
                try? await Task.sleep(for: limit)
                first.resume()
            }
        }
    }
}

/// The client closed its end before answering a request of the server's.
struct ConnectionClosed: Error, CustomStringConvertible {
    var description: String { "the MCP client closed the connection before answering" }
}

/// A continuation that the first of several resumes.
private final class FirstOf: Sendable {
    private let continuation = Mutex<CheckedContinuation<Void, Never>?>(nil)

    func set(_ continuation: CheckedContinuation<Void, Never>) {
        self.continuation.withLock { $0 = continuation }
    }

    func resume() {
        continuation.withLock { $0.take() }?.resume()
    }
}
