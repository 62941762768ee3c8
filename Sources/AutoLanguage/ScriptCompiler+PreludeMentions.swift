import AutoIntents

/// Whether a script may touch the prelude at all, read from the texts alone: a run whose script can neither call nor
/// clash with a prelude shortcut is compiled without the prelude, not even lexed (it was most of a small run's
/// compile, on every start).
extension ScriptCompiler {
    /// Whether `source` mentions, in any case, the first word of a shortcut that one of `prelude`'s files declares. A
    /// call names all the words of the shortcut, and a declaration of the same name writes them in its text, so a
    /// script that mentions none can do neither. Mentions are looked for as text, anywhere (in a comment, inside
    /// another word): a false one only costs the prelude's compile.
    package static func mentionsAShortcut(of prelude: [SourceFile], in source: SourceFile) -> Bool {
        guard !prelude.isEmpty else { return false }
        var words: [[UInt8]] = []
        for file in prelude {
            guard let found = firstWordsOfShortcuts(in: file.text) else { return true }
            words += found
        }
        return mentions(words, in: source)
    }

    /// Whether `source` mentions any of `words` (lower case), in any case, anywhere in its text.
    package static func mentions(anyOf words: [String], in source: SourceFile) -> Bool {
        mentions(words.map { lowercased(Array($0.utf8)) }, in: source)
    }

    private static func mentions(_ words: [[UInt8]], in source: SourceFile) -> Bool {
        let words = words.filter { !$0.isEmpty }
        // One pass over the script: the words that start with each byte are tried where it occurs.
        var startingWith = [[Int]](repeating: [], count: 256)
        for (index, word) in words.enumerated() { startingWith[Int(word[0])].append(index) }
        let script = lowercased(Array(source.text.utf8))
        for position in script.indices {
            for index in startingWith[Int(script[position])] {
                let word = words[index]
                if position + word.count <= script.count, script[position..<position + word.count].elementsEqual(word) { return true }
            }
        }
        return false
    }

    /// ASCII letters in lower case; other bytes as they are (a name in other scripts is compared as written).
    private static func lowercased(_ bytes: [UInt8]) -> [UInt8] {
        bytes.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 | 0x20 : $0 }
    }

    /// The first word of each name after `shortcut "` in the text, lower-cased; nil when one can't be read simply
    /// (an escape in it), which counts as a mention. A `shortcut "` that is not a declaration (in a comment or a
    /// text) only adds a word.
    package static func firstWordsOfShortcuts(in text: String) -> [[UInt8]]? {
        let bytes = Array(text.utf8), keyword = Array("shortcut".utf8)
        var words: [[UInt8]] = []
        var index = 0
        while index + keyword.count < bytes.count {
            guard bytes[index] == keyword[0], bytes[index..<index + keyword.count].elementsEqual(keyword),
                  index == 0 || !isWordByte(bytes[index - 1]) else {
                index += 1
                continue
            }
            var cursor = index + keyword.count
            while cursor < bytes.count, bytes[cursor] == UInt8(ascii: " ") || bytes[cursor] == UInt8(ascii: "\t") { cursor += 1 }
            index = cursor
            guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: "\"") else { continue }
            var end = cursor + 1
            while end < bytes.count, bytes[end] != UInt8(ascii: " "), bytes[end] != UInt8(ascii: "\"") {
                if bytes[end] == UInt8(ascii: "\\") || bytes[end] == UInt8(ascii: "\n") { return nil }
                end += 1
            }
            let word = lowercased(Array(bytes[(cursor + 1)..<end]))
            if word.isEmpty { return nil }
            words.append(word)
            index = end
        }
        return words
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "_") || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }
}
