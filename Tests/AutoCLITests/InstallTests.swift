import AutoTestSupport
import Foundation
import Testing

/// `auto` as `scripts/install` leaves it: a binary alone in a folder, with no build folder in reach.
@Suite struct InstallTests {
    @Test func anInstalledAutoRunsWithItsPrelude() throws {
        let auto = try InstalledBinary(copying: "auto")
        defer { withExtendedLifetime(auto) {} }
        // `average` is a shortcut of the stdlib prelude, which the binary must carry.
        let result = try auto.run(["-e", "show average [1, 2, 3]"])
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardOutput == "2.0\n")
        let version = try auto.run(["--version"])
        #expect(version.exitCode == 0)
        #expect(version.standardOutput.hasPrefix("auto "), "\(version.standardOutput)")
    }

    /// A resource bundle beside the binary is what an installed binary lacks: none of this package's targets may
    /// be built with one. (GRDB's holds only Apple's privacy manifest, which nothing reads.)
    @Test func noTargetOfThePackageHasAResourceBundle() throws {
        let products = try FileManager.default.contentsOfDirectory(atPath: BinaryRunner.productsFolder.path)
        let bundles = products.filter { $0.hasPrefix("auto_") && $0.hasSuffix(".resources") }
        #expect(bundles.isEmpty, "resource bundles a copied binary would not find: \(bundles)")
    }
}
