/// The harness's only source of randomness: SplitMix64, seeded from (seed, case index, stream).
///
/// Every program, mutation and run configuration is drawn from a generator made for its own case, so a
/// case is reproducible from the campaign's seed and its index alone, whatever order the parallel workers
/// run cases in. Swift's `SystemRandomNumberGenerator` can't be seeded, and the standard library promises
/// no stable algorithm behind `Int.random(in:using:)` across releases, so the draws below are written out.
public struct FuzzRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    /// The generator of case `index` of the campaign `seed`; `stream` separates independent draws of one
    /// case (the program, its run options), so that changing how one is drawn doesn't shift the other.
    public init(seed: UInt64, index: Int, stream: UInt64 = 0) {
        var mixer = FuzzRandom(seed: seed ^ 0x9E37_79B9_7F4A_7C15)
        let a = mixer.next()
        state = a ^ (UInt64(truncatingIfNeeded: index) &* 0xBF58_476D_1CE4_E5B9) ^ (stream &* 0x94D0_49BB_1331_11EB)
        _ = next()
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform Int in `range` (the modulo bias is far below what a fuzzer could notice).
    public mutating func int(_ range: ClosedRange<Int>) -> Int {
        let width = UInt64(bitPattern: Int64(range.upperBound &- range.lowerBound)) &+ 1
        if width == 0 { return Int(bitPattern: UInt(next())) }
        return range.lowerBound &+ Int(bitPattern: UInt(next() % width))
    }

    public mutating func int(_ range: Range<Int>) -> Int {
        int(range.lowerBound...(range.upperBound - 1))
    }

    /// True with probability `p`.
    public mutating func chance(_ p: Double) -> Bool {
        Double(next() >> 11) / Double(1 << 53) < p
    }

    public mutating func pick<T>(_ items: [T]) -> T {
        items[int(0..<items.count)]
    }

    /// One of `choices`, each drawn in proportion to its weight.
    public mutating func weighted<T>(_ choices: [(Int, T)]) -> T {
        let total = choices.reduce(0) { $0 + $1.0 }
        var roll = int(0..<total)
        for (weight, value) in choices {
            if roll < weight { return value }
            roll -= weight
        }
        return choices[choices.count - 1].1
    }
}
