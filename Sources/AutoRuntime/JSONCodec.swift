import AutoIntents

extension JSONReader {
    /// The engine's JSON as intents get it (`IntentContext.json`): read as `parseJson` reads, written as `json`
    /// writes, within the run's value limits. A text that isn't JSON is an `IntentError` with the reader's words; a
    /// run stopped (Ctrl-C, the time limit) while a long text was read or written is `RunCancelled`, which the
    /// executor reports as the cancellation or the time limit it was.
    static func codec(limits: ValueLimits) -> ValueCodec {
        ValueCodec(
            read: { text in try intentError { () throws(EvaluationError) in try JSONReader.read(text, limits: limits) } },
            write: { value in try intentError { () throws(EvaluationError) in try BuiltinFunctions.json(value, limits: limits) } })
    }

    private static func intentError<T>(_ body: () throws(EvaluationError) -> T) throws -> T {
        do {
            return try body()
        } catch {
            if error.isInterruption { throw RunCancelled() }
            throw IntentError(error.message)
        }
    }
}
