import AutoIntents

/// The scope a completer computes for the statements before the cursor, kept for the next request: an editor asks
/// again and again with the same statements before the cursor (each key typed on a line, or the same place twice), and
/// checking a 1,000-line script's first 999 lines each time is most of a request's time.
///
/// Kept while the text before the statement and the script's shortcuts (names and result types, which the checker
/// reads wherever they are declared) are the same. For completers that start from the same session scope (an editor's:
/// none), one caller at a time: an editor's server handles one message at a time.
package final class CompletionScopes {
    private var last: (earlier: String, shortcuts: [String], scope: SessionScope)?

    package init() {}

    func scope(after earlier: String, for completer: Completer) -> SessionScope {
        let shortcuts = completer.registry.intents.compactMap { intent -> String? in
            guard case .shortcut = intent.implementation else { return nil }
            return "\(intent.name): \(intent.outputType)"
        }
        if let last, last.earlier == earlier, last.shortcuts == shortcuts {
            return last.scope
        }
        let scope = completer.scope(after: earlier)
        last = (earlier, shortcuts, scope)
        return scope
    }
}
