import AutoCLI
import AutoRuntime
import AutoStdlib

// The default host: the built-in intents, the standard library's (registered when a script may call them) and the
// stdlib prelude, nothing else.
await AutoCommandLine.main(AutoHost(registry: .standard, adding: StandardLibrary.intents,
                                    prelude: AutoHost.standardPrelude(adding: StandardLibrary.prelude)))
