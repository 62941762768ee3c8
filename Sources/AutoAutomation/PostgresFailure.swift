import Foundation
import NIOCore
import NIOPosix
import PostgresNIO
import _ConnectionPoolModule

/// What went wrong with a PostgreSQL store, said so that people can act on it: PostgresNIO's errors describe
/// themselves only as "PSQLError" (so that they never leak what a query held), and its pool's say only that it gave up.
/// None of what is said here holds the password: the server's messages never do, and the address is the redacted one.
enum PostgresFailure {
    /// The store's error for `error`: what went wrong, and whether the server is only unavailable for now.
    static func error(_ error: any Error, at address: PostgresAddress) -> RunStoreError {
        RunStoreError(path: address.redacted, reason: reason(for: error, at: address), isUnavailable: isUnavailable(error))
    }

    /// The server can't be reached now, or is starting, stopping or restarting: trying again later may work. Not a
    /// server that refuses (a password, a database that doesn't exist, permissions) nor one a newer auto migrated.
    static func isUnavailable(_ error: any Error) -> Bool {
        switch error {
        case let error as RunStoreError:
            return error.isUnavailable
        case let error as PostgresTransactionError:
            return [error.closureError, error.beginError, error.commitError].contains { $0.map(isUnavailable) ?? false }
        case let error as PostgresSchema.StepFailed:
            return isUnavailable(error.underlying)
        case let error as PSQLError:
            switch error.code {
            case .connectionError, .serverClosedConnection, .uncleanShutdown: return true
            case .server: return ["57P01", "57P02", "57P03"].contains(error.serverInfo?[.sqlState])
            default: return false
            }
        case let error as ConnectionPoolError:
            return error == .connectionCreationCircuitBreakerTripped
        case is NIOConnectionError, is ChannelError:
            return true
        default:
            return false
        }
    }

    static func reason(for error: any Error, at address: PostgresAddress) -> String {
        switch error {
        case let error as RunStoreError:
            return error.reason
        case let error as PostgresTransactionError:
            guard let cause = error.closureError ?? error.beginError ?? error.commitError ?? error.rollbackError else { return "\(error)" }
            return reason(for: cause, at: address)
        case is PostgresSchema.Newer:
            return "it was written by a newer version of auto; use that version, or another --store"
        case let error as PostgresSchema.StepFailed:
            return "its tables can't be brought to version \(error.version) (\(reason(for: error.underlying, at: address)))"
        case let error as PSQLError:
            return reason(for: error, at: address)
        case let error as ConnectionPoolError where error == .connectionCreationCircuitBreakerTripped:
            // PostgresClient's pool gives up after a minute of failed attempts (ConnectionPoolConfiguration's default).
            return "can't connect to PostgreSQL at \(address) (it has not answered for a minute)"
        case let error as ConnectionPoolError where error == .poolShutdown:
            return "it is closed"
        case is CancellationError:
            return "the request was cancelled"
        default:
            return "\(error)"
        }
    }

    private static func reason(for error: PSQLError, at address: PostgresAddress) -> String {
        switch error.code {
        case .server:
            return serverReason(error.serverInfo, at: address)
        case .connectionError:
            return "can't connect to PostgreSQL at \(address) (\(connectionReason(error.underlying)))"
        case .serverClosedConnection, .uncleanShutdown:
            return "the connection to PostgreSQL at \(address) was lost (the server stopped or restarted); try again"
        case .sslUnsupported:
            return "PostgreSQL at \(address) doesn't offer TLS, which sslmode=\(address.encryption.rawValue) asks for; use sslmode=disable"
        case .authMechanismRequiresPassword:
            return "PostgreSQL at \(address) asks user \(address.username) for a password; write it in the URL "
                + "(postgres://user:password@host/database)"
        case .unsupportedAuthMechanism:
            return "PostgreSQL at \(address) asks for an authentication auto doesn't know; allow scram-sha-256, md5 or trust in its pg_hba.conf"
        case .poolClosed, .clientClosedConnection:
            return "it is closed"
        case .queryCancelled:
            return "the request was cancelled"
        default:
            return "PostgreSQL at \(address) failed (\(error.code)\(error.underlying.map { ": \($0)" } ?? ""))"
        }
    }

    /// The server's own message, which names what is wrong (`database "x" does not exist`, `password authentication
    /// failed for user "u"`, `permission denied for schema public`), with its detail when it gives one.
    private static func serverReason(_ info: PSQLError.ServerInfo?, at address: PostgresAddress) -> String {
        guard let info, let message = info[.message] else { return "PostgreSQL at \(address) failed without saying why" }
        let said = info[.detail].map { "\(message) (\($0))" } ?? message
        switch info[.sqlState] {
        // admin_shutdown, crash_shutdown, cannot_connect_now: the server is stopping, restarting or starting.
        case "57P01", "57P02", "57P03": return "PostgreSQL at \(address) is not available now (\(said)); try again"
        default: return said
        }
    }

    /// Why a connection couldn't be made: the system's word for it (`connection refused`), or a host not found.
    private static func connectionReason(_ error: (any Error)?) -> String {
        switch error {
        case let error as IOError:
            return String(cString: strerror(error.errnoCode)).lowercased()
        case let error as NIOConnectionError:
            if let first = error.connectionErrors.first { return connectionReason(first.error) }
            return "its host can't be found"
        case let error as ChannelError:
            if case .connectTimeout(let time) = error { return "no answer within \(time.nanoseconds / 1_000_000_000) seconds" }
            return "\(error)"
        case let error?:
            return "\(error)"
        case nil:
            return "no reason given"
        }
    }

    /// The server broke the transaction off to end a deadlock or a serialization conflict, and asks that it be run again.
    static func isConflict(_ error: any Error) -> Bool {
        switch error {
        case let error as PostgresTransactionError:
            return [error.closureError, error.beginError, error.commitError].contains { $0.map(isConflict) ?? false }
        case let error as PSQLError:
            return error.code == .server && ["40P01", "40001"].contains(error.serverInfo?[.sqlState])
        default:
            return false
        }
    }
}
