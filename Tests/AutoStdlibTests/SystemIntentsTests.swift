import AutoIntents
import AutoLanguage
import AutoRuntime
import AutoStdlib
import AutoTestSupport
import Foundation
import Testing

/// `run command` on real programs, and the other system intents.
@Suite struct SystemIntentsTests {
    let registry: Registry

    init() throws {
        registry = try stdlibRegistry()
    }

    func run(_ text: String, grants: Grants = .all) async -> ScriptOutcome {
        await EngineHarness.run(text, registry: registry, grants: grants)
    }

    @Test func statusOutputAndErrorsComeBackAndAFailingProgramIsNoError() async {
        let outcome = await run("""
            set r = run command "sh" arguments: ["-c", "printf out; printf err >&2; exit 3"]
            show "\\(r.status) [\\(r.stdout)] [\\(r.stderr)]"
            """)
        #expect(outcome.output == ["3 [out] [err]"], "\(outcome.standardError)")
    }

    @Test func argumentsNeverGoThroughAShell() async {
        let outcome = await run(#"show (run command "printf" arguments: ["%s|", "a b", "$HOME", "; rm -rf x", "*"]).stdout"#)
        #expect(outcome.output == ["a b|$HOME|; rm -rf x|*|"], "\(outcome.standardError)")
    }

    @Test func aFolderAndStandardInput() async throws {
        let folder = try GrantedPath.resolve(FileManager.default.temporaryDirectory.path)
        let outcome = await run("""
            show (run command "pwd" folder: "\(folder)").stdout
            show (run command "wc" arguments: ["-l"] input: "one\\ntwo\\n").stdout
            """)
        #expect(outcome.output.map { $0.trimmingCharacters(in: .whitespaces) } == [folder, "", "2", ""], "\(outcome.standardError)")
        let missing = await run(#"run command "pwd" folder: "/no/such/folder""#)
        #expect(missing.standardError.contains("can't run 'pwd' in '/no/such/folder': there is no such folder"), "\(missing.standardError)")
    }

    @Test func anEnvironmentSetsAndRemovesVariablesOverWhatIsInherited() async {
        setenv("AUTO_TEST_INHERITED", "kept", 1)
        setenv("AUTO_TEST_REMOVED", "there", 1)
        let outcome = await run(#"""
            set r = run command "sh" arguments: ["-c", "printf '%s|%s|%s|%s|%s' \"$GREETING\" \"$COUNT\" \"$AUTO_TEST_INHERITED\" \"${AUTO_TEST_REMOVED-unset}\" \"$FLAG\""] environment: {GREETING: "hello world", COUNT: 3, AUTO_TEST_REMOVED: nil, FLAG: true}
            show r.stdout
            """#)
        #expect(outcome.output == ["hello world|3|kept|unset|true"], "\(outcome.standardError)")
        let list = await run(#"run command "true" environment: {PATH: ["/bin"]}"#)
        #expect(list.standardError.contains("the environment variable 'PATH' is a list; give a text, or nil to remove it"), "\(list.standardError)")
        let badName = await run(#"run command "true" environment: {"A=B": "x"}"#)
        #expect(badName.standardError.contains("'A=B' can't name an environment variable"), "\(badName.standardError)")
    }

    @Test func aRunGrantedSomeProgramsCantSetTheirEnvironment() async {
        let confined = await run(#"run command "true" environment: {LD_PRELOAD: "/tmp/x.so"}"#,
                                 grants: Grants(run: .only(["true"])))
        #expect(confined.exitCode == 1)
        #expect(confined.standardError.contains("this run may not set the environment of 'true'"), "\(confined.standardError)")
        let plain = await run(#"show (run command "true" environment: {}).status"#, grants: Grants(run: .only(["true"])))
        #expect(plain.output == ["0"], "\(plain.standardError)")
    }

    @Test func aProgramThatIsNotThereOrRunsTooLongIsAnError() async {
        let missing = await run(#"run command "no-such-program-here""#)
        #expect(missing.exitCode == 1)
        #expect(missing.standardError.contains("there is no program 'no-such-program-here' in PATH"), "\(missing.standardError)")
        let slow = await run(#"run command "sleep" arguments: ["30"] timeout: 200 milliseconds"#)
        #expect(slow.exitCode == 1)
        #expect(slow.standardError.contains("'sleep' ran longer than its timeout and was stopped"), "\(slow.standardError)")
    }

    @Test func megabytesOnStandardErrorComeBackAndTooManyStopTheProgram() async {
        let loud = await run(#"show count((run command "sh" arguments: ["-c", "head -c 5000000 /dev/zero | tr '\\0' x >&2; echo done"]).stderr)"#)
        #expect(loud.output == ["5000000"], "\(loud.standardError)")
        let flood = await run(#"run command "sh" arguments: ["-c", "head -c 70000000 /dev/zero >&2"]"#)
        #expect(flood.exitCode == 1)
        #expect(flood.standardError.contains("'sh' wrote more than 64 MB to one stream and was stopped"), "\(flood.standardError)")
    }

    /// SIGINT to the real `auto` (Ctrl-C, as `kill -INT` sends it) while a program runs: the run ends as cancelled
    /// and the program is stopped, not left behind. The test's own process may be busy with other suites, so it
    /// waits for conditions with generous deadlines, never for a fixed time.
    @Test func interruptingTheRunStopsTheProgram() async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BinaryRunner.binary)
        process.arguments = ["-e", #"run command "sleep" arguments: ["600"]"#]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        // The child that is `sleep` by its command line, found once: a process started on the way to it (the
        // spawn's own) can come and go in between two looks.
        var sleeper: Int32?
        let deadline = Date().addingTimeInterval(60)
        while sleeper == nil, Date() < deadline {
            sleeper = Self.children(of: process.processIdentifier).first { pid in
                let arguments = ((try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)) ?? "").split(separator: "\u{0}")
                return arguments.count == 2 && (arguments[0] == "sleep" || arguments[0].hasSuffix("/sleep")) && arguments[1] == "600"
            }
            if sleeper == nil { usleep(20_000) }
        }
        let child = try #require(sleeper, "the program started")
        // Should the run not stop it, the program goes with the test: no `sleep 600` outlives a failure.
        defer { if kill(child, 0) == 0 { kill(child, SIGKILL) } }
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        let gone = Date().addingTimeInterval(60)
        while kill(child, 0) == 0, Date() < gone { usleep(20_000) }
        #expect(kill(child, 0) != 0, "the program was stopped with the run")
    }

    /// The processes whose parent is `pid`, from /proc.
    static func children(of pid: Int32) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { Int32($0) }.filter { candidate in
            guard let stat = try? String(contentsOfFile: "/proc/\(candidate)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 2 && Int32(fields[1]) == pid
        }
    }

    @Test func grantsAreAskedByProgramName() async throws {
        let git = Grants(run: .only(["sh"]))
        let sh = try #require(GrantedPath.program("sh"))
        let allowed = await run(#"show (run command "sh" arguments: ["-c", "echo ok; echo $0"]).stdout"#, grants: git)
        #expect(allowed.output.prefix(2) == ["ok", "sh"], "the file resolved, called by the name given: \(allowed.standardError)")
        let refused = await run(#"run command "ls""#, grants: git)
        #expect(refused.standardError.contains("'ls': it is not among what --allow-run granted (sh: \(sh))"), "\(refused.standardError)")
        let none = await run(#"run command "ls""#, grants: .none)
        #expect(none.exitCode == 2, "refused before the run: \(none.standardError)")
    }

    /// A program granted by its path, in a folder the run may write: the run could have changed it, so it is not
    /// started, and the refusal says which grant and why.
    @Test func aGrantedProgramUnderAWritableFolderIsNotStarted() async throws {
        let temporary = try TemporaryFolder("auto-run")
        defer { withExtendedLifetime(temporary) {} }
        let folder = try GrantedPath.resolve(temporary.path)
        try BinaryRunner.writeExecutable("#!/bin/sh\necho started\n", to: folder + "/tool")
        let readOnly = await run(#"show (run command "\#(folder)/tool").stdout"#, grants: Grants(run: .only([folder + "/tool"])))
        #expect(readOnly.output.first == "started", "\(readOnly.standardError)")
        let writable = await run(#"run command "\#(folder)/tool""#, grants: Grants(write: .only([folder]), run: .only([folder + "/tool"])))
        #expect(writable.exitCode == 1)
        #expect(writable.standardError.contains("this run may not run programs '\(folder)/tool': '\(folder)/tool' is in '\(folder)', which --allow-write granted"),
                "\(writable.standardError)")
    }

    @Test func logWritesOnStandardErrorApartFromTheOutput() async throws {
        let result = try await BinaryRunner.runAwaiting(["-e", #"show 1"#, "-e", #"log "two\nlines""#, "-e", "show 3"])
        #expect(result.standardOutput == "1\n3\n")
        #expect(result.standardError == "log: two\n     lines\n", "\(result.standardError)")
    }

    /// `fail` says the script's words alone, where an intent's error has the intent's name in front.
    @Test func failSaysItsTextAlone() async throws {
        let failed = try await BinaryRunner.runAwaiting(["-e", "show 1", "-e", #"fail "no files to back up""#])
        #expect(failed.exitCode == 1)
        #expect(failed.standardError.hasPrefix("-e:2:1: error: no files to back up\n"), "\(failed.standardError)")
        let caught = try await BinaryRunner.runAwaiting(["-e", #"try { fail "boom" } otherwise { show error }"#])
        #expect(caught.standardOutput == "boom\n", "\(caught.standardError)")
    }

    @Test func environmentWaitAndNotify() async {
        let outcome = await run("""
            show (environment variable "PATH") != ""
            show (environment variable "AUTO_SURELY_UNSET_VARIABLE") == ""
            wait 50 milliseconds
            notify "hello"
            """)
        #expect(outcome.output == ["true", "true"], "\(outcome.standardError)")
        let refused = await run(#"environment variable "HOME""#, grants: Grants(read: .all))
        #expect(refused.standardError.contains("'environment variable' needs to read environment variables"), "\(refused.standardError)")
        let negative = await run("wait -1 seconds")
        #expect(negative.standardError.contains("can't wait a negative duration"), "\(negative.standardError)")
    }
}
