// swift-tools-version: 6.1
import Foundation
import PackageDescription

// Every stdlib/*.auto file ships as a resource of AutoPrelude. SwiftPM caches this manifest by its text:
// after adding a stdlib file, run `swift package reset` or touch this comment so the new file is seen.
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

        .testTarget(name: "AutoLanguageTests", dependencies: ["AutoLanguage", "AutoRuntime", "AutoIntents"]),
        .testTarget(name: "AutoRuntimeTests", dependencies: ["AutoRuntime", "AutoIntents", "AutoLanguage"]),
        .testTarget(name: "AutoCLITests", dependencies: ["AutoCLI", "AutoLanguage", "AutoRuntime", "AutoIntents"]),
    ],
    swiftLanguageModes: [.v6]
)
