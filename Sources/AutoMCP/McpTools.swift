import AutoIntents
import AutoPrelude
import AutoRuntime
import AutoStdlib

/// What the server makes of a host's choice of tools (`McpTools`, declared where a host names it).
extension McpTools {
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
