import AutoIntents
import AutoRuntime
import Foundation
import MCP

/// Entities as MCP resources: `auto://book/42` is book 42, read through its type's query as `--json` writes it.
/// Listed are the entities of the types whose query can enumerate them; any one can be read by its address.
struct EntityResources {
    let registry: Registry

    static func uri(_ type: AnyEntityType, _ identifier: String) -> String {
        "auto://\(type.singular.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? type.singular)/\(identifier)"
    }

    var queries: [QueryDescriptor] { registry.entityTypes.compactMap { registry.query(for: $0) } }

    var templates: [Resource.Template] {
        queries.map { query in
            let type = query.entityType
            return Resource.Template(uriTemplate: Self.uri(type, "{id}"), name: type.singular, title: type.typeName,
                                     description: "A \(type.singular) by its identifier", mimeType: "application/json")
        }
    }

    func list() async throws -> [Resource] {
        var resources: [Resource] = []
        for query in queries where query.canEnumerate {
            for case .entity(let entity) in try await query.run(FindRequest(source: .all, compare: { _, _, _ in false }, order: { _, _ in 0 })) {
                let display = entity.display
                resources.append(Resource(name: display.title, uri: Self.uri(entity.type, entity.id), title: display.title,
                                          description: display.subtitle, mimeType: "application/json"))
            }
        }
        return resources
    }

    func read(_ uri: String) async throws -> [Resource.Content] {
        let wrong = MCPError.invalidParams("'\(uri)' is not an entity's address: auto://TYPE/ID, e.g. \(queries.first.map { Self.uri($0.entityType, "42") } ?? "auto://book/42")")
        guard uri.hasPrefix("auto://") else { throw wrong }
        let path = uri.dropFirst("auto://".count).split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard path.count == 2, let singular = path[0].removingPercentEncoding, let identifier = path[1].removingPercentEncoding,
              let query = queries.first(where: { $0.entityType.singular == singular.lowercased() }) else { throw wrong }
        guard let entity = try await query.entities(withIdentifiers: [identifier]).first else {
            throw MCPError.invalidParams("there is no \(singular) \(identifier)")
        }
        return [.text(ValueFormatter.json(entity), uri: uri, mimeType: "application/json")]
    }
}
