import Foundation
import Logging
import MCP

/// MCP's stdio transport, in place of the SDK's `StdioTransport`, which finds a message's end in time quadratic in its
/// length (see `LineFraming`) and reads on the actor that also writes. Here a thread of its own reads standard input,
/// so that no thread of the cooperative pool waits on it and the next message — a ping, a cancellation — is read
/// while a call runs; each message is checked (`JSONRPCCheck`) and answered here when it is wrong. A message may be
/// up to `messageLimit` bytes long; a longer one is answered with -32600 and `"id": null` (its id is in the part not
/// read) as soon as it passes the limit, and the server goes on with the next.
actor StdioLineTransport: Transport {
    /// 64 MB: far above any call of a tool or read of a resource, small enough to hold in memory.
    static let messageLimit = 64 << 20

    nonisolated let logger = Logger(label: "auto.mcp.stdio", factory: { _ in SwiftLogNoOpLogHandler() })
    private let check: JSONRPCCheck
    private let input: Int32
    private let output: LineWriter
    private let messages: AsyncThrowingStream<Data, any Error>
    private let continuation: AsyncThrowingStream<Data, any Error>.Continuation
    private var reading = false

    init(check: JSONRPCCheck, input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) {
        self.check = check
        self.input = input
        self.output = LineWriter(output)
        (messages, continuation) = AsyncThrowingStream.makeStream()
    }

    func connect() async throws {
        guard !reading else { return }
        reading = true
        let input = self.input, check = self.check, output = self.output, continuation = self.continuation
        Thread.detachNewThread {
            Self.read(input, check: check, output: output, to: continuation)
        }
    }

    /// Reads messages until the end of the input, the SDK's `Server` stops with the stream.
    private static func read(_ input: Int32, check: JSONRPCCheck, output: LineWriter,
                             to continuation: AsyncThrowingStream<Data, any Error>.Continuation) {
        var framing = LineFraming(limit: messageLimit)
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(input, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            let pieces = buffer.withUnsafeBytes { framing.append(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            for piece in pieces {
                switch piece {
                case .message(let message):
                    let verdict = check.check(message)
                    if let answer = verdict.answer { output.enqueue(answer) }
                    if let forward = verdict.forward { continuation.yield(forward) }
                case .tooLong:
                    output.enqueue(JSONRPCCheck.errorResponse(id: nil, .invalidRequest(
                        "the message is longer than \(messageLimit >> 20) MB (\(messageLimit) bytes), the most this server reads")))
                }
            }
        }
        // The answers given here go out before the server, whose stream ends now, lets the process end.
        output.drain()
        continuation.finish()
    }

    func disconnect() async {
        continuation.finish()
    }

    func send(_ data: Data) async throws {
        try await output.write(data)
    }

    nonisolated func receive() -> AsyncThrowingStream<Data, any Error> {
        messages
    }
}

/// Writes lines to a file descriptor one after another, on a queue of its own: a blocking write to a client that reads
/// slowly holds that queue's thread, not one of the cooperative pool's.
final class LineWriter: Sendable {
    private let descriptor: Int32
    private let queue = DispatchQueue(label: "auto.mcp.stdout")

    init(_ descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Writes `message` and a newline; throws when the descriptor is closed or fails.
    func write(_ message: Data) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            queue.async { continuation.resume(with: Result { try self.writeLine(message) }) }
        }
    }

    /// Writes `message` and a newline later, for a caller that can't wait. A failure (the client closed its end) is
    /// not reported: the server's next response fails the same way.
    func enqueue(_ message: Data) {
        queue.async { try? self.writeLine(message) }
    }

    /// Waits until what was enqueued is written.
    func drain() {
        queue.sync {}
    }

    private func writeLine(_ message: Data) throws {
        var line = message
        line.append(UInt8(ascii: "\n"))
        try line.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw MCPError.transportError(POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO))
                }
                offset += written
            }
        }
    }
}
