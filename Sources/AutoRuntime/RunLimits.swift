/// Bounds on a run, so that no script can hang or exhaust the process.
public struct RunLimits: Sendable {
    /// Nodes executed and loop iterations, counted together.
    public var maxSteps: Int
    /// Wall time; nil for none.
    public var maxDuration: Duration?
    /// Nested shortcut calls.
    public var maxCallDepth: Int

    public init(maxSteps: Int = 100_000_000, maxDuration: Duration? = nil, maxCallDepth: Int = 200) {
        self.maxSteps = maxSteps
        self.maxDuration = maxDuration
        self.maxCallDepth = maxCallDepth
    }
}

/// A run that failed: what went wrong and where in the script.
public struct RuntimeError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public let location: ScriptLocation?
    public init(_ message: String, at location: ScriptLocation?) {
        self.message = message
        self.location = location
    }
    public var description: String {
        guard let location else { return "error: \(message)" }
        return "\(location): error: \(message)"
    }
}
