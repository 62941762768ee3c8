import AutoIntents
import AutoRuntime
import AutoStdlib
import Foundation

extension AutoHost {
    /// The whole of a host's `main`: its registry built by `register`, then the command line (`run`, the REPL,
    /// `check`, `daemon`, `mcp`, …) on the process's arguments.
    ///
    /// ```swift
    /// await AutoHost.main(name: "library") { registry in
    ///     try registry.register(dependency: Store())
    ///     try registry.register(AddBook.self)
    /// }
    /// ```
    ///
    /// `register` is given a registry that holds the built-in intents (`show`, `ask`, `choose`, `confirm`); with
    /// `standardLibrary`, the standard library's intents (files, programs, data, the web) are added when a script
    /// first needs them, and its shortcuts are in the prelude. Whatever `register` throws — a `RegistrationError`,
    /// or the host's own (a database that can't be opened) — ends the program with its message and exit status 2,
    /// never a trap; so does an intent of the host named as one of the standard library's.
    public static func main(name: String, version: String? = nil, standardLibrary: Bool = true,
                            register: (inout Registry) throws -> Void) async -> Never {
        var registry = Registry.standard
        do {
            try register(&registry)
            if standardLibrary { try Self.checkNames(of: registry, against: StandardLibrary.intents) }
        } catch {
            StandardStream.error.write("\(name): can't start: \(IntentError.message(of: error))\n")
            exit(ExitCode.usageError)
        }
        let host = standardLibrary
            ? AutoHost(name: name, version: version, registry: registry, adding: StandardLibrary.intents,
                       prelude: AutoHost.standardPrelude(adding: StandardLibrary.prelude))
            : AutoHost(name: name, version: version, registry: registry)
        await AutoCommandLine.main(host)
    }

    /// Refuses a registry that has an intent named as one of `bundle`'s, which would be registered later, when a
    /// script first needs it, and fail then, in every script that names either.
    package static func checkNames(of registry: Registry, against bundle: IntentBundle) throws(RegistrationError) {
        for entry in bundle.entries {
            let name = IntentDescriptor.name(of: entry.title)
            if let intent = registry.intent(named: name) {
                throw RegistrationError("an intent named '\(name)' is registered (\(intent.declaredAs ?? "an intent")), and the standard library has one of that name "
                                        + "(\(entry.swiftType)): give the host's another title, or start with standardLibrary: false")
            }
        }
    }
}
