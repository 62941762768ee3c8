@testable import AutoLSP
import Foundation
import Testing

/// The protocol's framing read from chunks as a pipe gives them.
@Suite struct MessageFramingTests {
    static func framed(_ body: String) -> [UInt8] { Array(MessageWriter.frame(Data(body.utf8))) }

    @Test func messagesSplitAnywhereAndJoinedAreReadWhole() throws {
        let bodies = [#"{"a":1}"#, #"{"text":"é — 😀"}"#, "{}"]
        let stream = bodies.flatMap(Self.framed)
        // Every way of cutting the stream in two, and a byte at a time.
        for cut in 0...stream.count {
            var reader = MessageReader()
            let read = try reader.feed(stream[0..<cut]) + reader.feed(stream[cut...])
            #expect(read.map { String(decoding: $0, as: UTF8.self) } == bodies, "cut at \(cut)")
        }
        var reader = MessageReader()
        var read: [Data] = []
        for byte in stream { read += try reader.feed([byte]) }
        #expect(read.count == 3)
    }

    @Test func aContentTypeHeaderIsAllowedAndCaseDoesNotMatter() throws {
        var reader = MessageReader()
        let read = try reader.feed(Array("content-length: 2\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}".utf8))
        #expect(read == [Data("{}".utf8)])
    }

    @Test func aHeaderThatIsNotTheProtocolsIsAnError() {
        for header in ["Content-Length: x\r\n\r\n", "Length 3\r\n\r\n", "Content-Type: a\r\n\r\n", "Content-Length: 99999999999\r\n\r\n",
                       String(repeating: "a", count: 9_000)] {
            var reader = MessageReader()
            #expect(throws: MessageReader.Malformed.self, "\(header.prefix(30))") { try reader.feed(Array(header.utf8)) }
        }
    }

    /// A megabyte a byte at a time reads in linear time: were each byte to search the whole buffer again, this would
    /// take minutes.
    @Test func aLargeMessageFedAByteAtATimeIsRead() throws {
        let body = "{\"text\":\"" + String(repeating: "x", count: 1 << 20) + "\"}"
        var reader = MessageReader()
        var read: [Data] = []
        for byte in Self.framed(body) { read += try reader.feed(CollectionOfOne(byte)) }
        #expect(read.first?.count == body.utf8.count)
    }
}
