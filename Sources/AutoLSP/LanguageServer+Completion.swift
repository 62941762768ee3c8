import AutoIntents
import AutoLanguage
import Foundation

// Completion and signature help: what the REPL offers, with the protocol's kinds, and an intent's labels as snippets
// and as a signature while its arguments are typed.
extension LanguageServer {
    /// The offers at a position of an open document, each replacing what completion says it replaces. An intent's name,
    /// for a client that fills in snippets, comes with its input and required labels to fill in.
    func completions(in uri: String, at position: LSPPosition) -> CompletionList {
        guard let source = source(of: uri) else { return CompletionList(items: []) }
        let cursor = encoding.offset(of: position, in: source)
        let result = services.complete(source, at: cursor)
        let range = encoding.range(of: Span(result.range.lowerBound, cursor), in: source)
        let registry = snippets ? services.registry(of: source) : nil
        return CompletionList(items: result.candidates.enumerated().map { index, candidate in
            let snippet = candidate.kind == .intent ? registry?.intent(named: candidate.text).flatMap(Self.snippet(for:)) : nil
            return CompletionItem(label: candidate.text, kind: Self.kind(of: candidate.kind), detail: candidate.detail.isEmpty ? nil : candidate.detail,
                                  textEdit: .init(range: range, newText: snippet ?? candidate.text), sortText: String(format: "%05d", index),
                                  insertTextFormat: snippet == nil ? nil : 2)
        })
    }

    /// `add book ${1:title} shelf: ${2:Shelf}`: the name, a place for its input when it needs one, and each other
    /// required parameter's label with a place for its value. Nil for an intent that needs none: its name is enough.
    static func snippet(for intent: IntentDescriptor) -> String? {
        var parts = [escapedForSnippet(intent.name)]
        var stop = 0
        for (position, parameter) in intent.parameters.enumerated() where parameter.isRequired && parameter.defaultValue == nil {
            stop += 1
            let place = "${\(stop):\(escapedForSnippet(parameter.name))}"
            parts.append(position == 0 ? place : "\(parameter.name): \(place)")
        }
        return stop == 0 ? nil : parts.joined(separator: " ")
    }

    /// A snippet's `$`, `}` and `\` are its own: written as text, they are escaped.
    static func escapedForSnippet(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "$", with: "\\$").replacingOccurrences(of: "}", with: "\\}")
    }

    /// While an intent's arguments are typed: its parameters, the one being given marked; nil (null) outside a call.
    func signature(in uri: String, at position: LSPPosition) -> SignatureHelp? {
        guard let source = source(of: uri) else { return nil }
        let registry = services.registry(of: source)
        guard let (intent, active) = Completer(registry: registry).call(at: encoding.offset(of: position, in: source), in: source.text) else { return nil }
        // `add book title: Text shelf: Shelf = wantToRead`, each parameter's place counted as positions are.
        var label = intent.name
        var parameters: [SignatureHelp.Parameter] = []
        func length(_ text: String) -> Int { encoding == .utf8 ? text.utf8.count : text.utf16.count }
        for (position, parameter) in intent.parameters.enumerated() {
            label += " "
            let start = length(label)
            label += "\(parameter.name): " + Completer.describe(parameter)
            let role = position == 0 ? "the input, written without its label" : parameter.isRequired ? "required" : "optional"
            parameters.append(.init(label: [start, length(label)], documentation: role))
        }
        let signature = SignatureHelp.Signature(label: label, documentation: Completer.summary(intent), parameters: parameters)
        return SignatureHelp(signatures: [signature], activeSignature: 0, activeParameter: active)
    }

    /// The protocol's CompletionItemKind for an offer.
    static func kind(of kind: Completion.Kind) -> Int {
        switch kind {
        case .intent, .function: 3
        case .label: 5
        case .variable: 6
        case .property: 10
        case .value: 12
        case .keyword, .command: 14
        case .enumCase: 20
        }
    }
}
