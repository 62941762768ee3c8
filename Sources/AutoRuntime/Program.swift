/// What a run executes: a script's graph and the graphs of every shortcut it can call (its own and the
/// prelude's). A shortcut's descriptor names its graph by index (`IntentDescriptor.Implementation.shortcut`), so
/// the program owns the graphs and nothing is filled in after compiling.
public final class Program: Sendable {
    public let main: ActionGraph
    /// By shortcut index.
    public let shortcuts: [ActionGraph]

    public init(main: ActionGraph, shortcuts: [ActionGraph]) {
        self.main = main
        self.shortcuts = shortcuts
    }
}
