/// A text format read into values and written from them by the engine's own rules. `IntentContext.json` is the
/// engine's JSON — what `parseJson` and `json` do in scripts — so that an intent that speaks JSON (the web
/// intents) reads and writes it exactly as a script would, with one owner of the rules (records in the order
/// written, whole numbers as Ints and the rest as exact Decimals, dates as ISO 8601, nesting limits).
package struct ValueCodec: Sendable {
    let reader: @Sendable (String) throws -> Value
    let writer: @Sendable (Value) throws -> String

    /// `read` throws an `IntentError` saying why a text can't be read (or `RunCancelled` when the run stopped
    /// while it read a long one); `write` throws only when the run stopped.
    package init(read: @escaping @Sendable (String) throws -> Value, write: @escaping @Sendable (Value) throws -> String) {
        reader = read
        writer = write
    }

    package func read(_ text: String) throws -> Value { try reader(text) }
    package func write(_ value: Value) throws -> String { try writer(value) }

    /// For a context made without an engine (a host or a test calling `perform` itself): every use is an error
    /// saying so, rather than a second, different set of rules.
    package static func unavailable(_ format: String) -> ValueCodec {
        let error = IntentError("\(format) is not available here: the engine provides it to the intents it runs")
        return ValueCodec(read: { _ in throw error }, write: { _ in throw error })
    }
}
