@testable import AutoCLI
@testable import AutoLSP
import AutoLanguage
import AutoTestSupport
import Foundation
import Testing

/// 10,000 random incremental edits sent to the language server, as an editor sends them: ranges anywhere (past a
/// line's end, past the last line, around characters of two UTF-16 units, across line breaks), texts of code, brackets,
/// quotes, interpolations, line breaks and characters outside ASCII. After each, the server's text must be the client's,
/// every range it publishes must lie in the document, and it must never trap; every 25 edits, the requests an editor
/// makes as someone types (completion, hover, definition, references, signature help, highlighting, quick fixes) must
/// answer with ranges in the document too.
@Suite struct LanguageServerFuzzTests {
    /// The client's copy of the document, edited as the protocol says, in UTF-16 units.
    struct ClientDocument {
        var text: String

        var lines: [[UInt16]] {
            text.utf16.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
        }

        /// The UTF-16 offset of a position, clamped as the protocol says; one inside a pair of surrogates is the pair's start.
        func offset(line: Int, character: Int) -> Int {
            let lines = lines
            guard line < lines.count else { return text.utf16.count }
            var offset = lines[..<line].reduce(0) { $0 + $1.count + 1 }
            let column = min(character, lines[line].count)
            offset += column
            if column > 0, column < lines[line].count, (0xDC00...0xDFFF).contains(lines[line][column]) { offset -= 1 }
            return offset
        }

        mutating func replace(from start: (Int, Int), to end: (Int, Int), with new: String) {
            let units = Array(text.utf16)
            let a = offset(line: start.0, character: start.1)
            let b = max(a, offset(line: end.0, character: end.1))
            text = String(decoding: Array(units[..<a]) + Array(new.utf16) + Array(units[b...]), as: UTF16.self)
        }

        /// Whether a position lies in the document: a line of it, a character up to its end.
        func contains(_ position: [String: Any]) -> Bool {
            guard let line = position["line"] as? Int, let character = position["character"] as? Int else { return false }
            let lines = lines
            return line >= 0 && line < lines.count && character >= 0 && character <= lines[line].count
        }
    }

    static let pieces = ["set ", "x", " = ", "1", "\n", "\r\n", "{", "}", "(", ")", "[", "]", "\"", "\\(", "é", "😀", "日本",
                         "show ", "find books where ", "author", " == ", "sort by ", "limit ", "|", " -> ", ".", ":", "shortcut \"f\" (n: Int) ",
                         "automation \"a\" every day at 07:30 ", "return n", "for b in ", "# note", "add book ", "if ", " else ", "", "  ", "\t"]

    @Test func tenThousandRandomEditsKeepTheTextAndEveryRangeRight() throws {
        let seed = UInt64(ProcessInfo.processInfo.environment["LSP_FUZZ_SEED"] ?? "") ?? 20_261_127
        var random = SeededRandom(seed: seed)
        var sent: [[String: Any]] = []
        let server = LanguageServer(name: "fuzz", version: "0", services: HostDocumentServices(host: ScriptHost()), send: { data in
            if let message = try? JSONSerialization.jsonObject(with: data) as? [String: Any] { sent.append(message) }
        })
        func handle(_ message: [String: Any]) {
            var message = message
            message["jsonrpc"] = "2.0"
            // A trap here ends the test process: that is the failure this test looks for.
            _ = server.handle(try! JSONSerialization.data(withJSONObject: message))
        }
        handle(["id": 0, "method": "initialize", "params": ["capabilities": [:] as [String: Any]]])
        let uri = "file:///fuzz.auto"
        var document = ClientDocument(text: "set total = 0\nshortcut \"pages left\" (n: Int) {\n  return n - 1\n}\nshow pages left 3 -> left\nshow \"é \\(left)\"\n")
        handle(["method": "textDocument/didOpen", "params": ["textDocument": ["uri": uri, "languageId": "auto", "version": 1, "text": document.text]]])

        var wrong: [String] = []
        func checkRanges(in value: Any, _ what: String) {
            if let object = value as? [String: Any] {
                if let start = object["start"] as? [String: Any], let end = object["end"] as? [String: Any] {
                    if !document.contains(start) || !document.contains(end) { wrong.append("\(what): \(object) in \(document.text.debugDescription)") }
                }
                for (_, inner) in object { checkRanges(in: inner, what) }
            } else if let array = value as? [Any] {
                for inner in array { checkRanges(in: inner, what) }
            }
        }
        func randomPosition() -> (Int, Int) {
            let lines = document.lines
            // Mostly inside the document, sometimes past a line's end or past the last line.
            let line = random.chance(0.05) ? lines.count + random.next(3) : random.next(lines.count)
            let length = line < lines.count ? lines[line].count : 0
            return (line, random.chance(0.05) ? length + random.next(5) : random.next(length + 1))
        }

        for version in 2...10_001 {
            var start = randomPosition(), end = randomPosition()
            if (end.0, end.1) < (start.0, start.1) { swap(&start, &end) }
            if random.chance(0.5) { end = start }
            // Keep the document from growing without end: a long one loses a random stretch instead.
            let inserted = document.text.utf16.count > 3_000 ? "" : (0..<random.int(1...3)).map { _ in random.pick(Self.pieces) }.joined()
            document.replace(from: start, to: end, with: inserted)
            sent = []
            handle(["method": "textDocument/didChange", "params": [
                "textDocument": ["uri": uri, "version": version],
                "contentChanges": [["range": ["start": ["line": start.0, "character": start.1], "end": ["line": end.0, "character": end.1]], "text": inserted]],
            ] as [String: Any]])
            let serverText = server.documents[uri]?.text
            try #require(serverText == document.text, "seed \(seed), edit \(version): the server's text differs from the client's")
            for message in sent { checkRanges(in: message, "diagnostics after edit \(version)") }
            if version % 25 == 0 {
                let (line, character) = randomPosition()
                let position: [String: Any] = ["line": line, "character": character]
                let requests: [(String, [String: Any])] = [
                    ("textDocument/completion", ["position": position]), ("textDocument/hover", ["position": position]),
                    ("textDocument/definition", ["position": position]), ("textDocument/signatureHelp", ["position": position]),
                    ("textDocument/references", ["position": position, "context": ["includeDeclaration": true]]),
                    ("textDocument/semanticTokens/full", [:]), ("textDocument/documentSymbol", [:]),
                    ("textDocument/codeAction", ["range": ["start": position, "end": position]]),
                ]
                for (id, (method, params)) in requests.enumerated() {
                    sent = []
                    var withDocument = params
                    withDocument["textDocument"] = ["uri": uri]
                    handle(["id": id + 1, "method": method, "params": withDocument])
                    #expect(sent.count == 1 && sent[0]["error"] == nil, "seed \(seed), edit \(version): \(method) answered \(sent)")
                    for message in sent { checkRanges(in: message["result"] as Any, "\(method) after edit \(version)") }
                    if method == "textDocument/semanticTokens/full" { checkTokens(sent.first?["result"], document: document, &wrong) }
                }
            }
            try #require(wrong.isEmpty, "seed \(seed): \(wrong.prefix(3))")
        }
    }

    /// Each highlighted token within its line.
    func checkTokens(_ result: Any?, document: ClientDocument, _ wrong: inout [String]) {
        guard let data = (result as? [String: Any])?["data"] as? [Int] else {
            wrong.append("no semantic tokens")
            return
        }
        let lines = document.lines
        var line = 0, character = 0
        for index in stride(from: 0, to: data.count - 4, by: 5) {
            line += data[index]
            character = data[index] == 0 ? character + data[index + 1] : data[index + 1]
            if line >= lines.count || character + data[index + 2] > lines[line].count || data[index + 2] <= 0 {
                wrong.append("token \(data[index..<index + 5]) at \(line):\(character) in \(document.text.debugDescription)")
                return
            }
        }
    }
}
