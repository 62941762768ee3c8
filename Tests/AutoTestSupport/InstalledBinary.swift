import Foundation

/// A built binary copied to an empty folder, as `scripts/install` leaves it, and run with the build folder out
/// of its reach: under a private mount namespace whose build folder is an empty tmpfs, where the machine allows
/// one (`unshare`), so that nothing compiled into the binary can reach back into it. The copy (160 MB of a debug
/// build) goes with its folder when the value does: a test keeps it to its end.
package struct InstalledBinary {
    /// The folder of the copy (in `bin`), also its HOME.
    package let folder: TemporaryFolder
    package let path: String

    package init(copying product: String) throws {
        folder = try TemporaryFolder("installed")
        try FileManager.default.createDirectory(atPath: folder("bin"), withIntermediateDirectories: true)
        path = folder("bin/\(product)")
        try Self.copy(BinaryRunner.productsFolder.appendingPathComponent(product).path, to: path)
    }

    /// Copies an executable through a descriptor closed on exec: a program another test starts while the copy is being
    /// written would otherwise inherit the descriptor open for writing, and running the copy would fail with "Text file
    /// busy" for as long as that program runs (FileManager's copy doesn't open with O_CLOEXEC).
    package static func copy(_ source: String, to destination: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: source))
        let descriptor = open(destination, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: destination]) }
        defer { close(descriptor) }
        var written = 0
        try data.withUnsafeBytes { bytes in
            while written < bytes.count {
                let count = write(descriptor, bytes.baseAddress! + written, bytes.count - written)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: destination]) }
                written += count
            }
        }
    }

    /// The build folder, `.build` at the repository's top.
    package static var buildFolder: String { Fixture.repositoryRoot + "/.build" }

    /// Whether this machine lets an unprivileged process hide a folder in a mount namespace of its own.
    package static let canHideBuildFolder: Bool = {
        guard let unshare = ["/usr/bin/unshare", "/bin/unshare"].first(where: FileManager.default.isExecutableFile(atPath:)),
              let result = try? BinaryRunner.run(["--mount", "--map-root-user", "true"], executable: unshare, directory: "/")
        else { return false }
        return result.exitCode == 0
    }()

    /// Runs the copy from its own folder, with HOME and the XDG folders inside it.
    package func run(_ arguments: [String]) throws -> BinaryRunner.Result {
        let home = folder.path
        let environment = ["HOME": home, "XDG_DATA_HOME": home + "/data", "XDG_STATE_HOME": home + "/state",
                           "PATH": folder("bin") + ":/usr/bin:/bin"]
        guard Self.canHideBuildFolder else {
            return try BinaryRunner.run(arguments, executable: path, environment: environment, directory: home)
        }
        let quoted = ([path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        return try BinaryRunner.run(
            ["--mount", "--map-root-user", "sh", "-c", "mount -t tmpfs none '\(Self.buildFolder)' && exec \(quoted)"],
            executable: "/usr/bin/unshare", environment: environment, directory: home)
    }
}
