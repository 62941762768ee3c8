import AutoIntents
import AutoLanguage
import AutoRuntime
import MCP
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
/// (see `ToolScript`), talking to the person through `McpInteraction` and cancelled with its request.
package final class McpServer: Sendable {
    let host: McpHost
    let server: Server
    let intents: [String: IntentTool]
    let finds: [String: FindTool]
    let resources: EntityResources
    let addresses: ResourceAddresses
    /// Whether the client declared elicitation when it initialized.
    let canElicit = Mutex(false)

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
        var intents: [String: IntentTool] = [:]
        for intent in compiled.registry.intents where intent.isDiscoverable && host.tools.offers(intent) {
            let tool = IntentTool(intent, capabilities: compiled.program.capabilities(of: intent))
            if intents[tool.name] == nil { intents[tool.name] = tool }
        }
        self.intents = intents
        let addresses = ResourceAddresses(host: host.name)
        self.addresses = addresses
        self.resources = EntityResources(registry: host.registry, addresses: addresses)
        self.finds = Dictionary(resources.queries.map { FindTool($0, addresses: addresses) }.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.server = Server(name: host.name, version: host.version,
                             capabilities: .init(resources: .init(subscribe: false, listChanged: false), tools: .init(listChanged: false)))
    }

    /// Serves on standard input and output until the client closes them (`StdioLineTransport`).
    package func run() async throws {
        await server.withMethodHandler(ListTools.self) { [self] _ in
            var tools = finds.keys.sorted().map { finds[$0]!.tool }
            for name in intents.keys.sorted() where refusal(intents[name]!) == nil {
                tools.append(await intents[name]!.tool(addresses: addresses))
            }
            return ListTools.Result(tools: tools)
        }
        await server.withMethodHandler(CallTool.self) { [self] parameters in
            let result = await call(parameters)
            // A cancelled request gets no response (MCP's rule); the SDK sends none when its handler throws this.
            try Task.checkCancellation()
            return result
        }
        await server.withMethodHandler(ListResources.self) { [self] parameters in
            let page = try await resources.list(cursor: parameters.cursor)
            return ListResources.Result(resources: page.resources, nextCursor: page.next)
        }
        await server.withMethodHandler(ListResourceTemplates.self) { [self] _ in ListResourceTemplates.Result(templates: resources.templates) }
        await server.withMethodHandler(ReadResource.self) { [self] parameters in
            ReadResource.Result(contents: try await resources.read(parameters.uri))
        }
        // The methods served above, and the SDK's own: their parameters are checked before a handler sees them.
        let check = JSONRPCCheck(methods: [Initialize.self, Ping.self, ListTools.self, CallTool.self, ListResources.self,
                                           ListResourceTemplates.self, ReadResource.self])
        try await server.start(transport: StdioLineTransport(check: check)) { [self] _, capabilities in
            canElicit.withLock { $0 = capabilities.elicitation != nil }
        }
        await server.waitUntilCompleted()
    }

    /// Why an intent may not run here: it needs a capability the command line granted none of.
    func refusal(_ tool: IntentTool) -> String? {
        guard let missing = tool.capabilities.sorted().first(where: { !host.grants.grantsAny($0) }) else { return nil }
        return "'\(tool.intent.name)' needs to \(missing.summary), and this server was not allowed to: start it with \(missing.flag)"
    }

    func call(_ parameters: CallTool.Parameters) async -> CallTool.Result {
        let arguments = parameters.arguments ?? [:]
        let script: ToolScript
        let resultName: String
        do {
            if let find = finds[parameters.name] {
                script = try find.script(arguments)
                resultName = find.type.plural
            } else if let tool = intents[parameters.name] {
                if let refusal = refusal(tool) { return Self.failure(refusal) }
                script = try await tool.script(arguments, registry: host.registry)
                resultName = tool.intent.description.resultName ?? "result"
            } else {
                return Self.failure("there is no tool '\(parameters.name)'")
            }
        } catch {
            return Self.failure("\(error)")
        }
        return await run(script, resultName: resultName, progressToken: parameters._meta?.progressToken)
    }

    /// Runs a call's line. Cancelling the request (the SDK cancels the handler's task on `notifications/cancelled`)
    /// cancels the run: its flag is what intents and the executor look at.
    func run(_ script: ToolScript, resultName: String, progressToken: ProgressToken?) async -> CallTool.Result {
        let compiled: CompiledScript
        switch script.compile(host) {
        case .success(let script): compiled = script
        case .failure(let failure):
            let errors = failure.diagnostics.filter { $0.severity == .error }
            return Self.failure(errors.map { $0.message + ($0.hint.map { " (\($0))" } ?? "") }.joined(separator: "\n"))
        }
        let interaction = McpInteraction(server: server, canElicit: canElicit.withLock { $0 }, progressToken: progressToken, addresses: addresses)
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
            return CallTool.Result(content: text.map { .text(text: $0, annotations: nil, _meta: nil) },
                                   structuredContent: .object([resultName: JSONValues.json(value)]),
                                   _meta: script.plan(of: compiled.program).map { Metadata(additionalFields: ["auto/plan": .string($0)]) })
        case .failed(let error):
            return Self.failure((said + [error.message]).joined(separator: "\n"))
        case .cancelled(let reason):
            return Self.failure((said + ["cancelled: \(reason)"]).joined(separator: "\n"))
        case .stoppedBeforeChange:
            // Only a what-if run stops there, and a tool call is never one.
            return Self.failure("the run stopped before a change")
        }
    }

    static func failure(_ message: String) -> CallTool.Result {
        CallTool.Result(content: [.text(text: message, annotations: nil, _meta: nil)], isError: true)
    }
}
