import Foundation

// The benchmarks of DESIGN.md §5, run side by side in one command so that the ratios hold on a noisy
// machine: each workload of the engine next to its anchors (SQLite, Lua 5.4, Python 3), medians, ratios
// and the goal. `scripts/benchmark` installs the anchors, builds in release and runs this; `--quick` runs a
// small smoke version for CI. Workloads live one group per file (Find, Calls, Startup, Compile) and are
// listed in Table.swift.

let options = Options.parse(Array(CommandLine.arguments.dropFirst()))
let anchors = Anchors.find()
let notes = Notes()

#if DEBUG
print("warning: a debug build; build with -c release for figures worth comparing")
#endif
let selected = workloads.filter { options.only.isEmpty || options.only.contains($0.name) }
if selected.isEmpty {
    print("auto-bench: no workload named \(options.only.sorted().joined(separator: ", ")) (see --list)")
    exit(2)
}

var rows: [ResultRow] = []
let started = ContinuousClock.now
for workload in selected {
    FileHandle.standardError.write(Data("auto-bench: \(workload.name)…\n".utf8))
    rows += try await workload.run(options, anchors, notes)
}

print("""
    auto benchmarks\(options.quick ? " (--quick: small sizes, verdicts are not the goal's)" : "") — median of \
    \(options.repetitions) runs (find), \(options.slowRepetitions) (1M loops and compile), \(options.starts) (start); \
    ratio = anchor median / engine median (above 1: the engine is faster)

    """)
print(renderTable(rows, quick: options.quick))
print("")
for line in notes.lines { print("- " + line) }
// By name, not path: the run is pasted into docs/PERFORMANCE.md, which names no path of a machine.
func anchor(_ name: String, _ path: String?) -> String { path == nil ? "\(name) not installed" : name }
print("- anchors: \(anchor("sqlite3", anchors.sqlite3)), \(anchor("lua5.4", anchors.lua)), \(anchor("python3", anchors.python3)), "
    + "\(anchor("inotifywait", which("inotifywait"))); "
    + String(format: "whole run %.1f s", milliseconds(ContinuousClock.now - started) / 1000))
if !notes.mismatches.isEmpty {
    for mismatch in notes.mismatches { print("MISMATCH: " + mismatch) }
    exit(1)
}
