/// What changed between two schemas of a host (`HostSchema`), each change compatible or breaking for what people
/// wrote against the old one, as an API-breakage checker classifies a library's changes. Things are matched by
/// identifier, so a renamed intent is one intent whose title changed; the rename is compatible only when the new
/// version keeps the old title among its former ones, since that is what makes old scripts still compile.
package struct SchemaDiff: Sendable {
    package struct Change: Sendable, Equatable, CustomStringConvertible {
        package let isBreaking: Bool
        package let message: String
        package var description: String { (isBreaking ? "breaking: " : "compatible: ") + message }
    }

    package private(set) var changes: [Change] = []
    package var isBreaking: Bool { changes.contains(where: \.isBreaking) }

    package init(from old: HostSchema, to new: HostSchema) {
        compareIntents(old.intents, new.intents)
        compareEntities(old.entities, new.entities)
        compareEnums(old.enums, new.enums)
        compareShortcuts(old.shortcuts, new.shortcuts)
    }

    mutating func breaking(_ message: String) { changes.append(Change(isBreaking: true, message: message)) }
    mutating func compatible(_ message: String) { changes.append(Change(isBreaking: false, message: message)) }

    /// A title as scripts call it (`IntentDescriptor.name(of:)`): the one rule for comparing titles.
    static func name(_ title: String) -> String { IntentDescriptor.name(of: title) }

    mutating func compareIntents(_ old: [HostSchema.Intent], _ new: [HostSchema.Intent]) {
        for before in old {
            // The same Swift type; else one that took the title over as a former one (the type itself was renamed).
            guard let after = new.first(where: { $0.id == before.id })
                ?? new.first(where: { $0.formerTitles.map(Self.name).contains(Self.name(before.title)) }) else {
                breaking("intent '\(Self.name(before.title))' was removed")
                continue
            }
            let name = Self.name(after.title)
            if Self.name(before.title) != name {
                if after.formerTitles.map(Self.name).contains(Self.name(before.title)) {
                    compatible("intent '\(Self.name(before.title))' is now '\(name)', with the old title kept as a former one")
                } else {
                    breaking("intent '\(Self.name(before.title))' is now '\(name)' and the old title is not among its former titles")
                }
            }
            if before.deprecated == nil, let message = after.deprecated {
                compatible("intent '\(name)' is deprecated: \(message)")
            }
            if before.result != after.result { breaking("intent '\(name)' returns \(after.result), not \(before.result)") }
            compareParameters(before.parameters, after.parameters, of: name)
        }
        for after in new where !old.contains(where: { $0.id == after.id })
            && !after.formerTitles.contains(where: { title in old.contains { Self.name($0.title) == Self.name(title) } }) {
            compatible("intent '\(Self.name(after.title))' was added")
        }
    }

    mutating func compareParameters(_ old: [HostSchema.Parameter], _ new: [HostSchema.Parameter], of intent: String) {
        for before in old {
            guard let after = new.first(where: { $0.id == before.id }) ?? new.first(where: { $0.formerNames.contains(before.name) }) else {
                breaking("parameter '\(before.name)' of '\(intent)' was removed")
                continue
            }
            if before.name != after.name {
                if after.formerNames.contains(before.name) {
                    compatible("parameter '\(before.name)' of '\(intent)' is now '\(after.name)', with the old name kept as a former one")
                } else {
                    breaking("parameter '\(before.name)' of '\(intent)' is now '\(after.name)' and the old name is not among its former names")
                }
            }
            if before.type != after.type { breaking("parameter '\(after.name)' of '\(intent)' takes \(after.type), not \(before.type)") }
            if !before.required && after.required { breaking("parameter '\(after.name)' of '\(intent)' became required") }
        }
        for after in new where !old.contains(where: { $0.id == after.id || after.formerNames.contains($0.name) }) {
            if after.required {
                breaking("intent '\(intent)' has a new required parameter '\(after.name)'")
            } else {
                compatible("intent '\(intent)' has a new optional parameter '\(after.name)'")
            }
        }
    }

    mutating func compareEntities(_ old: [HostSchema.Entity], _ new: [HostSchema.Entity]) {
        for before in old {
            guard let after = new.first(where: { $0.id == before.id }) else {
                breaking("entity type \(before.id) was removed")
                continue
            }
            if before.singular != after.singular || before.plural != after.plural {
                breaking("entity type \(before.id) is now called '\(after.singular)'/'\(after.plural)', not '\(before.singular)'/'\(before.plural)'")
            }
            for property in before.properties {
                guard let now = after.properties.first(where: { $0.name == property.name }) else {
                    if let renamed = after.properties.first(where: { $0.formerNames?.contains(property.name) == true }) {
                        compatible("property '\(property.name)' of \(before.id) is now '\(renamed.name)', with the old name kept as a former one")
                    } else {
                        breaking("property '\(property.name)' of \(before.id) was removed")
                    }
                    continue
                }
                if now.type != property.type { breaking("property '\(property.name)' of \(before.id) is \(now.type), not \(property.type)") }
            }
            for property in after.properties where !before.properties.contains(where: { $0.name == property.name || property.formerNames?.contains($0.name) == true }) {
                compatible("\(before.id) has a new property '\(property.name)'")
            }
        }
        for after in new where !old.contains(where: { $0.id == after.id }) { compatible("entity type \(after.id) was added") }
    }

    mutating func compareEnums(_ old: [HostSchema.Enum], _ new: [HostSchema.Enum]) {
        for before in old {
            guard let after = new.first(where: { $0.id == before.id }) else {
                breaking("enum \(before.id) was removed")
                continue
            }
            for item in before.cases where !after.cases.contains(where: { $0.id == item.id }) {
                if let renamed = after.cases.first(where: { $0.formerNames?.contains(item.id) == true }) {
                    compatible("case '\(item.id)' of \(before.id) is now '\(renamed.id)', with the old name kept as a former one")
                } else {
                    breaking("case '\(item.id)' of \(before.id) was removed")
                }
            }
            for item in after.cases where !before.cases.contains(where: { $0.id == item.id || item.formerNames?.contains($0.id) == true }) {
                compatible("\(before.id) has a new case '\(item.id)'")
            }
        }
        for after in new where !old.contains(where: { $0.id == after.id }) { compatible("enum \(after.id) was added") }
    }

    /// A phrase people say stops working when it goes or changes: breaking; a new one is compatible.
    mutating func compareShortcuts(_ old: [HostSchema.Shortcut], _ new: [HostSchema.Shortcut]) {
        for before in old {
            let after = new.first { $0.intent == before.intent }?.phrases ?? []
            for phrase in before.phrases where !after.contains(phrase) {
                breaking("the phrase \"\(phrase)\" of \(before.intent)'s App Shortcut is gone")
            }
        }
        for after in new {
            let before = old.first { $0.intent == after.intent }?.phrases ?? []
            for phrase in after.phrases where !before.contains(phrase) {
                compatible("the phrase \"\(phrase)\" of \(after.intent)'s App Shortcut was added")
            }
        }
    }
}
