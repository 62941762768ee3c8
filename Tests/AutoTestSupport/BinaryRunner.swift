import Foundation

/// Runs the built `auto` binary as a user would, for tests of the command line itself.
package enum BinaryRunner {
    package struct Result: Sendable {
        package let exitCode: Int32
        package let standardOutput: String
        package let standardError: String
    }

    /// The folder of the built products (`.build/debug`): where the test bundle itself lives.
    package static let productsFolder: URL = {
        let candidates = [Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent(),
                          URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.appendingPathComponent("auto").path) }
            ?? URL(fileURLWithPath: Fixture.repositoryRoot + "/.build/debug")
    }()

    package static var binary: String { productsFolder.appendingPathComponent("auto").path }

    /// `run`, waited for on a dispatch thread: a test that runs many processes holds neither of the two threads of
    /// the tests' cooperative pool while they run (a blocked pool starves every other test, time limits included).
    package static func runAwaiting(_ arguments: [String], executable: String? = nil, input: String = "",
                                   environment: [String: String] = [:], directory: String = Fixture.repositoryRoot) async throws -> Result {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Result, any Error>) in
            DispatchQueue.global().async {
                continuation.resume(with: Swift.Result {
                    try run(arguments, executable: executable, input: input, environment: environment, directory: directory)
                })
            }
        }
    }

    /// Writes an executable file (a script a test runs) through a child process, so that this process never holds it
    /// open for writing: a child another test forks meanwhile inherits every descriptor open at that moment until it
    /// execs, and running a file someone holds open for writing fails with "Text file busy" (ETXTBSY).
    package static func writeExecutable(_ text: String, to path: String) throws {
        let written = try run(["-c", "cat > \"$1\" && chmod 755 \"$1\"", "sh", path], executable: "/bin/sh", input: text)
        guard written.exitCode == 0 else { throw WriteFailed(path: path, reason: written.standardError) }
    }

    package struct WriteFailed: Error, CustomStringConvertible {
        package let path: String, reason: String
        package var description: String { "can't write \(path): \(reason)" }
    }

    /// Runs `executable` (the `auto` binary by default) with `arguments`, feeding `input` to standard input.
    package static func run(_ arguments: [String], executable: String? = nil, input: String = "", environment: [String: String] = [:],
                           directory: String = Fixture.repositoryRoot) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable ?? binary)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        var env = ProcessInfo.processInfo.environment
        env["PATH"] = productsFolder.path + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let output = Pipe(), errors = Pipe(), stdin = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = stdin
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        // Read both pipes to the end before waiting, so a full pipe can't block the child.
        nonisolated(unsafe) var errorData = Data()
        let reader = Thread { errorData = errors.fileHandleForReading.readDataToEndOfFile() }
        reader.start()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !reader.isFinished { usleep(1000) }
        return Result(exitCode: process.shellStatus, standardOutput: String(decoding: outputData, as: UTF8.self),
                      standardError: String(decoding: errorData, as: UTF8.self))
    }
}
