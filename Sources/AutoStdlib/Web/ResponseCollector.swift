import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import Synchronization

/// Reads one answer as it arrives, on the client's event loop: its head, and its body up to a limit. A body over the
/// limit fails the request at once, which closes the connection, so a download stops there instead of being held
/// whole first; a length announced over it fails before any of it is read. The body of a redirect is not kept.
final class ResponseCollector: HTTPClientResponseDelegate {
    struct Answer: Sendable {
        let head: HTTPResponseHead
        let body: [UInt8]
        /// Where it redirects (its Location), for a 301, 302, 303, 307 or 308 that says.
        let redirect: String?
    }

    struct OverLimit: Error {}

    let limit: Int64
    let state = Mutex<(head: HTTPResponseHead?, body: [UInt8], redirect: String?)>((nil, [], nil))

    init(limit: Int64) {
        self.limit = limit
    }

    func didReceiveHead(task: HTTPClient.Task<Answer>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        let location = head.headers.first(name: "location").flatMap { $0.isEmpty ? nil : $0 }
        let redirect = [301, 302, 303, 307, 308].contains(head.status.code) ? location : nil
        state.withLock { $0 = (head, [], redirect) }
        // The announced length is the body's own only when it isn't compressed: decompressed, it is counted as it comes.
        if redirect == nil, head.headers.first(name: "content-encoding") == nil,
           let length = head.headers.first(name: "content-length").flatMap({ Int64($0) }), length > limit {
            return task.eventLoop.makeFailedFuture(OverLimit())
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Answer>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        let fits = state.withLock { state -> Bool in
            if state.redirect != nil { return true }
            guard Int64(state.body.count) + Int64(buffer.readableBytes) <= limit else { return false }
            state.body.append(contentsOf: buffer.readableBytesView)
            return true
        }
        return fits ? task.eventLoop.makeSucceededVoidFuture() : task.eventLoop.makeFailedFuture(OverLimit())
    }

    func didFinishRequest(task: HTTPClient.Task<Answer>) throws -> Answer {
        try state.withLock { state in
            guard let head = state.head else { throw HTTPClientError.remoteConnectionClosed }
            return Answer(head: head, body: state.body, redirect: state.redirect)
        }
    }
}
