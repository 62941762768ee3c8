import Foundation

// The language server's figures (issue 34): from a change sent to `auto lsp` to its diagnostics read, on a 1,000-line
// script; and the time of a completion request on the same script, its p99. Through pipes, as an editor talks to it.

/// `auto lsp` with pipes on its standard input and output, initialized.
final class LspSession {
    let command: PipedCommand
    var input: FileHandle { command.input }
    var output: FileHandle { command.output }
    private var pending = Data()

    init(auto: String) throws {
        command = try PipedCommand(auto, ["lsp"])
        try send(#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"capabilities":{}}}"#)
        _ = try response(0)
        try send(#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#)
    }

    deinit {
        try? send(#"{"jsonrpc":"2.0","id":999999,"method":"shutdown"}"#)
        try? send(#"{"jsonrpc":"2.0","method":"exit"}"#)
        command.close()
    }

    func send(_ body: String) throws {
        let data = Data(body.utf8)
        try input.write(contentsOf: Data("Content-Length: \(data.count)\r\n\r\n".utf8) + data)
    }

    /// The response to request `id` (its keys come in any order).
    func response(_ id: Int) throws -> String {
        while true {
            let body = try nextMessage()
            if body.contains("\"id\":\(id),") || body.hasSuffix("\"id\":\(id)}") { return body }
        }
    }

    /// The next message whose text contains `marker`; those before it are skipped.
    func message(containing marker: String) throws -> String {
        while true {
            let body = try nextMessage()
            if body.contains(marker) { return body }
        }
    }

    private func nextMessage() throws -> String {
        while true {
            if let end = pending.range(of: Data("\r\n\r\n".utf8)) {
                let header = String(decoding: pending[pending.startIndex..<end.lowerBound], as: UTF8.self)
                guard let length = header.split(separator: ":").last.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }) else {
                    throw BenchFailure("a header without a length: \(header)")
                }
                if pending.count - (end.upperBound - pending.startIndex) >= length {
                    let body = pending[end.upperBound..<end.upperBound + length]
                    pending = Data(pending[(end.upperBound + length)...])
                    return String(decoding: body, as: UTF8.self)
                }
            }
            let data = output.availableData
            guard !data.isEmpty else { throw BenchFailure("auto lsp ended") }
            pending.append(data)
        }
    }
}

@Sendable func lspWorkload(_ options: Options, _ anchors: Anchors, _ notes: Notes) async throws -> [ResultRow] {
    let auto = autoBinary
    guard FileManager.default.isExecutableFile(atPath: auto) else {
        return [ResultRow(workload: "LSP diagnostics after an edit, 1,000 lines", engine: .notInstalled("auto: build it with swift build -c release --product auto"),
                          anchors: [], goal: .atMost(50, "≤ 50 ms"))]
    }
    let lines = options.quick ? 100 : 1_000
    // Pairs of a variable set from the one before and shown: every line is checked against the ones before it.
    var script = "set v0 = 1\n"
    for index in 1..<(lines / 2) { script += "set v\(index) = v\(index - 1) + 1\nshow \"value \\(v\(index))\"\n" }
    let escaped = script.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "\n", with: "\\n")
    let session = try LspSession(auto: auto)
    let uri = "file:///tmp/bench.auto"
    try session.send(#"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"\#(uri)","languageId":"auto","version":1,"text":"\#(escaped)"}}}"#)
    _ = try session.message(containing: "publishDiagnostics")

    // An edit of the first line's value, back and forth: each is checked, and its diagnostics (none) published.
    var edits: [Double] = []
    for version in 2..<(options.quick ? 12 : 62) {
        let start = ContinuousClock.now
        try session.send(#"{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"\#(uri)","version":\#(version)},"contentChanges":[{"range":{"start":{"line":0,"character":9},"end":{"line":0,"character":10}},"text":"\#(version % 9 + 1)"}]}}"#)
        _ = try session.message(containing: "\"version\":\(version)")
        edits.append(milliseconds(ContinuousClock.now - start))
    }
    // Completion at the start of a new last line, as the person types `sh`.
    let last = lines - 1
    try session.send(#"{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"\#(uri)","version":1000},"contentChanges":[{"range":{"start":{"line":\#(last),"character":0},"end":{"line":\#(last),"character":0}},"text":"sh"}]}}"#)
    _ = try session.message(containing: "\"version\":1000")
    var completions: [Double] = []
    for id in 1...(options.quick ? 20 : 200) {
        let start = ContinuousClock.now
        try session.send(#"{"jsonrpc":"2.0","id":\#(id),"method":"textDocument/completion","params":{"textDocument":{"uri":"\#(uri)"},"position":{"line":\#(last),"character":2}}}"#)
        let answer = try session.response(id)
        guard answer.contains("\"label\":\"show\"") else { throw BenchFailure("no `show` offered: \(answer.prefix(300))") }
        completions.append(milliseconds(ContinuousClock.now - start))
    }
    notes.add("lsp: one `auto lsp` with a \(lines)-line script open (pairs of `set vN = vN-1 + 1` and `show`); an edit of one character "
        + "to its diagnostics published, median of \(edits.count); completion of `sh` on a new last line, p99 of \(completions.count) "
        + "(median \(formatMilliseconds(median(completions)))).")
    let large = try largeScriptFigures(auto: auto, lines: options.quick ? 10_000 : 100_000)
    notes.add("lsp memory: `auto lsp` with the compile benchmark's generated \(large.lines)-line script open; its diagnostics (none) "
        + "published, then its highlighting and a hover read (which index its names): the server's resident memory (VmRSS) and its "
        + "peak (VmHWM). Diagnostics \(formatMilliseconds(large.diagnostics)) from the open, \(formatMilliseconds(large.edit)) after an "
        + "edit; highlighting \(formatMilliseconds(large.tokens)).")
    return [
        ResultRow(workload: "LSP server memory, \(large.lines) lines", engine: .milliseconds(large.megabytes),
                  engineText: String(format: "%.0f MB (peak %.0f MB)", large.megabytes, large.peakMegabytes), anchors: [], goal: .none,
                  scaled: options.quick),
        ResultRow(workload: "LSP diagnostics after an edit, \(lines) lines", engine: .milliseconds(median(edits)), anchors: [],
                  goal: .atMost(50, "≤ 50 ms"), scaled: options.quick),
        ResultRow(workload: "LSP completion p99, \(lines) lines", engine: .milliseconds(percentile(completions, 99)), anchors: [],
                  goal: .atMost(10, "≤ 10 ms"), scaled: options.quick),
    ]
}

/// `auto lsp` with a large script open: the time to its first diagnostics, to those after an edit and to its highlighting,
/// and the server's memory then.
func largeScriptFigures(auto: String, lines: Int) throws -> (lines: Int, diagnostics: Double, edit: Double, tokens: Double, megabytes: Double,
                                                             peakMegabytes: Double) {
    // The compile benchmark's script calls a native intent of its own registry; `auto lsp` has it as a shortcut.
    let script = "shortcut \"add numbers\" (a: Int, b: Int) {\n  return a + b\n}\n" + generateScript(lines: lines - 3)
    let text = String(data: try JSONEncoder().encode(script), encoding: .utf8) ?? "\"\""
    let session = try LspSession(auto: auto)
    let uri = "file:///tmp/large.auto"
    var start = ContinuousClock.now
    try session.send(#"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"\#(uri)","languageId":"auto","version":1,"text":\#(text)}}}"#)
    let published = try session.message(containing: "publishDiagnostics")
    let diagnostics = milliseconds(ContinuousClock.now - start)
    guard published.contains(#""diagnostics":[]"#) else { throw BenchFailure("the generated script has problems: \(published.prefix(300))") }
    start = ContinuousClock.now
    try session.send(#"{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"\#(uri)","version":2},"contentChanges":[{"range":{"start":{"line":7,"character":12},"end":{"line":7,"character":13}},"text":"1"}]}}"#)
    _ = try session.message(containing: "\"version\":2")
    let edit = milliseconds(ContinuousClock.now - start)
    start = ContinuousClock.now
    try session.send(#"{"jsonrpc":"2.0","id":1,"method":"textDocument/semanticTokens/full","params":{"textDocument":{"uri":"\#(uri)"}}}"#)
    _ = try session.response(1)
    let tokens = milliseconds(ContinuousClock.now - start)
    try session.send(#"{"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{"textDocument":{"uri":"\#(uri)"},"position":{"line":8,"character":5}}}"#)
    _ = try session.response(2)
    let pid = session.command.process.processIdentifier
    let resident = (processStatusKilobytes(pid, "VmRSS") ?? .nan) / 1024, peak = (processStatusKilobytes(pid, "VmHWM") ?? .nan) / 1024
    return (lines, diagnostics, edit, tokens, resident, peak)
}
