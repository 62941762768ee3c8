import AutoRuntime
import Testing

/// `TextPositions` must find the same groups as `[String: Int]`, whose equality (`==`, canonical equivalence) it keeps.
@Suite struct TextPositionsTests {
    /// Positions given by the table and by a dictionary to the same texts in the same order.
    func positions(_ texts: [String], longestProbe: Int = 32) -> (table: [Int], dictionary: [Int]) {
        var table = TextPositions(longestProbe: longestProbe)
        var dictionary: [String: Int] = [:]
        var fromTable: [Int] = [], fromDictionary: [Int] = []
        var groups = 0, reference = 0
        for text in texts {
            if let position = table.existing(text, else: groups) { fromTable.append(position) } else { fromTable.append(groups); groups += 1 }
            if let position = dictionary[text] { fromDictionary.append(position) } else {
                dictionary[text] = reference
                fromDictionary.append(reference)
                reference += 1
            }
        }
        return (fromTable, fromDictionary)
    }

    /// Texts of every length around the eight-byte words the hash reads, ASCII or not, each several times.
    static let corpus: [String] = {
        var generator = SystemRandomNumberGenerator()
        let letters = Array("abcdefghijklmnopqrstuvwxyzAB 0123456789")
        var texts: [String] = ["", "a", "K", "\u{212A}", "é", "e\u{301}"]
        for length in 0...40 {
            for _ in 0..<60 { texts.append(String((0..<length).map { _ in letters.randomElement(using: &generator)! })) }
        }
        texts += texts.prefix(500).map { $0 + "ü" }
        var shuffled = (texts + texts + texts)
        shuffled.shuffle(using: &generator)
        return shuffled
    }()

    @Test func theTableGroupsAsTheDictionaryDoes() {
        let (table, dictionary) = positions(Self.corpus)
        #expect(table == dictionary)
    }

    @Test func aTableTurnedOffByALongProbeStillGroupsAsTheDictionaryDoes() {
        let (table, dictionary) = positions(Self.corpus, longestProbe: 1)
        #expect(table == dictionary)
    }

    /// The Kelvin sign (U+212A) is canonically equivalent to the ASCII `K`: one key, whichever comes first.
    @Test(arguments: [["\u{212A}elvin", "Kelvin"], ["Kelvin", "\u{212A}elvin"]])
    func anASCIITextEqualToOneThatIsNotIsTheSameKey(_ texts: [String]) {
        var table = TextPositions()
        #expect(table.existing(texts[0], else: 0) == nil)
        #expect(table.existing(texts[1], else: 1) == 0)
        #expect(table.existing(texts[0], else: 1) == 0)
        #expect(table.existing(texts[1], else: 1) == 0)
    }
}
