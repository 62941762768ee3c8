@testable import AutoMCP
@testable import AutoTerminal
import AutoCLI
import AutoIntents
import AutoLanguage
import AutoRuntime
import AutoStdlib
import AutoTestSupport
import Foundation
import Testing

/// A trail, named by a UUID.
struct Trail: AppEntity {
    static let entityType = EntityType<Trail>(singular: "trail", properties: [.init("name", \.name)])
    var id: UUID
    var name: String
    var displayRepresentation: DisplayRepresentation { .init(title: name) }
}

/// Which intents a host's MCP server offers (issue 30, item 8): by default a host's own, the engine's built-ins and
/// standard library (intents and shortcuts) hidden; `auto` offers them all; a host may add some of the engine's.
@Suite struct McpToolsTests {
    /// A host's registry as the Library builds one: the built-ins, the standard library, an intent of its own, and
    /// its prelude, the standard library's shortcuts and one of its own.
    func intents() throws -> [IntentDescriptor] {
        var registry = Registry.standard
        try registry.registerStandardLibrary()
        try registry.register(Wave.self)
        let prelude = ScriptHost.standardPrelude(adding: StandardLibrary.prelude + [("host.auto", "shortcut \"wave twice\" (name: Text) { return \"\\(name) \\(name)\" }\n")])
        let compiled = try ScriptCompiler.compile(SourceFile(name: "<t>", text: ""), prelude: prelude, registry: registry, commandName: "trails").get()
        return compiled.registry.intents.filter(\.isDiscoverable)
    }

    func offered(_ tools: McpTools) throws -> Set<String> {
        Set(try intents().filter { tools.offers($0) }.map(\.name))
    }

    @Test func aHostOffersItsOwnIntentsAndShortcutsAlone() throws {
        #expect(try offered(.host) == ["wave at", "wave twice"])
    }

    @Test func aHostMayAddSomeOfTheEnginesByName() throws {
        #expect(try offered(.hostAnd(["Read text", "shout"])) == ["wave at", "wave twice", "read text", "shout"])
    }

    @Test func autoOffersEveryIntent() throws {
        let all = try offered(.all)
        for name in ["show", "ask", "read text", "notify", "shout", "average", "wave at", "wave twice"] { #expect(all.contains(name), "\(name)") }
        #expect(McpHost(name: "auto", version: "", registry: Registry(), prelude: [], grants: .all).tools.offers(try intents().first { $0.name == "notify" }!))
        #expect(!McpHost(name: "trails", version: "", registry: Registry(), prelude: [], grants: .all).tools.offers(try intents().first { $0.name == "notify" }!))
    }

    /// An entity named by a UUID is a string of that format; by an integer, the integer or a name; by a text, a text.
    @Test func anEntitysSchemaSaysHowItsIdentifierIsWritten() {
        let addresses = ResourceAddresses(host: "trails")
        let trail = ToolSchemas.schema(for: .entity(Trail.entityType), addresses: addresses)
        #expect(trail["type"] == "string" && trail["format"] == "uuid", "\(trail)")
        #expect(trail["description"]?.stringValue?.contains("trails://trail/{id}") == true)
        let book = ToolSchemas.schema(for: .entity(Book.entityType), addresses: addresses)
        #expect(book["type"] == ["string", "integer"] && book["format"] == nil)
        let author = ToolSchemas.schema(for: .entity(Author.entityType), addresses: addresses)
        #expect(author["type"] == "string" && author["format"] == nil)
    }

    @Test func resourcesAreNamedByTheHost() {
        #expect(ResourceAddresses(host: "library").scheme == "library")
        #expect(ResourceAddresses(host: "Trail Guide").scheme == "trail-guide")
        #expect(ResourceAddresses(host: "2do").scheme == "x-2do")
    }
}
