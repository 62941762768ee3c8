import AutoCLI
import AutoIntents
import AutoStdlib
import Foundation

// The default host: the built-in intents, the standard library's and the stdlib prelude, nothing else.
var registry = Registry.standard
do {
    try registry.registerStandardLibrary()
} catch {
    // Only a mistake in the engine's own intents gets here; AutoStdlibTests registers them on every test run.
    FileHandle.standardError.write(Data("auto: the standard library could not be registered: \(error)\n".utf8))
    exit(1)
}
await AutoCommandLine.main(AutoHost(registry: registry, prelude: AutoHost.standardPrelude(adding: StandardLibrary.prelude)))
