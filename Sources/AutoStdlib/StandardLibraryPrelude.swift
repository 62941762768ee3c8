import AutoIntents
import Foundation

/// The standard library: its native intents (`intents`, or `Registry.registerStandardLibrary()`) and the shortcuts
/// written on them (`prelude`), which `AutoHost.main(standardLibrary:)` adds to a host's.
package enum StandardLibrary {
    /// The standard library's shortcuts (`Shortcuts/*.auto`), written on its intents: a host that registers the
    /// standard library adds them to its prelude (`ScriptHost(registry:prelude:)`), since they can't compile without it:
    /// (file name, source text) for each file, in name order; named `stdlib-intents/NAME.auto` in diagnostics.
    package static let prelude: [(name: String, text: String)] = EmbeddedFiles.all
        .filter { $0.path.hasSuffix(".auto") }
        .sorted { $0.path < $1.path }
        .map { ("stdlib-intents/" + ($0.path as NSString).lastPathComponent, $0.text) }
}
