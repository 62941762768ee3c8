import AutoLanguage

// Quick fixes: a problem whose hint names one replacement (a misspelt intent or variable, `x = 5` for `set x = 5`, a
// name from an earlier version of the host) comes with the edit that makes it.
extension LanguageServer {
    /// The fixes of the document's problems in `range`.
    func codeActions(in uri: String, for range: LSPRange) -> [CodeAction] {
        guard let source = source(of: uri) else { return [] }
        let start = encoding.offset(of: range.start, in: source), end = encoding.offset(of: range.end, in: source)
        return problems(of: source).compactMap { diagnostic in
            guard let fix = diagnostic.fix, diagnostic.span.start <= end, start <= diagnostic.span.end else { return nil }
            let title = fix.span.start == fix.span.end ? "Insert '\(fix.replacement)'" : "Change '\(source.text(of: fix.span))' to '\(fix.replacement)'"
            let edit = TextEdit(range: encoding.range(of: fix.span, in: source), newText: fix.replacement)
            return CodeAction(title: title, diagnostics: [lspDiagnostic(diagnostic)], edit: WorkspaceEdit(changes: [uri: [edit]]))
        }
    }
}
