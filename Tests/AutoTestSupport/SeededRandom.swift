/// A small deterministic generator (SplitMix64), so that a test's random choices come back the same from its seed and a
/// failure reproduces: the differential tests' queries, the cron tests' expressions, the chaos test's moments.
package struct SeededRandom: RandomNumberGenerator {
    var state: UInt64
    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in 0..<bound (0 for a bound below 1).
    package mutating func next(_ bound: Int) -> Int { Int(next() % UInt64(max(1, bound))) }
    package mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(next() % UInt64(range.count)) }
    package mutating func chance(_ p: Double) -> Bool { Double(next() % 10_000) / 10_000 < p }
    package mutating func pick<T>(_ items: [T]) -> T { items[int(0...(items.count - 1))] }
}
