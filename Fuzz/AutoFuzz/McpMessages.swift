import Foundation

/// Talks to `auto mcp` as a careless or hostile client would: after a proper `initialize`, a drawn sequence of
/// messages — valid requests, notifications, text that isn't JSON, ids of the wrong kind, requests without a
/// method, unknown methods, tool calls with wrong arguments, messages of megabytes, blank lines, requests before
/// the handshake is done — and at the end a `ping` that must still be answered.
///
/// The oracle is JSON-RPC 2.0's: every line the server writes is a JSON-RPC message; a request with a valid id
/// (a string or a whole number) gets exactly one response with that id, with the spec's error code where the
/// request was wrong (-32601 for an unknown method, -32602 for wrong params); text that isn't JSON gets -32700 and
/// an invalid request -32600, both with `id: null` where no id could be read; a notification gets no response;
/// the server ends when its input is closed, with status 0, before the deadline.
public struct McpMessages: Sendable {
    public let seed: UInt64
    public let binary: String

    public init(seed: UInt64, binary: String) {
        self.seed = seed
        self.binary = binary
    }

    /// One message sent, and what must come back for it.
    struct Message {
        enum Expected: Equatable {
            /// No response (a notification, a blank line).
            case nothing
            /// A response with this id: any result or error, or only this error code.
            case response(id: String, code: Int?)
            /// An error response with `id: null` and this code.
            case nullIdError(code: Int)
        }
        let line: String
        let expected: Expected
        let what: String
    }

    static let initialize = #"{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"auto-fuzz","version":"1"}}}"#
    static let initialized = #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#

    /// Case `index`'s messages, from its seed.
    func messages(_ index: Int) -> [Message] {
        var random = FuzzRandom(seed: seed, index: index, stream: 11)
        var messages = [Message(line: Self.initialize, expected: .response(id: "\"init\"", code: nil), what: "initialize")]
        let beforeHandshake = random.chance(0.2)
        if !beforeHandshake { messages.append(Message(line: Self.initialized, expected: .nothing, what: "initialized")) }
        for number in 0..<random.int(2...10) {
            var message = message(number, &random)
            // Before the handshake is done a server may refuse a request with an error of its choosing.
            if beforeHandshake, case .response(let id, _) = message.expected { message = Message(line: message.line, expected: .response(id: id, code: nil), what: message.what) }
            messages.append(message)
        }
        if beforeHandshake { messages.append(Message(line: Self.initialized, expected: .nothing, what: "initialized, late")) }
        messages.append(Message(line: #"{"jsonrpc":"2.0","id":"last","method":"ping"}"#, expected: .response(id: "\"last\"", code: nil), what: "the last ping"))
        return messages
    }

    func message(_ number: Int, _ random: inout FuzzRandom) -> Message {
        let id = random.chance(0.5) ? "\(number + 1)" : "\"r\(number)\""
        switch random.int(0..<15) {
        case 0: return Message(line: #"{"jsonrpc":"2.0","id":\#(id),"method":"ping"}"#, expected: .response(id: id, code: nil), what: "ping")
        case 1: return Message(line: #"{"jsonrpc":"2.0","id":\#(id),"method":"tools/list"}"#, expected: .response(id: id, code: nil), what: "tools/list")
        case 2: return Message(line: #"{"jsonrpc":"2.0","id":\#(id),"method":"resources/list"}"#, expected: .response(id: id, code: nil), what: "resources/list")
        case 3:
            let broken = random.pick([#"{"jsonrpc":"2.0","id":1,"method":"ping""#, "not json", "{]", #"{"jsonrpc":"2.0","id":"#, "\u{1}\u{2}", #"[1,"#])
            return Message(line: broken, expected: .nullIdError(code: -32700), what: "not JSON")
        case 4:
            let badId = random.pick([#"{"a":1}"#, "1.5", "true", "[1]"])
            return Message(line: #"{"jsonrpc":"2.0","id":\#(badId),"method":"ping"}"#, expected: .nullIdError(code: -32600), what: "an id of the wrong kind")
        case 5: return Message(line: #"{"jsonrpc":"2.0","id":\#(id)}"#, expected: .response(id: id, code: -32600), what: "no method")
        case 6: return Message(line: #"{"jsonrpc":"1.0","id":\#(id),"method":"ping"}"#, expected: .response(id: id, code: -32600), what: "jsonrpc 1.0")
        case 7:
            return Message(line: #"{"jsonrpc":"2.0","id":\#(id),"method":"no/such/method"}"#, expected: .response(id: id, code: -32601), what: "unknown method")
        case 8:
            let params = random.pick([#"{"arguments":{}}"#, #"{"name":42}"#, #"{"name":"show","arguments":"text"}"#, #"[]"#])
            return Message(line: #"{"jsonrpc":"2.0","id":\#(id),"method":"tools/call","params":\#(params)}"#, expected: .response(id: id, code: -32602),
                           what: "tools/call with wrong params")
        case 9:
            // A tool that isn't there, or one that is with arguments of the wrong kind: an error or a failed result.
            let call = random.pick([#"{"name":"no_such_tool","arguments":{}}"#, #"{"name":"show","arguments":{"value":{"deep":[1,2,3]}}}"#])
            return Message(line: #"{"jsonrpc":"2.0","id":\#(id),"method":"tools/call","params":\#(call)}"#, expected: .response(id: id, code: nil),
                           what: "tools/call of a tool")
        case 10:
            let size = random.pick([100_000, 1_000_000, 4_000_000])
            let padding = String(repeating: "a", count: size)
            return Message(line: #"{"jsonrpc":"2.0","id":\#(id),"method":"ping","params":{"_meta":{"pad":"\#(padding)"}}}"#,
                           expected: .response(id: id, code: nil), what: "a ping of \(size) bytes")
        case 11: return Message(line: random.pick(["", "   ", "\r"]), expected: .nothing, what: "a blank line")
        case 12:
            return Message(line: #"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":\#(id)}}"#, expected: .nothing,
                           what: "a cancellation of nothing")
        case 13: return Message(line: #"{"jsonrpc":"2.0","method":"no/such/notification"}"#, expected: .nothing, what: "an unknown notification")
        default:
            return Message(line: #"{"jsonrpc":"2.0","id":\#(id),"method":"resources/read","params":{"uri":"auto://nowhere/0"}}"#,
                           expected: .response(id: id, code: nil), what: "resources/read of nothing")
        }
    }

    /// Runs case `index`; nil when the server kept to the protocol.
    public func run(_ index: Int) -> (messages: [String], problem: String?) {
        let messages = messages(index)
        // Ids are unique within a case: a later message with the same id as an earlier one is dropped.
        var seen = Set<String>(), sent: [Message] = []
        for message in messages {
            if case .response(let id, _) = message.expected, !seen.insert(id).inserted { continue }
            sent.append(message)
        }
        let result = converse(sent)
        let shown = sent.map { $0.line.count > 200 ? String($0.line.prefix(120)) + "… (\($0.line.count) bytes)" : $0.line }
        return (shown, Self.judge(result, sent))
    }

    /// Seconds the server has to answer everything, and then to end once its input is closed.
    static let answerDeadline = 60.0, exitDeadline = 20.0

    /// Sends `sent` to a new `auto mcp`, keeps its input open until every response due has come (a client closes
    /// the server's input to stop it, and may drop what it hasn't answered yet), then closes it and waits for the end.
    func converse(_ sent: [Message]) -> RunResult {
        _ = ProcessRunner.ignoreBrokenPipes
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["mcp"]
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory(), "NO_COLOR": "1", "SWIFT_BACKTRACE": "enable=no", "LANG": "C.UTF-8"]
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        do {
            try process.run()
        } catch {
            return RunResult(termination: .notStarted("\(error)"))
        }
        let due = sent.filter { $0.expected != .nothing }.count
        let transcript = Transcript()
        for (handle, isOutput) in [(output.fileHandleForReading, true), (errors.fileHandleForReading, false)] {
            Thread.detachNewThread {
                while true {
                    let data = handle.availableData
                    if data.isEmpty { break }
                    transcript.append(data, isOutput: isOutput)
                }
                transcript.finish(isOutput: isOutput)
            }
        }
        let writer = input.fileHandleForWriting
        let lines = sent.map { Data(($0.line + "\n").utf8) }
        Thread.detachNewThread {
            for line in lines { guard (try? writer.write(contentsOf: line)) != nil else { return } }
        }
        transcript.wait(seconds: Self.answerDeadline) { $0.responses >= due || $0.outputEnded }
        try? writer.close()
        var killed = false
        if !transcript.wait(seconds: Self.exitDeadline, until: { $0.outputEnded && $0.errorsEnded }) || !Self.waitForExit(process, seconds: 5) {
            kill(process.processIdentifier, SIGKILL)
            killed = true
            process.waitUntilExit()
        }
        var result = RunResult(termination: process.terminationReason == .uncaughtSignal ? .signaled(process.terminationStatus) : .exited(process.terminationStatus))
        result.killed = killed
        transcript.read { result.standardOutput = Array($0.output); result.standardError = Array($0.errors) }
        return result
    }

    static func waitForExit(_ process: Process, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning {
            if Date() > deadline { return false }
            usleep(2000)
        }
        return true
    }

    /// What the server wrote, as it comes: its responses counted (lines that aren't a request of its own).
    final class Transcript: @unchecked Sendable {
        let condition = NSCondition()
        var output = Data(), errors = Data()
        var responses = 0
        var outputEnded = false, errorsEnded = false
        private var pending = Data()

        func append(_ data: Data, isOutput: Bool) {
            condition.lock()
            defer { condition.broadcast(); condition.unlock() }
            guard isOutput else { errors.append(data); return }
            output.append(data)
            pending.append(data)
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = pending[pending.startIndex..<newline]
                pending = Data(pending[(newline + 1)...])
                let object = (try? JSONSerialization.jsonObject(with: line)) as? [String: Any]
                if object?["method"] == nil { responses += 1 }
            }
        }

        func finish(isOutput: Bool) {
            condition.lock()
            if isOutput { outputEnded = true } else { errorsEnded = true }
            condition.broadcast()
            condition.unlock()
        }

        /// Waits until `done` holds or `seconds` pass; whether it holds.
        @discardableResult
        func wait(seconds: Double, until done: (Transcript) -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            condition.lock()
            defer { condition.unlock() }
            while !done(self) {
                if !condition.wait(until: deadline) { return done(self) }
            }
            return true
        }

        func read(_ body: (Transcript) -> Void) {
            condition.lock()
            body(self)
            condition.unlock()
        }
    }

    static func judge(_ result: RunResult, _ sent: [Message]) -> String? {
        if result.killed { return "still running \(Int(exitDeadline)) s after its input was closed: killed" }
        guard result.termination == .exited(0) else { return "ended with status \(result.shellStatus): \(Oracles.excerpt(result.standardErrorText))" }
        var byId: [String: [[String: Any]]] = [:]
        var nullIdCodes: [Int] = []
        for line in result.standardOutputText.split(separator: "\n", omittingEmptySubsequences: true) {
            guard let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8), options: [.fragmentsAllowed])) as? [String: Any],
                  object["jsonrpc"] as? String == "2.0" else {
                return "wrote a line that is not a JSON-RPC message: \(Oracles.excerpt(String(line)))"
            }
            guard object["method"] == nil else { continue }  // a request or notification of the server's own
            let error = object["error"] as? [String: Any]
            switch object["id"] {
            case nil: return "a response without an id: \(Oracles.excerpt(String(line)))"
            case is NSNull:
                guard let code = error?["code"] as? Int else { return "a response with id null that is not an error: \(Oracles.excerpt(String(line)))" }
                nullIdCodes.append(code)
            case let id?:
                byId[canonical(id), default: []].append(object)
            }
        }
        var expectedNull: [Int] = []
        for message in sent {
            switch message.expected {
            case .nothing: continue
            case .nullIdError(let code): expectedNull.append(code)
            case .response(let id, let code):
                let responses = byId.removeValue(forKey: id) ?? []
                guard responses.count == 1 else { return "\(message.what) (id \(id)) got \(responses.count) responses, not one" }
                if let code {
                    let got = (responses[0]["error"] as? [String: Any])?["code"] as? Int
                    guard got == code else { return "\(message.what) (id \(id)) got \(got.map { "error \($0)" } ?? "a result"), not error \(code)" }
                }
            }
        }
        if let extra = byId.keys.sorted().first { return "a response to id \(extra), which no request had" }
        if nullIdCodes.sorted() != expectedNull.sorted() {
            return "errors with id null: \(nullIdCodes.sorted()), where \(expectedNull.sorted()) were due (-32700 for text that isn't JSON, -32600 for an invalid id)"
        }
        return nil
    }

    /// An id as sent: `"r1"` for a string, `1` for a number.
    static func canonical(_ id: Any) -> String {
        if let text = id as? String { return "\"\(text)\"" }
        if let number = id as? NSNumber { return number.stringValue }
        return "\(id)"
    }

    /// Runs cases `0..<count` one after another (each server has both cores' worth of work in a big message);
    /// returns the failures, each with what to reproduce it.
    public func campaign(count: Int, log: @Sendable (String) -> Void) -> [String] {
        var failures: [String] = []
        for index in 0..<count {
            let (messages, problem) = run(index)
            guard let problem else { continue }
            failures.append("mcp case \(index) of seed \(seed): \(problem)\n  sent:\n" + messages.map { "    " + $0 }.joined(separator: "\n"))
        }
        log("auto-fuzz: \(count) MCP conversations, \(failures.count) off the protocol")
        return failures
    }
}
