import AutoTestSupport
import Foundation
import Logging
import MCP
import Synchronization
import Testing

/// A transport over two pipes, a child process's standard output and input: each line is one message. Reading is a
/// thread of its own, so it never holds a thread of the tests' cooperative pool.
actor PipeTransport: Transport {
    nonisolated let logger = Logger(label: "tests.mcp.pipe")
    let reading: FileHandle
    let writing: FileHandle
    let messages: AsyncThrowingStream<Data, any Error>
    let continuation: AsyncThrowingStream<Data, any Error>.Continuation

    init(reading: FileHandle, writing: FileHandle) {
        self.reading = reading
        self.writing = writing
        (messages, continuation) = AsyncThrowingStream.makeStream()
    }

    func connect() async throws {
        let reading = self.reading, continuation = self.continuation
        Thread {
            var pending = Data()
            while true {
                let data = reading.availableData
                if data.isEmpty { break }
                pending.append(data)
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = pending[pending.startIndex..<newline]
                    if !line.isEmpty { continuation.yield(Data(line)) }
                    pending = Data(pending[(newline + 1)...])
                }
            }
            continuation.finish()
        }.start()
    }

    func disconnect() async {
        try? writing.close()
    }

    func send(_ data: Data) async throws {
        try writing.write(contentsOf: data + Data("\n".utf8))
    }

    func receive() -> AsyncThrowingStream<Data, any Error> { messages }
}

/// `library mcp` on a fresh library of its own, and the SDK's client talking to it over its standard input and output.
/// With `elicitation`, the client declares it can ask people, and `answer` plays the person.
final class McpLibrary: Sendable {
    typealias Answer = @Sendable (_ form: CreateElicitation.Parameters.FormParameters) async throws -> CreateElicitation.Result

    let process: Process
    let client: Client
    let folder: TemporaryFolder
    /// The questions the server asked, in order.
    let questions = Mutex<[String]>([])

    init(_ flags: [String] = [], elicitation: Bool = true, answer: Answer? = nil) async throws {
        folder = try TemporaryFolder("library-mcp")
        process = Process()
        process.executableURL = URL(fileURLWithPath: LibraryBinary.path)
        process.arguments = ["--db", folder("library.sqlite"), "mcp"] + flags
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        let log = folder.url.appendingPathComponent("stderr.txt")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
        client = Client(name: "library-tests", version: "1", capabilities: .init(elicitation: elicitation ? .init() : nil))
        if let answer {
            // Weakly: the client holds the handler, and this holds the client.
            await client.withMethodHandler(CreateElicitation.self) { [weak self] parameters in
                guard case .form(let form) = parameters else { return .init(action: .decline) }
                self?.questions.withLock { $0.append(form.message) }
                return try await answer(form)
            }
        }
        try await client.connect(transport: PipeTransport(reading: output.fileHandleForReading, writing: input.fileHandleForWriting))
    }

    deinit {
        // The server ends before its folder goes: one still writing its database or its log there would leave files
        // in the folder as it is removed.
        process.terminateAndWait()
    }

    /// Closes the server's input, which ends it.
    func stop() async {
        await client.disconnect()
    }

    func call(_ tool: String, _ arguments: [String: MCP.Value] = [:], meta: Metadata? = nil) async throws -> CallTool.Result {
        try await client.send(CallTool.request(.init(name: tool, arguments: arguments, meta: meta))).value
    }

    /// The books `find_books` gives for `arguments`, as JSON objects.
    func books(_ arguments: [String: MCP.Value]) async throws -> [[String: MCP.Value]] {
        let result = try await call("find_books", arguments)
        #expect(result.isError != true, "\(Self.text(result))")
        guard case .object(let content)? = result.structuredContent, case .array(let books)? = content["books"] else { return [] }
        return books.compactMap { if case .object(let book) = $0 { book } else { nil } }
    }

    /// The identifier of the book with this exact title.
    func bookID(titled title: String) async throws -> String {
        let found = try await books(["where": [["property": "title", "op": "==", "value": .string(title)]]])
        guard found.count == 1, case .string(let id)? = found[0]["id"] else { throw TestFailure("no single book titled \(title): \(found)") }
        return id
    }

    static func text(_ result: CallTool.Result) -> String {
        result.content.compactMap { if case .text(let text, _, _) = $0 { text } else { nil } }.joined(separator: "\n")
    }

    static let accept: Answer = { _ in .init(action: .accept, content: ["value": true]) }
    static let decline: Answer = { _ in .init(action: .decline) }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
