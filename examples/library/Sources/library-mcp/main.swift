import AutoMCP
import LibraryHost

// `library mcp`'s server: the Library's command line, whose `mcp` command serves here (Package.swift, AutoMCP).
await LibraryCommandLine.main { McpCompanion.serving($0) }
