import AutoIntents

/// What a run executes: a script's graph and the graphs of every shortcut it can call (its own and the
/// prelude's). A shortcut's descriptor names its graph by index (`IntentDescriptor.Implementation.shortcut`), so
/// the program owns the graphs and nothing is filled in after compiling.
package final class Program: Sendable {
    package let main: ActionGraph
    /// By shortcut index.
    package let shortcuts: [ActionGraph]

    package init(main: ActionGraph, shortcuts: [ActionGraph]) {
        self.main = main
        self.shortcuts = shortcuts
    }

    /// What calling `intent` may touch outside the engine: a native intent's declared capabilities; a shortcut of this
    /// program's, those of every intent its body calls, through the shortcuts it calls (a shortcut declares none).
    package func capabilities(of intent: IntentDescriptor) -> Set<Capability> {
        var visited: Set<Int> = []
        func collect(_ intent: IntentDescriptor) -> Set<Capability> {
            guard case .shortcut(let index) = intent.implementation else { return intent.capabilities }
            guard shortcuts.indices.contains(index), visited.insert(index).inserted else { return [] }
            var needed: Set<Capability> = []
            for node in shortcuts[index].allNodes {
                if case .action(let call) = node.kind { needed.formUnion(collect(call.intent)) }
            }
            return needed
        }
        return collect(intent)
    }
}
