@testable import AutoTerminal
@testable import AutoCLI
import AutoIntents
import AutoTestSupport
import Foundation
import Testing

/// `--sandbox` and `--allow-…` on the real binary: what a run is refused, before anything happens where the
/// checker can tell, and what `check` and `intents describe` say about it.
@Suite struct CapabilityTests {
    /// The test's folder, whose path is `home`: removed with everything in it after the test.
    let temporary: TemporaryFolder
    let home: String

    init() throws {
        temporary = try TemporaryFolder("auto-home")
        home = try GrantedPath.resolve(temporary.path)
        try FileManager.default.createDirectory(atPath: home + "/Documents", withIntermediateDirectories: true)
    }

    func auto(_ arguments: String...) async throws -> BinaryRunner.Result {
        try await BinaryRunner.runAwaiting(arguments, environment: ["HOME": home], directory: home)
    }

    @Test func aSandboxRefusesAWriteBeforeTheRunAndCreatesNothing() async throws {
        let result = try await auto("--sandbox", "--allow-read=~/Documents", "-e", #"write text "x" to "~/elsewhere.txt""#)
        #expect(result.exitCode == 2)
        #expect(result.standardError.contains("-e:1:1: error: 'write text' needs to write files, and this run may not"), "\(result.standardError)")
        #expect(result.standardError.contains("grant it with --allow-write"))
        #expect(!FileManager.default.fileExists(atPath: home + "/elsewhere.txt"))
    }

    @Test func aWriteGrantForSomePathsIsCheckedWhenTheRunGetsThere() async throws {
        let refused = try await auto("--allow-write=~/Documents", "-e", #"show "before"; write text "x" to "~/Documents/../elsewhere.txt""#)
        #expect(refused.exitCode == 1)
        #expect(refused.standardOutput == "before\n")
        #expect(refused.standardError.contains("'\(home)/elsewhere.txt' is outside what --allow-write granted (\(home)/Documents)"),
                "\(refused.standardError)")
        let allowed = try await auto("--allow-write=~/Documents", "-e", #"write text "x" to "~/Documents/a.txt""#)
        #expect(allowed.exitCode == 0, "\(allowed.standardError)")
        #expect(FileManager.default.contents(atPath: home + "/Documents/a.txt") == Data("x".utf8))
        #expect(!FileManager.default.fileExists(atPath: home + "/elsewhere.txt"))
    }

    @Test func aBareAllowFlagGrantsAllOfItAndNothingElse() async throws {
        let write = try await auto("--allow-write", "-e", #"write text "x" to "~/b.txt""#)
        #expect(write.exitCode == 0, "\(write.standardError)")
        let read = try await auto("--allow-write", "-e", #"read text "~/b.txt""#)
        #expect(read.exitCode == 2, "--allow-write alone grants no reading")
        #expect(read.standardError.contains("'read text' needs to read files"), "\(read.standardError)")
        let both = try await auto("--allow-read", "--allow-write", "-e", #"show read text "~/b.txt""#)
        #expect(both.standardOutput == "x\n", "\(both.standardError)")
        let unrestricted = try await auto("-e", #"show read text "~/b.txt""#)
        #expect(unrestricted.standardOutput == "x\n", "without --sandbox or --allow-…, everything is granted")
    }

    @Test func checkSaysWhichFlagEachCallNeeds() async throws {
        try #"""
            set body = read text "~/Documents/in.txt"
            write text body to "~/Documents/out.txt"
            """#.write(toFile: home + "/copy.auto", atomically: true, encoding: .utf8)
        let sandboxed = try await auto("check", "--sandbox", "copy.auto")
        #expect(sandboxed.exitCode == 2)
        #expect(sandboxed.standardError.contains("copy.auto:1:12: error: 'read text' needs to read files"), "\(sandboxed.standardError)")
        #expect(sandboxed.standardError.contains("copy.auto:2:1: error: 'write text' needs to write files"), "\(sandboxed.standardError)")
        let granted = try await auto("check", "--allow-read=~/Documents", "--allow-write=~/Documents", "copy.auto")
        #expect(granted.exitCode == 0, "\(granted.standardError)")
        #expect(try await auto("check", "copy.auto").exitCode == 0)
    }

    @Test func aFilesMetadataNeedsTheReadGrantItsNameDoesNot() async throws {
        try "x".write(toFile: home + "/Documents/in.txt", atomically: true, encoding: .utf8)
        try "y".write(toFile: home + "/out.txt", atomically: true, encoding: .utf8)
        let inside = try await auto("--allow-read=~/Documents", "--allow-write=~", "-e", #"write text "z" to "~/Documents/new.txt" -> f"#, "-e", "show f.size")
        #expect(inside.standardOutput == "1 byte\n", "\(inside.standardError)")
        let outside = try await auto("--allow-read=~/Documents", "--allow-write=~", "-e", #"write text "z" to "~/new.txt" -> f"#, "-e", "show f.name",
                               "-e", "show f.exists")
        #expect(outside.standardOutput == "new.txt\n")
        #expect(outside.standardError.contains("this run may not read files there: '\(home)/new.txt' is outside what --allow-read granted"),
                "\(outside.standardError)")
        let listed = try await auto("--allow-read=~/Documents", "--allow-write=~", "-e", #"write text "w" to "~/w.txt" -> f"#,
                              "-e", "show ([f] | filter where size > 0 bytes)")
        #expect(listed.standardOutput == "[]\n", "a refused size reads as nil in a filter: \(listed.standardError)")
    }

    @Test func describeShowsWhatAnIntentNeeds() async throws {
        let described = try await auto("intents", "describe", "write text")
        #expect(described.standardOutput.contains("Needs: write files (--allow-write)"), "\(described.standardOutput)")
    }

    @Test func bareFlagsAreExpandedOnlyBeforeTheScriptsOwnArguments() {
        #expect(CapabilityOptions.expandBareFlags(["--allow-read", "-e", "--allow-net", "--allow-net"])
            == ["--allow-read=*", "-e", "--allow-net", "--allow-net=*"], "the code after -e is never a flag")
        #expect(CapabilityOptions.expandBareFlags(["run", "--sandbox", "--allow-run", "s.auto", "--allow-read"])
            == ["run", "--sandbox", "--allow-run=*", "s.auto", "--allow-read"], "after the script, its own arguments")
        #expect(CapabilityOptions.expandBareFlags(["--allow-write=/tmp", "--", "--allow-read"]) == ["--allow-write=/tmp", "--", "--allow-read"])
    }

    @Test func grantsFromFlags() async throws {
        func grants(_ arguments: [String]) throws -> Grants {
            try CapabilityOptions.parse(CapabilityOptions.expandBareFlags(arguments)).grants()
        }
        #expect(try grants([]) == .all)
        #expect(try grants(["--sandbox"]) == .none)
        #expect(try grants(["--allow-env"]) == Grants(env: true))
        #expect(try grants(["--allow-net=example.org,localhost:8080", "--allow-net=a.test"]).net == .only(["example.org", "localhost:8080", "a.test"]))
        #expect(try grants(["--allow-run", "--allow-run=git"]).run == .all)
        #expect(try grants(["--allow-read=/"]).read == .only(["/"]))
    }

    /// `--allow-run` is resolved once, as the flags are read: each name to the file PATH finds for it then, each
    /// path to its file; one not found, or in a folder `--allow-write` grants, is a usage error.
    @Test func programsAreResolvedWhenTheFlagsAreRead() throws {
        func grants(_ arguments: [String]) throws -> Grants {
            try CapabilityOptions.parse(CapabilityOptions.expandBareFlags(arguments)).grants()
        }
        let sh = try #require(GrantedPath.program("sh"))
        let granted = try grants(["--allow-run=sh"])
        #expect(granted.run == .only(["sh"]) && granted.programs == ["sh": sh])
        #expect(throws: (any Error).self) { try grants(["--allow-run=surely-no-such-program"]) }
        try BinaryRunner.writeExecutable("#!/bin/sh\n", to: home + "/Documents/tool")
        #expect(try grants(["--allow-run=\(home)/Documents/tool"]).programs == ["\(home)/Documents/tool": home + "/Documents/tool"])
        #expect(throws: (any Error).self) { try grants(["--allow-write=\(home)", "--allow-run=\(home)/Documents/tool"]) }
        #expect(try grants(["--allow-write", "--allow-run=\(home)/Documents/tool"]).write == .all, "writing everywhere is not confined")
    }
}

/// docs/stdlib.md is what `auto intents reference` prints: the reference can't drift from the intents.
@Suite struct IntentReferenceTests {
    @Test func docsStdlibIsUpToDate() async throws {
        let printed = try await BinaryRunner.runAwaiting(["intents", "reference"])
        #expect(printed.exitCode == 0, "\(printed.standardError)")
        let page = try String(contentsOfFile: Fixture.repositoryRoot + "/docs/stdlib.md", encoding: .utf8)
        #expect(page == printed.standardOutput, "docs/stdlib.md is out of date: run 'swift run auto intents reference > docs/stdlib.md'")
        for name in ["write text", "run command", "delete file", "show"] {
            #expect(page.contains("\n### \(name)\n"), "\(name) is in the reference")
        }
    }

    /// A shortcut declares no capabilities: it needs what the intents its body calls need, through the shortcuts it
    /// calls, and `describe` says so (the prelude's, and a script's own).
    @Test func aShortcutNeedsWhatItsBodyCalls() async throws {
        let fetch = try await BinaryRunner.runAwaiting(["intents", "describe", "fetch", "json"])
        #expect(fetch.standardOutput.contains("Needs: use the network (--allow-net)\n"), "\(fetch.standardOutput)")
        let folder = try TemporaryFolder("auto-needs")
        defer { withExtendedLifetime(folder) {} }
        let script = folder("needs.auto")
        try """
            shortcut "first line" (file: File) { return first(lines(read text file)) }
            shortcut "head" (file: File) { return first line file }
            shortcut "twice" (n: Int) { return n * 2 }
            """.write(toFile: script, atomically: true, encoding: .utf8)
        let head = try await BinaryRunner.runAwaiting(["intents", "describe", "head", "--file", script])
        #expect(head.exitCode == 0, "\(head.standardError)")
        #expect(head.standardOutput.contains("Needs: read files (--allow-read)\n"), "\(head.standardOutput)")
        let twice = try await BinaryRunner.runAwaiting(["intents", "describe", "twice", "--file", script])
        #expect(twice.exitCode == 0 && !twice.standardOutput.contains("Needs:"), "\(twice.standardOutput)")
    }
}
