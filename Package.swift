// swift-tools-version: 6.1
import PackageDescription

/// How the command-line binaries are linked in release builds, for their start (docs/PERFORMANCE.md, "Start-up"):
/// - position-dependent, so that the loader applies none of the 126,000 relative relocations of the binary's own
///   data (each page they touch was a copy-on-write fault on every start);
/// - without exporting the binary's own 35,000 symbols, which every symbol lookup of the loader and every `dladdr`
///   of the Swift runtime went through;
/// - with the C++ runtime and libgcc from their static archives (linker/libstdc++.so says how), as the Swift
///   runtime is: the loader no longer resolves libstdc++.so.6's thousands of symbols;
/// - with SQLite and zlib from their static archives too (linker/libsqlite3.so, linker/libz.so), when the build is given
///   `--pkg-config-path linker/pkgconfig` (scripts/install and scripts/benchmark do): Debian's zlib.pc, which the zip
///   intents' zlib module reads, puts /usr/lib/x86_64-linux-gnu first on the library search path, where -lsqlite3
///   finds the shared library before linker/ is searched.
/// Shared libraries, the heap and the stack are still placed at random. Debug builds (and the tests) link as usual.
let startupLinking: [LinkerSetting] = [
    .unsafeFlags(["-Xclang-linker", "-no-pie", "-Xlinker", "--no-export-dynamic",
                  "-L", Context.packageDirectory + "/linker", "-Xclang-linker", "-static-libgcc"],
                 .when(configuration: .release)),
]

let package = Package(
    name: "auto",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "AutoIntents", targets: ["AutoIntents"]),
        .library(name: "AutoHost", targets: ["AutoHost"]),
        .library(name: "AutoStdlib", targets: ["AutoStdlib"]),
        .executable(name: "auto", targets: ["auto"]),
        .executable(name: "library", targets: ["library-example"]),
        // Embeds a target's .auto and .csv files in its code, for a host's own scripts and seed data (the Library's).
        .plugin(name: "EmbedFiles", targets: ["EmbedFiles"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/yaslab/CSV.swift", from: "2.5.2"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/modelcontextprotocol/swift-sdk", from: "0.12.1"),
        // The daemon's metrics (swift-metrics), served for Prometheus by `auto daemon --metrics`.
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // `swift package generate-documentation`: the DocC catalogs of the modules a host imports (CI treats warnings as errors).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // The shared run store (PostgresRunStore): several daemons on one database, each fire claimed by one of them.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // SHA-256 of an automation's definition, which nodes sharing a store compare (already built for postgres-nio).
        .package(url: "https://github.com/apple/swift-crypto.git", "3.9.0" ..< "6.0.0"),
    ],
    targets: [
        // The embedding API: what a host writes to register intents, entities and enums.
        .target(name: "AutoIntents"),
        // The executor and the action graph it runs. Never imports the parser.
        .target(name: "AutoRuntime", dependencies: ["AutoIntents", "CLinux"]),
        // Lexer, parser, checker and compiler: .auto text to an ActionGraph.
        // Also what scripts are compiled against in a host (ScriptHost): its registry and prelude.
        .target(name: "AutoLanguage", dependencies: ["AutoIntents", "AutoRuntime", "AutoPrelude", "CLinux"]),
        // The standard library's native intents (files, programs, data, the web); each asks the run's grants before it acts.
        .target(name: "AutoStdlib", dependencies: [
            "AutoIntents", .product(name: "Subprocess", package: "swift-subprocess"), .product(name: "Yams", package: "Yams"),
            .product(name: "CSV", package: "CSV.swift"), .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            .product(name: "AsyncHTTPClient", package: "async-http-client"), .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
        ], plugins: ["EmbedFiles"]),
        // The shortcuts of stdlib/*.auto, shipped as resources and loaded as the prelude.
        // Embedded in the code (EmbedFiles), so that an installed binary needs nothing beside it.
        .target(name: "AutoPrelude", path: "stdlib", plugins: ["EmbedFiles"]),
        // timerfd and inotify, which the Glibc module leaves out: the scheduler's wall-clock timer, file events.
        .systemLibrary(name: "CLinux", path: "Sources/CLinux"),
        // Automations: time triggers and their schedules, the run store (SQLite through GRDB, or PostgreSQL through
        // PostgresNIO for daemons sharing one) and the daemon.
        .target(
            name: "AutoAutomation",
            dependencies: ["AutoIntents", "AutoRuntime", "AutoLanguage", "CLinux", .product(name: "GRDB", package: "GRDB.swift"),
                           .product(name: "Logging", package: "swift-log"), .product(name: "CoreMetrics", package: "swift-metrics"),
                           .product(name: "PostgresNIO", package: "postgres-nio"), .product(name: "NIOCore", package: "swift-nio"),
                           .product(name: "NIOPosix", package: "swift-nio"), .product(name: "NIOSSL", package: "swift-nio-ssl"),
                           // The errors of PostgresNIO's pool, which its client throws as they are.
                           .product(name: "_ConnectionPoolModule", package: "postgres-nio"), .product(name: "Crypto", package: "swift-crypto")]
        ),
        // libedit (Debian's libedit-dev, installed by .ci/setup) through a C shim: the REPL's line editing.
        .systemLibrary(name: "CEditLine", path: "Sources/CEditLine"),
        // The console, terminal interaction (questions, choices, progress), the line editor and the REPL.
        .target(name: "AutoTerminal", dependencies: ["AutoIntents", "AutoLanguage", "AutoRuntime", "CEditLine"]),
        // `mcp`: a host's intents and entities as MCP tools and resources, over stdio. MCP's JSON-RPC is spoken here, not
        // through the official Swift SDK, whose HTTP transports bring in Foundation's networking and with it libcurl and
        // 29 more shared libraries (5–7 ms on every start: docs/PERFORMANCE.md, issue 18). The SDK is the tests' client.
        .target(name: "AutoMCP", dependencies: ["AutoIntents", "AutoRuntime", "AutoLanguage", "AutoStdlib", "AutoPrelude"]),
        // The language server (`auto lsp`): the protocol's framing and messages, on the checker.
        .target(name: "AutoLSP", dependencies: ["AutoLanguage", "CLinux"]),
        // The argument-parser commands (run, check, graph, intents, repl, say, shortcuts, daemon, automations, mcp).
        .target(
            name: "AutoCLI",
            dependencies: [
                "AutoIntents", "AutoLanguage", "AutoRuntime", "AutoAutomation", "AutoTerminal", "AutoMCP", "AutoLSP", "AutoStdlib",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        // What a host imports to start: `AutoHost.main`, its registration and the whole command line, whose modules a
        // host's own code never sees.
        .target(name: "AutoHost", dependencies: ["AutoIntents", "AutoLanguage", "AutoStdlib", "AutoTerminal", "AutoCLI"]),
        .executableTarget(name: "auto", dependencies: ["AutoHost"], linkerSettings: startupLinking),

        // The Library example host: books in SQLite (GRDB), its intents and queries, seeded from books.csv. Its sources
        // are examples/library's, a package of its own (targets LibraryHost and library) that CI builds against the public
        // API alone; here they are built under other names (target names are unique across a package graph) for the tests.
        .target(
            name: "LibraryExample",
            dependencies: ["AutoIntents", "AutoStdlib", "AutoHost", .product(name: "GRDB", package: "GRDB.swift")],
            path: "examples/library/Sources/LibraryHost",
            plugins: ["EmbedFiles"]
        ),
        .executableTarget(name: "library-example", dependencies: ["LibraryExample"], path: "Sources/library",
                          linkerSettings: startupLinking),

        // Embeds a target's .auto and .csv files in its code as `EmbeddedFiles.all`.
        .plugin(name: "EmbedFiles", capability: .buildTool(), dependencies: ["embed-files"]),
        .executableTarget(name: "embed-files"),

        // `swift run -c release auto-bench`: the workloads of DESIGN.md §5 next to their anchors.
        .executableTarget(
            name: "auto-bench",
            dependencies: ["AutoIntents", "AutoLanguage", "AutoRuntime", "AutoAutomation", "AutoPostgresServer",
                           .product(name: "GRDB", package: "GRDB.swift"), .product(name: "Logging", package: "swift-log"),
                           .product(name: "PostgresNIO", package: "postgres-nio")],
            path: "Benchmarks",
            exclude: ["StartFloor"]
        ),
        // The start row's floor: a static Swift program that imports Foundation, linked as `auto` is.
        .executableTarget(name: "start-floor", path: "Benchmarks/StartFloor", linkerSettings: startupLinking),

        // The fuzzing harness: generated programs and mutated fixtures run against the built `auto`, with
        // oracles on the exit code, JSON output and deadlines (`swift run auto-fuzz --quick`), and sandbox escapes.
        // ZIPFoundation writes the malicious archives of the sandbox cases (SandboxEscapes.swift).
        .target(name: "AutoFuzz", dependencies: [.product(name: "ZIPFoundation", package: "ZIPFoundation")], path: "Fuzz/AutoFuzz"),
        .executableTarget(name: "auto-fuzz", dependencies: ["AutoFuzz"], path: "Fuzz/auto-fuzz"),

        // The sample host the tests register (SampleLibrary) and the concurrent-runs check, on the engine's modules alone:
        // `auto-race` runs the check under Thread Sanitizer in CI, a build of these few modules rather than of every package.
        .target(name: "AutoSampleHost", dependencies: ["AutoIntents", "AutoRuntime", "AutoLanguage", "AutoPrelude"],
                path: "Tests/AutoSampleHost"),
        .executableTarget(name: "auto-race", dependencies: ["AutoSampleHost"], path: "Tests/RaceCheck"),
        // A real PostgreSQL server in a temporary folder (initdb, pg_ctl), which the run store's tests and the cluster's
        // benchmarks start; a target of its own so that the benchmarks, built in release, can use it.
        .target(name: "AutoPostgresServer", dependencies: ["CLinux", .product(name: "PostgresNIO", package: "postgres-nio"),
                                                           .product(name: "Logging", package: "swift-log")],
                path: "Tests/AutoPostgresServer"),
        // What the tests share: the sample host and the PostgreSQL server (re-exported), scripted interaction, processes,
        // terminals.
        .target(name: "AutoTestSupport", dependencies: ["AutoSampleHost", "AutoPostgresServer", "AutoIntents", "AutoRuntime", "AutoLanguage",
                                                        "AutoPrelude", "AutoTerminal", "AutoCLI"],
                path: "Tests/AutoTestSupport"),
        .testTarget(name: "AutoIntentsTests", dependencies: ["AutoIntents"]),
        // The standard library's intents on real files in temporary folders, under grants; the web intents against a
        // small HTTP server of the tests' own on 127.0.0.1 (SwiftNIO).
        .testTarget(name: "AutoStdlibTests", dependencies: ["auto", "AutoStdlib", "AutoIntents", "AutoRuntime", "AutoLanguage", "AutoTestSupport",
                                                           .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                                                           .product(name: "NIOCore", package: "swift-nio"),
                                                           .product(name: "NIOPosix", package: "swift-nio"),
                                                           .product(name: "NIOHTTP1", package: "swift-nio"),
                                                           .product(name: "NIOSSL", package: "swift-nio-ssl")]),
        .testTarget(name: "AutoLanguageTests", dependencies: ["AutoLanguage", "AutoRuntime", "AutoIntents", "AutoTestSupport"]),
        .testTarget(name: "AutoLSPTests", dependencies: ["AutoLSP", "AutoLanguage"]),
        // The run store against SQLite and against a PostgreSQL server of the tests' own (PostgresServer.swift).
        .testTarget(name: "AutoAutomationTests", dependencies: ["AutoAutomation", "AutoLanguage", "AutoRuntime", "AutoIntents", "AutoTestSupport",
                                                               .product(name: "PostgresNIO", package: "postgres-nio")]),
        .testTarget(name: "AutoRuntimeTests", dependencies: ["AutoRuntime", "AutoIntents", "AutoLanguage", "AutoTestSupport"]),
        // Depends on the `auto` executable so that `swift test` builds the binary its tests run.
        // The README's embedding example, as it is written there (a test keeps the two the same and runs it).
        .executableTarget(name: "readme-host", dependencies: ["AutoHost", "AutoIntents"], path: "examples/readme-host"),
        // A host that makes one registration mistake or another, started as the README says (AutoHost.main).
        .executableTarget(name: "mistaken-host", dependencies: ["AutoHost", "AutoIntents"], path: "Tests/MistakenHost"),
        .testTarget(name: "AutoCLITests", dependencies: ["auto", "mistaken-host", "readme-host", "AutoHost", "AutoCLI", "AutoTerminal", "AutoMCP", "AutoStdlib", "AutoAutomation", "AutoLanguage", "AutoRuntime", "AutoIntents", "AutoTestSupport"]),
        // The harness's oracles against fake binaries, and its generator against the real checker.
        .testTarget(name: "FuzzTests", dependencies: ["AutoFuzz", "AutoCLI", "AutoLSP", "AutoTerminal", "AutoLanguage", "AutoTestSupport"]),
        // Also an MCP client (the SDK's) driving `library mcp` over its standard input and output.
        .testTarget(name: "LibraryHostTests", dependencies: ["library-example", "LibraryExample", "AutoCLI", "AutoTerminal", "AutoLanguage", "AutoRuntime", "AutoIntents", "AutoTestSupport",
                                                            .product(name: "MCP", package: "swift-sdk"), .product(name: "Logging", package: "swift-log")]),
    ],
    swiftLanguageModes: [.v6]
)
