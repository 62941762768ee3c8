@testable import AutoCLI
import AutoIntents
import AutoLanguage
import AutoRuntime
import AutoStdlib
import AutoTerminal
import AutoTestSupport
import Testing

/// The automations `auto migrate crontab|timer` writes: valid scripts that read back the program, arguments,
/// environment and input exactly, whatever characters they hold.
@Suite struct MigratedAutomationTests {
    static let host: ScriptHost = {
        var registry = Registry.standard
        try? registry.registerStandardLibrary()
        return ScriptHost(registry: registry, prelude: [])
    }()

    @Test func anAutomationCompilesAndKeepsEveryCharacterOfItsCommand() async throws {
        let awkward = "printf '%s\\n' \"$HOME\" \\(x) \u{1B}[1m\ttab\rcr é"
        let job = MigratedAutomation(
            name: "backup \"nightly\"", trigger: #"cron "30 2 * * *" in "Europe/Paris""#, options: ["catch up"],
            comments: ["crontab line 3:", "30 2 * * * backup\nsecond line"], program: "/bin/sh", arguments: ["-c", awkward],
            environment: [("PATH", "/usr/bin:/bin"), ("LANG", nil)], input: "line one\nline two\n", folder: "/tmp")
        let text = MigratedScript.source(header: ["Made by auto migrate crontab"], automations: [job, job])
        #expect(text.contains(#"automation "backup \"nightly\" 2" cron"#), "\(text)")
        #expect(text.contains("# 30 2 * * * backup\n# second line\n"), "\(text)")
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(text)")
        let compiled = try Self.host.compile(SourceFile(name: "m.auto", text: text)).get()
        #expect(compiled.warnings.isEmpty, "\(compiled.warnings)")
        // The literal reads back as the text it was made from, written here by hand.
        #expect(text.contains(ValueFormatter.quoted(awkward)))
        let check = await ScriptHarness.run("""
            set t = \(ValueFormatter.quoted(awkward))
            show count(t)
            show t == "printf '%s\\\\n' \\"$HOME\\" \\\\(x) \\x1B[1m\\ttab\\x0Dcr é"
            """, host: Self.host)
        #expect(check.output == ["\(awkward.count)", "true"], "\(check.standardError)")
    }
}
