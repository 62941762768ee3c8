import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import Synchronization

/// A small HTTP/1.1 server on 127.0.0.1, on a port the system picks, for the web intents' tests: real sockets, real
/// HTTP, on an event loop of its own. It records every request it receives (before it answers), so that a test can
/// say what reached it — and what didn't — and wait for a request to arrive instead of sleeping.
///
/// Routes:
/// - `/json`, `/people.json` (a list of records), `/person.json` (one record), `/problem` (application/problem+json),
///   `/bad-json`, `/empty-json` (204, labelled JSON), `/text` (UTF-8), `/latin1` (ISO-8859-1);
/// - `/echo`: any method; answers JSON `{method, headers, body}` with what it received;
/// - `/status/CODE`: that status, with a short text;
/// - `/redirect/CODE?to=TARGET` (a path or a whole URL), `/loop/a` ⇄ `/loop/b`, `/chain/N` (N redirects, then JSON),
///   `/away` (to `localhost` on this port: another host name for the same server);
/// - `/slow`: never answers (until the server stops); `/slow-body`: a head and part of the body, then nothing; when the
///   client closes such a connection, its path is added to `abandoned`;
/// - `/large?bytes=N`: N bytes, chunked, written as fast as the client reads them, counted in `streamed`;
///   `/large-declared?bytes=N`: a Content-Length of N.
final class TestHTTPServer: Sendable {
    struct Request: Sendable {
        let method: String
        let uri: String
        let headers: [(String, String)]
        let body: String
        var path: String { String(uri.split(separator: "?", maxSplits: 1).first ?? "") }
    }

    /// How a `/large` stream ended: still going, every byte written, or stopped because the client went away.
    enum StreamEnd: Sendable, Equatable { case going, finished, stopped }

    let port: Int
    /// Whether it speaks HTTPS, with a self-signed certificate that no client trusts (`TestCertificate`).
    let tls: Bool
    let group: MultiThreadedEventLoopGroup
    let channel: any Channel
    let state: State

    final class State: Sendable {
        let received = Mutex<[Request]>([])
        let streamed = Atomic<Int>(0)
        let streamEnd = Mutex<StreamEnd>(.going)
        /// The paths of the requests left unanswered (`/slow`, `/slow-body`) whose connection the client closed.
        let abandoned = Mutex<[String]>([])
    }

    private init(port: Int, tls: Bool, group: MultiThreadedEventLoopGroup, channel: any Channel, state: State) {
        self.port = port
        self.tls = tls
        self.group = group
        self.channel = channel
        self.state = state
    }

    static func start(tls: Bool = false) async throws -> TestHTTPServer {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let state = State()
        do {
            let secure = try tls ? TestCertificate.context() : nil
            let channel = try await ServerBootstrap(group: group)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        if let secure { try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: secure)) }
                        try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                        try channel.pipeline.syncOperations.addHandler(Handler(state: state))
                    }
                }
                .bind(host: "127.0.0.1", port: 0).get()
            guard let port = channel.localAddress?.port else { throw ChannelError.unknownLocalAddress }
            return TestHTTPServer(port: port, tls: tls, group: group, channel: channel, state: state)
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
    }

    let stopped = Atomic<Bool>(false)

    /// Stops listening and closes every connection (a `/slow` request held open included); once.
    func stop() async {
        guard !stopped.exchange(true, ordering: .relaxed) else { return }
        try? await channel.close()
        try? await group.shutdownGracefully()
    }

    /// Runs `body` with a server started for it, and stops the server after, however `body` ends.
    static func with<T>(tls: Bool = false, _ body: (TestHTTPServer) async throws -> T) async throws -> T {
        let server = try await start(tls: tls)
        do {
            let result = try await body(server)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }

    var base: String { "\(tls ? "https" : "http")://127.0.0.1:\(port)" }
    var received: [Request] { state.received.withLock { $0 } }
    var paths: [String] { received.map(\.path) }
    var abandoned: [String] { state.abandoned.withLock { $0 } }

    /// Waits until `condition` holds, looking every 10 ms, for at most `deadline` (generous: the machine may be busy
    /// with other tests). Returns whether it came to hold.
    func wait(for deadline: Duration = .seconds(60), until condition: (TestHTTPServer) -> Bool) async -> Bool {
        let end = ContinuousClock.now + deadline
        while !condition(self) {
            if ContinuousClock.now >= end { return false }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return true
    }

    final class Handler: ChannelInboundHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        let state: State
        var head: HTTPRequestHead?
        var body = ByteBuffer()
        /// The path of a request this connection holds unanswered.
        var held: String?

        init(state: State) { self.state = state }

        func channelInactive(context: ChannelHandlerContext) {
            if let held { state.abandoned.withLock { $0.append(held) } }
            context.fireChannelInactive()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head):
                self.head = head
                body.clear()
            case .body(var chunk):
                body.writeBuffer(&chunk)
            case .end:
                guard let head else { return }
                let request = Request(method: head.method.rawValue, uri: head.uri, headers: head.headers.map { ($0.name, $0.value) },
                                      body: String(buffer: body))
                state.received.withLock { $0.append(request) }
                answer(request, keepAlive: head.isKeepAlive, context: context)
            }
        }

        func answer(_ request: Request, keepAlive: Bool, context: ChannelHandlerContext) {
            let query = Self.query(request.uri)
            let host = "127.0.0.1"
            let port = context.channel.localAddress?.port ?? 0
            switch request.path {
            case "/json": send(context, .ok, "application/json", #"{"name":"auto","id":7,"tags":["a","b"],"price":3.50}"#)
            case "/people.json":
                send(context, .ok, "application/json; charset=utf-8",
                     #"[{"name":"Ann","id":1,"email":"ann@example.org","address":{"city":"Oslo"}},{"name":"Bo","id":2,"email":"bo@example.org"}]"#)
            case "/person.json": send(context, .ok, "application/json", #"{"name":"Cy","id":3,"email":"cy@example.org","address":{"city":"Lima"}}"#)
            case "/problem": send(context, .badRequest, "application/problem+json", #"{"title":"bad","status":400}"#)
            case "/bad-json": send(context, .ok, "application/json", "{nope")
            case "/empty-json": send(context, .noContent, "application/json", "")
            case "/text": send(context, .ok, "text/plain; charset=utf-8", "hello, wörld")
            case "/latin1": send(context, .ok, "text/plain; charset=ISO-8859-1", bytes: [0x63, 0x61, 0x66, 0xE9])
            case "/echo":
                let headers = Dictionary(request.headers.map { ($0.0.lowercased(), $0.1) }, uniquingKeysWith: { a, b in a + ", " + b })
                let echoed = Echo(method: request.method, headers: headers, body: request.body)
                let data = (try? JSONEncoder().encode(echoed)) ?? Data()
                send(context, .ok, "application/json", bytes: Array(data))
            case let path where path.hasPrefix("/status/"):
                let code = Int(path.dropFirst("/status/".count)) ?? 500
                send(context, HTTPResponseStatus(statusCode: code), "text/plain", "status \(code)")
            case let path where path.hasPrefix("/redirect/"):
                redirect(context, code: Int(path.dropFirst("/redirect/".count)) ?? 302, to: query["to"] ?? "/json")
            case "/loop/a": redirect(context, code: 302, to: "/loop/b")
            case "/loop/b": redirect(context, code: 302, to: "/loop/a")
            case let path where path.hasPrefix("/chain/"):
                let left = Int(path.dropFirst("/chain/".count)) ?? 0
                if left > 0 { redirect(context, code: 302, to: "/chain/\(left - 1)") } else { send(context, .ok, "application/json", #"{"end":true}"#) }
            case "/away": redirect(context, code: 302, to: "http://localhost:\(port)/json")
            case "/slow": held = "/slow"  // unanswered until the client goes or the server stops
            case "/slow-body":
                held = "/slow-body"
                var headers = HTTPHeaders([("Content-Type", "text/plain"), ("Content-Length", "100")])
                headers.add(name: "X-Route", value: "slow-body")
                context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers))), promise: nil)
                context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: "0123456789")))), promise: nil)
            case "/large":
                let total = Int(query["bytes"] ?? "") ?? 5_000_000
                let headers = HTTPHeaders([("Content-Type", "application/octet-stream"), ("Transfer-Encoding", "chunked")])
                context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers))), promise: nil)
                Self.stream(left: total, channel: context.channel, state: state)
            case "/large-declared":
                let total = Int(query["bytes"] ?? "") ?? 5_000_000
                let headers = HTTPHeaders([("Content-Type", "text/plain"), ("Content-Length", "\(total)")])
                context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers))), promise: nil)
                context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(repeating: UInt8(ascii: "x"), count: total)))), promise: nil)
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            default: send(context, .notFound, "text/plain", "no route \(request.path) on \(host)")
            }
            _ = keepAlive
        }

        /// Writes the next 64 KB once the last were taken by the socket, so a client that stops reading stops the
        /// stream; a write that fails (the client closed the connection) ends it.
        static func stream(left: Int, channel: any Channel, state: State) {
            guard left > 0 else {
                channel.writeAndFlush(HTTPServerResponsePart.end(nil)).whenComplete { _ in state.streamEnd.withLock { $0 = .finished } }
                return
            }
            let count = min(65_536, left)
            channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(repeating: UInt8(ascii: "x"), count: count))))
                .whenComplete { result in
                    switch result {
                    case .success:
                        state.streamed.add(count, ordering: .relaxed)
                        stream(left: left - count, channel: channel, state: state)
                    case .failure:
                        state.streamEnd.withLock { $0 = .stopped }
                    }
                }
        }

        func send(_ context: ChannelHandlerContext, _ status: HTTPResponseStatus, _ type: String, _ text: String) {
            send(context, status, type, bytes: Array(text.utf8))
        }

        func send(_ context: ChannelHandlerContext, _ status: HTTPResponseStatus, _ type: String, bytes: [UInt8]) {
            var headers = HTTPHeaders([("Content-Type", type)])
            if status != .noContent { headers.add(name: "Content-Length", value: "\(bytes.count)") }
            headers.add(name: "X-Test", value: "one")
            headers.add(name: "X-Test", value: "two")
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
            if !bytes.isEmpty { context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: bytes)))), promise: nil) }
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }

        func redirect(_ context: ChannelHandlerContext, code: Int, to target: String) {
            let headers = HTTPHeaders([("Location", target), ("Content-Length", "0")])
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: code), headers: headers))),
                          promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }

        static func query(_ uri: String) -> [String: String] {
            guard let components = URLComponents(string: uri) else { return [:] }
            return Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { a, _ in a })
        }
    }

    struct Echo: Encodable {
        let method: String
        let headers: [String: String]
        let body: String
    }
}

/// A self-signed certificate for 127.0.0.1 and localhost, made for these tests (`openssl req -x509 -newkey ec …
/// -days 36500`): no authority signed it, so a client that checks certificates, as the web intents do, refuses it.
/// Its key guards nothing but this test server.
enum TestCertificate {
    static let certificate = """
        -----BEGIN CERTIFICATE-----
        MIIBqTCCAU+gAwIBAgIUX6ZMf5NNBw8Fdcs1OliyNCrL6K4wCgYIKoZIzj0EAwIw
        GzEZMBcGA1UEAwwQYXV0byB0ZXN0IHNlcnZlcjAgFw0yNjExMjQxMjI5MTdaGA8y
        MTI2MTAzMTEyMjkxN1owGzEZMBcGA1UEAwwQYXV0byB0ZXN0IHNlcnZlcjBZMBMG
        ByqGSM49AgEGCCqGSM49AwEHA0IABDd224drxYHJw6pwn9cPsU+9Vy0Eictnlc5B
        c9nfkUooNXrPZNoiQS2E16nAODbr2brHlUlv+uHUPfE/SoiFe3CjbzBtMB0GA1Ud
        DgQWBBS4qOVb3uSeCF/iDjIK0Xd8AQn3ozAfBgNVHSMEGDAWgBS4qOVb3uSeCF/i
        DjIK0Xd8AQn3ozAPBgNVHRMBAf8EBTADAQH/MBoGA1UdEQQTMBGHBH8AAAGCCWxv
        Y2FsaG9zdDAKBggqhkjOPQQDAgNIADBFAiBQ1hU9I4Ltmfndl9P5yr3I7edvf1J6
        DFVuVCQsBK4yeQIhAMaH7MULeXLnYXIAyC7itB89hOe2DtVBi8CA5ljjzrB1
        -----END CERTIFICATE-----
        """
    static let privateKey = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgF0mj0rG0BuWUyHEI
        vfB/OcWeBtGVu0fEkV9la+2VoI+hRANCAAQ3dtuHa8WBycOqcJ/XD7FPvVctBInL
        Z5XOQXPZ35FKKDV6z2TaIkEthNepwDg269m6x5VJb/rh1D3xP0qIhXtw
        -----END PRIVATE KEY-----
        """

    static func context() throws -> NIOSSLContext {
        let certificate = try NIOSSLCertificate(bytes: Array(certificate.utf8), format: .pem)
        let key = try NIOSSLPrivateKey(bytes: Array(privateKey.utf8), format: .pem)
        return try NIOSSLContext(configuration: .makeServerConfiguration(certificateChain: [.certificate(certificate)], privateKey: .privateKey(key)))
    }
}
