/// Brings a script up to date with its host: every former name it uses (an intent's former title, a parameter's
/// former name) replaced by the current one, from the fixes the checker attaches to its warnings. Comments, spacing
/// and everything else are kept byte for byte; a script already up to date comes back unchanged, so running it twice
/// changes nothing the second time.
package enum ScriptMigration {
    /// The script's text with `fixes` applied; fixes that overlap an earlier one are left out (never two edits of
    /// the same bytes).
    package static func applying(_ fixes: [Diagnostic.Fix], to text: String) -> String {
        let bytes = Array(text.utf8)
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var next = 0
        for fix in fixes.sorted(by: { $0.span.start < $1.span.start }) where fix.span.start >= next && fix.span.end <= bytes.count {
            result += bytes[next..<fix.span.start]
            result += Array(fix.replacement.utf8)
            next = fix.span.end
        }
        result += bytes[next...]
        return String(decoding: result, as: UTF8.self)
    }

    /// The fixes among a compiled script's diagnostics, in its own file (a prelude's warnings are not the script's to
    /// rewrite).
    package static func fixes(in diagnostics: [Diagnostic], of file: SourceFile) -> [Diagnostic.Fix] {
        diagnostics.compactMap { diagnostic in diagnostic.file.name == file.name ? diagnostic.fix : nil }
    }
}
