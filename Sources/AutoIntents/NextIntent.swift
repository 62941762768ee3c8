/// An intent, filled in by the host, that the engine runs after the current one (`.result(opensIntent:)`).
///
/// The host made it itself (`var next = OpenBook(); next.book = book`), so before it runs it is prepared as the
/// engine prepares the intent of a call: its `@Dependency` properties are filled in from the run's, and a required
/// `@Parameter` the host didn't set is an error naming both intents and the parameter, where reading it in `perform`
/// would trap. That is done on each opening (`IntentOpening`), so a call that opens nothing pays nothing for it.
@usableFromInline
package struct NextIntent: Sendable {
    /// The opened intent's title.
    @usableFromInline package let title: String
    /// Prepares the opened intent and performs it.
    @usableFromInline package let run: @Sendable (IntentContext) async throws -> IntentOutput
    /// For an `ImmediateIntent`: the same run without awaiting, so that an immediate intent can open it.
    @usableFromInline package let runNow: (@Sendable (IntentContext) throws -> IntentOutput)?

    @inlinable
    init<I: AppIntent>(_ intent: I) {
        title = I.title
        run = { context in try await IntentDescriptor.perform(try NextIntent.prepared(intent, context), context) }
        if let performNow = I.immediatePerform {
            runNow = { context in
                let prepared = try NextIntent.prepared(intent, context)
                return try withUnsafePointer(to: prepared) { try performNow($0, context) }
            }
        } else {
            runNow = nil
        }
    }

    /// `intent` ready to perform: its dependencies filled in from the run's, every required parameter set.
    /// Not inlinable, so that how an intent is prepared stays the engine's, out of the host's compiled code.
    @usableFromInline
    static func prepared<I: AppIntent>(_ intent: I, _ context: IntentContext) throws(IntentError) -> I {
        try context.opening(of: I.self).prepare(intent)
    }
}
