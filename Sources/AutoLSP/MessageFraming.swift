import Foundation

/// The Language Server Protocol's framing on a byte stream: each message is `Content-Length: N` (and optionally a
/// `Content-Type`), a blank line, then N bytes of JSON. Bytes are read in whatever chunks the pipe gives; each is
/// looked at once (a buffer read from a moving start, compacted when its read part is the larger), so a message
/// that arrives a byte at a time, or a megabyte at once, costs time in proportion to its length.
struct MessageReader {
    /// A header the protocol doesn't allow: the stream can't be read further (the next message's start is unknown).
    struct Malformed: Error, CustomStringConvertible {
        let description: String
    }

    private var buffer: [UInt8] = []
    private var start = 0
    /// The length of the message whose header has been read, while its body is awaited.
    private var bodyLength: Int?
    /// Where the search for the end of the header goes on from: bytes already searched are not searched again.
    private var searched = 0

    /// The largest message accepted: an editor sends a whole document in one, and 64 MB is past any script.
    static let largest = 64 << 20

    /// Adds what was read; returns the messages completed by it, in order.
    mutating func feed(_ bytes: some Sequence<UInt8>) throws(Malformed) -> [Data] {
        buffer.append(contentsOf: bytes)
        var messages: [Data] = []
        while true {
            if let length = bodyLength {
                guard buffer.count - start >= length else { break }
                messages.append(Data(buffer[start..<start + length]))
                start += length
                bodyLength = nil
                searched = start
                continue
            }
            guard let end = try headerEnd() else { break }
            bodyLength = try Self.contentLength(in: buffer[start..<end])
            start = end + 4
        }
        if start > buffer.count / 2 {
            buffer.removeFirst(start)
            searched -= start
            start = 0
        }
        return messages
    }

    /// The offset of the `\r\n\r\n` that ends the header, searching only what was not searched before. A header is
    /// a line or two: 8 KB without its end is not one.
    private mutating func headerEnd() throws(Malformed) -> Int? {
        var index = max(start, searched - 3)
        while index + 3 < buffer.count {
            if buffer[index] == 13, buffer[index + 1] == 10, buffer[index + 2] == 13, buffer[index + 3] == 10 { return index }
            index += 1
        }
        searched = buffer.count
        guard buffer.count - start <= 8_192 else { throw Malformed(description: "no end of header in 8 KB: not the protocol's framing") }
        return nil
    }

    private static func contentLength(in header: ArraySlice<UInt8>) throws(Malformed) -> Int {
        var length: Int?
        for line in String(decoding: header, as: UTF8.self).components(separatedBy: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { throw Malformed(description: "a header line without a colon: \(line.prefix(80))") }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if name == "content-length" {
                guard let number = Int(value), number >= 0 else { throw Malformed(description: "Content-Length is not a length: \(value.prefix(40))") }
                guard number <= largest else { throw Malformed(description: "a message of \(number) bytes is over the limit of \(largest)") }
                length = number
            }
        }
        guard let length else { throw Malformed(description: "a message without Content-Length") }
        return length
    }
}

enum MessageWriter {
    /// The message with its header.
    static func frame(_ body: Data) -> Data {
        var framed = Data("Content-Length: \(body.count)\r\n\r\n".utf8)
        framed.append(body)
        return framed
    }
}
