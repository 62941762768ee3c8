import AutoCLI
import AutoRuntime
import AutoMCP
import AutoStdlib

// `auto mcp`'s server: `auto`'s host (see Sources/auto), whose `mcp` command serves here. A binary of its own so that
// `auto` doesn't load the SDK's networking libraries on every start (Package.swift, AutoMCP).
await AutoCommandLine.main(McpCompanion.serving(AutoHost(registry: .standard, adding: StandardLibrary.intents,
                                                         prelude: AutoHost.standardPrelude(adding: StandardLibrary.prelude))))
