import AutoLanguage

// Edits the server proposes: quick fixes, where a problem's hint names one replacement (a misspelt intent or variable,
// `x = 5` for `set x = 5`, a name from an earlier version of the host), and `auto format`'s layout.
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

    /// The document laid out as `auto format` lays it out: one edit of the whole text, none when it is laid out so
    /// already; refused, with the first problem, for a script with syntax errors (as `auto format` refuses it).
    func formatting(uri: String) -> Result<[TextEdit], RequestRefusal> {
        guard let source = source(of: uri) else { return .failure(RequestRefusal(message: "the document is not open")) }
        switch Formatter.format(source) {
        case .success(let text):
            guard text != source.text else { return .success([]) }
            let whole = LSPRange(start: LSPPosition(line: 0, character: 0), end: encoding.position(of: source.bytes.count, in: source))
            return .success([TextEdit(range: whole, newText: text)])
        case .failure(let failure):
            let first = failure.diagnostics.first.map { ": line \($0.location.line): \($0.message)" } ?? ""
            return .failure(RequestRefusal(message: "the script can't be formatted until its syntax is right\(first)"))
        }
    }
}
