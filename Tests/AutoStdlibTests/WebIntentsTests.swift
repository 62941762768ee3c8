import AutoIntents
import AutoLanguage
import AutoRuntime
import AutoStdlib
import AutoTestSupport
import Foundation
import Testing

/// `get`, `post`, `put` and `delete` against a real HTTP server on 127.0.0.1 (`TestHTTPServer`), under grants. Nothing
/// here sleeps to wait for something: a test waits for a condition (a request the server received, a process that
/// ended), with a generous deadline, since the machine may be busy with other suites.
@Suite struct WebIntentsTests {
    let registry: Registry

    init() throws {
        registry = try stdlibRegistry()
    }

    func run(_ text: String, _ server: TestHTTPServer, grants: Grants = .all) async -> ScriptOutcome {
        await EngineHarness.run(text.replacingOccurrences(of: "BASE", with: server.base), registry: registry, grants: grants)
    }

    @Test func aJSONAnswerIsAValueAndATextAnswerIsText() async throws {
        try await TestHTTPServer.with { server in
            let outcome = await run("""
                set r = get "BASE/json"
                show r.status
                show r.body.name
                show r.body.tags[1]
                show r.body.price + 1
                show r.headers."content-type"
                show r.headers."x-test"
                show (get "BASE/text").body
                show (get "BASE/latin1").body
                show (get "BASE/problem").body.title
                show (get "BASE/empty-json").body == nil
                """, server)
            #expect(outcome.output == ["200", "auto", "b", "4.5", "application/json", "one, two", "hello, wörld", "café", "bad", "true"],
                    "\(outcome.standardError)")
        }
    }

    @Test func postPutAndDeleteSendWhatTheScriptGives() async throws {
        try await TestHTTPServer.with { server in
            let outcome = await run("""
                set sent = post {name: "Ann Lee", n: 2, price: 3.50, ok: true, tags: ["a", "b"]} to "BASE/echo"
                show sent.body.method
                show sent.body.headers."content-type"
                show sent.body.body
                set text = post "plain words" to "BASE/echo" headers: {"X-Token": "abc", Accept: "text/plain"}
                show text.body.headers."content-type"
                show text.body.headers."x-token"
                show text.body.headers."user-agent"
                show text.body.body
                set form = post {name: "Ann Lee", tags: ["a", "b"], n: 2, skipped: nil, note: "x&y=ü"} to "BASE/echo" form: true
                show form.body.headers."content-type"
                show form.body.body
                set replaced = put [1, 2, 3] to "BASE/echo"
                show "\\(replaced.body.method) \\(replaced.body.body)"
                set gone = delete "BASE/echo"
                show "\\(gone.body.method) [\\(gone.body.body)]"
                set own = post "<a/>" to "BASE/echo" headers: {"Content-Type": "application/xml"}
                show own.body.headers."content-type"
                """, server)
            #expect(outcome.output == [
                "POST", "application/json", #"{"name":"Ann Lee","n":2,"price":3.5,"ok":true,"tags":["a","b"]}"#,
                "text/plain; charset=utf-8", "abc", "auto", "plain words",
                "application/x-www-form-urlencoded", "name=Ann+Lee&tags=a&tags=b&n=2&note=x%26y%3D%C3%BC",
                "PUT [1,2,3]", "DELETE []", "application/xml",
            ], "\(outcome.standardError)")
        }
    }

    @Test func whatCantBeSentIsAnErrorBeforeAnythingIsSent() async throws {
        try await TestHTTPServer.with { server in
            let form = await run(#"post [1, 2] to "BASE/echo" form: true"#, server)
            #expect(form.standardError.contains("can't post to '\(server.base)/echo': form: true sends a record's fields, and the body is a list"),
                    "\(form.standardError)")
            let field = await run(#"post {when: today} to "BASE/echo" form: true"#, server)
            #expect(field.standardError.contains("the form field 'when' is a Date"), "\(field.standardError)")
            let name = await run(#"get "BASE/json" headers: {"bad name": "x"}"#, server)
            #expect(name.standardError.contains("'bad name' is not a header's name"), "\(name.standardError)")
            let value = await run(#"get "BASE/json" headers: {"X-A": "one\nX-B: two"}"#, server)
            #expect(value.standardError.contains("the header 'X-A' has a line break in its value"), "\(value.standardError)")
            let timeout = await run(#"get "BASE/json" timeout: 0 seconds"#, server)
            #expect(timeout.standardError.contains("its timeout must be longer than 0 seconds"), "\(timeout.standardError)")
            #expect(server.received.isEmpty, "\(server.paths)")
        }
    }

    /// A status that says the request failed is no error: the script reads it (as `run command`'s status).
    @Test func anErrorStatusIsAnAnswerNotAnError() async throws {
        try await TestHTTPServer.with { server in
            let outcome = await run("""
                set missing = get "BASE/status/404"
                show "\\(missing.status) \\(missing.body)"
                set broken = post {a: 1} to "BASE/status/500"
                show "\\(broken.status) \\(broken.body)"
                """, server)
            #expect(outcome.exitCode == 0)
            #expect(outcome.output == ["404 status 404", "500 status 500"], "\(outcome.standardError)")
        }
    }

    @Test func aBodyLabelledJSONThatIsNotIsAnError() async throws {
        try await TestHTTPServer.with { server in
            let outcome = await run(#"get "BASE/bad-json""#, server)
            #expect(outcome.exitCode == 1)
            #expect(outcome.standardError.contains("can't get '\(server.base)/bad-json': the answer says it is JSON (application/json), and it is not valid JSON"),
                    "\(outcome.standardError)")
        }
    }

    // A request's timeout covers all its hops; these take 10 minutes rather than 30 seconds because the whole test suite,
    // run in one process, can keep this task from running again for longer than 30 seconds between two hops.
    @Test func redirectsAreFollowedByTheirRules() async throws {
        try await TestHTTPServer.with { server in
            let outcome = await run("""
                show (get "BASE/redirect/302?to=/json" timeout: 10 minutes).body.name
                show (get "BASE/chain/10" timeout: 10 minutes).body.end
                set seeOther = post "form data" to "BASE/redirect/303?to=/echo" timeout: 10 minutes
                show "\\(seeOther.body.method) [\\(seeOther.body.body)]"
                set temporary = post "kept" to "BASE/redirect/307?to=/echo" timeout: 10 minutes
                show "\\(temporary.body.method) [\\(temporary.body.body)]"
                set moved = put "kept too" to "BASE/redirect/301?to=/echo" timeout: 10 minutes
                show "\\(moved.body.method) [\\(moved.body.body)]"
                """, server)
            #expect(outcome.output == ["auto", "true", "GET []", "POST [kept]", "PUT [kept too]"], "\(outcome.standardError)")
            #expect(server.paths.prefix(2) == ["/redirect/302", "/json"], "\(server.paths)")
        }
    }

    @Test func aRedirectLoopAndTooManyRedirectsAreErrors() async throws {
        try await TestHTTPServer.with { server in
            let loop = await run(#"get "BASE/loop/a" timeout: 10 minutes"#, server)
            #expect(loop.standardError.contains("can't get '\(server.base)/loop/a': it redirects in a loop, back to '\(server.base)/loop/a'"),
                    "\(loop.standardError)")
            let chain = await run(#"get "BASE/chain/11" timeout: 10 minutes"#, server)
            #expect(chain.standardError.contains("can't get '\(server.base)/chain/11': it redirects more than 10 times (too many redirects)"),
                    "\(chain.standardError)")
            #expect(server.paths.filter { $0.hasPrefix("/chain/") }.count == 11, "the 11th redirect was not followed: \(server.paths)")
            let scheme = await run(#"get "BASE/redirect/302?to=ftp://example.org/file" timeout: 10 minutes"#, server)
            #expect(scheme.standardError.contains("it redirects to 'ftp://example.org/file', which is not an http:// or https:// address"),
                    "\(scheme.standardError)")
        }
    }

    /// The server never answers `/slow`, and answers `/slow-body` with a head and half a body: a timeout of 0.3 s ends
    /// both, the body's too, and closes the connection.
    @Test func aTimeoutStopsARequestThatGetsNoAnswer() async throws {
        try await TestHTTPServer.with { server in
            for path in ["/slow", "/slow-body"] {
                let ending = try await outcome(#"get "BASE\#(path)" timeout: 300 milliseconds"#, server).ending
                guard case .failed(let error) = ending else {
                    Issue.record("\(path): the run did not fail: \(ending)")
                    continue
                }
                #expect("\(error)".contains("can't get '\(server.base)\(path)': it timed out after 0.3 seconds without a whole answer"), "\(error)")
                #expect(await server.wait { $0.abandoned.contains(path) }, "the client closed the connection of \(path)")
            }
        }
    }

    /// With a limit of 1 MB, a body that goes on for 200 MB is an error, and the download stops there: the server's
    /// writes fail once the client has closed the connection, long before it has sent it all.
    @Test func aBodyOverTheLimitStopsTheDownload() async throws {
        try await TestHTTPServer.with { server in
            let streamed = await run(#"get "BASE/large?bytes=200000000" limit: 1 MB"#, server)
            #expect(streamed.exitCode == 1)
            #expect(streamed.standardError.contains("can't get '\(server.base)/large?bytes=200000000': the body is over the limit of 1 MB"),
                    "\(streamed.standardError)")
            #expect(await server.wait { $0.state.streamEnd.withLock { $0 } != .going }, "the stream ended")
            #expect(server.state.streamEnd.withLock { $0 } == .stopped)
            #expect(server.state.streamed.load(ordering: .relaxed) < 100_000_000, "\(server.state.streamed.load(ordering: .relaxed)) bytes sent")
            // A length announced over the limit is refused before the body is read.
            let declared = await run(#"get "BASE/large-declared?bytes=5000000" limit: 1 MB"#, server)
            #expect(declared.standardError.contains("the body is over the limit of 1 MB (give limit: a larger size to read it)"),
                    "\(declared.standardError)")
            let fits = await run(#"show count((get "BASE/large-declared?bytes=5000000" limit: 6 MB).body)"#, server)
            #expect(fits.output == ["5000000"], "\(fits.standardError)")
        }
    }

    /// Granted only example.org, a run reaches nothing on 127.0.0.1: the refusal comes before any request is sent.
    @Test func theSandboxRefusesAHostBeforeAnyRequest() async throws {
        try await TestHTTPServer.with { server in
            let refused = await run(#"get "BASE/json""#, server, grants: Grants(net: .only(["example.org"])))
            #expect(refused.exitCode == 1)
            #expect(refused.standardError.contains(
                "can't get '\(server.base)/json': this run may not use the network 127.0.0.1:\(server.port): it is not among what --allow-net granted (example.org)"),
                    "\(refused.standardError)")
            let posted = await run(#"post {a: 1} to "BASE/echo""#, server, grants: Grants(net: .only(["example.org"])))
            #expect(posted.exitCode == 1, "\(posted.standardError)")
            #expect(server.received.isEmpty, "the server saw \(server.paths)")
            let none = await run(#"get "BASE/json""#, server, grants: .none)
            #expect(none.exitCode == 2, "refused before the run: \(none.standardError)")
            #expect(none.standardError.contains("'get' needs to use the network, and this run may not"), "\(none.standardError)")
            #expect(server.received.isEmpty, "the server saw \(server.paths)")
            // Granted the host (by name, or with its port), it is reached.
            let granted = await run(#"show (get "BASE/json").status"#, server, grants: Grants(net: .only(["127.0.0.1"])))
            #expect(granted.output == ["200"], "\(granted.standardError)")
            let withPort = await run(#"show (get "BASE/json").status"#, server, grants: Grants(net: .only(["127.0.0.1:\(server.port)"])))
            #expect(withPort.output == ["200"], "\(withPort.standardError)")
        }
    }

    /// Every hop of a redirect is authorized: `/away` redirects to `localhost` (the same server by another name), which
    /// the run is not granted, so the redirect is not followed.
    @Test func aRedirectToAHostNotGrantedIsRefused() async throws {
        try await TestHTTPServer.with { server in
            let outcome = await run(#"get "BASE/away""#, server, grants: Grants(net: .only(["127.0.0.1"])))
            #expect(outcome.exitCode == 1)
            #expect(outcome.standardError.contains(
                "can't get '\(server.base)/away': it redirects to 'http://localhost:\(server.port)/json', and this run may not use the network localhost:\(server.port)"),
                    "\(outcome.standardError)")
            #expect(server.paths == ["/away"], "\(server.paths)")
            let followed = await run(#"show (get "BASE/away" timeout: 10 minutes).body.name"#, server, grants: Grants(net: .only(["127.0.0.1", "localhost"])))
            #expect(followed.output == ["auto"], "\(followed.standardError)")
        }
    }

    @Test func aRefusedConnectionAnUnknownHostAndAnInvalidURLAreClearErrors() async throws {
        let port = try LoopbackPort.unused()
        let refused = await EngineHarness.run(#"get "http://127.0.0.1:\#(port)/x""#, registry: registry)
        #expect(refused.exitCode == 1)
        #expect(refused.standardError.contains("can't get 'http://127.0.0.1:\(port)/x': the connection was refused (nothing answers on port \(port) of 127.0.0.1)"),
                "\(refused.standardError)")
        let unknown = await EngineHarness.run(#"get "http://no-such-host.invalid/data.json""#, registry: registry)
        #expect(unknown.standardError.contains("can't get 'http://no-such-host.invalid/data.json': the host 'no-such-host.invalid' was not found"),
                "\(unknown.standardError)")
        let scheme = await EngineHarness.run(#"delete "ftp://example.org/x""#, registry: registry)
        #expect(scheme.standardError.contains("can't delete 'ftp://example.org/x': only http:// and https:// addresses can be reached"),
                "\(scheme.standardError)")
        let words = await EngineHarness.run(#"put "x" to "example dot org""#, registry: registry)
        #expect(words.standardError.contains("can't put to 'example dot org': it is not a web address (http://… or https://…)"),
                "\(words.standardError)")
    }

    /// HTTPS with a certificate no authority signed: refused during the handshake, so no request reaches the server.
    @Test func aCertificateNobodyVouchesForIsRefused() async throws {
        try await TestHTTPServer.with(tls: true) { server in
            let outcome = await run(#"get "BASE/json""#, server)
            #expect(outcome.exitCode == 1)
            #expect(outcome.standardError.contains("can't get '\(server.base)/json': its certificate can't be trusted (no authority this machine trusts signed it, or it is not for '127.0.0.1')"),
                    "\(outcome.standardError)")
            #expect(server.received.isEmpty, "\(server.paths)")
        }
    }

    /// Ctrl-C sets the run's cancellation flag (it doesn't cancel the task): a request in flight stops at once. Its own
    /// timeout is 10 minutes, so a request that the cancellation didn't stop would still be open when the server is
    /// asked whether the client closed it.
    @Test func cancellingTheRunStopsARequestInFlight() async throws {
        try await TestHTTPServer.with { server in
            let flag = CancellationFlag()
            let script = try compile(#"get "BASE/slow" timeout: 10 minutes"#, server)
            let running = Task {
                await Engine(registry: script.registry).run(script.program, interaction: ScriptedInteraction(), cancellation: flag)
            }
            #expect(await server.wait { $0.paths.contains("/slow") }, "the request reached the server")
            flag.cancel()
            let stopped = await server.wait { $0.abandoned.contains("/slow") }
            #expect(stopped, "the client closed the connection when the run was cancelled")
            if !stopped { await server.stop() }
            let outcome = await running.value
            guard case .cancelled = outcome.ending else {
                Issue.record("the run was not cancelled: \(outcome.ending)")
                return
            }
        }
    }

    @Test func theRunsTimeLimitStopsARequestInFlight() async throws {
        try await TestHTTPServer.with { server in
            let ending = try await outcome(#"get "BASE/slow" timeout: 10 minutes"#, server, maxDuration: .milliseconds(500)).ending
            guard case .failed(let error) = ending else {
                Issue.record("the run did not fail: \(ending)")
                return
            }
            #expect("\(error)".contains("the run took longer than its time limit"), "\(error)")
            #expect(await server.wait { $0.abandoned.contains("/slow") }, "the client closed the connection")
        }
    }

    /// SIGINT to the real `auto` (Ctrl-C) while a request waits for its answer: the run ends as cancelled (130) and the
    /// connection is closed, long before the request's own timeout of 10 minutes.
    @Test func interruptingTheBinaryStopsTheRequest() async throws {
        try await TestHTTPServer.with { server in
            let child = try ChildProcess(BinaryRunner.binary, ["-e", #"get "\#(server.base)/slow" timeout: 10 minutes"#])
            #expect(await server.wait { $0.paths.contains("/slow") }, "the request reached the server")
            child.signal(SIGINT)
            #expect(await server.wait { $0.abandoned.contains("/slow") }, "the connection was closed")
            let status = child.waitForExit(timeout: .seconds(60))
            #expect(status == 130, "\(child.standardError)")
        }
    }

    @Test func aCodecOutsideTheEngineSaysSo() {
        #expect(throws: IntentError.self) { try ValueCodec.unavailable("JSON").read("1") }
        let context = IntentContext(interaction: ScriptedInteraction(), cancellation: CancellationFlag())
        do {
            _ = try context.json.write(.int(1))
            Issue.record("a context made without an engine wrote JSON")
        } catch {
            #expect("\(error)" == "JSON is not available here: the engine provides it to the intents it runs")
        }
    }

    /// A run on the engine with a time limit of its own (5 minutes unless told), so that a request nothing stops fails
    /// the test instead of hanging it.
    func outcome(_ text: String, _ server: TestHTTPServer, maxDuration: Duration = .seconds(300)) async throws -> RunOutcome {
        let script = try compile(text, server)
        return await Engine(registry: script.registry, limits: RunLimits(maxDuration: maxDuration))
            .run(script.program, interaction: ScriptedInteraction())
    }

    func compile(_ text: String, _ server: TestHTTPServer) throws -> CompiledScript {
        let source = SourceFile(name: "web.auto", text: text.replacingOccurrences(of: "BASE", with: server.base))
        switch ScriptCompiler.compile(source, prelude: EngineHarness.prelude, registry: registry) {
        case .success(let script): return script
        case .failure(let failure): throw IntentError(failure.diagnostics.map { $0.rendered() }.joined())
        }
    }
}
