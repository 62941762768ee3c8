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
    /// How often the run's cancellation and the timeout are looked at while the request runs: Ctrl-C sets a flag,
    /// it doesn't cancel this task.
    static let watchInterval = Duration.milliseconds(20)

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

    enum Ending: Sendable {
        case answered(WebResponse)
        case cancelled
        case timedOut
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
        let deadline = ContinuousClock.now + timeout
        let ending: Ending
        do {
            ending = try await withThrowingTaskGroup(of: Ending.self) { group in
                group.addTask { .answered(try await exchange(address, fields: fields, payload: payload, deadline: deadline, context: context)) }
                group.addTask {
                    while true {
                        try await Task.sleep(for: Self.watchInterval)
                        if context.isCancelled { return .cancelled }
                        if ContinuousClock.now >= deadline { return .timedOut }
                    }
                }
                defer { group.cancelAll() }
                return try await group.next() ?? .cancelled
            }
        } catch {
            // The run's own time limit cancels this task, and with it the request: the engine says which it was.
            if context.isCancelled { throw RunCancelled() }
            if let error = error as? HTTPClientError, error == .deadlineExceeded || error == .connectTimeout || error == .readTimeout {
                throw failure.timedOut(after: timeout)
            }
            throw error
        }
        switch ending {
        case .answered(let response):
            try context.checkCancellation()
            return response
        case .cancelled: throw RunCancelled()
        case .timedOut: throw failure.timedOut(after: timeout)
        }
    }

    /// The hops of the request: each authorized, sent, and either followed to where it redirects or read whole.
    func exchange(_ start: URL, fields: [(String, String)], payload: RequestBody?, deadline: ContinuousClock.Instant,
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
            var request = HTTPClientRequest(url: address.absoluteString)
            request.method = method
            for (name, value) in fields { request.headers.add(name: name, value: value) }
            if !request.headers.contains(name: "user-agent") { request.headers.add(name: "User-Agent", value: "auto") }
            if let payload {
                if !request.headers.contains(name: "content-type") { request.headers.add(name: "Content-Type", value: payload.contentType) }
                request.body = .bytes(ByteBuffer(bytes: payload.bytes))
            }
            let response: HTTPClientResponse
            do {
                let left = deadline - ContinuousClock.now
                response = try await WebClient.shared.execute(request, deadline: .now() + .nanoseconds(Self.nanoseconds(left)))
            } catch let error as HTTPClientError where error == .deadlineExceeded || error == .cancelled {
                throw error
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                throw failure.error(WebFailure.reason(for: error, host: host, port: port), at: address, redirected: redirects > 0)
            }
            if let next = Self.redirectTarget(of: response, from: address) {
                redirects += 1
                guard redirects <= Self.maxRedirects else { throw failure.tooManyRedirects(Self.maxRedirects) }
                guard Self.webAddress(next.absoluteString) != nil else {
                    throw failure.error("it redirects to '\(next.absoluteString)', which is not an http:// or https:// address")
                }
                guard visited.insert(next.absoluteString).inserted else { throw failure.redirectLoop(back: next) }
                // 303 means "see this other page": it is fetched with GET. A POST redirected by 301 or 302 becomes a GET
                // too, as browsers and curl do; 307 and 308 repeat the request as it was, body and all.
                let status = response.status.code
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
            let bytes = try await read(response, failure: failure)
            let headers = WebResponse.headers(response.headers.map { ($0.name, $0.value) })
            let body = try WebResponse.body(bytes, contentType: response.headers.first(name: "content-type"), json: context.json,
                                            failure: failure)
            return WebResponse(status: Int(response.status.code), headers: headers, body: body)
        }
    }

    /// The body, up to `limit` bytes (after decompression): a body over it stops being downloaded there and is an
    /// error, as is one whose announced length is over it, before anything of it is read.
    func read(_ response: HTTPClientResponse, failure: WebFailure) async throws -> [UInt8] {
        let limit = limit.bytes
        if response.headers.first(name: "content-encoding") == nil,
           let length = response.headers.first(name: "content-length").flatMap({ Int64($0) }), length > limit {
            throw failure.bodyOverLimit(limit)
        }
        var bytes: [UInt8] = []
        do {
            for try await chunk in response.body {
                guard Int64(bytes.count + chunk.readableBytes) <= limit else { throw failure.bodyOverLimit(limit) }
                bytes.append(contentsOf: chunk.readableBytesView)
            }
        } catch let error as IntentError {
            throw error
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .cancelled {
            throw error
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw failure.error("the answer broke off: " + WebFailure.reason(for: error, host: response.url?.host ?? "", port: response.url?.port ?? 0))
        }
        return bytes
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

    /// Where a response redirects: its Location, resolved against the URL it answered, for 301, 302, 303, 307 and 308.
    static func redirectTarget(of response: HTTPClientResponse, from address: URL) -> URL? {
        guard [301, 302, 303, 307, 308].contains(response.status.code), let location = response.headers.first(name: "location"),
              !location.isEmpty else { return nil }
        return URL(string: location, relativeTo: address)?.absoluteURL
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
