import Foundation
import NIOSSL
import PostgresNIO

/// Where a PostgreSQL run store is, from its URL: `postgres://user:password@host:5432/database` (or `postgresql://`),
/// with libpq's `sslmode`, `connect_timeout` and `host=/socket/folder` (a Unix socket) in its query. Connections are
/// not encrypted unless `sslmode` asks: the server is meant to be on the machine or on a private network.
package struct PostgresAddress: Sendable, CustomStringConvertible {
    package enum Endpoint: Sendable, Equatable {
        case tcp(host: String, port: Int)
        case socket(path: String)
    }

    /// libpq's modes, as a person writes them in the URL.
    package enum Encryption: String, Sendable {
        case disable, allow, prefer, require
        case verifyCA = "verify-ca"
        case verifyFull = "verify-full"
    }

    package let endpoint: Endpoint
    package let username: String
    package let password: String?
    package let database: String?
    package let encryption: Encryption
    package let connectTimeout: Duration
    /// The URL as errors and logs show it: without its password.
    package let redacted: String

    /// What the store says it can't reach: `127.0.0.1:5432`, or the socket's path.
    package var description: String {
        switch endpoint {
        case .tcp(let host, let port): host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        case .socket(let path): path
        }
    }

    package init(url: String) throws(RunStoreError) {
        guard var components = URLComponents(string: url), let scheme = components.scheme,
              ["postgres", "postgresql"].contains(scheme.lowercased()) else {
            throw RunStoreError(path: Self.withoutPassword(url),
                                reason: "it is not a PostgreSQL URL; write postgres://user:password@host:5432/database")
        }
        // An @ that isn't the end of `user:password@` is a password with a /, ? or # left as it is (base64 has slashes),
        // which URLComponents reads as the end of the host: what follows would be the path or the query, and the
        // password would show in every error, which print the URL.
        guard components.user != nil || !url.contains("@") else {
            throw RunStoreError(path: Self.withoutPassword(url),
                                reason: "a / ? # or @ in its user, password or parameters must be percent-encoded (%2F, %3F, %23, %40)")
        }
        password = components.password ?? components.queryItems?.first { $0.name == "password" }?.value
        components.password = nil
        components.queryItems = components.queryItems?.filter { $0.name != "password" }
        if components.queryItems?.isEmpty == true { components.queryItems = nil }
        redacted = components.string ?? Self.withoutPassword(url)

        var query: [String: String] = [:]
        for item in components.queryItems ?? [] {
            guard ["sslmode", "host", "port", "user", "dbname", "connect_timeout"].contains(item.name) else {
                throw RunStoreError(path: redacted, reason: "auto doesn't know its parameter \(item.name); it knows sslmode, host, port, user, "
                                                          + "dbname and connect_timeout")
            }
            query[item.name] = item.value ?? ""
        }
        let port: Int
        if let text = query["port"] {
            guard let number = Int(text), (1...65_535).contains(number) else {
                throw RunStoreError(path: redacted, reason: "its port \(text) is not a port number")
            }
            port = number
        } else {
            port = components.port ?? 5432
        }
        // A host in the query wins, as with libpq: `?host=/run/postgresql` is a folder holding the server's socket.
        let host = query["host"].flatMap { $0.isEmpty ? nil : $0 } ?? components.host.flatMap { $0.isEmpty ? nil : $0 }
        switch host {
        case let folder? where folder.hasPrefix("/"):
            endpoint = .socket(path: "\(folder)/.s.PGSQL.\(port)")
        case var name?:
            if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
            endpoint = .tcp(host: name, port: port)
        case nil:
            throw RunStoreError(path: redacted, reason: "it names no host; write postgres://user:password@host:5432/database, or "
                                                      + "?host=/folder/of/the/socket")
        }
        username = query["user"] ?? components.user ?? Self.systemUser
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        database = query["dbname"] ?? (path.isEmpty ? nil : path)
        guard let mode = Encryption(rawValue: query["sslmode"] ?? Encryption.disable.rawValue) else {
            throw RunStoreError(path: redacted, reason: "its sslmode \(query["sslmode"] ?? "") is none of disable, prefer, require, "
                                                      + "verify-ca and verify-full")
        }
        encryption = mode
        if let text = query["connect_timeout"] {
            guard let seconds = Int(text), seconds > 0 else {
                throw RunStoreError(path: redacted, reason: "its connect_timeout \(text) is not a number of seconds")
            }
            connectTimeout = .seconds(seconds)
        } else {
            connectTimeout = .seconds(10)
        }
    }

    /// libpq's default user: the one this process runs as.
    static var systemUser: String {
        guard let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name else { return "postgres" }
        return String(cString: name)
    }

    /// A URL that URLComponents can't read, without what looks like its password (`scheme://user:password@`).
    static func withoutPassword(_ url: String) -> String {
        guard let at = url.range(of: "@", options: .backwards), let slashes = url.range(of: "://"), slashes.upperBound < at.lowerBound,
              let colon = url[slashes.upperBound..<at.lowerBound].firstIndex(of: ":") else { return url }
        return String(url[..<colon]) + String(url[at.lowerBound...])
    }

    // MARK: PostgresNIO's configurations

    /// The TLS settings of libpq's modes: `require` encrypts without checking the certificate, `verify-ca` checks it
    /// against the system's authorities, `verify-full` also checks it names the host.
    private var tls: NIOSSL.TLSConfiguration? {
        var configuration = TLSConfiguration.makeClientConfiguration()
        switch encryption {
        case .disable, .allow: return nil
        case .prefer, .require: configuration.certificateVerification = .none
        case .verifyCA: configuration.certificateVerification = .noHostnameVerification
        case .verifyFull: configuration.certificateVerification = .fullVerification
        }
        return configuration
    }

    /// The pool's: the store's connections while it is open.
    var clientConfiguration: PostgresClient.Configuration {
        var configuration: PostgresClient.Configuration
        switch endpoint {
        case .tcp(let host, let port):
            let mode: PostgresClient.Configuration.TLS = switch (encryption, tls) {
            case (.prefer, let tls?): .prefer(tls)
            case (_, let tls?): .require(tls)
            case (_, nil): .disable
            }
            configuration = .init(host: host, port: port, username: username, password: password, database: database, tls: mode)
        case .socket(let path):
            configuration = .init(unixSocketPath: path, username: username, password: password, database: database)
        }
        configuration.options.connectTimeout = connectTimeout
        return configuration
    }

    /// A single connection's: for opening, where a connection that fails must say why at once (the pool retries and,
    /// a minute later, says only that it gave up).
    func connectionConfiguration() throws -> PostgresConnection.Configuration {
        var configuration: PostgresConnection.Configuration
        switch endpoint {
        case .tcp(let host, let port):
            let mode: PostgresConnection.Configuration.TLS = switch (encryption, tls) {
            case (.prefer, let tls?): .prefer(try NIOSSLContext(configuration: tls))
            case (_, let tls?): .require(try NIOSSLContext(configuration: tls))
            case (_, nil): .disable
            }
            configuration = .init(host: host, port: port, username: username, password: password, database: database, tls: mode)
        case .socket(let path):
            configuration = .init(unixSocketPath: path, username: username, password: password, database: database)
        }
        let (seconds, attoseconds) = connectTimeout.components
        configuration.options.connectTimeout = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        return configuration
    }
}
