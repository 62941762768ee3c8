import AutoTestSupport
import Foundation

/// `auto mcp` started as a client starts it, with pipes on its standard input and output, and spoken to in raw
/// JSON-RPC lines: what a client that isn't the SDK's may send, byte for byte. Writing is a queue of its own (a
/// large message fills the pipe until the server reads it), reading a thread of its own; a test waits for a
/// message with a deadline, never a fixed sleep. The server is killed when the object goes away.
final class McpPipe: @unchecked Sendable {
    let process = Process()
    private let input: FileHandle
    private let writing = DispatchQueue(label: "tests.mcp.pipe.write")
    private let condition = NSCondition()
    /// Every line the server wrote, parsed; what isn't a JSON object is kept as `["unparsed": line]`.
    private var messages: [[String: Any]] = []
    private var ended = false

    /// Starts `auto mcp` (or `executable`'s) with `arguments` (its grants) in `directory`.
    init(_ arguments: [String] = [], directory: String = NSTemporaryDirectory(), executable: String = BinaryRunner.binary) throws {
        // A server that died must fail the test, not end the test process with SIGPIPE on the next write.
        signal(SIGPIPE, SIG_IGN)
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["mcp"] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let stdin = Pipe(), stdout = Pipe()
        // Other tests start processes at the same time: they must not inherit these pipes.
        for handle in [stdin.fileHandleForReading, stdin.fileHandleForWriting, stdout.fileHandleForReading, stdout.fileHandleForWriting] {
            _ = fcntl(handle.fileDescriptor, F_SETFD, FD_CLOEXEC)
        }
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        try? stdin.fileHandleForReading.close()
        try? stdout.fileHandleForWriting.close()
        input = stdin.fileHandleForWriting
        let output = stdout.fileHandleForReading
        // Weakly: a reader holding this would keep it, and so the server, until the server ends on its own: past the
        // end of a test that never closes its input, and of the folder the server may run in.
        Thread.detachNewThread { [weak self] in
            var pending = Data()
            while true {
                let data = output.availableData
                if data.isEmpty { break }
                pending.append(data)
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    self?.received(pending[pending.startIndex..<newline])
                    pending.removeSubrange(pending.startIndex...newline)
                }
            }
            self?.outputEnded()
        }
    }

    deinit {
        // Waited for: a test's folder, removed after this, may be where the server runs or writes.
        process.terminateAndWait()
    }

    private func outputEnded() {
        condition.lock()
        ended = true
        condition.broadcast()
        condition.unlock()
    }

    private func received(_ line: Data) {
        let message = (try? JSONSerialization.jsonObject(with: line, options: [.fragmentsAllowed])) as? [String: Any]
        condition.lock()
        messages.append(message ?? ["unparsed": String(decoding: line, as: UTF8.self)])
        condition.broadcast()
        condition.unlock()
    }

    /// Sends `line` and a newline, after what was sent before.
    func send(_ line: String) {
        send(Data(line.utf8))
    }

    func send(_ line: Data) {
        let input = self.input
        writing.async { try? input.write(contentsOf: line + Data("\n".utf8)) }
    }

    /// Sends a request (`params` as JSON text).
    func request(_ id: Int, _ method: String, _ params: String = "{}") {
        send(#"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)","params":\#(params)}"#)
    }

    /// Closes the server's input.
    func close() {
        let input = self.input
        writing.async { try? input.close() }
    }

    /// The first message the server wrote after the first `skipping` that satisfies `condition`; nil if none came
    /// before the deadline or the server ended without it.
    func message(after skipping: Int = 0, timeout: Duration = .seconds(60),
                 where satisfies: @escaping @Sendable ([String: Any]) -> Bool) async -> [String: Any]? {
        let (seconds, attoseconds) = timeout.components
        let deadline = Date().addingTimeInterval(Double(seconds) + Double(attoseconds) / 1e18)
        // Waited for on a thread of its own, not one of the tests' cooperative pool; what crosses is the message's place.
        let found: Int? = await withCheckedContinuation { continuation in
            DispatchQueue.global().async { [self] in
                condition.lock()
                defer { condition.unlock() }
                while true {
                    if let index = messages.indices.dropFirst(skipping).first(where: { satisfies(messages[$0]) }) {
                        return continuation.resume(returning: index)
                    }
                    if ended || !condition.wait(until: deadline) { return continuation.resume(returning: nil) }
                }
            }
        }
        return found.map(message(at:))
    }

    private func message(at index: Int) -> [String: Any] {
        condition.lock()
        defer { condition.unlock() }
        return messages[index]
    }

    /// The server's exit status once it has ended (its output closed and its process gone); nil if it is still running
    /// at the deadline.
    func exitStatus(timeout: Duration = .seconds(60)) async -> Int32? {
        let (seconds, attoseconds) = timeout.components
        let deadline = Date().addingTimeInterval(Double(seconds) + Double(attoseconds) / 1e18)
        let process = self.process
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async { [self] in
                condition.lock()
                while !ended && condition.wait(until: deadline) {}
                let outputEnded = ended
                condition.unlock()
                // The output closes as the process ends; the exit itself follows at once.
                while outputEnded && process.isRunning && Date() < deadline { usleep(1000) }
                continuation.resume(returning: outputEnded && !process.isRunning ? process.terminationStatus : nil)
            }
        }
    }

    /// The response to request `id`.
    func response(_ id: Int, timeout: Duration = .seconds(60)) async -> [String: Any]? {
        await message(timeout: timeout) { ($0["id"] as? Int) == id && $0["method"] == nil }
    }

    /// How many messages the server wrote so far.
    var count: Int {
        condition.lock()
        defer { condition.unlock() }
        return messages.count
    }

    /// Whether the server answered request `id`, among what it wrote so far.
    func answered(_ id: Int) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        return messages.contains { ($0["id"] as? Int) == id && $0["method"] == nil }
    }

    /// Initializes the session, declaring elicitation when `elicitation`.
    func initialize(elicitation: Bool = false) async throws {
        request(0, "initialize", #"{"protocolVersion":"2025-06-18","capabilities":{\#(elicitation ? #""elicitation":{}"# : "")},"clientInfo":{"name":"tests","version":"1"}}"#)
        guard await response(0)?["result"] != nil else { throw McpPipeFailure("no answer to initialize") }
        send(#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
    }

    /// The code of a response's error, nil for a result.
    static func errorCode(_ response: [String: Any]?) -> Int? {
        (response?["error"] as? [String: Any])?["code"] as? Int
    }

    /// The message of a response's error ("Invalid params: 'name' is missing"), empty for a result.
    static func errorMessage(_ response: [String: Any]?) -> String {
        (response?["error"] as? [String: Any])?["message"] as? String ?? ""
    }
}

struct McpPipeFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
