import AutoLanguage
import Foundation

/// What a document declares at its top level, for an editor's outline: its shortcuts, its automations, and the
/// variables it sets (`set x = …`, `… -> x`), each where it is first set. Read from the parse alone, so a document
/// with errors still has its outline.
enum DocumentOutline {
    struct Symbol: Equatable {
        /// The protocol's SymbolKind.
        enum Kind: Int {
            case function = 12, variable = 13, event = 24
        }
        let name: String
        let detail: String?
        let kind: Kind
        /// The whole declaration, and its name.
        let span: Span
        let nameSpan: Span
    }

    static func symbols(of file: SourceFile) -> [Symbol] {
        let (tree, _) = Parser.parse(file, skippingShortcutBodies: true)
        var symbols: [Symbol] = []
        var variables: Set<String> = []
        func variable(_ name: Identifier, in statement: Statement) {
            guard variables.insert(name.name).inserted else { return }
            symbols.append(Symbol(name: name.name, detail: nil, kind: .variable, span: statement.span, nameSpan: name.span))
        }
        for statement in tree.statements {
            switch statement.kind {
            case .shortcut(let declaration):
                symbols.append(Symbol(name: declaration.name, detail: "shortcut", kind: .function, span: statement.span, nameSpan: declaration.nameSpan))
            case .automation(let declaration):
                // Its trigger and options, as written between its name and its body.
                let trigger = file.text(of: Span(declaration.nameSpan.end, declaration.body.span.start)).trimmingCharacters(in: .whitespacesAndNewlines)
                symbols.append(Symbol(name: declaration.name, detail: trigger, kind: .event, span: statement.span, nameSpan: declaration.nameSpan))
            case .set(let name, _):
                variable(name, in: statement)
            default:
                break
            }
            if let result = statement.resultName { variable(result, in: statement) }
        }
        return symbols
    }
}
