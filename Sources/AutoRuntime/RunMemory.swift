import Synchronization

/// What a run holds, all values together, against `--max-memory` (`ValueLimits.maxBytes` given by the host or the
/// command line): one value over it is refused by `ValueLimits` before it is built, and so is a value that would take
/// the run over it, by this. What the run holds is measured as the process's resident memory grown since the run
/// began — values are shared and copied on write, so adding up what was built would count freed and shared values
/// too, while the kernel's count is what the limit is there to protect. It is looked at where values grow, once
/// `lookEvery` bytes were built since the last look (a look reads `/proc/self/statm`, a few microseconds).
final class RunMemory: Sendable {
    let maxBytes: Int
    /// The process's resident bytes when the run began.
    let residentAtStart: UInt64
    /// Bytes of values built since the last look.
    let builtSinceLook = Atomic<Int>(0)
    /// A sixteenth of the limit, and never less than 64 KB: a run over its limit is stopped within that much more.
    let lookEvery: Int

    /// Nil when the kernel doesn't say what the process holds: then only each value is bounded.
    init?(maxBytes: Int) {
        guard let resident = ProcessMemory.resident() else { return nil }
        self.maxBytes = maxBytes
        residentAtStart = resident
        lookEvery = max(maxBytes / 16, 64 << 10)
    }

    /// Throws when a value of `bytes`, about to be built, would take what the run holds over `maxBytes`.
    func willBuild(_ bytes: Int) throws(EvaluationError) {
        guard builtSinceLook.add(bytes, ordering: .relaxed).newValue >= lookEvery else { return }
        builtSinceLook.store(0, ordering: .relaxed)
        guard let resident = ProcessMemory.resident() else { return }
        let held = resident > residentAtStart ? Int(clamping: resident - residentAtStart) : 0
        if held > maxBytes - min(bytes, maxBytes) {
            let limit = ValueFormatter.size(Int64(clamping: maxBytes))
            throw EvaluationError("the run holds \(ValueFormatter.size(Int64(clamping: held))) and would need \(ValueFormatter.size(Int64(clamping: bytes))) more, more than all its values together may take (\(limit))",
                                  kind: .memoryLimit(maxBytes))
        }
    }
}
