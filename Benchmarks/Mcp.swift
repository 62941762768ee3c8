import Foundation

// The MCP server's figure (issue 29): how long `auto mcp` takes from the first byte of a large request on its standard
// input to the last byte of the answer on its standard output, through pipes as an assistant's client talks to it.
// The request calls the prelude's `repeat text` with a text of the size and a count of 0, so the answer is small and the
// figure is the request's: reading and framing it, checking it (JSONRPCCheck) and decoding it (McpRequest).

/// `auto mcp` with pipes on its standard input and output, initialized.
final class McpSession {
    let command: PipedCommand
    var input: FileHandle { command.input }
    var output: FileHandle { command.output }
    private var pending = Data()

    init(auto: String) throws {
        command = try PipedCommand(auto, ["mcp"])
        try send(Data(#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"auto-bench","version":"1"}}}"#.utf8))
        _ = try line()
        try send(Data(#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.utf8))
    }

    deinit {
        command.close()
    }

    func send(_ message: Data) throws {
        try input.write(contentsOf: message + Data("\n".utf8))
    }

    /// The next line the server writes.
    func line() throws -> Data {
        var searched = 0
        while true {
            if let newline = pending[(pending.startIndex + searched)...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = pending[..<newline]
                pending = Data(pending[(newline + 1)...])
                return Data(line)
            }
            searched = pending.count
            let data = output.availableData
            guard !data.isEmpty else { throw BenchFailure("auto mcp ended without answering") }
            pending.append(data)
        }
    }

    /// Milliseconds from writing `request` (on a thread of its own: the pipe fills until the server reads) to reading
    /// the whole answer, which must have the request's id and be no error.
    func time(_ request: Data, id: Int) throws -> Double {
        let start = ContinuousClock.now
        let input = self.input
        let written = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            try? input.write(contentsOf: request + Data("\n".utf8))
            written.signal()
        }
        let answer = try line()
        let elapsed = milliseconds(ContinuousClock.now - start)
        written.wait()
        guard String(decoding: answer.prefix(200), as: UTF8.self).contains("\"id\":\(id)"),
              !String(decoding: answer.prefix(200), as: UTF8.self).contains("\"error\"") else {
            throw BenchFailure("unexpected answer: \(String(decoding: answer.prefix(300), as: UTF8.self))")
        }
        return elapsed
    }
}

@Sendable func mcpWorkload(_ options: Options, _ anchors: Anchors, _ notes: Notes) async throws -> [ResultRow] {
    let auto = autoBinary
    guard FileManager.default.isExecutableFile(atPath: auto) else {
        return [ResultRow(workload: "MCP request of 20 MB", engine: .notInstalled("auto: build it with swift build -c release --product auto"),
                          anchors: [], goal: .atMost(1000, "≤ 1 s"))]
    }
    // 1.6 and 6.4 MB: the sizes the SDK's transport took 2.3 s and 35 s for; 20 MB, more than 5 minutes.
    let sizes = options.quick ? [1_000_000] : [1_600_000, 6_400_000, 20_000_000]
    let session = try McpSession(auto: auto)
    var rows: [ResultRow] = []
    var id = 1
    for size in sizes {
        let text = String(repeating: "a", count: size)
        let request = { (id: Int) in Data(#"{"jsonrpc":"2.0","id":\#(id),"method":"tools/call","params":{"name":"repeat_text","arguments":{"text":"\#(text)","count":0}}}"#.utf8) }
        var samples: [Double] = []
        for _ in 0..<max(1, options.slowRepetitions) {
            samples.append(try session.time(request(id), id: id))
            id += 1
        }
        let megabytes = String(format: "%g", Double(size) / 1_000_000)
        rows.append(ResultRow(workload: "MCP request of \(megabytes) MB", engine: .milliseconds(median(samples)), anchors: [],
                              goal: size == 20_000_000 ? .atMost(1000, "≤ 1 s") : .none, scaled: options.quick))
    }
    notes.add("mcp: one `auto mcp`, initialized, then tools/call of repeat_text (count 0) with a text of the size through its standard "
        + "input, from the first byte written to the last byte of the answer read; median of \(max(1, options.slowRepetitions)).")
    return rows
}
