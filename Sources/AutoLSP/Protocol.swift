import Foundation

// The messages of the Language Server Protocol (3.17) this server reads and writes, as Codable types: the names and
// shapes are the protocol's.

/// A place in a document: a line (from 0) and a character in it, counted as `PositionEncoding` says.
package struct LSPPosition: Codable, Sendable, Equatable {
    package let line: Int
    package let character: Int
    package init(line: Int, character: Int) {
        self.line = line
        self.character = character
    }
}

package struct LSPRange: Codable, Sendable, Equatable {
    package let start: LSPPosition
    package let end: LSPPosition
    package init(start: LSPPosition, end: LSPPosition) {
        self.start = start
        self.end = end
    }
}

/// A request's id: the protocol allows a number or a string.
enum RequestID: Codable, Sendable, Equatable {
    case number(Int)
    case text(String)

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int.self) { self = .number(number) } else { self = .text(try container.decode(String.self)) }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .number(let number): try container.encode(number)
        case .text(let text): try container.encode(text)
        }
    }
}

/// What every message has: a request has an id and a method, a notification a method, a response an id.
struct Envelope: Decodable {
    let id: RequestID?
    let method: String?
}

/// A message's parameters, read once its method is known.
struct Parameters<P: Decodable>: Decodable {
    let params: P
}

struct Response<R: Encodable>: Encodable {
    let jsonrpc = "2.0"
    let id: RequestID?
    let result: R
}

struct ErrorResponse: Encodable {
    struct Failure: Encodable {
        let code: Int
        let message: String
    }
    let jsonrpc = "2.0"
    let id: RequestID?
    let error: Failure

    static let parseError = -32700, invalidRequest = -32600, methodNotFound = -32601, invalidParams = -32602
    static let serverNotInitialized = -32002, requestFailed = -32803
}

struct Notification<P: Encodable>: Encodable {
    let jsonrpc = "2.0"
    let method: String
    let params: P
}

struct InitializeParams: Decodable {
    struct Capabilities: Decodable {
        struct General: Decodable {
            let positionEncodings: [String]?
        }
        struct TextDocument: Decodable {
            struct Completion: Decodable {
                struct Item: Decodable {
                    let snippetSupport: Bool?
                }
                let completionItem: Item?
            }
            let completion: Completion?
        }
        let general: General?
        let textDocument: TextDocument?
    }
    let capabilities: Capabilities?
}

struct InitializeResult: Encodable {
    struct Capabilities: Encodable {
        struct Sync: Encodable {
            let openClose = true
            /// 2: incremental, ranges of the document replaced.
            let change = 2
        }
        struct CompletionOptions: Encodable {
            /// After a space (`find books where `), a dot (`book.`) and a quote (`open book "`).
            let triggerCharacters = [" ", ".", "\""]
        }
        struct RenameOptions: Encodable {
            let prepareProvider = true
        }
        struct SignatureHelpOptions: Encodable {
            /// After an intent's name and a space, and after a label's colon.
            let triggerCharacters = [" ", ":"]
        }
        struct SemanticTokensOptions: Encodable {
            struct Legend: Encodable {
                let tokenTypes = SemanticTokens.Kind.allCases.map(\.name)
                let tokenModifiers = SemanticTokens.modifiers
            }
            let legend = Legend()
            let full = true
        }
        struct CodeActionOptions: Encodable {
            let codeActionKinds = ["quickfix"]
        }
        let positionEncoding: String
        let textDocumentSync = Sync()
        let completionProvider = CompletionOptions()
        let hoverProvider = true
        let documentSymbolProvider = true
        let definitionProvider = true
        let referencesProvider = true
        let renameProvider = RenameOptions()
        let signatureHelpProvider = SignatureHelpOptions()
        let semanticTokensProvider = SemanticTokensOptions()
        let codeActionProvider = CodeActionOptions()
        let documentFormattingProvider = true
    }
    struct ServerInfo: Encodable {
        let name: String
        let version: String
    }
    let capabilities: Capabilities
    let serverInfo: ServerInfo
}

struct TextDocumentItem: Decodable {
    let uri: String
    let version: Int?
    let text: String
}

struct DidOpenParams: Decodable {
    let textDocument: TextDocumentItem
}

struct VersionedDocument: Decodable {
    let uri: String
    let version: Int?
}

struct DidChangeParams: Decodable {
    struct Change: Decodable {
        /// Absent: the whole document.
        let range: LSPRange?
        let text: String
    }
    let textDocument: VersionedDocument
    let contentChanges: [Change]
}

struct DocumentIdentifier: Decodable {
    let uri: String
}

/// The parameters of a notification or request about a whole document (`didClose`, `documentSymbol`).
struct DocumentParams: Decodable {
    let textDocument: DocumentIdentifier
}

struct PublishDiagnosticsParams: Encodable {
    let uri: String
    let version: Int?
    let diagnostics: [LSPDiagnostic]
}

/// A problem as the protocol shows it. `message` is the checker's message, with its hint on a line of its own (editors
/// show the message, and the hint is half of what helps); `data` keeps them apart for a client that reads them.
struct LSPDiagnostic: Encodable {
    struct Details: Encodable {
        let message: String
        let hints: [String]
    }
    let range: LSPRange
    /// 1 error, 2 warning.
    let severity: Int
    let source = "auto"
    let message: String
    let data: Details
}

struct TextDocumentPositionParams: Decodable {
    let textDocument: DocumentIdentifier
    let position: LSPPosition
}

struct CompletionList: Encodable {
    let isIncomplete = false
    let items: [CompletionItem]
}

struct CompletionItem: Encodable {
    let label: String
    /// The protocol's CompletionItemKind.
    let kind: Int
    let detail: String?
    let textEdit: TextEdit
    /// The offers in the order completion gives them, which is the order that helps (the host's values first).
    let sortText: String
    /// 2 when `textEdit` is a snippet (`${1:title}`); absent for plain text.
    let insertTextFormat: Int?
}

struct Hover: Encodable {
    struct Contents: Encodable {
        let kind = "plaintext"
        let value: String
    }
    let contents: Contents
    let range: LSPRange
}

struct DocumentSymbol: Encodable {
    let name: String
    let detail: String?
    /// The protocol's SymbolKind: 12 function (a shortcut), 24 event (an automation), 13 variable.
    let kind: Int
    let range: LSPRange
    let selectionRange: LSPRange
}

struct Location: Encodable {
    let uri: String
    let range: LSPRange
}

struct TextEdit: Encodable {
    let range: LSPRange
    let newText: String
}

/// Edits by document URI.
struct WorkspaceEdit: Encodable {
    let changes: [String: [TextEdit]]
}

struct ReferenceParams: Decodable {
    struct Context: Decodable {
        let includeDeclaration: Bool
    }
    let textDocument: DocumentIdentifier
    let position: LSPPosition
    let context: Context
}

struct RenameParams: Decodable {
    let textDocument: DocumentIdentifier
    let position: LSPPosition
    let newName: String
}

struct PrepareRenameResult: Encodable {
    let range: LSPRange
    let placeholder: String
}

struct SignatureHelp: Encodable {
    struct Parameter: Encodable {
        /// Where the parameter is in the signature's label: start and end, counted as positions are.
        let label: [Int]
        let documentation: String
    }
    struct Signature: Encodable {
        let label: String
        let documentation: String
        let parameters: [Parameter]
    }
    let signatures: [Signature]
    let activeSignature: Int
    /// Absent when no parameter is being given.
    let activeParameter: Int?
}

struct CodeActionParams: Decodable {
    let textDocument: DocumentIdentifier
    let range: LSPRange
}

struct CodeAction: Encodable {
    let title: String
    let kind = "quickfix"
    let diagnostics: [LSPDiagnostic]
    let edit: WorkspaceEdit
    let isPreferred = true
}
