import AutoCLI
import AutoRuntime
import AutoStdlib

// The default host: the built-in intents, the standard library's and the stdlib prelude, nothing else.
await AutoCommandLine.main(AutoHost(registry: StandardLibrary.registeredOrExit(in: .standard), prelude: AutoHost.standardPrelude(adding: StandardLibrary.prelude)))
