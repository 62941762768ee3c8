import AutoLanguage
import CLinux
import Foundation

/// `auto lsp`: the Language Server Protocol over standard input and output, for editors. Each open document is checked
/// as `auto check` checks a script, with the host's intents and prelude, after each change, and its diagnostics are
/// published with the same messages, places and hints.
///
/// One message at a time, in order: checking a 1,000-line script takes milliseconds, and an editor sends the next
/// change only as the person types.
package final class LanguageServer {
    let name: String
    let version: String
    let services: any DocumentServices
    let send: (Data) -> Void
    let log: (String) -> Void
    var encoding = PositionEncoding.utf16
    /// Whether the client fills in snippets (`${1:title}`) in what completion inserts.
    var snippets = false
    var state = State.starting
    /// The open documents' text and version, by URI.
    var documents: [String: (text: String, version: Int?)] = [:]

    enum State {
        case starting, running, shutDown
    }

    /// `send` writes one framed message; `log` a line for the person who started the server (standard error).
    package init(name: String, version: String, services: any DocumentServices, send: @escaping (Data) -> Void,
                 log: @escaping (String) -> Void = { _ in }) {
        self.name = name
        self.version = version
        self.services = services
        self.send = send
        self.log = log
    }

    /// Serves standard input and output until `exit` or the end of the input; the process's exit status: 0 after
    /// `shutdown` then `exit`, 1 otherwise, as the protocol says.
    package static func serve(name: String, version: String, services: any DocumentServices) -> Int32 {
        let server = LanguageServer(name: name, version: version, services: services, send: { writeAll(MessageWriter.frame($0), to: 1) },
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
                Self.giveBackMemory()
            } catch {
                server.log("auto lsp: \(error)")
                return 1
            }
        }
    }

    /// Before waiting for the editor's next message: a long script's check frees hundreds of megabytes, which the heap
    /// keeps unless asked to give them back (a 100,000-line script's server held 270 MB, of which half was free). Only
    /// when there is much to give: trimming walks the heap, a cost each keystroke on a short script need not pay.
    static func giveBackMemory() {
        if mallinfo2().fordblks > 32 << 20 { _ = malloc_trim(0) }
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
            snippets = params?.capabilities?.textDocument?.completion?.completionItem?.snippetSupport == true
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
        case (_, "textDocument/references"):
            guard let params = decode(ReferenceParams.self, from: message, id: id) else { return nil }
            reply(references(in: params.textDocument.uri, at: params.position, includingDeclaration: params.context.includeDeclaration), to: id)
        case (_, "textDocument/prepareRename"):
            guard let params = decode(TextDocumentPositionParams.self, from: message, id: id) else { return nil }
            reply(renameRange(in: params.textDocument.uri, at: params.position), to: id)
        case (_, "textDocument/rename"):
            guard let params = decode(RenameParams.self, from: message, id: id) else { return nil }
            reply(rename(in: params.textDocument.uri, at: params.position, to: params.newName), to: id)
        case (_, "textDocument/documentSymbol"):
            guard let params = decode(DocumentParams.self, from: message, id: id) else { return nil }
            reply(symbols(in: params.textDocument.uri), to: id)
        case (_, "textDocument/signatureHelp"):
            guard let params = decode(TextDocumentPositionParams.self, from: message, id: id) else { return nil }
            reply(signature(in: params.textDocument.uri, at: params.position), to: id)
        case (_, "textDocument/semanticTokens/full"):
            guard let params = decode(DocumentParams.self, from: message, id: id) else { return nil }
            reply(json: semanticTokens(in: params.textDocument.uri), to: id)
        case (_, "textDocument/formatting"):
            guard let params = decode(DocumentParams.self, from: message, id: id) else { return nil }
            reply(formatting(uri: params.textDocument.uri), to: id)
        case (_, "textDocument/codeAction"):
            guard let params = decode(CodeActionParams.self, from: message, id: id) else { return nil }
            reply(codeActions(in: params.textDocument.uri, for: params.range), to: id)
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
        let diagnostics = problems(of: source).map(lspDiagnostic)
        send(Notification(method: "textDocument/publishDiagnostics", params: PublishDiagnosticsParams(uri: uri, version: document.version, diagnostics: diagnostics)))
    }

    /// The problems of the document's own text (one in the prelude is the host's).
    func problems(of source: SourceFile) -> [Diagnostic] {
        services.check(source).filter { $0.file.name == source.name }
    }

    func lspDiagnostic(_ diagnostic: Diagnostic) -> LSPDiagnostic {
        let hints = diagnostic.hint.map { [$0] } ?? []
        return LSPDiagnostic(range: encoding.range(of: diagnostic.span, in: diagnostic.file), severity: diagnostic.severity == .error ? 1 : 2,
                             message: diagnostic.message + hints.map { "\nhint: \($0)" }.joined(),
                             data: .init(message: diagnostic.message, hints: hints))
    }

    /// The document's tokens highlighted as the parser and checker read them, as the JSON of the result (`{"data":
    /// […]}`, or `null`): five numbers a token, millions for a long script, which JSONEncoder took seconds to write.
    func semanticTokens(in uri: String) -> [UInt8] {
        guard let source = source(of: uri) else { return Array("null".utf8) }
        let tokens = SemanticTokens.tokens(of: source, index: services.index(source), registry: services.registry(of: source))
        var json = Array(#"{"data":["#.utf8)
        for (position, number) in SemanticTokens.encode(tokens, in: source, encoding: encoding).enumerated() {
            if position > 0 { json.append(UInt8(ascii: ",")) }
            json += String(number).utf8
        }
        json += Array("]}".utf8)
        return json
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

    /// Why a request that can be refused (a rename, formatting) was: the error's message, which the editor shows.
    struct RequestRefusal: Error {
        let message: String
    }

    /// The result, or the refusal as the protocol's error.
    func reply<R: Encodable>(_ result: Result<R, RequestRefusal>, to id: RequestID?) {
        switch result {
        case .success(let value): reply(value, to: id)
        case .failure(let refusal): reply(error: ErrorResponse.requestFailed, refusal.message, to: id)
        }
    }

    /// A response whose result is JSON written already.
    func reply(json result: [UInt8], to id: RequestID?) {
        // The id is a number or a string, which encodes.
        let idJSON = (try? JSONEncoder().encode(id)) ?? Data("null".utf8)
        send(Data(#"{"jsonrpc":"2.0","id":"#.utf8) + idJSON + Data(#","result":"#.utf8) + Data(result) + Data("}".utf8))
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
