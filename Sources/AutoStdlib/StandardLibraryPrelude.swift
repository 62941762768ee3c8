import AutoIntents
import Foundation

/// The standard library's shortcuts (`Shortcuts/*.auto`), written on its intents: a host that registers the
/// standard library adds them to its prelude (`AutoHost(registry:prelude:)`), since they can't compile without it.
public enum StandardLibrary {
    /// (file name, source text) for each file, in name order; named `stdlib-intents/NAME.auto` in diagnostics.
    public static let prelude: [(name: String, text: String)] = EmbeddedFiles.all
        .filter { $0.path.hasSuffix(".auto") }
        .sorted { $0.path < $1.path }
        .map { ("stdlib-intents/" + ($0.path as NSString).lastPathComponent, $0.text) }

    /// `registry` with the standard library's intents, for `auto`'s binaries' mains (`auto`, `auto-mcp`: given the
    /// built-ins, `Registry.standard`). Exits when they can't be registered, which only a mistake in the engine's own
    /// intents does (AutoStdlibTests registers them on every test run).
    public static func registeredOrExit(in registry: Registry) -> Registry {
        var registry = registry
        do {
            try registry.registerStandardLibrary()
        } catch {
            FileHandle.standardError.write(Data("auto: the standard library could not be registered: \(error)\n".utf8))
            exit(1)
        }
        return registry
    }
}
