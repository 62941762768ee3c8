import AutoLanguage
@testable import AutoLSP
import Testing

/// Positions as an editor counts them, against the source's byte offsets.
@Suite struct PositionEncodingTests {
    // "é" is 2 bytes and 1 UTF-16 unit; "😀" 4 bytes and 2 units.
    static let file = SourceFile(name: "t.auto", text: "show 1\nlet é = \"😀x\"\r\nend")

    @Test func offsetsConvertToUTF16AndUTF8Positions() {
        let second = Self.file.lineStarts[1]
        #expect(PositionEncoding.utf16.position(of: 0, in: Self.file) == LSPPosition(line: 0, character: 0))
        #expect(PositionEncoding.utf16.position(of: second + 4, in: Self.file) == LSPPosition(line: 1, character: 4), "at é")
        #expect(PositionEncoding.utf16.position(of: second + 6, in: Self.file) == LSPPosition(line: 1, character: 5), "after é")
        // `x` after the emoji: "let é = \"" is 9 units, the emoji 2.
        let x = second + Array("let é = \"😀".utf8).count
        #expect(PositionEncoding.utf16.position(of: x, in: Self.file) == LSPPosition(line: 1, character: 11))
        #expect(PositionEncoding.utf8.position(of: x, in: Self.file) == LSPPosition(line: 1, character: x - second))
        #expect(PositionEncoding.utf16.position(of: Self.file.bytes.count, in: Self.file) == LSPPosition(line: 2, character: 3))
    }

    @Test func everyOffsetAtACharacterRoundTrips() {
        var offset = 0
        while offset <= Self.file.bytes.count {
            for encoding in [PositionEncoding.utf16, .utf8] {
                let position = encoding.position(of: offset, in: Self.file)
                #expect(encoding.offset(of: position, in: Self.file) == offset, "\(encoding) \(offset)")
            }
            offset += offset < Self.file.bytes.count ? PositionEncoding.sequenceLength(Self.file.bytes[offset]) : 1
        }
    }

    @Test func positionsPastTheEndAreClamped() {
        let second = Self.file.lineStarts[1], third = Self.file.lineStarts[2]
        #expect(PositionEncoding.utf16.offset(of: LSPPosition(line: 1, character: 500), in: Self.file) == third - 1, "the line's end")
        #expect(PositionEncoding.utf16.offset(of: LSPPosition(line: 9, character: 0), in: Self.file) == Self.file.bytes.count)
        // Inside the emoji's two units: its start.
        let emoji = second + Array("let é = \"".utf8).count
        #expect(PositionEncoding.utf16.offset(of: LSPPosition(line: 1, character: 10), in: Self.file) == emoji)
    }
}
