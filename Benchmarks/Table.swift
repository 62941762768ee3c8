import Foundation

/// A named workload: what `--only` and `--list` know it by, and what it measures. Add later workloads here.
struct Workload: Sendable {
    let name: String
    let summary: String
    let run: @Sendable (Options, Anchors, Notes) async throws -> [ResultRow]
}

let workloads: [Workload] = [
    Workload(name: "find", summary: "find books where author == X sort by published desc limit 3, 1M entities", run: findWorkload),
    Workload(name: "group", summary: "count by author of all books, top 3 by count, 1M entities", run: groupWorkload),
    Workload(name: "calls", summary: "1M calls of an intent with two named parameters", run: callsWorkload),
    Workload(name: "loop", summary: "1M iterations of set x = x + 1", run: loopWorkload),
    Workload(name: "start", summary: "start, run show 1, exit", run: startWorkload),
    Workload(name: "repl", summary: "REPL ready for input; completion p99 with 1,000 intents", run: replWorkload),
    Workload(name: "compile", summary: "parse and check a 100,000-line script", run: compileWorkload),
    Workload(name: "schedule", summary: "next fires of 10,000 automations and of a cron expression; fire latency; the idle daemon",
             run: scheduleWorkload),
    Workload(name: "files", summary: "the ten largest .txt files of a 100,000-file tree, beside find and os.walk", run: filesWorkload),
    Workload(name: "fileevents", summary: "file trigger latency beside inotifywait; bursts of 10,000 files; a recursive watch of 10,000 folders",
             run: fileEventsWorkload),
    Workload(name: "cluster", summary: "3 daemons on PostgreSQL: durable fires/s, 10,000 fires at one instant, fire latency, failover and handover",
             run: clusterWorkload),
    Workload(name: "mcp", summary: "a tools/call of 1.6, 6.4 and 20 MB to auto mcp through a pipe, until its answer is read", run: mcpWorkload),
    Workload(name: "lsp", summary: "auto lsp on a 1,000-line script: an edit to its diagnostics; completion p99", run: lspWorkload),
]

/// The table as Markdown, columns padded so that it also reads in a terminal.
func renderTable(_ rows: [ResultRow], quick: Bool) -> String {
    let header = ["workload", "engine", "anchor", "anchor median", "ratio", "goal (DESIGN §5)", "verdict"]
    var lines: [[String]] = []
    for row in rows {
        let engineText = row.engineText ?? row.engine.text
        let verdict: String
        if let limit = row.goal.limit, let engine = row.engine.milliseconds {
            let met = (row.goal.atLeast ? engine >= limit : engine <= limit) ? "met" : "missed"
            verdict = row.scaled ? "n/a at this size" : quick ? "\(met) (quick run)" : met
        } else if row.goal.limit != nil {
            verdict = "–"
        } else {
            verdict = ""
        }
        let anchors = row.anchors.isEmpty ? [(name: "–", timing: Timing.failed(""))] : row.anchors
        for (index, anchor) in anchors.enumerated() {
            var ratio = ""
            if let engine = row.engine.milliseconds, let value = anchor.timing.milliseconds, engine > 0 {
                ratio = String(format: "%.2fx", value / engine)
            }
            let anchorText = anchor.name == "–" ? "" : anchor.timing.text
            lines.append(index == 0
                ? [row.workload, engineText, anchor.name, anchorText, ratio, row.goal.text, verdict]
                : ["", "", anchor.name, anchorText, ratio, "", ""])
        }
    }
    var widths = header.map(\.count)
    for line in lines { for (column, cell) in line.enumerated() { widths[column] = max(widths[column], cell.count) } }
    func format(_ cells: [String]) -> String {
        "| " + cells.enumerated().map { column, cell in cell.padding(toLength: widths[column], withPad: " ", startingAt: 0) }
            .joined(separator: " | ") + " |"
    }
    let rule = "|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|"
    return ([format(header), rule] + lines.map(format)).joined(separator: "\n")
}
