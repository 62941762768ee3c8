import AutoIntents
import AutoLanguage

/// What the server asks the host about a document: `auto lsp` answers with its intents and prelude, as `auto check`
/// and the REPL would. The server handles one message at a time, so one call at a time.
package protocol DocumentServices: AnyObject {
    /// The problems of a script: `auto check`'s (errors, or the warnings of one that compiles).
    func check(_ source: SourceFile) -> [Diagnostic]
    /// What completion offers at a byte offset: the REPL's completion, with the host's values.
    func complete(_ source: SourceFile, at offset: Int) -> CompletionResult
    /// What a hover at a byte offset shows about an intent or an automation, and the span it is about.
    func describe(_ source: SourceFile, at offset: Int) -> (text: String, span: Span)?
    /// Where the script's variables and shortcuts are declared and used, as the checker resolves them.
    func index(_ source: SourceFile) -> SymbolIndex
    /// The intents the script can call, its own shortcuts among them.
    func registry(of source: SourceFile) -> Registry
}
