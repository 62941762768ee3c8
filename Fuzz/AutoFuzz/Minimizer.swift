/// Shrinks a failing program while the same failure persists (delta debugging, Zeller's ddmin, in three
/// passes): first repeated runs (`((((…))))`, `not not …`, `if true {` × n) are cut down together, so
/// that a nesting failure keeps its balance while it shrinks; then whole lines; then tokens. What is left
/// is small enough to read, and to become a fixture once the failure is fixed.
public struct Minimizer {
    /// Runs the binary on a candidate and says whether it still fails the same way.
    public let stillFails: ([UInt8]) -> Bool
    /// Runs the predicate may use: each costs one run of the binary, which for a timing failure is
    /// seconds.
    public var budget: Int
    public private(set) var runs = 0

    public init(budget: Int, stillFails: @escaping ([UInt8]) -> Bool) {
        self.budget = budget
        self.stillFails = stillFails
    }

    public mutating func minimise(_ bytes: [UInt8]) -> [UInt8] {
        let tokenJoin: ([[UInt8]]) -> [UInt8] = { Array($0.joined()) }
        var current = bytes
        current = shrinkRepetitions(current)
        current = ddmin(current, split: FixtureMutator.lines, join: FixtureMutator.joined)
        // ddmin tries chunks at aligned places only: a block (`shortcut … {`, its body, `}`) or an operand
        // with its operator (`x ==`) is often a run that no aligned chunk covers.
        current = removeWindows(current, sizes: [4, 3, 2], split: FixtureMutator.lines, join: FixtureMutator.joined)
        current = ddmin(current, split: Self.tokenPieces, join: tokenJoin)
        current = unwrapParentheses(current)
        current = removeWindows(current, sizes: [5, 4, 3, 2], split: Self.tokenPieces, join: tokenJoin)
        // Token removal may leave a line that only the earlier pass could drop now.
        current = ddmin(current, split: FixtureMutator.lines, join: FixtureMutator.joined)
        return current
    }

    /// Tries removing every run of `size` consecutive pieces, for each size, largest first.
    mutating func removeWindows(_ bytes: [UInt8], sizes: [Int], split: ([UInt8]) -> [[UInt8]], join: ([[UInt8]]) -> [UInt8]) -> [UInt8] {
        var pieces = split(bytes)
        for size in sizes {
            var start = 0
            while start + size <= pieces.count && pieces.count > size && runs < budget {
                var candidate = pieces
                candidate.removeSubrange(start..<(start + size))
                if test(join(candidate)) { pieces = candidate } else { start += 1 }
            }
        }
        return join(pieces)
    }

    /// `((x))` → `(x)` → `x`: tries dropping each pair of matching parentheses.
    mutating func unwrapParentheses(_ bytes: [UInt8]) -> [UInt8] {
        var pieces = Self.tokenPieces(bytes)
        var index = 0
        while index < pieces.count && runs < budget {
            defer { index += 1 }
            guard pieces[index].first == 0x28 else { continue }
            var depth = 0
            var match: Int?
            for other in index..<pieces.count {
                if pieces[other].first == 0x28 { depth += 1 }
                if pieces[other].first == 0x29 { depth -= 1 }
                if depth == 0 { match = other; break }
            }
            guard let match else { continue }
            var candidate = pieces
            candidate.remove(at: match)
            candidate.remove(at: index)
            if test(Array(candidate.joined())) {
                pieces = candidate
                index -= 1
            }
        }
        return Array(pieces.joined())
    }

    mutating func test(_ candidate: [UInt8]) -> Bool {
        guard runs < budget else { return false }
        runs += 1
        return stillFails(candidate)
    }

    /// The source cut at token boundaries, spaces kept with the token before them, so that joining any
    /// subset still separates words.
    static func tokenPieces(_ bytes: [UInt8]) -> [[UInt8]] {
        var pieces: [[UInt8]] = []
        for token in FixtureMutator.tokens(bytes) {
            let piece = Array(bytes[token.range])
            if token.kind == .space, !pieces.isEmpty { pieces[pieces.count - 1] += piece } else { pieces.append(piece) }
        }
        return pieces
    }

    /// ddmin over the pieces `split` cuts: try to drop each of n chunks; on success keep the rest and
    /// start again at that granularity, otherwise double n until the chunks are single pieces.
    mutating func ddmin(_ bytes: [UInt8], split: ([UInt8]) -> [[UInt8]], join: ([[UInt8]]) -> [UInt8]) -> [UInt8] {
        var pieces = split(bytes)
        var chunks = 2
        while !pieces.isEmpty && runs < budget {
            let size = max(1, (pieces.count + chunks - 1) / chunks)
            var removedOne = false
            var start = 0
            while start < pieces.count && runs < budget {
                let end = min(pieces.count, start + size)
                var candidate = pieces
                candidate.removeSubrange(start..<end)
                // Even the empty program: a failure that an option alone causes needs no program at all.
                if test(join(candidate)) {
                    pieces = candidate
                    removedOne = true
                } else {
                    start = end
                }
            }
            if removedOne {
                chunks = max(chunks - 1, 2)
            } else {
                if size <= 1 { break }
                chunks = min(chunks * 2, pieces.count)
            }
        }
        return join(pieces)
    }

    // MARK: Repetitions

    struct Run {
        let start: Int
        let unit: [UInt8]
        let count: Int
    }

    /// Maximal runs of a unit of 1 to 12 bytes repeated at least 8 times.
    static func repetitions(_ bytes: [UInt8]) -> [Run] {
        var runs: [Run] = []
        var i = 0
        while i < bytes.count {
            var best: Run?
            for length in 1...12 where i + 2 * length <= bytes.count {
                var count = 1
                while i + (count + 1) * length <= bytes.count && bytes[(i + count * length)..<(i + (count + 1) * length)].elementsEqual(bytes[i..<(i + length)]) {
                    count += 1
                }
                if count >= 8 && count * length > (best.map { $0.count * $0.unit.count } ?? 0) {
                    best = Run(start: i, unit: Array(bytes[i..<(i + length)]), count: count)
                }
            }
            if let best {
                runs.append(best)
                i += best.count * best.unit.count
            } else {
                i += 1
            }
        }
        return runs
    }

    /// The runs in `selected` scaled by `factor` together: `((((1))))` stays balanced as it shrinks.
    static func scaled(_ bytes: [UInt8], _ runs: [Run], by factor: Double, selected: Set<Int>) -> [UInt8] {
        var result: [UInt8] = []
        var position = 0
        for run in runs where selected.contains(run.start) {
            result += bytes[position..<run.start]
            let count = max(1, Int(Double(run.count) * factor))
            for _ in 0..<count { result += run.unit }
            position = run.start + run.count * run.unit.count
        }
        return result + bytes[position...]
    }

    /// Shrinks runs that repeat the same number of times together (an opening and its closing run), a
    /// group at a time, halving while the failure persists.
    mutating func shrinkRepetitions(_ bytes: [UInt8]) -> [UInt8] {
        var current = bytes
        var progress = true
        while progress && runs < budget {
            progress = false
            let found = Self.repetitions(current)
            let groups = Dictionary(grouping: found, by: \.count).values.sorted { a, b in
                a.reduce(0) { $0 + $1.count * $1.unit.count } > b.reduce(0) { $0 + $1.count * $1.unit.count }
            }
            for group in groups {
                for factor in [0.5, 0.8] {
                    let candidate = Self.scaled(current, found, by: factor, selected: Set(group.map(\.start)))
                    if candidate.count < current.count && test(candidate) {
                        current = candidate
                        progress = true
                        break
                    }
                }
                if progress { break }
            }
        }
        return current
    }
}
