@testable import AutoIntents
import Testing

/// An intent's name is its title in lower case, words one space apart; a title in ASCII is read from its bytes, and
/// gives the name the general path (characters and their Unicode properties) gives.
@Suite struct IntentNameTests {
    @Test func namesAreLowerCaseWithOneSpaceBetweenWords() {
        #expect(IntentDescriptor.name(of: "  Add \t Book\n") == "add book")
        #expect(IntentDescriptor.name(of: "Read\r\nText") == "read text")
        #expect(IntentDescriptor.name(of: "Öffne  Buch") == "öffne buch")
        #expect(IntentDescriptor.name(of: "Add\u{00A0}Book") == "add book", "a no-break space is whitespace too")
        #expect(IntentDescriptor.name(of: "") == "")
    }

    @Test func asciiTitlesGiveTheNamesOfTheGeneralPath() {
        var generator = SystemRandomNumberGenerator()
        // Whitespace, letters of both cases and the rest of ASCII, control characters included, often next to each other.
        let alphabet: [UInt8] = Array(0...127) + Array(repeating: 0x20, count: 40) + Array(0x09...0x0D) + Array(UInt8(ascii: "A")...UInt8(ascii: "Z"))
        for _ in 0..<20_000 {
            let length = Int.random(in: 0...12, using: &generator)
            let title = String(decoding: (0..<length).map { _ in alphabet.randomElement(using: &generator)! }, as: UTF8.self)
            #expect(IntentDescriptor.asciiName(of: title) == IntentDescriptor.unicodeName(of: title), "\(Array(title.utf8))")
        }
        #expect(IntentDescriptor.asciiName(of: "Öffne") == nil)
    }
}
