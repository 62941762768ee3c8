import AutoIntents
import AutoLanguage
import AutoRuntime
import Synchronization

/// What `auto mcp` serves: a host's registry and prelude, and the grants its command line gave.
package struct McpHost: Sendable {
    package let name: String
    package let version: String
    package let registry: Registry
    package let prelude: [SourceFile]
    /// What every tool call may touch; a tool needing what isn't granted at all is neither listed nor run.
    package let grants: Grants
    /// Which intents are tools.
    package let tools: McpTools

    /// `tools` nil: `McpTools.all` for `auto`, `McpTools.host` for any other host.
    package init(name: String, version: String, registry: Registry, prelude: [SourceFile], grants: Grants, tools: McpTools? = nil) {
        self.tools = tools ?? McpTools.defaultFor(host: name)
        self.name = name
        self.version = version
        self.registry = registry
        self.prelude = prelude
        self.grants = grants
    }
}

/// The MCP server of a host: its discoverable intents (and the prelude's shortcuts) and a `find_<plural>` per
/// queryable entity type as tools, its entities as resources. Each tool call is one run of one line of the language
/// (see `ToolScript`), talking to the person through `McpInteraction` and cancelled with its request. MCP itself —
/// JSON-RPC 2.0 over standard input and output — is `McpConnection`'s.
package final class McpServer: Sendable {
    let host: McpHost
    let intents: [String: IntentTool]
    /// Tools called by a name no longer listed: a deprecated intent's, and each former title's (`finish_book` for
    /// `mark as read`). An assistant's configuration or a saved conversation that names one keeps working.
    let formerTools: [String: IntentTool]
    let finds: [String: FindTool]
    let resources: EntityResources
    let addresses: ResourceAddresses
    /// The client's `initialize`, once it came.
    let client = Mutex<McpRequest.ClientHello?>(nil)

    /// Fails when the prelude doesn't compile, which a released host never does.
    package init(_ host: McpHost) throws {
        self.host = host
        // The prelude's shortcuts are intents too, with their result types from their bodies: an empty script's registry.
        let compiled: CompiledScript
        switch ScriptCompiler.compile(SourceFile(name: "<mcp>", text: ""), prelude: host.prelude, registry: host.registry, commandName: host.name) {
        case .success(let script): compiled = script
        case .failure(let failure): throw RegistrationError(failure.diagnostics.map(\.description).joined(separator: "\n"))
        }
        // The first intent of a name keeps it where two differ only in characters a tool name can't hold.
        var intents: [String: IntentTool] = [:], formerTools: [String: IntentTool] = [:]
        for intent in compiled.registry.intents where intent.isDiscoverable && host.tools.offers(intent) {
            let tool = IntentTool(intent, capabilities: compiled.program.capabilities(of: intent))
            if intent.isListed {
                if intents[tool.name] == nil { intents[tool.name] = tool }
            } else if formerTools[tool.name] == nil {
                formerTools[tool.name] = tool
            }
            for former in intent.formerNames where formerTools[IntentTool.toolName(former)] == nil {
                formerTools[IntentTool.toolName(former)] = tool
            }
        }
        self.intents = intents
        // A current name wins over a former one.
        self.formerTools = formerTools.filter { intents[$0.key] == nil }
        let addresses = ResourceAddresses(host: host.name)
        self.addresses = addresses
        self.resources = EntityResources(registry: host.registry, addresses: addresses)
        self.finds = Dictionary(resources.queries.map { FindTool($0, addresses: addresses) }.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Serves on standard input and output until the client closes them.
    package func run() async throws {
        let connection = McpConnection()
        await connection.run { [self] request in try await handle(request, connection: connection) }
    }

    /// The result of one request. Requests before `initialize` are served too, as the official SDK's server does by
    /// default: MCP says a client shouldn't send them, not that a server must refuse them.
    func handle(_ request: McpRequest, connection: McpConnection) async throws -> JSON {
        switch request {
        case .initialize(let hello):
            let first = client.withLock { client in
                defer { if client == nil { client = hello } }
                return client == nil
            }
            guard first else { throw JSONRPCError.invalidRequest("Server is already initialized") }
            return ["protocolVersion": .string(ProtocolVersion.negotiate(hello.protocolVersion)),
                    "capabilities": ["resources": ["subscribe": false, "listChanged": false], "tools": ["listChanged": false]],
                    "serverInfo": ["name": .string(host.name), "version": .string(host.version)]]
        case .ping:
            return [:]
        case .listTools:
            var tools = finds.keys.sorted().compactMap { finds[$0]?.tool.json }
            for name in intents.keys.sorted() {
                guard let tool = intents[name], refusal(tool) == nil else { continue }
                tools.append(await tool.tool(addresses: addresses).json)
            }
            return ["tools": .array(tools)]
        case .callTool(let call):
            return await self.call(call, connection: connection).json
        case .listResources(let cursor):
            let page = try await resources.list(cursor: cursor)
            var result: [String: JSON] = ["resources": .array(page.resources.map(\.json))]
            if let next = page.next { result["nextCursor"] = .string(next) }
            return .object(result)
        case .listResourceTemplates:
            return ["resourceTemplates": .array(resources.templates.map(\.json))]
        case .readResource(let uri):
            return ["contents": .array(try await resources.read(uri).map(\.json))]
        }
    }

    /// Why an intent may not run here: it needs a capability the command line granted none of.
    func refusal(_ tool: IntentTool) -> String? {
        guard let missing = tool.capabilities.sorted().first(where: { !host.grants.grantsAny($0) }) else { return nil }
        return "'\(tool.intent.name)' needs to \(missing.summary), and this server was not allowed to: start it with \(missing.flag)"
    }

    func call(_ call: McpRequest.ToolCall, connection: McpConnection) async -> ToolResult {
        let arguments = call.arguments
        let script: ToolScript
        let resultName: String
        do {
            if let find = finds[call.name] {
                script = try find.script(arguments)
                resultName = find.type.plural
            } else if let tool = intents[call.name] ?? formerTools[call.name] {
                if let refusal = refusal(tool) { return .failure(refusal) }
                script = try await tool.script(arguments, registry: host.registry)
                resultName = tool.intent.description.resultName ?? "result"
            } else {
                return .failure("there is no tool '\(call.name)'")
            }
        } catch {
            return .failure("\(error)")
        }
        let interaction = McpInteraction(connection: connection, canElicit: client.withLock { $0?.canElicit ?? false },
                                         progressToken: call.progressToken, addresses: addresses)
        return await run(script, resultName: resultName, interaction: interaction)
    }

    /// Runs a call's line. Cancelling the request (`notifications/cancelled` cancels its task) cancels the run: its flag
    /// is what intents and the executor look at.
    func run(_ script: ToolScript, resultName: String, interaction: McpInteraction) async -> ToolResult {
        let compiled: CompiledScript
        switch script.compile(host) {
        case .success(let script): compiled = script
        case .failure(let failure):
            let errors = failure.diagnostics.filter { $0.severity == .error }
            return .failure(errors.map { $0.message + ($0.hint.map { " (\($0))" } ?? "") }.joined(separator: "\n"))
        }
        let cancellation = CancellationFlag()
        let outcome = await withTaskCancellationHandler {
            await Engine(registry: compiled.registry, grants: host.grants).run(compiled.program, interaction: interaction,
                                                                                 cancellation: cancellation, session: script.session)
        } onCancel: {
            cancellation.cancel()
        }
        let said = interaction.shown
        switch outcome.ending {
        case .completed(let value):
            let text = said + (value.isNull ? [] : [ValueFormatter.json(value)])
            return ToolResult(texts: text, structuredContent: [resultName: JSONValues.json(value)],
                              meta: script.plan(of: compiled.program).map { ["auto/plan": .string($0)] } ?? [:])
        case .failed(let error):
            return .failure((said + [error.message]).joined(separator: "\n"))
        case .cancelled(let reason):
            return .failure((said + ["cancelled: \(reason)"]).joined(separator: "\n"))
        case .stoppedBeforeChange:
            // Only a what-if run stops there, and a tool call is never one.
            return .failure("the run stopped before a change")
        }
    }
}
