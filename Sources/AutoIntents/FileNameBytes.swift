#if canImport(Glibc)
import Glibc
#endif

/// File names on Linux are bytes, texts are Unicode: this is the one owner of how one becomes the other and back,
/// so that a name that isn't UTF-8 is listed, shown, typed again and reaches the same file.
///
/// A byte that is not part of valid UTF-8 becomes one of 128 private-use code points, U+EF80 to U+EFFF (byte 0x80
/// to 0xFF, as MirBSD's OPTU-8 maps them), and turns back into that byte at every system call. A name that spells
/// one of those code points in valid UTF-8 has its three bytes mapped one by one too, so every name, whatever its
/// bytes, comes back exactly. People see such a byte as `\xHH` (`escaped`), which the language reads back in a text.
package enum FileNameBytes {
    /// The code point that stands for byte 0x80; 0xFF is `base + 0x7F`.
    static let base: UInt32 = 0xEF80

    /// The code point standing for `byte` (0x80 to 0xFF).
    package static func scalar(standingFor byte: UInt8) -> Unicode.Scalar {
        Unicode.Scalar(base + UInt32(byte) - 0x80)!
    }

    /// The byte a code point stands for, or nil when it is an ordinary character.
    package static func byte(standingFor scalar: Unicode.Scalar) -> UInt8? {
        (base...base + 0x7F).contains(scalar.value) ? UInt8(scalar.value - base + 0x80) : nil
    }

    /// Whether `text` holds a code point that stands for a byte. Those are the only ones whose UTF-8 starts with
    /// 0xEE 0xBE or 0xEE 0xBF, so a scan for 0xEE rules out nearly every text at once.
    package static func holdsBytes(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { utf8 in
            var index = 0
            while index + 1 < utf8.count {
                if utf8[index] == 0xEE, utf8[index + 1] & 0xFE == 0xBE { return true }
                index += 1
            }
            return false
        }
    }

    /// The text for a name's bytes as the system gives them (from `readdir`, `readlink`, `getcwd`, argv).
    package static func text(_ bytes: some Collection<UInt8>) -> String {
        if let text = String(validating: bytes, as: UTF8.self), !holdsBytes(text) { return text }
        var scalars = String.UnicodeScalarView()
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        // The parser reads ahead; the bytes it read for the scalar it returns are taken back from `pending`.
        var pending: [UInt8] = []
        var source = AnyIterator<UInt8> {
            let byte = iterator.next()
            if let byte { pending.append(byte) }
            return byte
        }
        while true {
            switch parser.parseScalar(from: &source) {
            case .valid(let encoded):
                let decoded = Unicode.UTF8.decode(encoded)
                if Self.byte(standingFor: decoded) != nil {
                    for byte in encoded { scalars.append(Self.scalar(standingFor: byte)) }
                } else {
                    scalars.append(decoded)
                }
                pending.removeFirst(encoded.count)
            case .error(let length):
                for byte in pending.prefix(length) { scalars.append(Self.scalar(standingFor: byte)) }
                pending.removeFirst(length)
            case .emptyInput:
                return String(scalars)
            }
        }
    }

    /// The text for a C string the system returned. A name that is UTF-8 (nearly all) takes
    /// `String(validatingCString:)`, which isn't generic: `String(validating:as:)` looks up generic metadata on every
    /// call, a twentieth of a walk of a large tree.
    package static func text(cString: UnsafePointer<CChar>) -> String {
        if let text = String(validatingCString: cString), !holdsBytes(text) { return text }
        return text(UnsafeRawBufferPointer(start: cString, count: strlen(cString)))
    }

    /// The current folder, as `getcwd` gives it ("/" if it can't: the folder was removed, or is too deep).
    package static func currentFolder() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return "/" }
        return buffer.withUnsafeBufferPointer { text(cString: $0.baseAddress!) }
    }

    /// The bytes a name's text stands for.
    package static func bytes(_ text: String) -> [UInt8] {
        guard holdsBytes(text) else { return Array(text.utf8) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if let byte = Self.byte(standingFor: scalar) { bytes.append(byte) } else { bytes.append(contentsOf: String(scalar).utf8) }
        }
        return bytes
    }

    /// Calls `body` with the C string of a path's bytes, for a system call. Without a byte in it, the text's own
    /// UTF-8 is used as it is.
    package static func withCString<Result>(_ path: String, _ body: (UnsafePointer<CChar>) throws -> Result) rethrows -> Result {
        guard holdsBytes(path) else { return try path.withCString(body) }
        var bytes = Self.bytes(path)
        bytes.append(0)
        return try bytes.withUnsafeBufferPointer { buffer in
            try buffer.withMemoryRebound(to: CChar.self) { try body($0.baseAddress!) }
        }
    }

    /// `text` with each code point that stands for a byte written `\xHH`, as a text literal writes it: how a
    /// name that isn't UTF-8 reads on a terminal, where the private-use character itself would show as a box.
    package static func escaped(_ text: String) -> String {
        guard holdsBytes(text) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard let byte = Self.byte(standingFor: scalar) else {
                out.append(scalar)
                continue
            }
            out.append(contentsOf: "\\x".unicodeScalars)
            out.append(contentsOf: hex(byte).unicodeScalars)
        }
        return String(out)
    }

    /// Two uppercase hex digits.
    package static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF".unicodeScalars)
        return String(String.UnicodeScalarView([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]]))
    }
}
