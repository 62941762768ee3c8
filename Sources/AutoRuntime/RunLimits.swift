/// Bounds on a run, so that no script can hang or exhaust the process.
public struct RunLimits: Sendable {
    /// Nodes executed and loop iterations, counted together; at least 1.
    public var maxSteps: Int
    /// Wall time; nil for none. Intents that await see it pass as a cancellation.
    public var maxDuration: Duration?
    /// Nested shortcut calls.
    public var maxCallDepth: Int

    public init(maxSteps: Int = 100_000_000, maxDuration: Duration? = nil, maxCallDepth: Int = 200) {
        self.maxSteps = max(1, maxSteps)
        self.maxDuration = maxDuration
        self.maxCallDepth = maxCallDepth
    }
}
