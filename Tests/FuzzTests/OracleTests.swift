import AutoFuzz
import AutoTestSupport
import Foundation
import Testing

/// The harness must be able to fail: each oracle is run against a fake "binary" (a shell script) that
/// breaks exactly what the oracle checks, and must report it; a well-behaved fake must pass. Only the
/// deadline oracles depend on time, with margins of seconds around what they measure.
@Suite struct OracleTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder("auto-fuzz-test")
    }

    /// An executable shell script in a folder of its own, in the test's; `$last` is the script file auto-fuzz passes.
    func fake(_ body: String) throws -> String {
        let own = folder(UUID().uuidString)
        try FileManager.default.createDirectory(atPath: own, withIntermediateDirectories: true)
        let path = own + "/fake-auto"
        try BinaryRunner.writeExecutable("#!/bin/sh\nfor last; do :; done\n" + body + "\n", to: path)
        return path
    }

    func run(_ binary: String, _ configuration: RunConfiguration = RunConfiguration(), settings: OracleSettings = OracleSettings(),
             program: String = "show 1\n") -> (RunResult, Finding?) {
        let folder = URL(fileURLWithPath: binary).deletingLastPathComponent().path
        let script = folder + "/script.auto"
        _ = FileManager.default.createFile(atPath: script, contents: Data(program.utf8))
        let result = Campaign.run(binary: binary, script: script, bytes: Array(program.utf8), configuration: configuration,
                                  settings: settings, folder: folder)
        return (result, Oracles.check(result, configuration, settings: settings))
    }

    func json() -> RunConfiguration {
        var configuration = RunConfiguration()
        configuration.json = true
        return configuration
    }

    @Test func aWellBehavedBinaryPasses() throws {
        let binary = try fake(#"echo '{"a":[1,2.5,"x",null]}'; echo "shown" >&2; exit 0"#)
        let (result, finding) = run(binary, json())
        #expect(result.termination == .exited(0))
        #expect(finding == nil, "\(finding?.detail ?? "")")
        for code in [1, 2, 130] {
            #expect(run(try fake("echo 'error' >&2; exit \(code)")).1 == nil, "exit \(code) is allowed")
        }
    }

    @Test func aSignalIsACrash() throws {
        let (result, finding) = run(try fake(#"echo "Fatal error: Double value cannot be converted" >&2; kill -SEGV $$"#))
        #expect(result.termination == .signaled(SIGSEGV))
        #expect(finding?.kind == .crash)
        #expect(finding?.signature.hasPrefix("SIGSEGV: Fatal error: Double value") == true, "\(finding?.signature ?? "")")
        #expect(run(try fake("kill -ILL $$")).1?.kind == .crash)
        #expect(run(try fake("kill -ABRT $$")).1?.kind == .crash)
    }

    @Test func anyOtherExitCodeIsAFailure() throws {
        for code in [3, 64, 127, 134, 139] {
            let (_, finding) = run(try fake("exit \(code)"))
            #expect(finding?.kind == .exitCode, "exit \(code)")
            #expect(finding?.signature == "exit \(code)")
        }
    }

    @Test func invalidJSONUnderJSONIsReported() throws {
        for output in [#"{"d":infinity}"#, "nan", "[1,2", #"{"a":1} {"b":2}"#, ""] {
            let binary = try fake("printf '%s\\n' '\(output)'; exit 0")
            let (_, finding) = run(binary, json())
            #expect(finding?.kind == .invalidJSON, "\(output)")
            // Without --json, standard output is for people and may be anything.
            #expect(run(binary).1 == nil)
        }
        #expect(run(try fake(#"printf '{"d":infinity}\n'"#), json()).1?.signature == "invalid json: infinity")
        #expect(run(try fake("printf '1\\n2\\n'"), json()).1?.kind == .invalidJSON, "two lines")
        #expect(run(try fake("printf '42'"), json()).1?.kind == .invalidJSON, "no newline")
    }

    @Test func validJSONIsValidHoweverDeep() {
        func problem(_ text: String) -> String? { Oracles.jsonProblem(Array((text + "\n").utf8)) }
        let deep = String(repeating: #"{"a":["#, count: 3000) + "1" + String(repeating: "]}", count: 3000)
        for valid in [deep, "1", "-0.5e+10", #""\u00e9\n""#, #"{"a":[1,{"b":null}],"c":true}"#, "[ ]", " {} ", #"["é"]"#] {
            #expect(problem(valid) == nil, "\(valid.prefix(40))")
        }
        let deepOpen = String(repeating: "[", count: 3000) + String(repeating: "]", count: 2999)
        for invalid in [deepOpen, "infinity", "nan", "-infinity", "[1,]", #"{"a" 1}"#, "01", "1.", ".5", "\"tab\tliteral\"", "[1] [2]",
                        #"{"a":1,}"#, "tru", #""\x""#, "{1:2}"] {
            #expect(problem(invalid) != nil, "\(invalid.prefix(40))")
        }
    }

    @Test func outputBeyondTheCaptureLimitIsNotJudged() throws {
        // 9 MB of valid JSON, more than the 8 MB kept: the cut text is not "invalid JSON".
        let (result, finding) = run(try fake(#"printf '"'; head -c 9000000 /dev/zero | tr '\0' a; printf '"\n'"#), json())
        #expect(result.termination == .exited(0))
        #expect(!result.hasWholeStandardOutput)
        #expect(finding == nil, "\(finding?.detail ?? "")")
    }

    @Test func standardOutputAfterAFailureIsReported() throws {
        #expect(run(try fake("echo partial; exit 1"), json()).1?.kind == .outputOnFailure)
        #expect(run(try fake("echo ran anyway; exit 2")).1?.kind == .outputAfterCompileError)
    }

    /// Ending by SIGPIPE when nobody reads standard output is what Unix tools do: no finding. Any other signal is.
    @Test func sigpipeOnABrokenPipeIsAcceptedAndNoOtherSignalIs() throws {
        var configuration = RunConfiguration()
        configuration.output = .brokenPipe
        let (result, finding) = run(try fake("while :; do echo x; done"), configuration)
        #expect(result.termination == .signaled(SIGPIPE))
        #expect(finding == nil)
        #expect(run(try fake("kill -PIPE $$"), RunConfiguration()).1?.kind == .crash, "SIGPIPE with a reader is a crash")
    }

    @Test func standardInputIsClosedEmptyOrTheScript() {
        // `sh -c` opens no script file of its own, so its fd 0 is exactly what the runner made it.
        func standardInput(_ mode: RunConfiguration.Input) -> String {
            var request = ProcessRunner.Request(executable: "/bin/sh", arguments: ["-c", "readlink /proc/self/fd/0 || echo closed; cat"],
                                                environment: ["PATH": "/usr/bin:/bin"], input: mode, output: .pipe, hardDeadline: 30)
            request.inputBytes = Array("the script\n".utf8)
            return ProcessRunner.run(request).standardOutputText
        }
        #expect(standardInput(.closed).hasPrefix("closed"))
        #expect(standardInput(.empty) == "/dev/null\n")
        #expect(standardInput(.script).hasPrefix("pipe:"))
        #expect(standardInput(.script).hasSuffix("\nthe script\n"))
    }

    @Test func aChildInheritsNoOtherFileDescriptor() {
        // As if another thread were writing a file (without close-on-exec) at the moment of the spawn.
        let stray = open(folder("stray"), O_WRONLY | O_CREAT, 0o644)
        defer { close(stray) }
        let request = ProcessRunner.Request(executable: "/bin/sh", arguments: ["-c", "[ -e /proc/$$/fd/\(stray) ] && echo inherited || echo closed"],
                                            environment: ["PATH": "/usr/bin:/bin"], input: .empty, output: .pipe, hardDeadline: 30)
        #expect(ProcessRunner.run(request).standardOutputText == "closed\n")
    }

    // MARK: Deadlines (margins of seconds)

    func timeout(_ seconds: String) -> RunConfiguration {
        var configuration = RunConfiguration()
        configuration.timeout = seconds
        return configuration
    }

    @Test func aProcessStillRunningAtTheHardDeadlineIsAHang() throws {
        var settings = OracleSettings()
        settings.hangSlack = 1.5
        let (result, finding) = run(try fake("sleep 60"), timeout("0.2"), settings: settings)
        #expect(result.killed)
        #expect(finding?.kind == .hang)
        #expect(result.wallTime < 30, "killed, not waited for")
    }

    @Test func endingLongAfterTheTimeoutIsAnOverrun() throws {
        var settings = OracleSettings()
        settings.exitSlack = 0.5
        settings.hangSlack = 30
        let (result, finding) = run(try fake("sleep 2.5; echo 'time limit' >&2; exit 1"), timeout("0.2"), settings: settings)
        #expect(!result.killed)
        #expect(finding?.kind == .timeoutOverrun, "\(finding?.detail ?? "no finding")")
    }

    @Test func outputAfterTheDeadlineIsReported() throws {
        var settings = OracleSettings()
        settings.outputSlack = 0.5
        settings.exitSlack = 20
        settings.hangSlack = 40
        let (_, finding) = run(try fake("echo early; sleep 2.5; echo late; exit 1"), timeout("0.2"), settings: settings)
        #expect(finding?.kind == .outputAfterDeadline, "\(finding?.detail ?? "no finding")")
    }

    @Test func aRunWithinItsTimeoutPasses() throws {
        // Generous: the fake answers at once, the allowance is 10 seconds.
        var settings = OracleSettings()
        settings.outputSlack = 10
        settings.exitSlack = 10
        #expect(run(try fake("echo done; exit 1"), timeout("0.5"), settings: settings).1 == nil)
    }

    // MARK: Minimising

    @Test func minimisingKeepsTheFailingLine() throws {
        let binary = try fake(#"grep -q boom "$last" && kill -ABRT $$; exit 0"#)
        let program = (1...30).map { $0 == 17 ? "show \"boom\" + x" : "set v\($0) = \($0) * 2" }.joined(separator: "\n")
        let (_, finding) = run(binary, program: program)
        let signature = try #require(finding?.signature)
        var minimiser = Minimizer(budget: 500) { candidate in
            run(binary, program: String(decoding: candidate, as: UTF8.self)).1?.signature == signature
        }
        let minimal = String(decoding: minimiser.minimise(Array(program.utf8)), as: UTF8.self)
        #expect(minimal.contains("boom"))
        #expect(minimal.count <= 8, "'\(minimal)'")
    }

    @Test func minimisingTheCommandLineKeepsWhatTheFailureNeeds() {
        var configuration = RunConfiguration()
        (configuration.json, configuration.maxSteps, configuration.timeZone, configuration.input) = (true, "5", "UTC", .closed)
        (configuration.timeout, configuration.arguments, configuration.output) = ("0.5", ["a"], .closed)
        // This "failure" needs --json and a closed standard output, nothing else.
        let simplified = Campaign.simplified(configuration, keepTimeout: false) { $0.json && $0.output == .closed }
        #expect(simplified.json && simplified.output == .closed)
        #expect(simplified.maxSteps == nil && simplified.timeZone == nil && simplified.timeout == nil && simplified.arguments.isEmpty)
        #expect(simplified.input == .empty)
        #expect(Campaign.simplified(configuration, keepTimeout: true) { _ in true }.timeout == "0.5", "a timing failure keeps its timeout")
    }

    @Test func minimisingShrinksNestingWhileItStaysBalanced() throws {
        // Fails only on balanced parentheses nested 20 or more deep, as a depth crash would.
        let binary = try fake(#"grep -q '((((((((((((((((((((1))))))))))))))))))))' "$last" && kill -SEGV $$; exit 0"#)
        let program = "show " + String(repeating: "(", count: 3000) + "1" + String(repeating: ")", count: 3000) + "\n"
        let (_, finding) = run(binary, program: program)
        let signature = try #require(finding?.signature)
        var minimiser = Minimizer(budget: 300) { candidate in
            run(binary, program: String(decoding: candidate, as: UTF8.self)).1?.signature == signature
        }
        let minimal = minimiser.minimise(Array(program.utf8))
        #expect(minimal.count < 200, "\(minimal.count) bytes left")
    }

    /// The sandbox oracle: a fake binary that writes outside its box, keeps a setuid bit or shows the secret kept
    /// outside is caught; one that only writes in its box passes. (`$1` is `--allow-read=BOX`.)
    @Test func theSandboxOracleCatchesEachEscape() throws {
        let cases: [(String, String?)] = [
            (#"box="${1#--allow-read=}"; echo x > "$box/inside.txt""#, nil),
            (#"box="${1#--allow-read=}"; echo x > "$box/../outside/escaped.txt""#, "outside the box, changed"),
            (#"box="${1#--allow-read=}"; echo x >> "$box/../outside/linked.txt""#, "outside the box, changed"),
            (#"box="${1#--allow-read=}"; touch "$box/s"; chmod 4755 "$box/s""#, "a setuid or setgid bit was kept"),
            (#"box="${1#--allow-read=}"; cat "$box/../outside/secret.txt""#, "the secret kept outside the box was shown"),
            (#"box="${1#--allow-read=}"; cp "$box/../outside/secret.txt" "$box/stolen""#, "the secret kept outside the box was copied"),
            ("exit 3", "exit code 3"),
        ]
        for (body, expected) in cases {
            let binary = try fake(body)
            let folder = URL(fileURLWithPath: binary).deletingLastPathComponent().path
            let (_, _, problem) = SandboxEscapes(seed: 1, binary: binary, folder: folder).run(0)
            if let expected {
                #expect(problem?.contains(expected) == true, "\(body): \(problem ?? "passed")")
            } else {
                #expect(problem == nil, "\(body): \(problem ?? "")")
            }
        }
    }
}
