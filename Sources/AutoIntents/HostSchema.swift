import Foundation

/// Everything of a host that people's scripts, automations, MCP clients and spoken phrases name — intents and their
/// parameters, entity types and their properties, enums and their cases, App Shortcuts and their phrases — each with
/// its identifier, which stays when its title or name changes. `auto intents schema` writes it as JSON in a stable,
/// diff-friendly order (keys sorted, every list sorted by identifier); a host keeps the file of its last release and
/// `auto intents diff` says what its next one breaks (`SchemaDiff`).
package struct HostSchema: Codable, Equatable, Sendable {
    /// The format's version, for readers of an older file.
    package var format = 1
    package var intents: [Intent]
    package var entities: [Entity]
    package var enums: [Enum]
    package var shortcuts: [Shortcut]

    package struct Intent: Codable, Equatable, Sendable {
        /// The Swift type's name: what stays when the title changes.
        package var id: String
        package var title: String
        package var formerTitles: [String]
        package var deprecated: String?
        package var replacedBy: String?
        package var parameters: [Parameter]
        package var result: String
        package var sideEffect: String
    }

    package struct Parameter: Codable, Equatable, Sendable {
        /// The Swift property's name.
        package var id: String
        package var name: String
        package var formerNames: [String]
        package var type: String
        package var required: Bool
    }

    package struct Entity: Codable, Equatable, Sendable {
        /// The type's name (`Book`).
        package var id: String
        package var singular: String
        package var plural: String
        package var properties: [Property]
    }

    package struct Property: Codable, Equatable, Sendable {
        package var name: String
        package var type: String
        /// Nil for none (left out of the file).
        package var formerNames: [String]? = nil
    }

    package struct Enum: Codable, Equatable, Sendable {
        package var id: String
        package var cases: [Case]
    }

    package struct Case: Codable, Equatable, Sendable {
        package var id: String
        package var title: String
        /// Nil for none (left out of the file).
        package var formerNames: [String]?
    }

    package struct Shortcut: Codable, Equatable, Sendable {
        /// The id of the intent it runs.
        package var intent: String
        /// Each phrase with `{parameter}` where a value goes and `{app}` for the application's name.
        package var phrases: [String]
    }

    package init(intents: [Intent], entities: [Entity], enums: [Enum], shortcuts: [Shortcut]) {
        self.intents = intents
        self.entities = entities
        self.enums = enums
        self.shortcuts = shortcuts
    }

    /// The schema of a registry's native intents (shortcuts written in the language belong to their scripts, not to
    /// the host), its entity and enum types, and its App Shortcuts.
    package init(_ registry: Registry) {
        let native = registry.intents.filter { $0.origin == nil }
        intents = native.map { intent in
            Intent(id: intent.identifier, title: intent.title, formerTitles: intent.formerNames,
                   deprecated: intent.deprecation?.message, replacedBy: intent.deprecation?.replacement.map(IntentDescriptor.identifier(of:)),
                   parameters: intent.parameters.map { parameter in
                       Parameter(id: parameter.identifier, name: parameter.name, formerNames: parameter.formerNames,
                                 type: parameter.type.description, required: parameter.isRequired)
                   },
                   result: intent.outputType == .null ? "nothing" : intent.outputType.description, sideEffect: intent.sideEffect.rawValue)
        }.sorted { $0.id < $1.id }
        entities = registry.entityTypes.map { type in
            Entity(id: type.typeName, singular: type.singular, plural: type.plural,
                   properties: type.properties.map { Property(name: $0.name, type: $0.type.description,
                                                             formerNames: $0.formerNames.isEmpty ? nil : $0.formerNames) })
        }.sorted { $0.id < $1.id }
        enums = registry.enumTypes.map { type in
            Enum(id: type.typeName, cases: type.cases.map { Case(id: $0.identifier, title: $0.displayName,
                                                                  formerNames: $0.formerNames.isEmpty ? nil : $0.formerNames) })
        }.sorted { $0.id < $1.id }
        shortcuts = registry.appShortcuts.filter { $0.intent.origin == nil }.map { registered in
            Shortcut(intent: registered.intent.identifier,
                     phrases: registered.shortcut.phrases.map { $0.filled(applicationName: "{app}") { "{\($0)}" } })
        }.sorted { $0.intent < $1.intent }
    }

    /// The JSON `auto intents schema` writes: keys sorted, two-space indents, a final line end.
    package func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding these plain values can't fail.
        let data = (try? encoder.encode(self)) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// A schema read from a file `auto intents schema` wrote; the error says what is wrong, naming `file`.
    package static func read(_ data: Data, file: String) throws(SchemaError) -> HostSchema {
        do {
            return try JSONDecoder().decode(HostSchema.self, from: data)
        } catch {
            throw SchemaError("\(file): not a schema written by 'intents schema' (\(error))")
        }
    }
}

/// A schema file that can't be read.
package struct SchemaError: Error, Sendable, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}

extension IntentDescriptor {
    /// What stays when the intent's title changes: its Swift type's name; for an intent made without one, the
    /// identifier it was made with (a built-in's) or its name (a shortcut's).
    package var identifier: String { type.map(Self.identifier(of:)) ?? madeIdentifier ?? name }

    /// A native intent's identifier: its Swift type's name, without the module (a host may move it).
    package static func identifier(of type: any AppIntent.Type) -> String { String(describing: type) }
}
