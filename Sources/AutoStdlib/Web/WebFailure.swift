import AsyncHTTPClient
import AutoIntents
import Foundation
import NIOCore
import NIOPosix
import NIOSSL

/// How a request that failed is worded, in one place: the URL the script gave, then the reason in plain words
/// (`can't get 'https://nowhere.invalid/': the host 'nowhere.invalid' was not found`). A failure at a later hop of
/// a redirect says where it was redirected.
struct WebFailure {
    /// "get", "post to", "put to", "delete": what the script asked, as the sentence says it.
    let verb: String
    let url: String

    func error(_ reason: String) -> IntentError {
        IntentError("can't \(verb) '\(url)': \(reason)")
    }

    /// `reason`, or where a redirect led the request when the failure was at `hop` rather than at `url`.
    func error(_ reason: String, at hop: URL, redirected: Bool) -> IntentError {
        error(redirected ? "it redirects to '\(hop.absoluteString)', and \(reason)" : reason)
    }

    func invalidURL(_ text: String) -> IntentError {
        text.contains("://") ? error("only http:// and https:// addresses can be reached") : error("it is not a web address (http://… or https://…)")
    }

    func timedOut(after timeout: Duration) -> IntentError {
        error("it timed out after \(Self.describe(timeout)) without a whole answer")
    }

    func tooManyRedirects(_ limit: Int) -> IntentError {
        error("it redirects more than \(limit) times (too many redirects)")
    }

    func redirectLoop(back to: URL) -> IntentError {
        error("it redirects in a loop, back to '\(to.absoluteString)'")
    }

    func bodyOverLimit(_ limit: Int64) -> IntentError {
        error("the body is over the limit of \(Self.describe(bytes: limit)) (give limit: a larger size to read it)")
    }

    /// What went wrong on the way, from AsyncHTTPClient's and SwiftNIO's errors, for `hop` (host and port).
    static func reason(for error: any Error, host: String, port: Int) -> String {
        if let error = error as? HTTPClientError {
            switch error {
            case .remoteConnectionClosed: return "the server closed the connection before it answered"
            case .invalidURL, .emptyHost, .emptyScheme: return "it is not a web address (http://… or https://…)"
            case .tlsHandshakeTimeout: return "the secure connection to \(host) could not be set up in time"
            case .bodyLengthMismatch: return "the server sent a body of another length than it announced"
            default: return "\(error)"
            }
        }
        if let error = error as? NIOConnectionError {
            if error.connectionErrors.isEmpty, error.dnsAError != nil || error.dnsAAAAError != nil {
                return "the host '\(host)' was not found"
            }
            let errnos = error.connectionErrors.compactMap { ($0.error as? IOError)?.errnoCode }
            if !errnos.isEmpty, errnos.allSatisfy({ $0 == ECONNREFUSED }) {
                return "the connection was refused (nothing answers on port \(port) of \(host))"
            }
            if let first = errnos.first { return "it can't be reached: \(String(cString: strerror(first)).lowercased())" }
            return "it can't be reached: \(error)"
        }
        if error is SocketAddressError { return "the host '\(host)' was not found" }
        if let error = error as? IOError {
            switch error.errnoCode {
            case ECONNREFUSED: return "the connection was refused (nothing answers on port \(port) of \(host))"
            case ECONNRESET, EPIPE: return "the server closed the connection"
            default: return "the connection failed: \(String(cString: strerror(error.errnoCode)).lowercased())"
            }
        }
        if error is ChannelError { return "the connection failed (\(error))" }
        if let error = error as? NIOSSLError {
            // BoringSSL's reason is only in the description; a certificate that names another host fails this way too.
            if case .handshakeFailed(let reason) = error, "\(reason)".contains("CERTIFICATE_VERIFY_FAILED") {
                return "its certificate can't be trusted (no authority this machine trusts signed it, or it is not for '\(host)')"
            }
            return "the secure connection to \(host) failed"
        }
        if error is NIOSSLExtraError { return "its certificate can't be trusted for '\(host)'" }
        return "\(error)"
    }

    /// A duration as a timeout is said: `30 seconds`, `0.3 seconds`, `1 second`.
    static func describe(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        if attoseconds == 0 { return seconds == 1 ? "1 second" : "\(seconds) seconds" }
        let milliseconds = (Decimal(seconds) * 1000 + Decimal(attoseconds / 1_000_000_000_000_000)) / 1000
        return "\(milliseconds) seconds"
    }

    /// A size as the language writes one, in decimal units: `1 MB`, `32 MB`, `1500 bytes`.
    static func describe(bytes: Int64) -> String {
        for (unit, name) in [(Int64(1_000_000_000), "GB"), (1_000_000, "MB"), (1_000, "KB")] where bytes >= unit && bytes % unit == 0 {
            return "\(bytes / unit) \(name)"
        }
        return bytes == 1 ? "1 byte" : "\(bytes) bytes"
    }
}
