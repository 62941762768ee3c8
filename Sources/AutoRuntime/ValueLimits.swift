import AutoIntents
import Foundation

/// Bounds on the values a run builds, so that no value can crash the process that holds it.
///
/// Every walk over a value — showing it, `--json`, `==`, and Swift freeing it — recurses once per level of
/// nesting, on whatever thread runs the script (a Swift concurrency worker with an 8 MB stack on Linux). A
/// script that wraps a list in a list in a loop would otherwise build a value thousands of levels deep and
/// overflow that stack (at 50,000 levels even freeing it did). So lists and records built at run time may
/// nest at most `maxDepth` levels.
package struct ValueLimits: Sendable {
    /// How many levels lists and records may nest: `[1]` is 1, `[[1]]` and `[{a: 1}]` are 2.
    package let maxDepth: Int
    /// How large one value a run builds may be, in bytes: a list of n values counts n times a value's size, a
    /// text its UTF-8 bytes. A value over it is an error before it is built, so that a script that doubles a list
    /// in a loop stops with a message instead of the allocator aborting the process. When it is given (not the
    /// default), it bounds all the run's values together as well (`RunMemory`).
    package var maxBytes: Int { givenMaxBytes ?? Self.defaultMaxBytes }
    /// nil for the default, which is worked out only when a value is large enough to need it (`exceeds`): reading
    /// the process's memory limits took a tenth of a millisecond of every start.
    let givenMaxBytes: Int?

    /// A quarter of the memory this process may use (`ProcessMemory`): room for a few such values, for the
    /// spare capacity of a list that grows in place, and for everything else the process holds.
    package static let defaultMaxBytes = Int(clamping: ProcessMemory.limit / 4)

    /// 1,000 levels: far beyond any data a script handles (JSON documents nest a few dozen levels; JSON
    /// parsers stop at 512 or 1,000), and a small part of the stack (see `ceiling`).
    package static let defaultMaxDepth = 1_000

    /// The deepest `maxDepth` may be set. Measured by shrinking the stack (`ulimit -s`) of `auto` until a
    /// value 1,000 levels deep failed: any walk of it, and freeing it, fit in 151 KB in a release build
    /// (about 80 bytes a level) and 800 KB in a debug build (showing it, the deepest walk: about 730 bytes a
    /// level). At 5,000 levels a debug build needs under 4 MB, half the 8 MB stack of a Swift concurrency
    /// worker thread on Linux, which leaves the rest to the executor's own frames.
    package static let ceiling = 5_000

    /// A value this small never needs the default limit looked up: a process that can't spare four times as much
    /// can't start a run.
    static let alwaysWithinDefault = 1 << 20

    /// `maxDepth` is kept between 1 and `ceiling`; `maxBytes` nil is `defaultMaxBytes`.
    package init(maxDepth: Int = ValueLimits.defaultMaxDepth, maxBytes: Int? = nil) {
        self.maxDepth = min(max(maxDepth, 1), Self.ceiling)
        givenMaxBytes = maxBytes.map { max($0, 1) }
    }

    /// Whether a value of `bytes` is over `maxBytes`.
    @inline(__always)
    func exceeds(_ bytes: Int) -> Bool {
        if let givenMaxBytes { return bytes > givenMaxBytes }
        return bytes > Self.alwaysWithinDefault && bytes > Self.defaultMaxBytes
    }

    /// `.list(items)`, or an error when it would nest deeper than `maxDepth`.
    package func list(_ items: [Value]) throws(EvaluationError) -> Value {
        try checkNesting(items)
        return .list(items)
    }

    /// Checks, before a list of `count` values is built, that it fits in `maxBytes`.
    package func checkList(count: Int) throws(EvaluationError) {
        let (bytes, overflow) = count.multipliedReportingOverflow(by: MemoryLayout<Value>.stride)
        if overflow || exceeds(bytes) { throw tooLarge("a list of \(count) values", bytes: overflow ? Int.max : bytes) }
        if givenMaxBytes != nil { try Interruption.current?.memory?.willBuild(bytes) }
    }

    /// Checks, before a text of `bytes` UTF-8 bytes is built, that it fits in `maxBytes`.
    package func checkText(bytes: Int) throws(EvaluationError) {
        if exceeds(bytes) { throw tooLarge("a text of \(bytes) bytes", bytes: bytes) }
        if givenMaxBytes != nil { try Interruption.current?.memory?.willBuild(bytes) }
    }

    /// Checks the result of `a + b` before it is built: the sum of two lists or of two texts. A big one (more
    /// than `bigBytes`) takes long enough to copy that Ctrl-C and the time limit are looked at first.
    package func checkSum(_ a: Value, _ b: Value) throws(EvaluationError) {
        let bytes: Int
        switch (a, b) {
        case (.list(let x), .list(let y)):
            try checkList(count: x.count &+ y.count)
            bytes = (x.count &+ y.count) &* MemoryLayout<Value>.stride
        case (.text(let x), .text(let y)):
            bytes = x.utf8.count &+ y.utf8.count
            try checkText(bytes: bytes)
        default:
            return
        }
        if bytes > Self.bigBytes { try Interruption.check() }
    }

    /// 16 MB: copying more takes milliseconds.
    static let bigBytes = 16 << 20

    func tooLarge(_ what: String, bytes: Int) -> EvaluationError {
        EvaluationError("\(what) would take \(ValueFormatter.size(Int64(clamping: bytes))), more than a value may (\(ValueFormatter.size(Int64(clamping: maxBytes))))",
                        kind: .memoryLimit(maxBytes))
    }

    /// `.record(record)`, or an error when it would nest deeper than `maxDepth`.
    package func record(_ record: Record) throws(EvaluationError) -> Value {
        try checkNesting(record.values)
        return .record(record)
    }

    /// A container of `items` is one level deeper than its deepest item.
    func checkNesting(_ items: [Value]) throws(EvaluationError) {
        if Self.depth(of: items, upTo: maxDepth - 1) > maxDepth - 1 {
            throw EvaluationError("this list or record would nest more than \(maxDepth) levels deep (lists and records inside each other); values stop at \(maxDepth) levels so that showing, comparing and freeing them can't exhaust the stack")
        }
    }

    /// The deepest nesting among `items`, counted no further than `limit + 1`: the walk stops as soon as the
    /// answer is known to be too deep, so it never goes more than `limit + 1` levels down itself.
    static func depth(of items: [Value], upTo limit: Int) -> Int {
        var deepest = 0
        for item in items {
            let inner: [Value]
            switch item {
            case .list(let values): inner = values
            case .record(let record): inner = record.values
            default: continue
            }
            if limit <= 0 { return 1 }
            deepest = max(deepest, 1 + depth(of: inner, upTo: limit - 1))
            if deepest > limit { return deepest }
        }
        return deepest
    }
}
