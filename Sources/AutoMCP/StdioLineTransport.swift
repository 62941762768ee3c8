import Foundation

/// MCP's stdio transport, read: a thread of its own reads standard input, so that no thread of the cooperative pool
/// waits on it and the next message — a ping, a cancellation — is read while a call runs. Each line is framed in time
/// linear in its length (`LineFraming`; the official SDK's `StdioTransport` took time quadratic in it) and checked
/// (`JSONRPCCheck`) here, off the pool. A message may be up to `messageLimit` bytes long; a longer one is answered with
/// -32600 and `"id": null` (its id is in the part not read) as soon as it passes the limit, and the next is read as usual.
enum StdioLineTransport {
    /// 64 MB: far above any call of a tool or read of a resource, small enough to hold in memory.
    static let messageLimit = 64 << 20

    /// Starts reading `input`: each line's verdict goes to `receive`, in order, and `ended` is called once at the end of
    /// the input (or when it fails).
    static func startReading(_ input: Int32, receive: @escaping @Sendable (JSONRPCCheck.Verdict) -> Void,
                             ended: @escaping @Sendable () -> Void) {
        Thread.detachNewThread {
            read(input, receive: receive)
            ended()
        }
    }

    private static func read(_ input: Int32, receive: (JSONRPCCheck.Verdict) -> Void) {
        var framing = LineFraming(limit: messageLimit)
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(input, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            let pieces = buffer.withUnsafeBytes { framing.append(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            for piece in pieces {
                switch piece {
                case .message(let message):
                    receive(JSONRPCCheck.check(message))
                case .tooLong:
                    receive(JSONRPCCheck.Verdict(answers: [JSONRPC.errorResponse(id: nil, .invalidRequest(
                        "the message is longer than \(messageLimit >> 20) MB (\(messageLimit) bytes), the most this server reads"))]))
                }
            }
        }
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
    func write(_ message: JSON) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            queue.async { continuation.resume(with: Result { try self.writeLine(message.encoded) }) }
        }
    }

    /// Writes `message` and a newline later, for a caller that can't wait. A failure (the client closed its end) is
    /// not reported: the server's next response fails the same way.
    func enqueue(_ message: JSON) {
        queue.async { try? self.writeLine(message.encoded) }
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
                    throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                }
                offset += written
            }
        }
    }
}
