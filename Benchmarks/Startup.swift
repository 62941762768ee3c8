import Foundation

// Workload 4: start a process, run `show 1`, exit. Wall time of posix_spawn to waitpid, output to /dev/null.

@Sendable func startWorkload(_ options: Options, _ anchors: Anchors, _ notes: Notes) async throws -> [ResultRow] {
    // The release `auto` binary sits next to this one in .build/release.
    let auto = autoBinary

    let sides: [(executable: String?, arguments: [String], program: String)] = [
        (auto, ["-e", "show 1"], "auto (build it with swift build -c release --product auto)"),
        (startFloorBinary, [], "start-floor (build it with swift build -c release --static-swift-stdlib --product start-floor)"),
        (anchors.lua, ["-e", "print(1)"], "lua5.4"),
        (anchors.python3, ["-c", "print(1)"], "python3"),
        ("/bin/true", [], "/bin/true"),
    ]
    // One untimed start each (to warm the page cache), then one start of each in turn: the floor and auto a minute
    // apart could compare a fast spell of this machine with a slow one.
    for side in sides { _ = spawnTimed(side.executable, side.arguments, side.program) }
    let timings = try await alternating(rounds: options.starts, sides.map { side in { spawnTimed(side.executable, side.arguments, side.program) } })
    let (engine, swift, lua, python, floor) = (timings[0], timings[1], timings[2], timings[3], timings[4])
    notes.add("start: median wall time of \(options.starts) runs each, the programs in turns, from posix_spawn to waitpid, "
        + "output to /dev/null, after one untimed run; `auto -e 'show 1'` (the release build), `lua5.4 -e 'print(1)'`, `python3 -c 'print(1)'` "
        + "(python3 resolved past any pyenv shim), and `start-floor`, a Swift program that imports Foundation and prints "
        + "one line, built and linked as `auto` is (Benchmarks/StartFloor): issue 35 asks for `auto` within 0.3 ms of it. "
        + "Starting /bin/true, the floor of any process here, takes \(floor.text).")
    return [ResultRow(workload: "start, run show 1, exit", engine: engine,
                      anchors: [("Swift + Foundation, static", swift), ("Lua 5.4 (lua5.4 -e)", lua), ("Python 3 (python3 -c)", python)],
                      goal: .atMost(2, "≤ 2 ms (issue 35)"))]
}
