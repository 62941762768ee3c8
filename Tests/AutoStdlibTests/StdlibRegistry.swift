import AutoIntents
import AutoStdlib

/// The built-ins and the standard library's intents, as `auto` registers them: what the engine-level tests run on.
func stdlibRegistry() throws -> Registry {
    var registry = Registry.standard
    try registry.registerStandardLibrary()
    return registry
}
