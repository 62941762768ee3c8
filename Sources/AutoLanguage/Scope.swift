import AutoIntents

/// The variables of one script or shortcut body. Variables live for the whole body (as in Shortcuts and
/// shell scripts): a `set` inside an `if` is visible after it. Each gets a slot in the frame.
struct Scope {
    struct Variable {
        let slot: Int
        var type: ValueType
    }
    private(set) var slotNames: [String] = []
    private var variables: [String: Variable] = [:]
    /// The type of `it`: the result of the previous statement.
    var itType: ValueType = .null
    /// The statement that last made `it` something else; nil while it is what the block started with (an
    /// automation's trigger value) or a list's element (inside `filter where`, `each`).
    var itSetBy: Span?

    func lookup(_ name: String) -> Variable? { variables[name] }

    var names: [String] { Array(variables.keys).sorted() }

    /// Every variable with its slot and type, in slot order.
    var declared: [(name: String, slot: Int, type: ValueType)] {
        slotNames.enumerated().map { slot, name in (name, slot, variables[name]?.type ?? .any) }
    }

    /// Declares `name` or widens its type; returns its slot.
    mutating func assign(_ name: String, type: ValueType) -> Int {
        if var existing = variables[name] {
            existing.type = existing.type == type ? type : existing.type.joined(with: type)
            variables[name] = existing
            return existing.slot
        }
        let slot = slotNames.count
        slotNames.append(name)
        variables[name] = Variable(slot: slot, type: type)
        return slot
    }
}
