// swift-tools-version: 6.1
import PackageDescription

// The Library example host as a package of its own, written as a host outside this repository would write it: it
// depends on the engine by path (a host would give its URL), so the compiler proves that the engine's public API is
// enough for a host: nothing `package` in the engine is visible here. `swift run library headline.auto` runs it;
// `swift test` runs its scripts through the built binary. (The engine's package builds the same sources under other
// target names, LibraryExample and library-example, for its own tests.)
let package = Package(
    name: "library",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "auto", path: "../.."),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // Books in SQLite (GRDB), the intents and queries over them, seeded from books.csv, embedded in the code by the
        // engine's EmbedFiles plugin so that the binary needs nothing beside it.
        .target(name: "LibraryHost",
                dependencies: [.product(name: "AutoIntents", package: "auto"), .product(name: "AutoHost", package: "auto"),
                               .product(name: "AutoStdlib", package: "auto"), .product(name: "GRDB", package: "GRDB.swift")],
                plugins: [.plugin(name: "EmbedFiles", package: "auto")]),
        .executableTarget(name: "library", dependencies: ["LibraryHost"]),
        // The example scripts beside this file, run by the built `library` as people run them.
        .testTarget(name: "LibraryTests", dependencies: ["library"]),
    ],
    swiftLanguageModes: [.v6]
)
