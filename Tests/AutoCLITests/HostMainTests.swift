import AutoTestSupport
import Foundation
import Testing

/// `AutoHost.main` (issue 30, item 4): a registration that fails, or the host's own start-up error, is its message
/// and exit 2, never a trap; a host's intent named as one of the standard library's, which is registered only when
/// a script first needs it, is refused at start rather than failing every script that names it.
@Suite struct HostMainTests {
    func run(_ mistake: String) throws -> BinaryRunner.Result {
        try BinaryRunner.run(["-e", #"show say aloud "hi""#],
                             executable: BinaryRunner.productsFolder.appendingPathComponent("mistaken-host").path,
                             environment: ["MISTAKE": mistake])
    }

    @Test(arguments: [
        ("duplicate", "mistaken: can't start: an intent named 'say aloud' is already registered: mistaken_host.Say is registered twice"),
        ("two titles alike", "mistaken: can't start: an intent named 'say aloud' is already registered: mistaken_host.Say and "
            + "mistaken_host.SayAgain are both titled 'Say Aloud'; give one another title"),
        ("standard library name", "mistaken: can't start: an intent named 'notify' is registered (mistaken_host.Notify), and the standard "
            + "library has one of that name (AutoStdlib.Notify): give the host's another title, or start with standardLibrary: false"),
        ("title starting with find", "mistaken: can't start: intent 'Find easy trails' (mistaken_host.FindEasyTrails) can't be called by its "
            + "title: scripts read 'find easy trails' as the language's own 'find', not as an action; give it a title that starts with another word"),
        ("title with in", "mistaken: can't start: intent 'Check in' (mistaken_host.CheckIn) can't be called by its title: scripts read 'in' as "
            + "the language's own word, which ends an action's name; give it a title without it"),
        ("host error", "mistaken: can't start: the store at /tmp/store.sqlite is locked by another program"),
        ("missing dependency", "mistaken: can't start: a dependency of type Store is already registered"),
    ])
    func aMistakeAtRegistrationIsItsMessageAndExitTwo(_ mistake: String, _ message: String) throws {
        let result = try run(mistake)
        #expect(result.exitCode == 2)
        #expect(result.standardError.hasPrefix(message), "\(result.standardError)")
        #expect(result.standardOutput.isEmpty)
    }

    @Test func aHostWithoutMistakesRuns() throws {
        let result = try run("")
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardOutput == "hi\n")
    }
}
