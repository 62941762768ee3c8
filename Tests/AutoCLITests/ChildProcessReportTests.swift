import AutoTestSupport
import Foundation
import Testing

/// What a test shows of a child's standard error when the child crashed: Swift's backtracer writes what crashed and
/// the crashed thread's frames first, then thousands of lines of registers and images, so the end of standard error
/// alone (what a failed expectation showed before) left out the crash. A daemon that trapped once under load was lost
/// that way.
@Suite struct ChildProcessReportTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder("auto-crash-report")
    }

    /// A real crash: a program that overflows an Int, built without optimisation (as the tests' `auto` is), run as a
    /// child; its report keeps the log before the crash and the crashed frame, and leaves the registers out.
    @Test func aCrashedChildsReportKeepsWhatCrashed() throws {
        // The log goes to standard error, unbuffered, as a daemon's does.
        try """
            import Glibc
            for line in 1...400 { fputs("log line \\(line)\\n", stderr) }
            var total = Int.max - CommandLine.arguments.count
            func overflowingAdd() { total += 5 }
            overflowingAdd()
            print(total)
            """.write(toFile: folder("crash.swift"), atomically: false, encoding: .utf8)
        let build = try BinaryRunner.run(["swiftc", "-Onone", "-g", folder("crash.swift"), "-o", folder("crash")],
                                         executable: "/usr/bin/env", directory: folder.path)
        try #require(build.exitCode == 0, "\(build.standardError)")
        let child = try ChildProcess(folder("crash"), [], directory: folder.path)
        let status = child.waitForExit(timeout: .seconds(120))
        #expect(status == 128 + SIGILL || status == 128 + SIGTRAP, "\(child.standardError.prefix(2_000))")
        let report = try #require(ChildProcess.crashReport(in: child.standardError), "\(child.standardError.suffix(2_000))")
        #expect(report.contains("arithmetic overflow") && report.contains(" crashed:"), "what crashed, and its thread: \(report)")
        #expect(report.contains("overflowingAdd"), "the crashed thread's frames: \(report)")
        #expect(report.contains("log line 400\n"), "the log before the crash: \(report)")
        #expect(!report.contains("Registers:") && !report.contains("log line 1\n"), "\(report)")
        #expect(child.standardErrorForReport == report)
    }

    @Test func aChildThatDidNotCrashShowsTheEndOfItsStandardError() throws {
        let text = (1...1_000).map { "line \($0)" }.joined(separator: "\n")
        #expect(ChildProcess.crashReport(in: text) == nil)
        let child = try ChildProcess("/bin/sh", ["-c", "printf '%s' \"$0\" >&2", text], directory: folder.path)
        #expect(child.waitForExit(timeout: .seconds(60)) == 0)
        #expect(child.standardErrorForReport == String(text.suffix(3_000)))
    }
}
