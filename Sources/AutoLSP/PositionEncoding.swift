import AutoLanguage

/// How a position's `character` counts within its line: in UTF-16 code units, the protocol's default, or in UTF-8
/// bytes when the client offers it (`general.positionEncodings`), which is what the source's spans count already.
/// Lines are split at `\n`, as the source's are; a `\r` before it belongs to its line.
package enum PositionEncoding: String, Sendable {
    case utf16 = "utf-16"
    case utf8 = "utf-8"

    /// The position of a byte offset of `file`.
    package func position(of offset: Int, in file: SourceFile) -> LSPPosition {
        let offset = min(max(0, offset), file.bytes.count)
        let line = Self.line(containing: offset, in: file)
        let start = file.lineStarts[line]
        switch self {
        case .utf8: return LSPPosition(line: line, character: offset - start)
        case .utf16:
            var units = 0, index = start
            while index < offset {
                let length = Self.sequenceLength(file.bytes[index])
                units += length == 4 ? 2 : 1
                index += length
            }
            return LSPPosition(line: line, character: units)
        }
    }

    /// The byte offset of a position of `file`. A line past the last is the end of the file; a character past its
    /// line's end is that end (clients may send either, the protocol says to clamp); one inside a character that takes
    /// two UTF-16 units is the start of that character.
    package func offset(of position: LSPPosition, in file: SourceFile) -> Int {
        guard position.line >= 0 else { return 0 }
        guard position.line < file.lineStarts.count else { return file.bytes.count }
        let start = file.lineStarts[position.line]
        let end = position.line + 1 < file.lineStarts.count ? file.lineStarts[position.line + 1] - 1 : file.bytes.count
        switch self {
        case .utf8: return min(start + max(0, position.character), end)
        case .utf16:
            var units = 0, index = start
            while index < end {
                let length = Self.sequenceLength(file.bytes[index])
                let width = length == 4 ? 2 : 1
                if units + width > position.character { break }
                units += width
                index += length
            }
            return min(index, end)
        }
    }

    /// The span's range.
    package func range(of span: Span, in file: SourceFile) -> LSPRange {
        LSPRange(start: position(of: span.start, in: file), end: position(of: span.end, in: file))
    }

    /// How many bytes the UTF-8 sequence starting with this byte takes (a stray continuation byte counts as one).
    static func sequenceLength(_ lead: UInt8) -> Int {
        lead < 0xC0 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
    }

    static func line(containing offset: Int, in file: SourceFile) -> Int {
        var low = 0, high = file.lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if file.lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        return low
    }
}
