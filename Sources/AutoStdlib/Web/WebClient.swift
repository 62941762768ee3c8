import AsyncHTTPClient
import NIOCore

/// The one HTTP client of the process, shared by every run and every request (AsyncHTTPClient keeps a pool of
/// connections per host, so a script that calls one API in a loop reuses its connection).
///
/// Its own rules differ from `HTTPClient.shared` where the web intents need them to:
/// - it follows no redirect: `WebExchange` follows them itself, so that every hop's host is authorized against the
///   run's `--allow-net` grants before anything is sent to it;
/// - it doesn't retry a connection that failed: a refused connection or an unknown host is said at once, not after
///   the request's whole timeout;
/// - it has no timeouts of its own: a request's `timeout:` bounds the whole exchange, body included (`WebExchange`);
/// - it decompresses gzip and deflate bodies without a ratio limit: the body limit counts the decompressed bytes.
///
/// A global, on AsyncHTTPClient's own process-wide event loop group: it lives as long as the process and is never
/// shut down (as `HTTPClient.shared` isn't), so nothing is leaked per run and nothing crashes at exit.
enum WebClient {
    static let shared: HTTPClient = {
        var pool = HTTPClient.Configuration.ConnectionPool()
        pool.retryConnectionEstablishment = false
        let configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow, timeout: .init(connect: .hours(24), read: nil), connectionPool: pool,
            decompression: .enabled(limit: .none))
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()
}
