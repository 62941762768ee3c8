import Foundation

/// Splits MCP's stdio stream into its messages, one a line, in time linear in the bytes read: each byte is searched
/// once for the newline (`memchr`) and copied once. (The SDK's `StdioTransport` searches its whole buffer again for
/// every 4 KB it reads, so a message of n bytes costs n²/8 KB of searching: 35 s for 6.4 MB.)
///
/// A message longer than `limit` is not kept: the read that takes it past the limit says so, at once rather than at its
/// end, and the rest of it up to its newline is dropped; the messages after it are read as usual.
struct LineFraming {
    /// What a run of bytes held.
    enum Piece: Equatable {
        case message(Data)
        /// A message longer than the limit, answered without being read to its end.
        case tooLong
    }

    let limit: Int
    /// The unfinished message: the bytes after the last newline, which hold none.
    private var pending = Data()
    /// Whether the bytes up to the next newline belong to a message already found too long.
    private var skipping = false

    init(limit: Int) {
        self.limit = limit
    }

    /// The messages that `bytes` ends, and a `.tooLong` for a message that `bytes` takes past the limit.
    mutating func append(_ bytes: UnsafeRawBufferPointer) -> [Piece] {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return [] }
        var pieces: [Piece] = []
        var start = 0
        while let found = memchr(base + start, Int32(UInt8(ascii: "\n")), bytes.count - start) {
            let newline = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            if skipping {
                skipping = false
            } else if pending.count + (newline - start) > limit {
                pieces.append(.tooLong)
            } else {
                pending.append(base + start, count: newline - start)
                // A blank line is no message (a client may add one); JSON's whitespace before a message is allowed.
                if pending.contains(where: { !Self.isWhitespace($0) }) { pieces.append(.message(pending)) }
            }
            pending = Data()
            start = newline + 1
        }
        guard !skipping else { return pieces }
        if pending.count + (bytes.count - start) > limit {
            pieces.append(.tooLong)
            pending = Data()
            skipping = true
        } else {
            pending.append(base + start, count: bytes.count - start)
        }
        return pieces
    }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n")
    }
}
