import AutoIntents
import AutoPrelude
import AutoRuntime
import AutoStdlib

/// Which intents a host's MCP server offers as tools. Every host's server also offers a `find_<plural>` tool per
/// entity type it can query, and its entities as resources.
public enum McpTools: Sendable {
    /// The host's own intents and shortcuts: not the engine's built-ins (`show`, `ask`, `wait`…), nor the standard
    /// library's intents (`read text`, `notify`…) and shortcuts. The default of every host but `auto`, whose
    /// assistant should see the host, not thirty tools of the engine.
    case host
    /// Every discoverable intent and shortcut, the engine's included: the default of `auto`, whose intents are
    /// all the engine's.
    case all
    /// The host's own, and these of the engine's by name (`["read text", "notify"]`).
    case hostAnd([String])

    /// `all` for `auto`, `host` for any other host.
    static func defaultFor(host: String) -> McpTools { host == "auto" ? .all : .host }

    /// Whether `intent` is offered.
    func offers(_ intent: IntentDescriptor) -> Bool {
        switch self {
        case .all: return true
        case .host: return !Self.isEngines(intent)
        case .hostAnd(let names):
            return !Self.isEngines(intent) || names.contains { IntentDescriptor.name(of: $0) == intent.name }
        }
    }

    /// The engine's own intents: the built-ins, the standard library's native intents, and the shortcuts declared
    /// in the files of their preludes (an origin is `FILE:LINE`).
    static func isEngines(_ intent: IntentDescriptor) -> Bool {
        if let origin = intent.origin {
            return enginePreludeFiles.contains(String(origin[..<(origin.lastIndex(of: ":") ?? origin.endIndex)]))
        }
        return engineIntentNames.contains(intent.name)
    }

    static let enginePreludeFiles: Set<String> = Set((Prelude.sources + StandardLibrary.prelude).map(\.name))

    static let engineIntentNames: Set<String> = Set(Registry.standard.intents.map(\.name))
        .union(StandardLibrary.intents.entries.map { IntentDescriptor.name(of: $0.title) })
}
