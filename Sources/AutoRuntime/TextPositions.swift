/// The group of each text key while grouping (`count by`, `group by`, `distinct`): what `[String: Int]` gives, with
/// a text made only of ASCII found by a cheap hash of its bytes instead of `Hasher`'s SipHash, which with the
/// dictionary's probe was half of a `count by` over a million entities.
///
/// The dictionary stays the owner of equality: it holds every key, and the table of ASCII texts is a cache in front
/// of it. Two ASCII texts are equal exactly when their bytes are, but an ASCII text can equal one that isn't (`K` and
/// the Kelvin sign, U+212A, are canonically equivalent), so a text the table doesn't have is looked up in the
/// dictionary before it is a new key. A probe longer than `longestProbe` slots (keys chosen to collide, or bad luck) turns
/// the table off and every text goes to the dictionary, so the cost is never worse than a constant factor.
package struct TextPositions {
    private struct Slot {
        var hash: UInt64
        var position: Int
        var text: String
    }

    private static let empty = Slot(hash: 0, position: -1, text: "")

    /// Random for each process, as `Hasher`'s is, so that which texts collide can't be chosen in advance.
    private static let seed = UInt64.random(in: .min ... .max)

    private var byText: [String: Int] = [:]
    /// Empty until the first ASCII text, so that grouping a few values in a loop doesn't allocate the table.
    private var slots: [Slot] = []
    private var occupied = 0
    private var cached = true
    private let longestProbe: Int

    /// `longestProbe` is how many slots a text is looked for in before the table is turned off (tests make it short).
    package init(longestProbe: Int = 32) { self.longestProbe = longestProbe }

    /// The position given to `text`'s group, or nil if it has none yet, in which case it is given `next`.
    package mutating func existing(_ text: String, else next: Int) -> Int? {
        guard cached, let hash = asciiHash(text) else { return fromDictionary(text, else: next) }
        if slots.isEmpty { slots = [Slot](repeating: Self.empty, count: 64) }
        let mask = slots.count - 1
        var index = Int(truncatingIfNeeded: hash) & mask
        for _ in 0..<longestProbe {
            if slots[index].position < 0 {
                let found = fromDictionary(text, else: next)
                slots[index] = Slot(hash: hash, position: found ?? next, text: text)
                occupied += 1
                if occupied * 2 > slots.count { grow() }
                return found
            }
            if slots[index].hash == hash, slots[index].text == text { return slots[index].position }
            index = (index + 1) & mask
        }
        cached = false
        slots = []
        return fromDictionary(text, else: next)
    }

    private mutating func fromDictionary(_ text: String, else next: Int) -> Int? {
        if let position = byText[text] { return position }
        byText[text] = next
        return nil
    }

    private mutating func grow() {
        let old = slots
        slots = [Slot](repeating: Self.empty, count: old.count * 2)
        let mask = slots.count - 1
        for slot in old where slot.position >= 0 {
            var index = Int(truncatingIfNeeded: slot.hash) & mask
            while slots[index].position >= 0 { index = (index + 1) & mask }
            slots[index] = slot
        }
    }

    /// A hash of the text's UTF-8 bytes, eight at a time, or nil if one of them isn't ASCII. (`withUTF8` reads a
    /// native text in place; it copies only one that isn't stored as contiguous UTF-8.)
    private func asciiHash(_ text: String) -> UInt64? {
        var text = text
        let seed = Self.seed
        return text.withUTF8 { bytes -> UInt64? in
            let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
            var hash = seed ^ (UInt64(bytes.count) &* multiplier)
            var highBits: UInt64 = 0
            var offset = 0
            while offset < bytes.count {
                var word: UInt64 = 0
                let end = min(offset + 8, bytes.count)
                if end - offset == 8 {
                    word = UnsafeRawPointer(bytes.baseAddress! + offset).loadUnaligned(as: UInt64.self)
                } else {
                    for (shift, byte) in bytes[offset..<end].enumerated() { word |= UInt64(byte) << (shift * 8) }
                }
                highBits |= word
                hash = (hash ^ word) &* multiplier
                hash ^= hash >> 32
                offset = end
            }
            guard highBits & 0x8080_8080_8080_8080 == 0 else { return nil }
            hash ^= hash >> 29
            hash &*= 0xBF58_476D_1CE4_E5B9
            return hash ^ (hash >> 32)
        }
    }
}
