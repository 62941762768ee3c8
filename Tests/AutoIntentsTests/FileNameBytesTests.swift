@testable import AutoIntents
import Foundation
import Testing

/// Names as bytes and back (issue 29, item 6): every byte string comes back exactly from its text, a valid UTF-8
/// name is its own text, and a byte that isn't UTF-8 reads as `\xHH`.
@Suite struct FileNameBytesTests {
    @Test func validUTF8IsItsOwnText() {
        for name in ["notes.txt", "日本.テキスト", "é", "e\u{301}", "🙂 smile", ""] {
            #expect(FileNameBytes.text(Array(name.utf8)) == name)
            #expect(FileNameBytes.bytes(name) == Array(name.utf8))
        }
    }

    @Test func aByteThatIsNotUTF8StandsForItselfAndShowsEscaped() {
        let bytes: [UInt8] = [0x66, 0x80, 0x2E, 0xFF, 0xC3]  // "f", a lone continuation, ".", 0xFF, a cut-short "é"
        let text = FileNameBytes.text(bytes)
        #expect(text.unicodeScalars.map(\.value) == [0x66, 0xEF80, 0x2E, 0xEFFF, 0xEFC3])
        #expect(FileNameBytes.escaped(text) == #"f\x80.\xFF\xC3"#)
        #expect(FileNameBytes.bytes(text) == bytes)
    }

    /// A name whose valid UTF-8 spells one of the 128 code points that stand for bytes is mapped byte by byte, so that
    /// it doesn't come back as the one byte that code point stands for.
    @Test func aNameSpellingAStandInCodePointComesBackAsItsOwnBytes() {
        let bytes = Array("a\u{EF80}b".utf8)
        let text = FileNameBytes.text(bytes)
        #expect(text.unicodeScalars.count == 5)
        #expect(FileNameBytes.bytes(text) == bytes)
    }

    /// 20,000 random byte strings (no NUL, which no name holds), short and long, weighted to the bytes of UTF-8.
    @Test func everyByteStringComesBackExactly() {
        var generator = SystemRandomNumberGenerator()
        let pool: [UInt8] = Array(1...0xFF) + [0xE0, 0xEE, 0xEF, 0xBE, 0xBF, 0x80, 0xC3, 0xA9, 0xF0, 0x9F]
        for _ in 0..<20_000 {
            let length = Int.random(in: 0...12, using: &generator)
            let bytes = (0..<length).map { _ in pool.randomElement(using: &generator)! }
            let text = FileNameBytes.text(bytes)
            #expect(FileNameBytes.bytes(text) == bytes, "\(bytes)")
            // A name from readdir takes the C string's path, which must read every name the same.
            let fromCString = (bytes.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { FileNameBytes.text(cString: $0.baseAddress!) }
            #expect(fromCString == text, "\(bytes)")
            let fromC = FileNameBytes.withCString(text) { Array(UnsafeBufferPointer(start: $0, count: strlen($0))).map { UInt8(bitPattern: $0) } }
            #expect(fromC == bytes, "\(bytes)")
        }
    }

    /// Grants compare paths by bytes: the same name composed and decomposed are two folders, and the one granted
    /// gives nothing in the other.
    @Test func aGrantComparesPathsByTheirBytes() {
        #expect(GrantedPath.isInside("/tmp/caf\u{E9}/x", root: "/tmp/caf\u{E9}"))
        #expect(!GrantedPath.isInside("/tmp/cafe\u{301}/x", root: "/tmp/caf\u{E9}"))
        #expect(!GrantedPath.isInside("/tmp/cafe\u{301}", root: "/tmp/caf\u{E9}"))
        #expect(!GrantedPath.isInside("/tmp/caf\u{E9}x", root: "/tmp/caf\u{E9}"))
        #expect(GrantedPath.isInside("/anything", root: "/"))
    }
}
