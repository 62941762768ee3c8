// swift-tools-version: 6.1
import Foundation
import PackageDescription

// Every stdlib/*.auto file ships as a resource of AutoPrelude. SwiftPM caches this manifest by its text:
// after adding a stdlib file, edit this comment (any change) so the new file is seen. (stdlib: dates numbers text)
let preludeFiles = ((try? FileManager.default.contentsOfDirectory(
    atPath: Context.packageDirectory + "/stdlib")) ?? [])
    .filter { $0.hasSuffix(".auto") }.sorted()

let package = Package(
    name: "auto",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "AutoIntents", targets: ["AutoIntents"]),
        .library(name: "AutoLanguage", targets: ["AutoLanguage"]),
        .library(name: "AutoRuntime", targets: ["AutoRuntime"]),
        .library(name: "AutoCLI", targets: ["AutoCLI"]),
        .executable(name: "auto", targets: ["auto"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // The embedding API: what a host writes to register intents, entities and enums.
        .target(name: "AutoIntents"),
        // The executor and the action graph it runs. Never imports the parser.
        .target(name: "AutoRuntime", dependencies: ["AutoIntents"]),
        // Lexer, parser, checker and compiler: .auto text to an ActionGraph.
        .target(name: "AutoLanguage", dependencies: ["AutoIntents", "AutoRuntime"]),
        // The shortcuts of stdlib/*.auto, shipped as resources and loaded as the prelude.
        .target(
            name: "AutoPrelude",
            path: "stdlib",
            resources: preludeFiles.map { Resource.copy($0) }
        ),
        // The `auto` command line, reusable by any host through `AutoCommandLine.main(registry:)`.
        .target(
            name: "AutoCLI",
            dependencies: [
                "AutoIntents", "AutoLanguage", "AutoRuntime", "AutoPrelude",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "auto", dependencies: ["AutoCLI"]),

        // What the tests share: a small host registered as a real host would, and scripted interaction.
        .target(name: "AutoTestSupport", dependencies: ["AutoIntents", "AutoRuntime", "AutoLanguage", "AutoCLI"],
                path: "Tests/AutoTestSupport"),
        .testTarget(name: "AutoLanguageTests", dependencies: ["AutoLanguage", "AutoRuntime", "AutoIntents", "AutoTestSupport"]),
        .testTarget(name: "AutoRuntimeTests", dependencies: ["AutoRuntime", "AutoIntents", "AutoLanguage", "AutoTestSupport"]),
        // Depends on the `auto` executable so that `swift test` builds the binary its tests run.
        .testTarget(name: "AutoCLITests", dependencies: ["auto", "AutoCLI", "AutoLanguage", "AutoRuntime", "AutoIntents", "AutoTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
