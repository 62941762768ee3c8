import AsyncHTTPClient
import AutoIntents
import Foundation
import NIOCore
import NIOHTTP1

/// One request as a script asks it, sent and answered: the redirects followed, each hop's host authorized against
/// the run's grants before anything is sent to it, the body read up to its limit, the whole of it within its
/// timeout, and stopped as soon as the run is cancelled.
struct WebExchange: Sendable {
    let method: HTTPMethod
    /// As the script gave it: errors name it.
    let url: String
    let headers: Record?
    let body: Value
    let form: Bool
    let timeout: Duration
    let limit: ByteCount

    /// Redirects followed at most before the request fails (browsers follow about 20, curl 30 with -L; a script's API
    /// rarely takes more than two).
    static let maxRedirects = 10
    /// How often the run's cancellation flag is looked at while a request runs: Ctrl-C sets a flag, it doesn't cancel
    /// this task.
    static let watchInterval = TimeAmount.milliseconds(20)

    var failure: WebFailure {
        let verb: String
        switch method {
        case .POST: verb = "post to"
        case .PUT: verb = "put to"
        case .DELETE: verb = "delete"
        default: verb = method.rawValue.lowercased()
        }
        return WebFailure(verb: verb, url: url)
    }

    /// Sends the request and gives the answer. A status that says the request failed (404, 500) is no error here: the
    /// script reads `status`, as it reads a program's exit status after `run command`. Only what leaves no answer to
    /// read is an error: an address that isn't one, a host that isn't granted or can't be reached, a timeout, too
    /// many redirects, a body over the limit.
    func send(_ context: IntentContext) async throws -> WebResponse {
        let failure = self.failure
        guard timeout > .zero else { throw failure.error("its timeout must be longer than 0 seconds") }
        guard limit.bytes >= 0 else { throw failure.error("its limit must be 0 bytes or more") }
        guard let address = Self.webAddress(url) else { throw failure.invalidURL(url) }
        let fields = try Self.headerFields(headers, json: context.json, failure: failure)
        let payload = try RequestBody.make(body, form: form, json: context.json, failure: failure)
        // The time is kept by the client's event loop, not by this task: a response that came in time is kept even
        // when the machine is so busy that this task only runs again after the deadline.
        let deadline = NIODeadline.now() + .nanoseconds(Self.nanoseconds(timeout))
        do {
            return try await exchange(address, fields: fields, payload: payload, deadline: deadline, context: context)
        } catch {
            // Ctrl-C, or the run's own time limit (which cancels this task): the engine says which it was.
            if context.isCancelled { throw RunCancelled() }
            throw error
        }
    }

    /// The hops of the request: each authorized, sent, and either followed to where it redirects or read whole.
    func exchange(_ start: URL, fields: [(String, String)], payload: RequestBody?, deadline: NIODeadline,
                  context: IntentContext) async throws -> WebResponse {
        let failure = self.failure
        var address = start, method = self.method, fields = fields, payload = payload
        var visited: Set<String> = [start.absoluteString]
        var redirects = 0
        while true {
            let host = address.host(percentEncoded: false) ?? ""
            let port = address.port ?? (address.scheme?.lowercased() == "https" ? 443 : 80)
            do {
                try context.authorize(host: host, port: port)
            } catch let refusal as IntentError {
                throw failure.error(refusal.message, at: address, redirected: redirects > 0)
            }
            var sent = HTTPHeaders(fields)
            if !sent.contains(name: "user-agent") { sent.add(name: "User-Agent", value: "auto") }
            if let payload, !sent.contains(name: "content-type") { sent.add(name: "Content-Type", value: payload.contentType) }
            let answer: ResponseCollector.Answer
            do {
                let request = try HTTPClient.Request(url: address.absoluteString, method: method, headers: sent,
                                                     body: payload.map { .bytes($0.bytes) })
                answer = try await Self.execute(request, collector: ResponseCollector(limit: limit.bytes), deadline: deadline, context: context)
            } catch is ResponseCollector.OverLimit {
                throw failure.bodyOverLimit(limit.bytes)
            } catch let error as HTTPClientError where [.deadlineExceeded, .connectTimeout, .readTimeout, .writeTimeout].contains(error) {
                throw failure.timedOut(after: timeout)
            } catch {
                if context.isCancelled { throw RunCancelled() }
                throw failure.error(WebFailure.reason(for: error, host: host, port: port), at: address, redirected: redirects > 0)
            }
            if let next = answer.redirect.flatMap({ URL(string: $0, relativeTo: address)?.absoluteURL }) {
                redirects += 1
                guard redirects <= Self.maxRedirects else { throw failure.tooManyRedirects(Self.maxRedirects) }
                guard Self.webAddress(next.absoluteString) != nil else {
                    throw failure.error("it redirects to '\(next.absoluteString)', which is not an http:// or https:// address")
                }
                guard visited.insert(next.absoluteString).inserted else { throw failure.redirectLoop(back: next) }
                // 303 means "see this other page": it is fetched with GET. A POST redirected by 301 or 302 becomes a GET
                // too, as browsers and curl do; 307 and 308 repeat the request as it was, body and all.
                let status = answer.head.status.code
                if (status == 303 && method != .HEAD) || ((status == 301 || status == 302) && method == .POST) {
                    method = .GET
                    payload = nil
                    fields.removeAll { $0.0.lowercased() == "content-type" }
                }
                // Credentials given for one site are not handed to another it redirects to (as curl does).
                if !Self.sameOrigin(address, next) {
                    fields.removeAll { ["authorization", "cookie", "proxy-authorization"].contains($0.0.lowercased()) }
                }
                address = next
                continue
            }
            let headers = WebResponse.headers(answer.head.headers.map { ($0.name, $0.value) })
            let body = try WebResponse.body(answer.body, contentType: answer.head.headers.first(name: "content-type"), json: context.json,
                                            failure: failure)
            return WebResponse(status: Int(answer.head.status.code), headers: headers, body: body)
        }
    }

    /// One hop, sent and read by the client on its event loop: the deadline, the body limit and the run's
    /// cancellation flag are all looked at there. The run's time limit cancels this task, and with it the request.
    static func execute(_ request: HTTPClient.Request, collector: ResponseCollector, deadline: NIODeadline,
                        context: IntentContext) async throws -> ResponseCollector.Answer {
        let task = WebClient.shared.execute(request: request, delegate: collector, deadline: deadline)
        let watch = task.eventLoop.scheduleRepeatedTask(initialDelay: watchInterval, delay: watchInterval) { repeated in
            if context.isCancelled {
                task.cancel()
                repeated.cancel()
            }
        }
        defer { watch.cancel() }
        return try await withTaskCancellationHandler {
            try await task.futureResult.get()
        } onCancel: {
            task.cancel()
        }
    }

    /// The request's headers from the script's record: each value a text, a number or true or false.
    static func headerFields(_ headers: Record?, json: ValueCodec, failure: WebFailure) throws -> [(String, String)] {
        guard let headers else { return [] }
        return try zip(headers.keys, headers.values).map { name, value in
            guard !name.isEmpty, name.utf8.allSatisfy(isTokenByte) else { throw failure.error("'\(name)' is not a header's name") }
            let text: String
            switch value {
            case .text(let string): text = string
            case .int, .decimal, .bool: text = try json.write(value)
            default: throw failure.error("the header '\(name)' is \(RequestBody.kind(of: value)); a header is a text")
            }
            guard !text.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D || $0 == 0 }) else {
                throw failure.error("the header '\(name)' has a line break in its value")
            }
            return (name, text)
        }
    }

    /// The characters of an HTTP token (RFC 9110 §5.6.2): what a header's name is made of.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): return true
        default: return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    /// An http:// or https:// URL with a host, or nil.
    static func webAddress(_ text: String) -> URL? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host(percentEncoded: false), !host.isEmpty else { return nil }
        return url
    }

    static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
        a.scheme?.lowercased() == b.scheme?.lowercased() && a.host?.lowercased() == b.host?.lowercased() && a.port == b.port
    }

    /// A duration in whole nanoseconds, at least 1 and at most what a NIO deadline holds.
    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        guard seconds < 9_000_000_000 else { return Int64.max / 2 }
        return max(1, seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
