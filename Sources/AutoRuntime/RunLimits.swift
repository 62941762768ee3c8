/// Bounds on a run, so that no script can hang or exhaust the process.
package struct RunLimits: Sendable {
    /// Nodes executed and loop iterations, counted together; at least 1.
    package var maxSteps: Int
    /// Wall time; nil for none. Intents that await see it pass as a cancellation.
    package var maxDuration: Duration?
    /// Nested shortcut calls.
    package var maxCallDepth: Int
    /// What values the run builds may be: how deep lists and records nest.
    package var values: ValueLimits

    package init(maxSteps: Int = 100_000_000, maxDuration: Duration? = nil, maxCallDepth: Int = 200, values: ValueLimits = ValueLimits()) {
        self.maxSteps = max(1, maxSteps)
        self.maxDuration = maxDuration
        self.maxCallDepth = maxCallDepth
        self.values = values
    }
}
