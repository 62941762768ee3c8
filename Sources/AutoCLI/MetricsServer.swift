import AutoAutomation
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Prometheus

/// `auto daemon --metrics 127.0.0.1:9464`: the daemon's metrics (`DaemonMetrics`) in Prometheus's text format at
/// `GET /metrics`, over HTTP/1.1 on the address given. Nothing else is served: another path is a 404, another
/// method a 405.
final class MetricsServer: Sendable {
    let registry = PrometheusCollectorRegistry()
    let channel: any Channel
    /// What the daemon counts with: the registry this server reads.
    let metrics: DaemonMetrics

    /// The address and port it listens on; port 0 in `address` takes one the system chooses.
    var boundAddress: String {
        guard let address = channel.localAddress else { return "?" }
        return "\(address.ipAddress ?? "?"):\(address.port ?? 0)"
    }

    struct AddressError: Error, CustomStringConvertible {
        let description: String
    }

    /// `HOST:PORT`, or a port alone for 127.0.0.1: the operator's scraper is usually on the machine.
    static func parse(_ text: String) -> (host: String, port: Int)? {
        let (host, portText): (String, Substring)
        if let colon = text.lastIndex(of: ":") {
            host = String(text[..<colon]).trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
            portText = text[text.index(after: colon)...]
        } else {
            (host, portText) = ("127.0.0.1", Substring(text))
        }
        guard !host.isEmpty, let port = Int(portText), (0...65_535).contains(port) else { return nil }
        return (host, port)
    }

    init(host: String, port: Int) async throws {
        let registry = self.registry
        metrics = DaemonMetrics(factory: PrometheusMetricsFactory(registry: registry))
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.pipeline.configureHTTPServerPipeline().flatMap {
                    channel.pipeline.addHandler(MetricsHandler(registry: registry))
                }
            }
        do {
            channel = try await bootstrap.bind(host: host, port: port).get()
        } catch {
            throw AddressError(description: "can't serve metrics on \(host):\(port): \(error)")
        }
    }

    func close() async {
        try? await channel.close()
    }
}

/// One request of a scrape: the registry's text for `GET /metrics`.
private final class MetricsHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let registry: PrometheusCollectorRegistry
    var head: HTTPRequestHead?

    init(registry: PrometheusCollectorRegistry) {
        self.registry = registry
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let request): head = request
        case .body: break
        case .end:
            guard let request = head else { return }
            head = nil
            let path = request.uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? request.uri
            let (status, body): (HTTPResponseStatus, [UInt8])
            if path != "/metrics" {
                (status, body) = (.notFound, Array("not found: the metrics are at /metrics\n".utf8))
            } else if request.method != .GET && request.method != .HEAD {
                (status, body) = (.methodNotAllowed, Array("only GET\n".utf8))
            } else {
                (status, body) = (.ok, registry.emitToBuffer())
            }
            var headers = HTTPHeaders()
            headers.add(name: "Content-Type", value: status == .ok ? "text/plain; version=0.0.4; charset=utf-8" : "text/plain; charset=utf-8")
            headers.add(name: "Content-Length", value: "\(body.count)")
            let keepAlive = request.isKeepAlive
            if !keepAlive { headers.add(name: "Connection", value: "close") }
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: request.version, status: status, headers: headers))), promise: nil)
            if request.method != .HEAD {
                context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil)
            }
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
                if !keepAlive { channel.close(promise: nil) }
            }
        }
    }
}
