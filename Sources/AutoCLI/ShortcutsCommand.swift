import AutoTerminal
import ArgumentParser
import AutoIntents
import Foundation

/// `library shortcuts`: every App Shortcut with its phrases, each filled in with an example value, as Siri's tips
/// show them: what people can say to `say`.
struct ShortcutsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shortcuts", abstract: "List the App Shortcuts and the phrases that run them ('say' runs one).")

    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        let registry = AutoCommandLine.host.registry
        var rows: [[String: Any]] = []
        for registered in registry.appShortcuts {
            var phrases: [[String: Any]] = []
            for phrase in registered.shortcut.phrases {
                var example: String?
                if let name = phrase.parameterNames.first, let index = registered.intent.parameterIndex(named: name) {
                    example = try await Self.example(for: registered.intent.parameters[index], in: registry)
                }
                var row: [String: Any] = ["phrase": phrase.filled(applicationName: registered.applicationName) { "{\($0)}" },
                                          "example": phrase.filled(applicationName: registered.applicationName) { "\(example ?? "{\($0)}")" }]
                if let name = phrase.parameterNames.first { row["parameter"] = name }
                phrases.append(row)
            }
            rows.append(["title": registered.shortcut.shortTitle, "intent": registered.intent.name,
                         "systemImageName": registered.shortcut.systemImageName, "phrases": phrases])
        }
        if json {
            Console.standard.writeOut(AutomationScripts.json(rows) + "\n")
            return
        }
        if rows.isEmpty {
            Console.standard.writeOut("\(AutoCommandLine.host.name) has no App Shortcuts\n")
            return
        }
        var text = ""
        for row in rows {
            text += "\(row["title"] as? String ?? "")  (\(row["intent"] as? String ?? ""), \(row["systemImageName"] as? String ?? ""))\n"
            for phrase in row["phrases"] as? [[String: Any]] ?? [] { text += "  \"\(phrase["example"] as? String ?? "")\"\n" }
        }
        Console.standard.writeOut(text)
    }

    /// A value to show in a phrase: an enum's first case, or the first entity the host suggests or lists; nil when
    /// the host has none to give.
    static func example(for parameter: ParameterInfo, in registry: Registry) async throws -> String? {
        switch parameter.type {
        case .enumeration(let type):
            return type.cases.first?.displayName
        case .entity(let type):
            guard let query = registry.query(for: type) else { return nil }
            for source: FindRequest.Source in query.canEnumerate ? [.suggested, .all] : [.suggested] {
                let found = try await query.run(FindRequest.asReturned(source, limit: 1))
                if case .entity(let entity)? = found.first { return entity.display.title }
            }
            return nil
        default:
            return nil
        }
    }
}
