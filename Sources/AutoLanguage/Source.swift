import AutoRuntime

/// A piece of .auto text with a name for messages (`books.auto`, `-e`, `stdlib/text.auto`): how a host gives the
/// engine the files of its prelude (`ScriptHost.standardPrelude(adding:)`).
package final class SourceFile: Sendable {
    /// What messages call the file: `books.auto:3:5: error: …`.
    package let name: String
    /// Its text.
    package let text: String
    /// The UTF-8 bytes the lexer reads; spans are offsets into them.
    package let bytes: [UInt8]
    /// Offset of the first byte of each line.
    package let lineStarts: [Int]
    /// Offset of each line's first byte outside ASCII (its end where there is none): up to there a column is a
    /// byte count, so locating every token of a very long line doesn't decode the line again each time.
    let asciiEnds: [Int]

    /// A file of `text` called `name` in messages.
    package init(name: String, text: String) {
        self.name = name
        self.text = text
        self.bytes = Array(text.utf8)
        var starts = [0], asciiEnds: [Int] = []
        var asciiEnd: Int? = nil
        for (offset, byte) in bytes.enumerated() {
            if byte >= 0x80, asciiEnd == nil { asciiEnd = offset }
            if byte == UInt8(ascii: "\n") {
                asciiEnds.append(asciiEnd ?? offset)
                asciiEnd = nil
                starts.append(offset + 1)
            }
        }
        asciiEnds.append(asciiEnd ?? bytes.count)
        self.lineStarts = starts
        self.asciiEnds = asciiEnds
    }

    /// 1-based line and column (in characters) of a byte offset.
    package func location(of offset: Int) -> SourceLocation {
        var low = 0, high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        let start = lineStarts[low], end = min(offset, bytes.count), ascii = asciiEnds[low]
        let column = end <= ascii ? end - start + 1 : ascii - start + String(decoding: bytes[ascii..<end], as: UTF8.self).count + 1
        return SourceLocation(file: name, line: low + 1, column: column)
    }

    /// The text of a line, without its newline.
    package func line(_ number: Int) -> String {
        guard number >= 1, number <= lineStarts.count else { return "" }
        let start = lineStarts[number - 1]
        var end = number < lineStarts.count ? lineStarts[number] - 1 : bytes.count
        if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        return String(decoding: bytes[start..<max(start, end)], as: UTF8.self)
    }

    package func text(of span: Span) -> String {
        String(decoding: bytes[span.start..<min(span.end, bytes.count)], as: UTF8.self)
    }
}

/// A range of bytes in a source file.
package struct Span: Sendable, Hashable {
    package var start: Int
    package var end: Int
    package init(_ start: Int, _ end: Int) {
        self.start = start
        self.end = max(start, end)
    }
    package func to(_ other: Span) -> Span { Span(min(start, other.start), max(end, other.end)) }
}
