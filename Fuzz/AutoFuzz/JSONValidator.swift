/// Whether bytes are one JSON value (RFC 8259), with no limit on nesting.
///
/// `JSONSerialization` alone won't do: it accepts a trailing comma (`[1,]`), and refuses arrays and
/// objects nested deeper than 512 levels — which `auto --json` rightly writes for a record nested 1000
/// deep. This checker is strict and iterative (depth costs memory, not
/// stack); the oracle asks both (Oracles.jsonProblem).
enum JSONValidator {
    /// Whether `bytes` is one JSON value, and how deep its arrays and objects nest.
    static func check(_ bytes: some Collection<UInt8>) -> (isValid: Bool, depth: Int) {
        var parser = Parser(bytes: Array(bytes))
        let valid = parser.document()
        return (valid, parser.depth)
    }

    struct Parser {
        let bytes: [UInt8]
        var index = 0
        var depth = 0

        /// What the parser waits for next inside an open array (`]`) or object (`}`).
        enum Frame { case array, object }

        mutating func document() -> Bool {
            skipSpace()
            guard value() else { return false }
            skipSpace()
            return index == bytes.count
        }

        var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipSpace() {
            while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
        }

        /// One value, arrays and objects included, with an explicit stack of the open ones.
        mutating func value() -> Bool {
            var stack: [Frame] = []
            while true {
                skipSpace()
                // A value: an opener pushes and goes on to the first element (or the closer).
                switch current {
                case UInt8(ascii: "["):
                    index += 1
                    skipSpace()
                    if current == UInt8(ascii: "]") {
                        index += 1
                    } else {
                        stack.append(.array)
                        depth = max(depth, stack.count)
                        continue
                    }
                case UInt8(ascii: "{"):
                    index += 1
                    skipSpace()
                    if current == UInt8(ascii: "}") {
                        index += 1
                    } else {
                        guard key() else { return false }
                        stack.append(.object)
                        depth = max(depth, stack.count)
                        continue
                    }
                case UInt8(ascii: "\""): guard string() else { return false }
                case UInt8(ascii: "t"): guard literal("true") else { return false }
                case UInt8(ascii: "f"): guard literal("false") else { return false }
                case UInt8(ascii: "n"): guard literal("null") else { return false }
                default: guard number() else { return false }
                }
                // After a value: a separator to the next element, or closers.
                while true {
                    guard let frame = stack.last else { return true }
                    skipSpace()
                    if current == UInt8(ascii: ",") {
                        index += 1
                        if frame == .object {
                            skipSpace()
                            guard key() else { return false }
                        }
                        break
                    }
                    guard current == UInt8(ascii: frame == .array ? "]" : "}") else { return false }
                    index += 1
                    stack.removeLast()
                }
            }
        }

        /// `"name" :` in an object.
        mutating func key() -> Bool {
            guard current == UInt8(ascii: "\""), string() else { return false }
            skipSpace()
            guard current == UInt8(ascii: ":") else { return false }
            index += 1
            return true
        }

        mutating func literal(_ word: String) -> Bool {
            for byte in word.utf8 {
                guard current == byte else { return false }
                index += 1
            }
            return true
        }

        mutating func string() -> Bool {
            index += 1
            while let byte = current {
                index += 1
                switch byte {
                case UInt8(ascii: "\""): return true
                case UInt8(ascii: "\\"):
                    guard let escaped = current else { return false }
                    index += 1
                    if escaped == UInt8(ascii: "u") {
                        for _ in 0..<4 {
                            guard let hex = current, (0x30...0x39).contains(hex) || (0x41...0x46).contains(hex) || (0x61...0x66).contains(hex)
                            else { return false }
                            index += 1
                        }
                    } else if !"\"\\/bfnrt".utf8.contains(escaped) {
                        return false
                    }
                case 0x00..<0x20: return false
                default: break
                }
            }
            return false
        }

        mutating func digits() -> Int {
            let start = index
            while let byte = current, (0x30...0x39).contains(byte) { index += 1 }
            return index - start
        }

        /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
        mutating func number() -> Bool {
            if current == UInt8(ascii: "-") { index += 1 }
            if current == UInt8(ascii: "0") {
                index += 1
            } else {
                guard digits() > 0 else { return false }
            }
            if current == UInt8(ascii: ".") {
                index += 1
                guard digits() > 0 else { return false }
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                index += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
                guard digits() > 0 else { return false }
            }
            return true
        }
    }
}
