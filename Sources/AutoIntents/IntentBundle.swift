/// Intents a host registers together, whose names are known before they are registered: a host can then leave them
/// out of the registry of a run whose script names none of them (`ScriptHost(registry:adding:prelude:)`), since making
/// each intent's descriptor at start-up is most of what a short run of `auto` spends before its first statement.
/// `AutoHost.main` adds the standard library's intents so (`StandardLibrary.intents`).
package struct IntentBundle: Sendable {
    /// One intent of a bundle: its title and how it is registered.
    @usableFromInline
    package struct Entry: Sendable {
        /// The intent's title, read without registering it.
        package let title: String
        /// The titles it had before: a script calling it by one needs it registered too.
        package let formerTitles: [String]
        /// The intent's Swift type, for messages about it.
        let type: any AppIntent.Type
        let register: @Sendable (inout Registry) throws(RegistrationError) -> Void

        /// Inlinable, so that `register` is specialised for `I` in the host's module, as `Registry.register` is.
        @inlinable
        package init<I: AppIntent>(_ type: I.Type) {
            self.init(title: I.title, formerTitles: I.formerTitles, type: I.self) { (registry: inout Registry) throws(RegistrationError) in
                try registry.register(I.self)
            }
        }

        @usableFromInline
        init(title: String, formerTitles: [String], type: any AppIntent.Type,
             register: @escaping @Sendable (inout Registry) throws(RegistrationError) -> Void) {
            self.title = title
            self.formerTitles = formerTitles
            self.type = type
            self.register = register
        }

        /// The intent's Swift type, module first (`AutoStdlib.Notify`). Made only when a message needs it:
        /// `String(reflecting:)` casts to the printing protocols, and each cast scanned the binary's conformances,
        /// which for the standard library's 23 intents was a third of `auto -e 'show 1'`.
        package var swiftType: String { String(reflecting: type) }
    }

    /// The intents, in the order they are registered.
    package let entries: [Entry]

    /// A bundle of these intent types, registered in this order.
    /// Inlinable, so that each is registered by code specialised for it in the host's module.
    @inlinable
    package init<each I: AppIntent>(_ types: repeat (each I).Type) {
        var entries: [Entry] = []
        for type in repeat each types { entries.append(Entry(type)) }
        self.init(entries)
    }

    @usableFromInline
    package init(_ entries: [Entry]) {
        self.entries = entries
    }

    /// The first word of each intent's name and former names, in lower case: a call of one names it.
    package var firstWords: [String] {
        entries.flatMap { entry in
            ([entry.title] + entry.formerTitles).map { title in
                String(IntentDescriptor.name(of: title).prefix { $0 != " " })
            }
        }
    }

    /// Registers every intent, in order, as `Registry.register(_:)` does each.
    package func register(into registry: inout Registry) throws(RegistrationError) {
        for entry in entries { try entry.register(&registry) }
    }
}
