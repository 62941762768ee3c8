import AutoLanguage
import Foundation

/// `auto lsp`: the Language Server Protocol over standard input and output, for editors. Each open document is checked
/// as `auto check` checks a script, with the host's intents and prelude, after each change, and its diagnostics are
/// published with the same messages, places and hints.
///
/// One message at a time, in order: checking a 1,000-line script takes milliseconds, and an editor sends the next
/// change only as the person types.
package final class LanguageServer {
    /// The problems of a script: `auto check`'s (errors, or the warnings of one that compiles).
    package typealias Check = (SourceFile) -> [Diagnostic]
    /// What completion offers at a byte offset of a script: the REPL's completion, with the host's values.
    package typealias Complete = (SourceFile, Int) -> CompletionResult
    /// What a hover at a byte offset shows, and the span it is about: an intent's description.
    package typealias Describe = (SourceFile, Int) -> (text: String, span: Span)?

    let name: String
    let version: String
    let check: Check
    let complete: Complete
    let describe: Describe
    let send: (Data) -> Void
    let log: (String) -> Void
    var encoding = PositionEncoding.utf16
    var state = State.starting
    /// The open documents' text and version, by URI.
    var documents: [String: (text: String, version: Int?)] = [:]

    enum State {
        case starting, running, shutDown
    }

    /// `send` writes one framed message; `log` a line for the person who started the server (standard error).
    package init(name: String, version: String, check: @escaping Check, complete: @escaping Complete, describe: @escaping Describe,
                 send: @escaping (Data) -> Void, log: @escaping (String) -> Void = { _ in }) {
        self.name = name
        self.version = version
        self.check = check
        self.complete = complete
        self.describe = describe
        self.send = send
        self.log = log
    }

    /// Serves standard input and output until `exit` or the end of the input; the process's exit status: 0 after
    /// `shutdown` then `exit`, 1 otherwise, as the protocol says.
    package static func serve(name: String, version: String, check: @escaping Check, complete: @escaping Complete,
                              describe: @escaping Describe) -> Int32 {
        let server = LanguageServer(name: name, version: version, check: check, complete: complete, describe: describe, send: { writeAll(MessageWriter.frame($0), to: 1) },
                                    log: { writeAll(Data(($0 + "\n").utf8), to: 2) })
        var reader = MessageReader()
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(0, &chunk, chunk.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return server.state == .shutDown ? 0 : 1 }
            do {
                for message in try reader.feed(chunk[0..<count]) {
                    if let status = server.handle(message) { return status }
                }
            } catch {
                server.log("auto lsp: \(error)")
                return 1
            }
        }
    }

    /// Handles one message; the exit status once it was `exit`.
    package func handle(_ message: Data) -> Int32? {
        guard let envelope = try? JSONDecoder().decode(Envelope.self, from: message) else {
            reply(error: ErrorResponse.parseError, "not a JSON-RPC message", to: nil)
            return nil
        }
        guard let method = envelope.method else { return nil }
        let id = envelope.id
        switch (state, method) {
        case (_, "exit"):
            return state == .shutDown ? 0 : 1
        case (.starting, "initialize"):
            let params = decode(InitializeParams.self, from: message, id: id)
            // UTF-8 when the client can count so: the source's spans are UTF-8 already.
            if params?.capabilities?.general?.positionEncodings?.contains(PositionEncoding.utf8.rawValue) == true { encoding = .utf8 }
            state = .running
            reply(InitializeResult(capabilities: .init(positionEncoding: encoding.rawValue), serverInfo: .init(name: name, version: version)), to: id)
        case (.starting, _):
            if id != nil { reply(error: ErrorResponse.serverNotInitialized, "the server has not been initialized", to: id) }
        case (_, "shutdown"):
            state = .shutDown
            reply(Optional<Int>.none, to: id)
        case (.shutDown, _):
            if id != nil { reply(error: ErrorResponse.invalidRequest, "the server is shutting down", to: id) }
        case (_, "textDocument/didOpen"):
            guard let params = decode(DidOpenParams.self, from: message, id: id) else { return nil }
            documents[params.textDocument.uri] = (params.textDocument.text, params.textDocument.version)
            publish(params.textDocument.uri)
        case (_, "textDocument/didChange"):
            guard let params = decode(DidChangeParams.self, from: message, id: id),
                  var document = documents[params.textDocument.uri] else { return nil }
            for change in params.contentChanges { document.text = Self.apply(change, to: document.text, encoding: encoding) }
            document.version = params.textDocument.version
            documents[params.textDocument.uri] = document
            publish(params.textDocument.uri)
        case (_, "textDocument/didClose"):
            guard let params = decode(DocumentParams.self, from: message, id: id) else { return nil }
            documents[params.textDocument.uri] = nil
            // A closed document's problems leave the editor's list.
            send(Notification(method: "textDocument/publishDiagnostics", params: PublishDiagnosticsParams(uri: params.textDocument.uri, version: nil, diagnostics: [])))
        case (_, "textDocument/completion"):
            guard let params = decode(TextDocumentPositionParams.self, from: message, id: id) else { return nil }
            reply(completions(in: params.textDocument.uri, at: params.position), to: id)
        case (_, "textDocument/hover"):
            guard let params = decode(TextDocumentPositionParams.self, from: message, id: id) else { return nil }
            reply(hover(in: params.textDocument.uri, at: params.position), to: id)
        case (_, "textDocument/definition"):
            guard let params = decode(TextDocumentPositionParams.self, from: message, id: id) else { return nil }
            reply(definition(in: params.textDocument.uri, at: params.position), to: id)
        case (_, "textDocument/documentSymbol"):
            guard let params = decode(DocumentParams.self, from: message, id: id) else { return nil }
            reply(symbols(in: params.textDocument.uri), to: id)
        case (_, "initialize"):
            reply(error: ErrorResponse.invalidRequest, "the server is initialized already", to: id)
        default:
            // A notification not handled is ignored, as the protocol says; a request gets its error.
            if id != nil { reply(error: ErrorResponse.methodNotFound, "\(method) is not handled", to: id) }
        }
        return nil
    }

    /// An open document as the checker reads it: named by its path, as `auto check` names a script.
    func source(of uri: String) -> SourceFile? {
        documents[uri].map { SourceFile(name: Self.path(of: uri), text: $0.text) }
    }

    /// The document's text after a change: a range replaced, or the whole text.
    static func apply(_ change: DidChangeParams.Change, to text: String, encoding: PositionEncoding) -> String {
        guard let range = change.range else { return change.text }
        let file = SourceFile(name: "", text: text)
        let start = encoding.offset(of: range.start, in: file)
        let end = max(start, encoding.offset(of: range.end, in: file))
        var bytes = file.bytes
        bytes.replaceSubrange(start..<end, with: Array(change.text.utf8))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Checks the document and publishes its problems: those in its own text (one in the prelude is the host's).
    func publish(_ uri: String) {
        guard let document = documents[uri], let source = source(of: uri) else { return }
        let diagnostics = check(source).filter { $0.file.name == source.name }.map { diagnostic in
            let hints = diagnostic.hint.map { [$0] } ?? []
            return LSPDiagnostic(range: encoding.range(of: diagnostic.span, in: diagnostic.file), severity: diagnostic.severity == .error ? 1 : 2,
                                 message: diagnostic.message + hints.map { "\nhint: \($0)" }.joined(),
                                 data: .init(message: diagnostic.message, hints: hints))
        }
        send(Notification(method: "textDocument/publishDiagnostics", params: PublishDiagnosticsParams(uri: uri, version: document.version, diagnostics: diagnostics)))
    }

    /// The offers at a position of an open document, each replacing what completion says it replaces.
    func completions(in uri: String, at position: LSPPosition) -> CompletionList {
        guard let source = source(of: uri) else { return CompletionList(items: []) }
        let cursor = encoding.offset(of: position, in: source)
        let result = complete(source, cursor)
        let range = encoding.range(of: Span(result.range.lowerBound, cursor), in: source)
        return CompletionList(items: result.candidates.enumerated().map { index, candidate in
            CompletionItem(label: candidate.text, kind: Self.kind(of: candidate.kind), detail: candidate.detail.isEmpty ? nil : candidate.detail,
                           textEdit: .init(range: range, newText: candidate.text), sortText: String(format: "%05d", index))
        })
    }

    /// What the position is about, described; nil (the protocol's null) where there is nothing to say.
    func hover(in uri: String, at position: LSPPosition) -> Hover? {
        guard let source = source(of: uri) else { return nil }
        guard let (text, span) = describe(source, encoding.offset(of: position, in: source)) else { return nil }
        return Hover(contents: .init(value: text), range: encoding.range(of: span, in: source))
    }

    /// Where the name at the position is declared in the document; nil (null) for a name declared elsewhere or nowhere.
    func definition(in uri: String, at position: LSPPosition) -> Location? {
        guard let source = source(of: uri) else { return nil }
        guard let span = Definitions.declaration(at: encoding.offset(of: position, in: source), in: source) else { return nil }
        return Location(uri: uri, range: encoding.range(of: span, in: source))
    }

    /// The document's outline: its shortcuts, automations and the variables its top level sets.
    func symbols(in uri: String) -> [DocumentSymbol] {
        guard let source = source(of: uri) else { return [] }
        return DocumentOutline.symbols(of: source).map { symbol in
            DocumentSymbol(name: symbol.name, detail: symbol.detail, kind: symbol.kind.rawValue, range: encoding.range(of: symbol.span, in: source),
                           selectionRange: encoding.range(of: symbol.nameSpan, in: source))
        }
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

    /// A `file:` URI's path, which messages name the script by, as `auto check` names it by the path it was given.
    static func path(of uri: String) -> String {
        guard let url = URL(string: uri), url.isFileURL else { return uri }
        return url.path
    }

    func decode<P: Decodable>(_ type: P.Type, from message: Data, id: RequestID?) -> P? {
        do {
            return try JSONDecoder().decode(Parameters<P>.self, from: message).params
        } catch {
            if id != nil { reply(error: ErrorResponse.invalidParams, "the parameters can't be read: \(error)", to: id) } else { log("auto lsp: a notification's parameters can't be read: \(error)") }
            return nil
        }
    }

    func reply<R: Encodable>(_ result: R, to id: RequestID?) {
        send(Response(id: id, result: result))
    }

    func reply(error code: Int, _ message: String, to id: RequestID?) {
        send(ErrorResponse(id: id, error: .init(code: code, message: message)))
    }

    func send<M: Encodable>(_ message: M) {
        // Encoding these types can't fail: they hold strings and numbers.
        guard let data = try? JSONEncoder().encode(message) else { return }
        send(data)
    }

    static func writeAll(_ data: Data, to descriptor: Int32) {
        data.withUnsafeBytes { buffer in
            var written = 0
            while written < buffer.count {
                let count = write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return }
                written += count
            }
        }
    }
}
