import Foundation

/// The graph as Graphviz DOT (`auto graph script.auto | dot -Tsvg > g.svg`): actions are boxes labelled
/// with their filled-in summary, control steps are diamonds with dashed edges into their blocks, and data
/// edges are labelled with the variable, pipe or property they carry. An automation is a cluster whose entry is
/// its trigger.
extension ActionGraph {
    package func dot(shortcuts: [(name: String, graph: ActionGraph)] = [],
                    automations: [(name: String, trigger: String, graph: ActionGraph)] = []) -> String {
        var lines = ["digraph \"\(Self.escape(name))\" {", "  rankdir=TB;", "  node [fontname=\"Helvetica\", fontsize=11];",
                     "  edge [fontname=\"Helvetica\", fontsize=9];"]
        appendNodes(prefix: "n", to: &lines, indent: "  ")
        for (index, shortcut) in shortcuts.enumerated() {
            lines.append("  subgraph \"cluster_\(index)\" {")
            lines.append("    label=\"shortcut \(Self.escape(shortcut.name))\"; style=rounded; color=gray;")
            shortcut.graph.appendNodes(prefix: "s\(index)_", to: &lines, indent: "    ")
            lines.append("  }")
        }
        for (index, automation) in automations.enumerated() {
            let prefix = "a\(index)_"
            lines.append("  subgraph \"cluster_automation_\(index)\" {")
            lines.append("    label=\"automation \(Self.escape(automation.name))\"; style=rounded; color=\"#b06000\";")
            lines.append("    \(prefix)trigger [label=\"\(Self.escape(automation.trigger))\", shape=cds, style=filled, fillcolor=\"#fef7e0\"];")
            automation.graph.appendNodes(prefix: prefix, to: &lines, indent: "    ")
            if let first = automation.graph.body.first { lines.append("    \(prefix)trigger -> \(prefix)\(first.id) [label=\"fires\"];") }
            lines.append("  }")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    func appendNodes(prefix: String, to lines: inout [String], indent: String) {
        for node in allNodes {
            let shape: String
            switch node.kind {
            case .action: shape = "box, style=\"rounded,filled\", fillcolor=\"#e8f0fe\""
            case .find: shape = "box, style=\"rounded,filled\", fillcolor=\"#e6f4ea\""
            case .branch, .forEach, .repeatTimes, .whileLoop, .attempt: shape = "diamond"
            case .stop, .returnValue, .breakLoop, .continueLoop: shape = "oval"
            case .assign, .append, .evaluate: shape = "box"
            }
            lines.append("\(indent)\(prefix)\(node.id) [label=\"\(Self.escape(node.label))\\n\(node.location.line):\(node.location.column)\", shape=\(shape)];")
        }
        for node in allNodes {
            let names: [String]
            switch node.kind {
            case .branch(let branches, let otherwise):
                names = branches.indices.map { $0 == 0 ? "then" : "else if" }.map { $0 } + (otherwise == nil ? [] : ["else"])
            case .forEach: names = ["each"]
            case .repeatTimes: names = ["repeat"]
            case .whileLoop: names = ["condition", "while"]
            case .attempt: names = ["try", "otherwise"]
            default: names = []
            }
            for (block, name) in zip(node.blocks, names) {
                guard let first = block.first else { continue }
                lines.append("\(indent)\(prefix)\(node.id) -> \(prefix)\(first.id) [style=dashed, label=\"\(name)\"];")
            }
        }
        for edge in edges {
            lines.append("\(indent)\(prefix)\(edge.from) -> \(prefix)\(edge.to) [label=\"\(Self.escape(edge.label))\"];")
        }
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    }
}
