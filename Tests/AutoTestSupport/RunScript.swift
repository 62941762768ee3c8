import AutoIntents
import AutoLanguage
import AutoRuntime

extension CompiledScript {
    /// Runs the script on an engine of its registry and returns its result, or throws how the run ended otherwise
    /// (`RuntimeError`, `RunCancelled`): for tests that check one or the other.
    package func run(interaction: any Interaction = ScriptedInteraction(), cancellation: CancellationFlag = CancellationFlag(),
                    limits: RunLimits = RunLimits()) async throws -> Value {
        try await Engine(registry: registry, limits: limits)
            .run(program, interaction: interaction, cancellation: cancellation).value()
    }
}
