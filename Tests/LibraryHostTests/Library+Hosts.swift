import AutoIntents
import AutoLanguage
import AutoStdlib
import LibraryExample

/// The Library as `library` runs it (`AutoHost.main`), for tests that compile and run scripts in process.
extension Library {
    /// The built-ins, the standard library and the Library's own intents, queries and shortcuts over `database`.
    static func registry(database: LibraryDatabase) throws -> Registry {
        var registry = Registry.standard
        try registry.registerStandardLibrary()
        try register(into: &registry, database: database)
        return registry
    }

    static func host(database: LibraryDatabase) throws -> ScriptHost {
        ScriptHost(name: "library", registry: try registry(database: database),
                   prelude: ScriptHost.standardPrelude(adding: StandardLibrary.prelude))
    }
}
