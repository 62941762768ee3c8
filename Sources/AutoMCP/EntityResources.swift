import AutoIntents
import AutoRuntime
import Foundation

/// Entities as MCP resources: `library://book/42` is the Library's book 42, read through its type's query as
/// `--json` writes it. Listed, a page at a time, are the entities of the types whose query can enumerate them; any
/// one can be read by its address.
struct EntityResources {
    let registry: Registry
    let addresses: ResourceAddresses

    /// Entities listed in one page of `resources/list`.
    static let pageSize = 100

    var queries: [QueryDescriptor] { registry.entityTypes.compactMap { registry.query(for: $0) } }

    var templates: [ResourceTemplate] {
        queries.map { query in
            let type = query.entityType
            return ResourceTemplate(uriTemplate: addresses.uri(type, "{id}"), name: type.singular, title: type.typeName,
                                    description: "A \(type.singular) by its identifier", mimeType: "application/json")
        }
    }

    /// The page that starts at `cursor` (the number of entities before it, as the previous page said), and the
    /// cursor of the next one while there is more. The queries enumerate their entities again for each page: a
    /// page is what is there when it is asked for, as a client that pages through a changing list expects.
    func list(cursor: String?) async throws -> (resources: [Resource], next: String?) {
        var start = 0
        if let cursor {
            guard let offset = Int(cursor), offset >= 0 else { throw JSONRPCError.invalidParams("'\(cursor)' is not a cursor this server gave") }
            start = offset
        }
        var resources: [Resource] = []
        var seen = 0
        for query in queries where query.canEnumerate {
            for case .entity(let entity) in try await query.run(FindRequest(source: .all, compare: { _, _, _ in false }, order: { _, _ in 0 })) {
                defer { seen += 1 }
                guard seen >= start else { continue }
                guard resources.count < Self.pageSize else { return (resources, String(seen)) }
                let display = entity.display
                resources.append(Resource(name: display.title, uri: addresses.uri(entity.type, entity.id), description: display.subtitle,
                                          mimeType: "application/json"))
            }
        }
        return (resources, nil)
    }

    func read(_ uri: String) async throws -> [ResourceContent] {
        let prefix = addresses.scheme + "://"
        let example = queries.first.map { addresses.uri($0.entityType, "42") } ?? prefix + "book/42"
        let wrong = JSONRPCError.invalidParams("'\(uri)' is not an entity's address: \(prefix)TYPE/ID, e.g. \(example)")
        guard uri.hasPrefix(prefix) else { throw wrong }
        let path = uri.dropFirst(prefix.count).split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard path.count == 2, let singular = path[0].removingPercentEncoding, let identifier = path[1].removingPercentEncoding,
              let query = queries.first(where: { $0.entityType.singular == singular.lowercased() }) else { throw wrong }
        guard let entity = try await query.entities(withIdentifiers: [identifier]).first else {
            throw JSONRPCError.invalidParams("there is no \(singular) \(identifier)")
        }
        return [ResourceContent(uri: uri, mimeType: "application/json", text: ValueFormatter.json(entity))]
    }
}

/// Where a host's entities are: `HOST://TYPE/ID`, the scheme the host's name (`library://book/42`), so that a
/// client talking to several servers tells their resources apart.
struct ResourceAddresses: Sendable {
    let scheme: String

    /// The scheme for a host's name: lower case, what a URI scheme can't hold as `-`, a letter first.
    init(host: String) {
        let allowed = host.lowercased().map { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) ? $0 : "-" }
        let written = String(allowed)
        scheme = written.first?.isLetter == true ? written : "x-" + written
    }

    func uri(_ type: AnyEntityType, _ identifier: String) -> String {
        "\(scheme)://\(type.singular.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? type.singular)/\(identifier)"
    }
}
